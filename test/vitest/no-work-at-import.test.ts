// model-access-sim/vitest does no work at import (DESIGN's "no work at import", decisions/0068):
// `simTest` takes no options, so nothing is checked by making a simulator, and the default world
// is loaded by the first test that runs, not by the import. Options given are still checked where
// the test file is read.
import { describe, expect, it, vi } from 'vitest'

const made = vi.hoisted(() => ({ count: 0 }))
vi.mock('../../src/core/simulator.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/core/simulator.js')>()
  return {
    ...original,
    createSimulator: (...args: Parameters<typeof original.createSimulator>) => {
      made.count++
      return original.createSimulator(...args)
    },
  }
})

describe('model-access-sim/vitest at import', () => {
  it('makes no simulator to make simTest', async () => {
    const { createSimTest, simTest } = await import('../../src/vitest/index.js')
    expect(typeof simTest).toBe('function')
    expect(made.count).toBe(0)
    // As a JavaScript caller may write it: an option spelt out as undefined is no setting.
    createSimTest({ baseUrl: 'http://sim.test/api/v1', seed: undefined } as never)
    expect(made.count).toBe(0)
  })

  it('still checks the simulator options given, where the test file is read', async () => {
    const { createSimTest } = await import('../../src/vitest/index.js')
    const before = made.count
    createSimTest({ world: 'empty' })
    expect(made.count).toBe(before + 1)
    expect(() => createSimTest({ seed: 1.5 })).toThrow(/seed/)
  })
})
