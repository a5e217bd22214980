// model-access-sim/vitest: a concurrent test that takes neither `sim` nor `network`, started right
// after one that took `sim`. In a file of its own: what an earlier test left in the worker's async
// context would hide the defect this pins down (the neighbour's simulator answering the request).
import { describe, expect, test, vi } from 'vitest'
import { simTest } from '../../src/vitest/index.js'

const BASE = 'https://openrouter.ai/api/v1'

describe('a concurrent test that takes nothing, beside one that took sim', () => {
  // The neighbour entered its own simulator when it read `sim`; that must not carry over to the
  // test vitest starts next, whose request cannot be told apart and so fails with the routing message.
  const seen: { status?: number | string; logged?: string; neighbour?: string[] } = {}
  let neighbourOpen: () => void = () => {}
  const neighbourDone = new Promise<void>((resolve) => {
    neighbourOpen = resolve
  })

  simTest.concurrent('the neighbour takes sim and waits for the other request', async ({ sim }) => {
    sim.faults.serviceUnavailable({ operation: 'listVideoModels' })
    await neighbourDone
    seen.neighbour = sim.journal.list().map((e) => e.path)
  })

  simTest.concurrent.fails('the test that takes nothing', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      seen.status = (await fetch(`${BASE}/videos/models`)).status
    } catch {
      seen.status = 'network error'
    } finally {
      seen.logged = errors.mock.calls.map((call) => String(call[0])).join('\n')
      errors.mockRestore()
      neighbourOpen()
    }
  })

  test('its request failed with the routing message and never reached the neighbour', () => {
    expect(seen.status).toBe('network error')
    expect(seen.logged).toBe(
      `model-access-sim/vitest: GET ${BASE}/videos/models: 2 simulator tests are running concurrently and this request came from one that ` +
        'does not take `sim` or `network` in its parameters, so it cannot be told which simulator to reach: ' +
        'write the test as simTest.concurrent(name, async ({ sim }) => ...)',
    )
    expect(seen.neighbour).toEqual([])
  })
})
