// A bounded load test over loopback: 5,000 requests on 32 concurrent keep-alive connections, every
// one answered, each body byte-identical to what sim.handle gives for the same request.
import { Agent, request as httpRequest } from 'node:http'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { toWire } from '../../src/core/http.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'

const REQUESTS = 5_000
const CONNECTIONS = 32

const sim = createSimulator({ journalLimit: 0 })
const twin = createSimulator({ journalLimit: 0 })
const world = sim.world
let server: SimulatorServer

beforeAll(async () => {
  server = await startServer(sim, { port: 0 })
})
afterAll(() => server.close())

interface Planned {
  path: string
  query: string
  authorization: string | null
}

/** A mix of every operation, successes and errors, anonymous and authenticated. */
function plan(): Planned[] {
  const keys = sim.keys.list().filter((key) => key.workspace_id === world.workspaces.default)
  const models = sim.models.list().map((model) => model.id)
  const management = `Bearer ${world.managementKey}`
  const templates: ((i: number) => Planned)[] = [
    () => ({ path: '/keys', query: 'include_disabled=true', authorization: management }),
    (i) => ({ path: '/keys', query: `offset=${i % 3}`, authorization: management }),
    (i) => ({ path: `/keys/${keys[i % keys.length]?.hash}`, query: '', authorization: management }),
    (i) => {
      const [author, slug] = (models[i % models.length] as string).split('/') as [string, string]
      return { path: `/models/${author}/${encodeURIComponent(slug)}/endpoints`, query: '', authorization: i % 2 === 0 ? null : `Bearer ${world.apiKey}` }
    },
    () => ({ path: `/files/${world.files.report}/content`, query: '', authorization: management }),
    () => ({ path: '/workspaces/production', query: '', authorization: management }),
    () => ({ path: '/videos/models', query: '', authorization: null }),
    () => ({ path: '/keys', query: '', authorization: `Bearer ${world.apiKey}` }),
    () => ({ path: '/keys', query: 'offset=-1', authorization: management }),
    () => ({ path: '/workspaces/nowhere', query: '', authorization: management }),
    () => ({ path: '/keys', query: '', authorization: 'Bearer sk-or-v1-unknown' }),
  ]
  return Array.from({ length: REQUESTS }, (_, i) => (templates[i % templates.length] as (i: number) => Planned)(i))
}

function send(agent: Agent, planned: Planned): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const url = `${server.url}${planned.path}${planned.query ? `?${planned.query}` : ''}`
    const req = httpRequest(url, { agent, headers: planned.authorization === null ? {} : { authorization: planned.authorization } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.setTimeout(10_000, () => req.destroy(new Error(`timed out: ${url}`)))
    req.on('error', reject)
    req.end()
  })
}

it(`answers ${REQUESTS} requests over ${CONNECTIONS} connections without an error, each as sim.handle does`, async () => {
  const requests = plan()
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  const sockets = new Set<unknown>()
  agent.on('free', (socket) => sockets.add(socket))
  const errors: string[] = []
  const mismatches: string[] = []
  const statuses = new Map<number, number>()
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < requests.length) {
      const planned = requests[next++] as Planned
      try {
        const answer = await send(agent, planned)
        const expected = twin.handle({ method: 'GET', ...planned })
        const wire = toWire(expected as Parameters<typeof toWire>[0], 'GET')
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        if (answer.status !== wire.status || !answer.body.equals(Buffer.from(wire.body ?? ''))) mismatches.push(`${planned.path}?${planned.query}`)
      } catch (error) {
        errors.push(String(error))
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: CONNECTIONS }, worker))
  } finally {
    agent.destroy()
  }
  expect(errors).toEqual([])
  expect(mismatches).toEqual([])
  expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(REQUESTS)
  expect([...statuses.keys()].sort()).toEqual([200, 400, 401, 403, 404])
  // Keep-alive at work: far fewer sockets than requests, and more than one in parallel.
  expect(sockets.size).toBeGreaterThan(1)
  expect(sockets.size).toBeLessThanOrEqual(CONNECTIONS)
}, 60_000)
