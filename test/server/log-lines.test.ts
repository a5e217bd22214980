// What startServer tells onRequest, in process: a streamed answer's line once its last frame is
// written, a held request's line (status 0) when its client gives up, the time it took to one
// decimal, and the 404 outside the API naming where the API and the control API live.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { type RequestLogEntry, type SimulatorServer, startServer } from '../../src/server/index.js'

const sim = createSimulator()
const log: RequestLogEntry[] = []
let server: SimulatorServer
const origin = (): string => server.url.slice(0, -'/api/v1'.length)

beforeAll(async () => {
  server = await startServer(sim, { port: 0, onRequest: (entry) => log.push(entry) })
})
afterAll(() => server.close())

/** The log lines written by `act`, once the server has logged `count` of them. */
async function linesOf(count: number, act: () => Promise<unknown>): Promise<RequestLogEntry[]> {
  log.length = 0
  await act()
  for (let waited = 0; log.length < count && waited < 5_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10))
  return [...log]
}

describe('the log line of', () => {
  it('a streamed chat completion: its status, once the stream is written', async () => {
    const lines = await linesOf(1, async () => {
      const res = await fetch(`${server.url}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sim.world.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: sim.world.models.paid, stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
      })
      expect(res.status).toBe(200)
      expect(await res.text()).toContain('data: [DONE]')
    })
    expect(lines.map(({ method, path, status }) => ({ method, path, status }))).toEqual([{ method: 'POST', path: '/api/v1/chat/completions', status: 200 }])
    expect(lines[0]?.operation).not.toBeNull()
  })

  it('a request held by a fault, whose client gives up: status 0', async () => {
    const fault = sim.faults.add({ operation: 'listVideoModels', respond: 'never' })
    try {
      const lines = await linesOf(1, () => fetch(`${server.url}/videos/models`, { signal: AbortSignal.timeout(100) }).catch((error: unknown) => error))
      expect(lines.map(({ path, status }) => ({ path, status }))).toEqual([{ path: '/api/v1/videos/models', status: 0 }])
    } finally {
      fault.remove()
    }
  })

  it('any request: its time in milliseconds to one decimal, from its arrival', async () => {
    const [line] = await linesOf(1, () => fetch(`${server.url}/videos/models`))
    expect(line?.ms).toBeGreaterThanOrEqual(0)
    expect(line?.ms).toBeLessThan(5_000)
    expect(Math.round((line?.ms ?? 0) * 10)).toBeCloseTo((line?.ms ?? 0) * 10, 6)
    expect(Date.now() - Date.parse(line?.time ?? '')).toBeLessThan(5_000)
  })
})

it('a path outside the API is a 404 naming where the API and the control API are', async () => {
  const res = await fetch(`${origin()}/nowhere`)
  expect(res.status).toBe(404)
  expect(((await res.json()) as { error: { message: string } }).error.message).toBe('GET /nowhere is outside the simulated API; it serves /api/v1 and /__sim')
})

it('serves a simulator object that is not createSimulator’s own (a wrapper), through its public handle', async () => {
  const inner = createSimulator()
  const wrapper = Object.create(inner) as typeof inner
  const served = await startServer(wrapper, { port: 0, control: false })
  try {
    const res = await fetch(`${served.url}/keys`, { headers: { authorization: `Bearer ${inner.world.managementKey}` } })
    expect(res.status).toBe(200)
    expect(inner.journal.list().map((e) => e.path)).toEqual(['/keys'])
  } finally {
    await served.close()
  }
})
