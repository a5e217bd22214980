// Unknown fields of the simulation controls, journal filters and the simulator's own options are refused, as the
// store's are (decisions/0005): `sim.faults.add({ operaton: 'getKey', ... })` used to add a fault
// that answered every request, and `createSimulator({ rateLimt: ... })` made a simulator without a
// rate limit. Each error names the field's path and lists the known fields; nothing is added.
import { describe, expect, it } from 'vitest'
import { OPERATION_NAMES, type Simulator, createSimulator } from '../../src/index.js'
import { simulatorErrorOf } from '../support/server.js'

const RULE = 'operation, path, keyHash, provider, once, times, fromCall, probability, afterChunks, respond, name'
const PRESET = 'operation, path, keyHash, provider, once, times, fromCall, probability, afterChunks'
const RESPONSE = 'status, message, metadata, headers'
const LATENCY = 'operation, ms, real'
const RATE_LIMIT = 'requests, intervalMs'
const SIMULATOR = 'seed, now, world, rateLimit, journalLimit, journalBytes, clock, strictRequests, replies'

type Sim = Simulator<Record<string, unknown>>

/** Each case: what is typo'd, the call, the error's argument, and its whole message. */
const typos: [string, (sim: Sim, hash: string) => unknown, string, string][] = [
  [
    'sim.faults.add',
    (s) => s.faults.add({ operaton: 'getKey', respond: { status: 500 } } as never),
    'operaton',
    `Failed to add a fault: "operaton" is not a field of a fault rule (known fields: ${RULE}).`,
  ],
  [
    'sim.faults.add respond',
    (s) => s.faults.add({ respond: { status: 503, header: { 'retry-after': '5' } } } as never),
    'respond.header',
    `Failed to add a fault: "respond.header" is not a field of a fault response (known fields: ${RESPONSE}).`,
  ],
  [
    'sim.faults.add with a field with an empty name',
    (s) => s.faults.add({ respond: 'never', '': 1 } as never),
    'rule',
    `Failed to add a fault: "rule" has a field with an empty name, which is not a field of a fault rule (known fields: ${RULE}).`,
  ],
  [
    'sim.faults.providerDown',
    (s) => s.faults.providerDown({ from: 2 } as never),
    'from',
    `Failed to add the provider-down fault: "from" is not a field of the options of a preset fault (known fields: ${PRESET}).`,
  ],
  [
    'sim.faults.internalError with the status a preset sets itself',
    (s) => s.faults.internalError({ respond: { status: 502 } } as never),
    'respond',
    `Failed to add the internal-error fault: "respond" is not a field of the options of a preset fault (known fields: ${PRESET}).`,
  ],
  [
    'sim.faults.providerDown with retryAfterSeconds, which only serviceUnavailable takes',
    (s) => s.faults.providerDown({ retryAfterSeconds: 5 } as never),
    'retryAfterSeconds',
    `Failed to add the provider-down fault: "retryAfterSeconds" is not a field of the options of a preset fault (known fields: ${PRESET}).`,
  ],
  [
    'sim.faults.serviceUnavailable',
    (s) => s.faults.serviceUnavailable({ retryAfter: 5 } as never),
    'retryAfter',
    `Failed to add the service-unavailable fault: "retryAfter" is not a field of the options of a preset fault (known fields: ${PRESET}, retryAfterSeconds).`,
  ],
  [
    'sim.latency.set',
    (s) => s.latency.set({ operations: ['getKey'], ms: 100 } as never),
    'operations',
    `Failed to set latency: "operations" is not a field of a latency rule (known fields: ${LATENCY}).`,
  ],
  [
    'sim.latency.set with a field with an empty name',
    (s) => s.latency.set({ ms: 5, '': 1 } as never),
    'rule',
    `Failed to set latency: "rule" has a field with an empty name, which is not a field of a latency rule (known fields: ${LATENCY}).`,
  ],
  [
    'sim.keys.create rateLimit',
    (s) => s.keys.create({ userId: 'user_acme', rateLimit: { requests: 5, intervalMs: 1000, burst: 10 } } as never),
    'rateLimit.burst',
    `Failed to create API key: "rateLimit.burst" is not a field of a rate limit (known fields: ${RATE_LIMIT}).`,
  ],
  [
    'sim.keys.update rateLimit',
    (s, hash) => s.keys.update(hash, { rateLimit: { requests: 5, intervalMs: 1000, perKey: true } } as never),
    'rateLimit.perKey',
    `Failed to update API key: "rateLimit.perKey" is not a field of a rate limit (known fields: ${RATE_LIMIT}).`,
  ],
]

function fresh(): { sim: Sim; hash: string; secret: string } {
  const sim = createSimulator({ world: 'empty', now: '2026-03-02T10:00:00Z' })
  sim.users.create({ id: 'user_acme', name: 'Acme' })
  const { record, key: secret } = sim.keys.create({ userId: 'user_acme', name: 'existing' })
  return { sim, hash: record.hash, secret }
}

describe('an unknown field of a control is refused', () => {
  it.each(typos)('%s', (_what, call, argument, message) => {
    const { sim, hash } = fresh()
    const keysBefore = sim.keys.list()
    const error = simulatorErrorOf(() => call(sim, hash))
    expect(error.code).toBe('INVALID_ARGUMENT')
    expect(error.argument).toBe(argument)
    expect(error.message).toBe(message)
    // Nothing half-made: no fault, no latency, the keys as they were.
    expect(sim.faults.list()).toEqual([])
    expect(sim.handle({ method: 'GET', path: '/videos/models' }).delayMs ?? 0).toBe(0)
    expect(sim.keys.list()).toEqual(keysBefore)
  })

  it('takes every known field of each', () => {
    const { sim, hash, secret } = fresh()
    sim.faults.add({
      operation: 'getKey',
      path: '/keys/*',
      keyHash: hash,
      times: 2,
      fromCall: 1,
      probability: 1,
      name: 'all-fields',
      respond: { status: 503, message: 'down', metadata: { why: 'test' }, headers: { 'retry-after': '1' } },
    })
    sim.faults.providerDown({ operation: 'listKeys', path: '/keys', keyHash: hash, once: true, fromCall: 1, probability: 1 })
    sim.faults.serviceUnavailable({ operation: 'getWorkspace', times: 1, retryAfterSeconds: 5 })
    sim.faults.internalError({ operation: 'listEndpoints' })
    sim.latency.set({ operation: 'listVideoModels', ms: [1, 2], real: false })
    sim.keys.update(hash, { rateLimit: { requests: 1, intervalMs: 1000 } })
    expect(sim.faults.list().map((fault) => fault.name)).toEqual(['all-fields', 'provider-down', 'service-unavailable', 'internal-error'])
    // The key's rate limit took: one request a second, so the second at once is refused.
    const listVideoModels = () => sim.handle({ method: 'GET', path: '/videos/models', authorization: `Bearer ${secret}` }).status
    expect([listVideoModels(), listVideoModels()]).toEqual([200, 429])
  })
})

describe('an unknown criterion of a journal filter is refused', () => {
  it('names it instead of listing every entry', () => {
    const sim = createSimulator()
    sim.handle({ method: 'GET', path: '/videos/models' })
    const error = simulatorErrorOf(() => sim.journal.list({ opertion: 'getKey' } as never))
    expect(error.argument).toBe('filter.opertion')
    expect(error.message).toBe(
      'Failed to list the journal: "filter.opertion" is not a field of a journal filter (known fields: operation, status, method, keyHash, outcome, responder, hasIgnoredFields, hasWarnings, flagged).',
    )
    expect(sim.journal.list({ operation: 'getKey', status: 200, method: 'GET', keyHash: 'x', outcome: 'response' })).toEqual([])
  })

  it('names the operation an unknown one probably meant', () => {
    const sim = createSimulator()
    const error = simulatorErrorOf(() => sim.journal.list({ operation: 'getCredit' as 'getCredits' }))
    expect(error.argument).toBe('filter.operation')
    expect(error.message).toBe(
      `Failed to list the journal: "filter.operation" must be one of ${OPERATION_NAMES.map((name) => JSON.stringify(name)).join(', ')}, got "getCredit" (did you mean "getCredits"?).`,
    )
  })
})

describe('an unknown option of createSimulator is refused', () => {
  it('names the field and lists the options', () => {
    const error = simulatorErrorOf(() => createSimulator({ rateLimt: { requests: 1, intervalMs: 1000 } } as never))
    expect(error.argument).toBe('rateLimt')
    expect(error.message).toBe(`Failed to create simulator: "rateLimt" is not a field of the simulator options (known fields: ${SIMULATOR}).`)
  })

  it('checks the rate limit it is given, naming a misspelt field before the shape it lacks', () => {
    const error = simulatorErrorOf(() => createSimulator({ world: 'empty', rateLimit: { requests: 1, interval: 1000 } as never }))
    expect(error.argument).toBe('rateLimit.interval')
    expect(error.message).toBe(`Failed to create simulator: "rateLimit.interval" is not a field of a rate limit (known fields: ${RATE_LIMIT}).`)
  })

  it('tells a rate limit given as a list what a rate limit is, not that its indices are no fields', () => {
    const error = simulatorErrorOf(() => createSimulator({ world: 'empty', rateLimit: [5, 1000] as never }))
    expect(error.argument).toBe('rateLimit')
    expect(error.message).toMatch(/^Failed to create simulator: "rateLimit" must be \{ requests: a positive integer, intervalMs: /)
  })

  it('takes every option it documents', () => {
    const sim = createSimulator({ seed: 7, now: '2026-01-01T00:00:00Z', world: 'empty', rateLimit: null, journalLimit: 3, clock: 'virtual' })
    expect(sim.seed).toBe(7)
    expect(sim.clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z')
  })
})
