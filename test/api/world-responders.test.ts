// Responders in world files (decisions/0027): the JSON form of POST /__sim/responders, checked with
// errors that name their path, added when the world loads and again on reset, left out of exports.
import { describe, expect, it } from 'vitest'
import { type SimResponse, type WorldSpec, WORLD_FORMAT, createSimulator, validateWorld } from '../../src/index.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'
import { simulatorErrorOf } from '../support/server.js'

const world = (responders: unknown[]): WorldSpec<{ key: string }> => ({
  format: WORLD_FORMAT,
  users: [{ id: 'user_acme', name: 'Acme', credits: { total: 100 } }],
  keys: [{ userId: 'user_acme', secret: 'sk-or-v1-acme' }],
  models: [{ id: 'acme/chat-1', endpoints: [{ provider_name: 'Alpha', pricing: { prompt: '0.000001', completion: '0.000002' } }] }],
  responders: responders as NonNullable<WorldSpec['responders']>,
  handles: { key: 'sk-or-v1-acme' },
})

const ask = (sim: { handle(request: unknown): SimResponse }, text: string) =>
  sim.handle({
    method: 'POST',
    path: '/chat/completions',
    authorization: 'Bearer sk-or-v1-acme',
    body: JSON.stringify({ model: 'acme/chat-1', messages: [{ role: 'user', content: text }] }),
  }) as SimResponse & { body: any }

describe('responders in world files', () => {
  it('answer as rules added through the control API would, regular expressions written as { regex, flags }', () => {
    const sim = createSimulator({
      world: world([
        { name: 'refunds', match: { lastUserMessage: { regex: '^where.*refund', flags: 'i' } }, reply: { content: 'Refunds take 5 days.' } },
        { name: 'outage', match: { lastUserMessage: 'outage' }, error: { status: 503, message: 'Down for maintenance' }, times: 1 },
      ]),
    })
    expect(ask(sim, 'WHERE is my refund?').body.choices[0].message.content).toBe('Refunds take 5 days.')
    const down = ask(sim, 'Is there an outage?')
    expect([down.status, down.body.error.message]).toEqual([503, 'Down for maintenance'])
    expect(ask(sim, 'Is there an outage?').status).toBe(200)
    expect(sim.inference.responders.list()).toEqual([
      { name: 'outage', used: 1, remaining: 0 },
      { name: 'refunds', used: 1, remaining: null },
    ])
  })

  it('are added in order, so a later rule is newer and tried first', () => {
    const sim = createSimulator({ world: world([{ reply: { content: 'first' } }, { reply: { content: 'second' } }]) })
    expect(ask(sim, 'Hi').body.choices[0].message.content).toBe('second')
    expect(sim.inference.responders.list().map((r) => r.name)).toEqual(['responder-2', 'responder-1'])
  })

  it('come back on reset, their uses counted afresh, while rules the test added go', () => {
    const sim = createSimulator({ world: world([{ name: 'once', reply: { content: 'scripted' }, times: 1 }]) })
    sim.inference.respond({ name: 'mine', match: { lastUserMessage: 'mine' }, reply: { content: 'added' } })
    expect(ask(sim, 'Hi').body.choices[0].message.content).toBe('scripted')
    expect(ask(sim, 'Hi').body.choices[0].message.content).not.toBe('scripted')
    sim.reset()
    expect(sim.inference.responders.list()).toEqual([{ name: 'once', used: 0, remaining: 1 }])
    expect(ask(sim, 'Hi').body.choices[0].message.content).toBe('scripted')
  })

  it('stay out of snapshots, as rules added in a test do', () => {
    const sim = createSimulator({ world: world([{ name: 'once', reply: { content: 'scripted' }, times: 1 }]) })
    const saved = sim.snapshot()
    ask(sim, 'Hi')
    sim.restore(saved)
    expect(sim.inference.responders.list()).toEqual([{ name: 'once', used: 1, remaining: 0 }])
  })

  it('are refused with the path of the field at fault, and validateWorld lists every bad one', () => {
    const cases: [unknown[], string][] = [
      [[{ reply: { content: 1 } }], 'world.responders[0].reply.content'],
      [[{ reply: {} }, { match: { lastUserMessage: { regex: '(' } }, reply: {} }], 'world.responders[1].match.lastUserMessage.regex'],
      [[{ match: { lastUserMessage: { regex: 'a', flags: 'g' } }, reply: {} }], 'world.responders[0].match.lastUserMessage.flags'],
      [[{ match: { modle: 'x' }, reply: {} }], 'world.responders[0].match.modle'],
      [[{ reply: {}, error: { status: 500 } }], 'world.responders[0]'],
      [[{ error: { status: 200 } }], 'world.responders[0].error.status'],
      [[{ reply: {}, times: 0 }], 'world.responders[0].times'],
      [['reply'], 'world.responders[0]'],
    ]
    for (const [responders, path] of cases) {
      const error = simulatorErrorOf(() => createSimulator({ world: world(responders) }))
      expect(error.argument, JSON.stringify(responders)).toBe(path)
      expect(error.message).toContain(`Failed to load world: world.responders[`)
    }
    expect(simulatorErrorOf(() => createSimulator({ world: { ...world([]), responders: {} as never } })).argument).toBe('world.responders')
    const problems = validateWorld(world([{ reply: { content: 1 } }, { reply: {} }, { error: { status: 99 } }]))
    expect(problems.map((p) => p.path)).toEqual(['world.responders[0].reply.content', 'world.responders[2].error.status'])
    expect(problems[1]?.message).toMatch(/^"error\.status" must be an error status/)
    expect(validateWorld(world([{ reply: {} }]))).toEqual([])
  })

  it('are left out of exportWorld: they are the test harness, not the service state', () => {
    const sim = createSimulator({ world: world([{ reply: { content: 'scripted' } }]) })
    const exported = sim.exportWorld()
    expect(exported).not.toHaveProperty('responders')
    // Loading the export gives the same accounts and catalog, and no rules.
    expect(createSimulator({ world: exported }).inference.responders.list()).toEqual([])
  })

  it('load with the server, and POST /__sim/reset brings them back', async () => {
    const sim = createSimulator({ world: world([{ name: 'hello', reply: { content: 'Hello from the world file' } }]) })
    const server: SimulatorServer = await startServer(sim, { port: 0 })
    try {
      await fetch(`${server.controlUrl}/responders`, { method: 'DELETE' })
      expect(await (await fetch(`${server.controlUrl}/responders`)).json()).toEqual({ data: [] })
      expect((await fetch(`${server.controlUrl}/reset`, { method: 'POST' })).status).toBe(204)
      const answer = await fetch(`${server.url}/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-or-v1-acme', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'Hi' }] }),
      })
      expect(((await answer.json()) as any).choices[0].message.content).toBe('Hello from the world file')
    } finally {
      await server.close()
    }
  })
})
