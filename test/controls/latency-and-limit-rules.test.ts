// What sim.latency.set and the rate-limit options say when they are misused (the exact SimulatorError),
// that a refused latency rule leaves the rules as they were, and the edges both accept.
import { describe, expect, it } from 'vitest'
import { createSimulator, OPERATION_NAMES, SimulatorErrorCode, type LatencyRule, type RateLimit, type SimResponse } from '../../src/index.js'
import { simulatorErrorOf } from '../support/server.js'

type Sim = ReturnType<typeof createSimulator>

const OPERATIONS = OPERATION_NAMES.join(', ')
const MAX_DELAY_MS = 2 ** 31 - 1
const MS = `"ms" must be a whole number of milliseconds in [0, ${MAX_DELAY_MS}] or a [min, max] range of them`
const RATE_LIMIT = '"rateLimit" must be { requests: a positive integer, intervalMs: milliseconds from 1 to a year (31536000000) }'

function listKeys(sim: Sim): SimResponse {
  return sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}` })
}

function listVideoModels(sim: Sim, secret?: string): SimResponse {
  return sim.handle({ method: 'GET', path: '/videos/models', ...(secret === undefined ? {} : { authorization: `Bearer ${secret}` }) })
}

function expectRefused(action: () => unknown, argument: string, message: string): void {
  const error = simulatorErrorOf(action)
  expect(error.code).toBe(SimulatorErrorCode.InvalidArgument)
  expect(error.argument).toBe(argument)
  expect(error.message).toBe(message)
}

describe('sim.latency.set refuses a bad rule with an error naming the argument, and keeps the rules it had', () => {
  const bad: { name: string; rule: unknown; argument: string; message: string }[] = [
    { name: 'a null rule', rule: null, argument: 'rule', message: 'Failed to set latency: "rule" must be { operation?, ms, real? }, got null.' },
    { name: 'a number as rule', rule: 250, argument: 'rule', message: 'Failed to set latency: "rule" must be { operation?, ms, real? }, got 250.' },
    { name: 'a string as rule', rule: 'slow', argument: 'rule', message: 'Failed to set latency: "rule" must be { operation?, ms, real? }, got "slow".' },
    { name: 'an unknown operation', rule: { operation: 'listUsers', ms: 5 }, argument: 'operation', message: `Failed to set latency: "operation" must be one of ${OPERATIONS}, got "listUsers".` },
    { name: 'ms -1', rule: { ms: -1 }, argument: 'ms', message: `Failed to set latency: ${MS}, got -1.` },
    { name: 'ms 1.5', rule: { ms: 1.5 }, argument: 'ms', message: `Failed to set latency: ${MS}, got 1.5.` },
    { name: "ms '5'", rule: { ms: '5' }, argument: 'ms', message: `Failed to set latency: ${MS}, got "5".` },
    { name: 'ms one past the longest timer (2 ** 31)', rule: { ms: 2 ** 31 }, argument: 'ms', message: `Failed to set latency: ${MS}, got 2147483648.` },
    { name: 'a range with a fractional end', rule: { ms: [5, 7.5] }, argument: 'ms', message: `Failed to set latency: ${MS}, got [5, 7.5].` },
    { name: 'a range past the longest timer', rule: { ms: [0, 2 ** 31] }, argument: 'ms', message: `Failed to set latency: ${MS}, got [0, 2147483648].` },
    { name: 'a reversed range', rule: { ms: [20, 10] }, argument: 'ms', message: 'Failed to set latency: "ms" is a [min, max] range whose min (20) is above its max (10): give [10, 20].' },
    { name: 'a range of three', rule: { ms: [1, 2, 3] }, argument: 'ms', message: `Failed to set latency: ${MS}, got [1, 2, 3].` },
    { name: 'a long list', rule: { ms: [1, 2, 3, 4, 5] }, argument: 'ms', message: `Failed to set latency: ${MS}, got an array.` },
    { name: "real 'yes'", rule: { ms: 5, real: 'yes' }, argument: 'real', message: 'Failed to set latency: "real" must be a boolean.' },
    { name: 'an array as rule', rule: [{ ms: 5 }], argument: 'rule', message: 'Failed to set latency: "rule" must be { operation?, ms, real? }, got an array.' },
    {
      name: 'an empty operation list',
      rule: { operation: [], ms: 5 },
      argument: 'operation',
      message: `Failed to set latency: "operation" must name at least one of ${OPERATIONS}; leave it out to match every request.`,
    },
    { name: 'a list with an unknown operation', rule: { operation: ['listKeys', 'chat'], ms: 5 }, argument: 'operation', message: `Failed to set latency: "operation" must be one of ${OPERATIONS}, got "chat".` },
  ]

  it.each(bad)('refuses $name', ({ rule, argument, message }) => {
    const sim = createSimulator()
    sim.latency.set({ ms: 100 })
    expectRefused(() => sim.latency.set(rule as LatencyRule), argument, message)
    expect(listKeys(sim).delayMs).toBe(100)
    expect(listVideoModels(sim).delayMs).toBe(100)
  })
})

describe('sim.latency.set accepts the edges of what it checks', () => {
  it('accepts the longest timer, 2 ** 31 - 1 ms, as a delay and as the end of a range', () => {
    const sim = createSimulator()
    sim.latency.set({ operation: 'listKeys', ms: MAX_DELAY_MS })
    sim.latency.set({ operation: 'listVideoModels', ms: [MAX_DELAY_MS, MAX_DELAY_MS] })
    expect(listKeys(sim).delayMs).toBe(MAX_DELAY_MS)
    expect(listVideoModels(sim).delayMs).toBe(MAX_DELAY_MS)
  })

  it('sets the rule for each operation of a list, and leaves the others to the default rule', () => {
    const sim = createSimulator()
    sim.latency.set({ ms: 1 })
    sim.latency.set({ operation: ['listKeys', 'listVideoModels'], ms: [40, 40] })
    expect(listKeys(sim).delayMs).toBe(40)
    expect(listVideoModels(sim).delayMs).toBe(40)
    const workspace = sim.handle({ method: 'GET', path: `/workspaces/${sim.world.workspaces.production}`, authorization: `Bearer ${sim.world.managementKey}` })
    expect([workspace.status, workspace.delayMs]).toEqual([200, 1])
    // A later rule for one of them replaces that one only.
    sim.latency.set({ operation: 'listKeys', ms: 7 })
    expect(listKeys(sim).delayMs).toBe(7)
    expect(listVideoModels(sim).delayMs).toBe(40)
  })

  it('accepts a rule without operation on a simulator that has none yet', () => {
    const sim = createSimulator()
    sim.latency.set({ ms: 3, real: false })
    expect(listKeys(sim).delayMs).toBe(3)
  })
})

describe('rate limits refuse what is not a plain limit object', () => {
  const notObjects: { name: string; value: unknown; shown: string }[] = [
    { name: 'a number', value: 3, shown: '3' },
    { name: 'a string', value: '3/s', shown: '"3/s"' },
    { name: 'a boolean', value: true, shown: 'true' },
    { name: 'a function carrying requests and intervalMs', value: Object.assign(() => undefined, { requests: 3, intervalMs: 1000 }), shown: 'a value of type function' },
    { name: 'an array', value: [3, 1000], shown: 'an array' },
  ]

  it.each(notObjects)('createSimulator refuses $name as rateLimit', ({ value, shown }) => {
    expectRefused(() => createSimulator({ rateLimit: value as RateLimit }), 'rateLimit', `Failed to create simulator: ${RATE_LIMIT}, got ${shown}.`)
  })

  it.each(notObjects)('sim.keys.create refuses $name as rateLimit, creating nothing', ({ value, shown }) => {
    const sim = createSimulator()
    const before = sim.keys.list().length
    expectRefused(() => sim.keys.create({ userId: sim.world.userId, rateLimit: value as RateLimit }), 'rateLimit', `Failed to create API key: ${RATE_LIMIT}, got ${shown}.`)
    expect(sim.keys.list()).toHaveLength(before)
  })
})

describe('rate limits name the field that is wrong', () => {
  const REQUESTS = `must be a whole number of requests from 1 to ${Number.MAX_SAFE_INTEGER}`
  const INTERVAL = 'must be milliseconds from 1 to a year (31536000000)'
  const wrong: { name: string; value: unknown; field: string; problem: string }[] = [
    { name: 'no requests', value: { requests: 0, intervalMs: 1000 }, field: 'requests', problem: `${REQUESTS}, got 0` },
    { name: 'a fraction of a request', value: { requests: 1.5, intervalMs: 1000 }, field: 'requests', problem: `${REQUESTS}, got 1.5` },
    { name: 'requests as text', value: { requests: '5', intervalMs: 1000 }, field: 'requests', problem: `${REQUESTS}, got "5"` },
    { name: 'requests left out', value: { intervalMs: 1000 }, field: 'requests', problem: `${REQUESTS}, got undefined` },
    { name: 'an interval below 1 ms', value: { requests: 3, intervalMs: 0.5 }, field: 'intervalMs', problem: `${INTERVAL}, got 0.5` },
    { name: 'an interval over a year', value: { requests: 3, intervalMs: 31536000001 }, field: 'intervalMs', problem: `${INTERVAL}, got 31536000001` },
    { name: 'an endless interval', value: { requests: 3, intervalMs: Infinity }, field: 'intervalMs', problem: `${INTERVAL}, got Infinity` },
  ]

  it.each(wrong)('createSimulator refuses $name, naming rateLimit.<field>', ({ value, field, problem }) => {
    expectRefused(() => createSimulator({ rateLimit: value as RateLimit }), `rateLimit.${field}`, `Failed to create simulator: "rateLimit.${field}" ${problem}.`)
  })

  it.each(wrong)('sim.keys.create and sim.keys.update refuse $name, changing nothing', ({ value, field, problem }) => {
    const sim = createSimulator()
    const before = sim.keys.list().length
    expectRefused(() => sim.keys.create({ userId: sim.world.userId, rateLimit: value as RateLimit }), `rateLimit.${field}`, `Failed to create API key: "rateLimit.${field}" ${problem}.`)
    expect(sim.keys.list()).toHaveLength(before)
    const created = sim.keys.create({ userId: sim.world.userId, rateLimit: { requests: 2, intervalMs: 1000 } })
    const error = simulatorErrorOf(() => sim.keys.update(created.record.hash, { rateLimit: value as RateLimit }))
    expect(error.argument).toBe(`rateLimit.${field}`)
    // The key's own limit is as it was: two requests, then 429.
    expect([200, 200, 429].map(() => listVideoModels(sim, created.key).status)).toEqual([200, 200, 429])
  })
})

describe('rate limits accept the smallest limit, 1 request per 1 ms', () => {
  it('as the simulator default: one request, then 429 until 1 ms has passed', () => {
    const sim = createSimulator({ rateLimit: { requests: 1, intervalMs: 1 } })
    expect(listVideoModels(sim).status).toBe(200)
    const limited = listVideoModels(sim)
    expect(limited.status).toBe(429)
    expect(limited.headers['retry-after']).toBe('1')
    sim.clock.advance(1)
    expect(listVideoModels(sim).status).toBe(200)
  })

  it("as a key's own limit, overriding a looser default", () => {
    const sim = createSimulator({ rateLimit: { requests: 100, intervalMs: 1000 } })
    const created = sim.keys.create({ userId: sim.world.userId, rateLimit: { requests: 1, intervalMs: 1 } })
    expect([listVideoModels(sim, created.key).status, listVideoModels(sim, created.key).status]).toEqual([200, 429])
    sim.clock.advance(1)
    expect(listVideoModels(sim, created.key).status).toBe(200)
    expect(listVideoModels(sim, sim.world.apiKey).status).toBe(200)
  })
})
