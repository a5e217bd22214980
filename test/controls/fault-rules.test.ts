// What sim.faults says when it is misused: the exact SimulatorError for each bad rule, in sim.faults.add
// and in the three presets, and that a refused rule leaves the rules and their numbering as they were.
// Also what a fault answers when its status has no message of its own.
import { describe, expect, it } from 'vitest'
import { createSimulator, OPERATION_NAMES, SimulatorErrorCode, type FaultRule, type SimResponse } from '../../src/index.js'
import { simulatorErrorOf } from '../support/server.js'

type Sim = ReturnType<typeof createSimulator>

const OPERATIONS = OPERATION_NAMES.join(', ')
const RESPOND = '"respond" must be { status: 400..599, message?, metadata?, headers? }, "network-error" or "never"'

function listKeys(sim: Sim): SimResponse {
  return sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}` })
}

/** Refused with an InvalidArgument naming `argument`, and exactly this message. */
function expectRefused(action: () => unknown, argument: string, message: string): void {
  const error = simulatorErrorOf(action)
  expect(error.code).toBe(SimulatorErrorCode.InvalidArgument)
  expect(error.argument).toBe(argument)
  expect(error.message).toBe(message)
}

/** A value that has the field a check reads, but is not the plain object the check asks for. */
function carrying<T extends object>(base: T, fields: Record<string, unknown>): T {
  return Object.assign(base, fields)
}

describe('sim.faults.add refuses a bad rule with an error naming the argument, and adds nothing', () => {
  const bad: { name: string; rule: unknown; argument: string; message: string }[] = [
    // The rule itself.
    { name: 'a null rule', rule: null, argument: 'rule', message: 'Failed to add a fault: "rule" must be a fault rule object, got null.' },
    { name: 'an array as rule', rule: [{ respond: { status: 500 } }], argument: 'rule', message: 'Failed to add a fault: "rule" must be a fault rule object, got an array.' },
    { name: 'a string as rule', rule: 'provider-down', argument: 'rule', message: 'Failed to add a fault: "rule" must be a fault rule object, got "provider-down".' },
    { name: 'a number as rule', rule: 502, argument: 'rule', message: 'Failed to add a fault: "rule" must be a fault rule object, got 502.' },
    {
      name: 'a function carrying respond as rule',
      rule: carrying(() => undefined, { respond: { status: 500 } }),
      argument: 'rule',
      message: 'Failed to add a fault: "rule" must be a fault rule object, got a value of type function.',
    },

    // What it answers with.
    { name: 'status 399', rule: { respond: { status: 399 } }, argument: 'respond.status', message: 'Failed to add a fault: "respond.status" must be an error status, an integer from 400 to 599, got 399.' },
    { name: 'status 600', rule: { respond: { status: 600 } }, argument: 'respond.status', message: 'Failed to add a fault: "respond.status" must be an error status, an integer from 400 to 599, got 600.' },
    { name: 'status 1.5', rule: { respond: { status: 1.5 } }, argument: 'respond.status', message: 'Failed to add a fault: "respond.status" must be an error status, an integer from 400 to 599, got 1.5.' },
    { name: 'a fractional status within 400..599 (502.5)', rule: { respond: { status: 502.5 } }, argument: 'respond.status', message: 'Failed to add a fault: "respond.status" must be an error status, an integer from 400 to 599, got 502.5.' },
    { name: "status '500' as a string", rule: { respond: { status: '500' } }, argument: 'respond.status', message: 'Failed to add a fault: "respond.status" must be an error status, an integer from 400 to 599, got "500".' },
    { name: 'a null respond', rule: { respond: null }, argument: 'respond', message: `Failed to add a fault: ${RESPOND}, got null.` },
    { name: 'an unknown response word', rule: { respond: 'timeout' }, argument: 'respond', message: `Failed to add a fault: ${RESPOND}, got "timeout".` },
    {
      name: 'an array carrying a status as respond',
      rule: { respond: carrying([], { status: 500 }) },
      argument: 'respond',
      message: `Failed to add a fault: ${RESPOND}, got an array.`,
    },
    {
      name: 'a function carrying a status as respond',
      rule: { respond: carrying(() => undefined, { status: 500 }) },
      argument: 'respond',
      message: `Failed to add a fault: ${RESPOND}, got a value of type function.`,
    },
    { name: 'an empty message', rule: { respond: { status: 500, message: '' } }, argument: 'respond.message', message: 'Failed to add a fault: "respond.message" must be a non-empty string, got "".' },
    { name: 'a numeric message', rule: { respond: { status: 500, message: 5 } }, argument: 'respond.message', message: 'Failed to add a fault: "respond.message" must be a non-empty string, got 5.' },
    { name: 'a string as metadata', rule: { respond: { status: 500, metadata: 'x' } }, argument: 'respond.metadata', message: 'Failed to add a fault: "respond.metadata" must be an object of JSON data, got "x".' },
    { name: 'null metadata', rule: { respond: { status: 500, metadata: null } }, argument: 'respond.metadata', message: 'Failed to add a fault: "respond.metadata" must be an object of JSON data, got null.' },
    { name: 'an array as metadata', rule: { respond: { status: 500, metadata: [1] } }, argument: 'respond.metadata', message: 'Failed to add a fault: "respond.metadata" must be an object of JSON data, got an array.' },
    {
      name: 'metadata holding a function',
      rule: { respond: { status: 500, metadata: { retry: () => 1 } } },
      argument: 'respond.metadata',
      message: 'Failed to add a fault: "respond.metadata" must be an object of JSON data, got a value of type object.',
    },

    // The headers it sends.
    { name: 'a string as headers', rule: { respond: { status: 503, headers: 'retry-after: 5' } }, argument: 'respond.headers', message: 'Failed to add a fault: "respond.headers" must be an object of header names and values, got "retry-after: 5".' },
    { name: 'null headers', rule: { respond: { status: 503, headers: null } }, argument: 'respond.headers', message: 'Failed to add a fault: "respond.headers" must be an object of header names and values, got null.' },
    { name: 'an array as headers', rule: { respond: { status: 503, headers: [['retry-after', '5']] } }, argument: 'respond.headers', message: 'Failed to add a fault: "respond.headers" must be an object of header names and values, got an array.' },
    {
      name: 'a Headers instance as headers',
      rule: { respond: { status: 503, headers: new Headers({ 'retry-after': '5' }) } },
      argument: 'respond.headers',
      message: 'Failed to add a fault: "respond.headers" must be an object of header names and values, got a value of type object.',
    },
    {
      name: 'a Map as headers',
      rule: { respond: { status: 503, headers: new Map([['retry-after', '5']]) } },
      argument: 'respond.headers',
      message: 'Failed to add a fault: "respond.headers" must be an object of header names and values, got a value of type object.',
    },
    { name: 'a header name with a space', rule: { respond: { status: 503, headers: { 'retry after': '5' } } }, argument: 'respond.headers', message: 'Failed to add a fault: "respond.headers" has a name that is not an HTTP header name: "retry after".' },
    {
      name: 'one header named twice in different case',
      rule: { respond: { status: 503, headers: { 'Retry-After': '5', 'retry-after': '9' } } },
      argument: 'respond.headers',
      message: 'Failed to add a fault: "respond.headers" names the header "retry-after" twice (header names ignore case).',
    },
    {
      name: 'one header named twice, the upper-case spelling second',
      rule: { respond: { status: 503, headers: { 'x-upstream': 'a', 'X-UPSTREAM': 'b' } } },
      argument: 'respond.headers',
      message: 'Failed to add a fault: "respond.headers" names the header "X-UPSTREAM" twice (header names ignore case).',
    },
    ...['content-type', 'Content-Type', 'CONTENT-LENGTH', 'Transfer-Encoding', 'connection'].map((name) => ({
      name: `the reserved header ${name}`,
      rule: { respond: { status: 503, headers: { [name]: 'text/plain' } } },
      argument: 'respond.headers',
      message: `Failed to add a fault: "respond.headers" may not set "${name}": the answer is always a JSON error envelope.`,
    })),
    {
      name: 'a header value with CR LF',
      rule: { respond: { status: 503, headers: { 'x-a': 'a\r\nb' } } },
      argument: 'respond.headers',
      message: 'Failed to add a fault: "respond.headers" has a value for "x-a" that is not a header value (a string without CR, LF or NUL): "a\\r\\nb".',
    },
    {
      name: 'a numeric header value',
      rule: { respond: { status: 503, headers: { 'retry-after': 5 } } },
      argument: 'respond.headers',
      message: 'Failed to add a fault: "respond.headers" has a value for "retry-after" that is not a header value (a string without CR, LF or NUL): 5.',
    },

    // Which requests it matches.
    {
      name: 'an empty list of operations',
      rule: { operation: [], respond: 'never' },
      argument: 'operation',
      message: `Failed to add a fault: "operation" must name at least one of ${OPERATIONS}; leave it out to match every request.`,
    },
    {
      name: 'an unknown operation',
      rule: { operation: 'listUsers', respond: { status: 500 } },
      argument: 'operation',
      message: `Failed to add a fault: "operation" must be one of ${OPERATIONS}, got "listUsers".`,
    },
    {
      name: 'an unknown operation among known ones',
      rule: { operation: ['listKeys', 'createKeys'], respond: { status: 500 } },
      argument: 'operation',
      message: `Failed to add a fault: "operation" must be one of ${OPERATIONS}, got "createKeys" (did you mean "createKey"?).`,
    },
    {
      name: 'a near miss of an operation (a letter short)',
      rule: { operation: 'createResponse', respond: { status: 500 } },
      argument: 'operation',
      message: `Failed to add a fault: "operation" must be one of ${OPERATIONS}, got "createResponse" (did you mean "createResponses"?).`,
    },
    {
      name: 'an operation in another case',
      rule: { operation: 'listkeys', respond: { status: 500 } },
      argument: 'operation',
      message: `Failed to add a fault: "operation" must be one of ${OPERATIONS}, got "listkeys" (did you mean "listKeys"?).`,
    },
    { name: 'a numeric path', rule: { path: 42, respond: { status: 500 } }, argument: 'path', message: 'Failed to add a fault: "path" must be a string pattern (with * for any characters) or a RegExp.' },
    { name: 'a numeric keyHash', rule: { keyHash: 42, respond: { status: 500 } }, argument: 'keyHash', message: 'Failed to add a fault: "keyHash" must be a key hash.' },

    // When it fires.
    { name: 'times 0', rule: { times: 0, respond: { status: 500 } }, argument: 'times', message: 'Failed to add a fault: "times" must be an integer of at least 1, got 0.' },
    { name: 'times 1.5', rule: { times: 1.5, respond: { status: 500 } }, argument: 'times', message: 'Failed to add a fault: "times" must be an integer of at least 1, got 1.5.' },
    { name: "times '2'", rule: { times: '2', respond: { status: 500 } }, argument: 'times', message: 'Failed to add a fault: "times" must be an integer of at least 1, got "2".' },
    { name: 'fromCall 0', rule: { fromCall: 0, respond: { status: 500 } }, argument: 'fromCall', message: 'Failed to add a fault: "fromCall" must be an integer of at least 1, got 0.' },
    { name: "once 'yes'", rule: { once: 'yes', respond: { status: 500 } }, argument: 'once', message: 'Failed to add a fault: "once" must be a boolean.' },
    { name: 'once with times 2', rule: { once: true, times: 2, respond: { status: 500 } }, argument: 'times', message: 'Failed to add a fault: "times" contradicts once: true.' },
    { name: 'probability 1.01', rule: { probability: 1.01, respond: { status: 500 } }, argument: 'probability', message: 'Failed to add a fault: "probability" must be a number in [0, 1], got 1.01.' },
    { name: 'probability -0.1', rule: { probability: -0.1, respond: { status: 500 } }, argument: 'probability', message: 'Failed to add a fault: "probability" must be a number in [0, 1], got -0.1.' },
    { name: 'probability NaN', rule: { probability: Number.NaN, respond: { status: 500 } }, argument: 'probability', message: 'Failed to add a fault: "probability" must be a number in [0, 1], got NaN.' },
    { name: "probability '0.5'", rule: { probability: '0.5', respond: { status: 500 } }, argument: 'probability', message: 'Failed to add a fault: "probability" must be a number in [0, 1], got "0.5".' },

    // Its name.
    { name: 'an empty name', rule: { name: '', respond: { status: 500 } }, argument: 'name', message: 'Failed to add a fault: "name" must be a non-empty string.' },
    { name: 'a numeric name', rule: { name: 5, respond: { status: 500 } }, argument: 'name', message: 'Failed to add a fault: "name" must be a non-empty string.' },
  ]

  it.each(bad)('refuses $name', ({ rule, argument, message }) => {
    const sim = createSimulator()
    sim.faults.add({ name: 'kept', path: '/__nothing__', respond: 'never' })
    expectRefused(() => sim.faults.add(rule as FaultRule), argument, message)
    expect(sim.faults.list().map((fault) => fault.name)).toEqual(['kept'])
    // The refused rule took no number: the next rule without a name is the second one.
    expect(sim.faults.add({ path: '/__nothing__', respond: 'never' }).name).toBe('fault-2')
    expect(listKeys(sim).status).toBe(200)
  })
})

describe('sim.faults.add accepts the edges of what it checks', () => {
  it('accepts statuses 400 and 599 and answers with them', () => {
    const sim = createSimulator()
    sim.faults.add({ operation: 'listKeys', once: true, respond: { status: 400 } })
    sim.faults.add({ operation: 'listKeys', once: true, respond: { status: 599 } })
    expect([listKeys(sim).status, listKeys(sim).status, listKeys(sim).status]).toEqual([400, 599, 200])
  })

  it('accepts once: true together with times: 1, firing once', () => {
    const sim = createSimulator()
    const fault = sim.faults.add({ operation: 'listKeys', once: true, times: 1, respond: { status: 502 } })
    expect([listKeys(sim).status, listKeys(sim).status]).toEqual([502, 200])
    expect(fault.fired).toBe(1)
  })

  it('sends a header given in mixed case under its lower-case name', () => {
    const sim = createSimulator()
    sim.faults.add({ respond: { status: 503, headers: { 'Retry-After': '7', 'X-Upstream': 'google' } } })
    const res = sim.handle({ method: 'GET', path: '/videos/models' })
    expect(res.headers['retry-after']).toBe('7')
    expect(res.headers['x-upstream']).toBe('google')
    expect(res.headers['content-type']).toBe('application/json')
  })

  it('answers "Error" for a status with no message of its own, and the standard message for one that has it', () => {
    const sim = createSimulator()
    sim.faults.add({ operation: 'listVideoModels', once: true, respond: { status: 504 } })
    sim.faults.add({ operation: 'listVideoModels', once: true, respond: { status: 404 } })
    expect(sim.handle({ method: 'GET', path: '/videos/models' }).body).toEqual({ error: { code: 504, message: 'Error' } })
    expect(sim.handle({ method: 'GET', path: '/videos/models' }).body).toEqual({ error: { code: 404, message: 'Resource not found' } })
  })
})

describe('the presets refuse bad options with their own name in the error', () => {
  const presets = [
    ['providerDown', 'add the provider-down fault'],
    ['serviceUnavailable', 'add the service-unavailable fault'],
    ['internalError', 'add the internal-error fault'],
  ] as const

  it.each(presets)('%s refuses an unknown operation', (preset, operation) => {
    const sim = createSimulator()
    expectRefused(() => sim.faults[preset]({ operation: 'listUsers' as 'listKeys' }), 'operation', `Failed to ${operation}: "operation" must be one of ${OPERATIONS}, got "listUsers".`)
    expect(sim.faults.list()).toEqual([])
  })

  it.each(presets)('%s refuses options that are a string or an array', (preset, operation) => {
    const sim = createSimulator()
    expectRefused(() => sim.faults[preset]('listKeys' as never), 'options', `Failed to ${operation}: "options" must be an options object, got "listKeys".`)
    expectRefused(() => sim.faults[preset]([] as never), 'options', `Failed to ${operation}: "options" must be an options object, got an array.`)
    expect(sim.faults.list()).toEqual([])
  })

  it('serviceUnavailable refuses a negative retryAfterSeconds, saying the least it takes', () => {
    const sim = createSimulator()
    expectRefused(
      () => sim.faults.serviceUnavailable({ retryAfterSeconds: -1 }),
      'retryAfterSeconds',
      'Failed to add the service-unavailable fault: "retryAfterSeconds" must be an integer of at least 0, got -1.',
    )
    expect(sim.faults.list()).toEqual([])
  })
})
