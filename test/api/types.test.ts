// What the types promise, checked by the typecheck that `npm test` runs first: each
// `@ts-expect-error` fails the typecheck if the line below it ever compiles.
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'

describe('types', () => {
  it('an empty world has no handles to misuse', () => {
    const sim = createSimulator({ world: 'empty' })
    // @ts-expect-error: an empty world documents no management key
    const key: unknown = sim.world.managementKey
    expect(key).toBeUndefined()
    expect(Object.keys(sim.world)).toEqual([])
  })

  it('the default world has its handles, also as ReturnType<typeof createSimulator>', () => {
    const sim: ReturnType<typeof createSimulator> = createSimulator()
    const key: string = sim.world.managementKey
    expect(key).toMatch(/^sk-or-v1-/)
  })

  it('a world not known until run time may be empty', () => {
    const world = process.env['NO_SUCH_VARIABLE'] === undefined ? 'empty' : 'default'
    const sim = createSimulator({ world: world as 'default' | 'empty' })
    // @ts-expect-error: it may be the empty world
    expect(sim.world.managementKey).toBeUndefined()
  })
})
