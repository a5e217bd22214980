// Inference bodies parsed once per text (decisions/0063): the parsed value is deeply frozen and
// shared by every request that sends the same text, and what the chat and Responses readers make
// of it is kept beside it. None of this may show: an answer is the same whether its body was seen
// before, by this simulator or another, or is too long to be kept.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isSharedBody, readJsonObject, readSharedJsonObject, SHARED_MAX_CHARS, SHARED_TOTAL_CHARS } from '../../src/core/body.js'
import { ApiError } from '../../src/core/errors.js'
import { readChatRequest } from '../../src/core/inference/request.js'
import { readResponsesRequest } from '../../src/core/inference/responses-request.js'
import { createSimulator, type SimResponse } from '../../src/index.js'
import { runs } from '../support/runs.js'
import { chatWorld, MODEL } from '../inference/support.js'

const SEED = 20261128

/** An answer as bytes: a JSON body's text, or a stream's frames. */
const bytesOf = (response: SimResponse): string => JSON.stringify({ status: response.status, body: response.body })

/** The error a read throws, as status and message (or 'ok'). */
function outcome(read: () => unknown): string {
  try {
    read()
    return 'ok'
  } catch (error) {
    if (error instanceof ApiError) return `${error.status} ${error.message}`
    throw error
  }
}

describe('readSharedJsonObject', () => {
  it('gives the same deeply frozen object for the same text, a new one for another text', () => {
    const text = JSON.stringify({ model: 'shared/one', messages: [{ role: 'user', content: 'Hi' }], tools: [{ type: 'function', function: { name: 'f' } }] })
    const first = readSharedJsonObject(text, 'application/json')
    // A string built anew, equal in content: what an adapter hands over for a repeated request.
    const second = readSharedJsonObject(JSON.stringify(JSON.parse(text)), undefined)
    expect(second).toBe(first)
    expect(isSharedBody(first)).toBe(true)
    expect(Object.isFrozen(first)).toBe(true)
    const messages = first['messages'] as { content: string }[]
    expect(Object.isFrozen(messages) && Object.isFrozen(messages[0])).toBe(true)
    expect(() => {
      ;(messages[0] as { content: string }).content = 'changed'
    }).toThrow(TypeError)
    expect(readSharedJsonObject(text.replace('Hi', 'Ho'), undefined)).not.toBe(first)
  })

  it('checks the content type of every request, the text kept or not', () => {
    const text = JSON.stringify({ model: 'shared/ctype', messages: [] })
    readSharedJsonObject(text, undefined)
    expect(outcome(() => readSharedJsonObject(text, 'text/plain'))).toBe(outcome(() => readJsonObject(text, 'text/plain')))
    expect(outcome(() => readSharedJsonObject(text, 'text/plain'))).toMatch(/^400 .*content-type application\/json, got "text\/plain"/)
  })

  it('refuses what readJsonObject refuses and otherwise reads the same value (random texts)', () => {
    const texts = fc.oneof(
      fc.json(),
      fc.jsonValue().map((v) => JSON.stringify({ v })),
      fc.string(),
      fc.constantFrom('', '   ', '{', '[]', 'null', '{"a":1}', '{"a":1}   ', '\uFEFF{}', `${'['.repeat(200)}${']'.repeat(200)}`, `{"a":${'['.repeat(130)}${']'.repeat(130)}}`),
    )
    fc.assert(
      fc.property(texts, fc.constantFrom(undefined, 'application/json', 'text/plain'), (text, contentType) => {
        const expected = outcome(() => readJsonObject(text, contentType))
        // Twice: the first read may keep the text, the second finds it.
        for (let i = 0; i < 2; i++) {
          expect(outcome(() => readSharedJsonObject(text, contentType))).toBe(expected)
          if (expected === 'ok') expect(readSharedJsonObject(text, contentType)).toEqual(readJsonObject(text, contentType))
        }
      }),
      { seed: SEED, numRuns: runs(400) },
    )
  })

  it('does not keep a text longer than SHARED_MAX_CHARS', () => {
    const text = `${JSON.stringify({ model: 'shared/long', messages: [] })}${' '.repeat(SHARED_MAX_CHARS)}`
    const value = readSharedJsonObject(text, undefined)
    expect(isSharedBody(value)).toBe(false)
    expect(Object.isFrozen(value)).toBe(false)
    expect(readSharedJsonObject(text, undefined)).not.toBe(value)
  })

  it('lets go of every kept text once SHARED_TOTAL_CHARS would be passed, and keeps working', () => {
    const text = JSON.stringify({ model: 'shared/bounded', messages: [] })
    const kept = readSharedJsonObject(text, undefined)
    expect(readSharedJsonObject(text, undefined)).toBe(kept)
    // Distinct texts of 32,000 characters each, enough to pass the total once.
    const filler = 'x'.repeat(32_000)
    for (let i = 0; i * 32_000 <= SHARED_TOTAL_CHARS; i++) readSharedJsonObject(JSON.stringify({ i, filler }), undefined)
    const again = readSharedJsonObject(text, undefined)
    expect(again).not.toBe(kept)
    expect(again).toEqual(kept)
    expect(readSharedJsonObject(text, undefined)).toBe(again)
  })
})

describe('readers of shared bodies', () => {
  it('read a shared chat body once, per policy, and list its ignored fields for every request', () => {
    const body = readSharedJsonObject(JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], temprature: 0.2, seed: 3 }), undefined)
    const lenient = () => ({ strict: false, ignored: [] as string[] })
    const a = lenient()
    const b = lenient()
    const first = readChatRequest(body, a)
    expect(readChatRequest(body, b)).toBe(first)
    expect(a.ignored).toEqual(['temprature'])
    expect(b.ignored).toEqual(['temprature'])
    expect(Object.isFrozen(first) && Object.isFrozen(first.messages) && Object.isFrozen(first.demands)).toBe(true)
    // The strict policy reads it again, and refuses it.
    expect(outcome(() => readChatRequest(body))).toMatch(/^400 .*temprature/)
  })

  it('read an unshared body each time, and leave its input unfrozen', () => {
    const body = { model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }
    const first = readChatRequest(body)
    expect(readChatRequest(body)).not.toBe(first)
    expect(Object.isFrozen(first)).toBe(false)
  })

  it('keep what a Responses body reads to, frozen', () => {
    const body = readSharedJsonObject(JSON.stringify({ model: MODEL, input: 'Hi', metadata: { a: 'b' }, tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }] }), undefined)
    const first = readResponsesRequest(body)
    expect(readResponsesRequest(body)).toBe(first)
    expect(Object.isFrozen(first.echo.tools[0]) && Object.isFrozen(first.chat.demands.tools[0])).toBe(true)
  })
})

/** Random chat and Responses bodies: plain ones, with tools, a format, sampling fields, an unknown field. */
const TOOL = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } }, required: ['city'] } } }
const chatBody = fc.record(
  {
    model: fc.constant(MODEL),
    messages: fc.array(fc.record({ role: fc.constantFrom('user', 'system', 'assistant'), content: fc.string({ maxLength: 40 }) }), { minLength: 1, maxLength: 3 }),
    stream: fc.boolean(),
    tools: fc.constant([TOOL]),
    tool_choice: fc.constantFrom('auto', 'required', 'none'),
    response_format: fc.constant({ type: 'json_object' }),
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
    seed: fc.integer({ min: 0, max: 1000 }),
    stop: fc.constantFrom('.', ['\n']),
    temprature: fc.constant(1),
  },
  { requiredKeys: ['model', 'messages'] },
)
const responsesBody = fc.record(
  { model: fc.constant(MODEL), input: fc.string({ maxLength: 40 }), instructions: fc.string({ maxLength: 20 }), stream: fc.boolean(), temperature: fc.double({ min: 0, max: 2, noNaN: true }) },
  { requiredKeys: ['model', 'input'] },
)

/** Spaces appended to a body make its text new to this process (the first a property sends). */
let unique = 0

describe('an answer does not depend on whether its body was seen before', () => {
  it('gives the same bytes, journal warnings and ignored fields for a body new, seen, and too long to keep', () => {
    fc.assert(
      fc.property(fc.oneof(chatBody.map((b) => ['/chat/completions', b] as const), responsesBody.map((b) => ['/responses', b] as const)), fc.boolean(), ([path, body], strict) => {
        const text = `${JSON.stringify(body)}${' '.repeat(++unique)}`
        const long = `${text}${' '.repeat(SHARED_MAX_CHARS)}`
        const answers = [text, text, long].map((sent) => {
          const { sim, key } = chatWorld({ seed: 7, strictRequests: strict })
          const answer = sim.handle({ method: 'POST', path, authorization: `Bearer ${key}`, body: sent })
          const entry = sim.journal.list().at(-1)
          return { bytes: bytesOf(answer), ignored: entry?.ignoredFields, warnings: entry?.warnings, usage: sim.keys.list()[0]?.usage }
        })
        expect(answers[1]).toEqual(answers[0])
        expect(answers[2]).toEqual(answers[0])
      }),
      { seed: SEED, numRuns: runs(200) },
    )
  })

  it('gives each simulator the reply of its own seed, model and reply options, whatever others were given for the text', () => {
    // A reply composed for a kept body is kept by its input (decisions/0063): the same text sent to
    // simulators of other seeds, models (one reasons) and toolRounds, in any order, must get what
    // it gets when the text is too long to be kept, which composes afresh every time.
    const tools = [TOOL, { type: 'function', function: { name: 'lookup_order', parameters: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'] } } }]
    const body = fc.record(
      {
        messages: fc.array(fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.string({ maxLength: 30 }) }), { minLength: 1, maxLength: 3 }),
        tools: fc.constant(tools),
        tool_choice: fc.constantFrom('auto', 'required', { type: 'function', function: { name: 'lookup_order' } }),
        response_format: fc.constantFrom({ type: 'json_object' }, { type: 'json_schema', json_schema: { name: 'n', schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } } }),
        seed: fc.integer({ min: 0, max: 9 }),
      },
      { requiredKeys: ['messages'] },
    )
    const setup = fc.record({ seed: fc.integer({ min: 1, max: 4 }), reasons: fc.boolean(), toolRounds: fc.constantFrom(0, 1), firstDown: fc.boolean() })
    const answerOf = (text: string, { seed, reasons, toolRounds, firstDown }: { seed: number; reasons: boolean; toolRounds: number; firstDown: boolean }): string => {
      const sim = createSimulator({ world: 'empty', seed, now: '2026-03-02T10:00:00Z', replies: { toolRounds } })
      const org = sim.users.create({ name: 'Org', credits: { total: 100 } })
      const { key } = sim.keys.create({ userId: org.id, name: 'k' })
      const supported: ('reasoning' | 'tools' | 'tool_choice' | 'response_format')[] = reasons ? ['reasoning', 'tools', 'tool_choice', 'response_format'] : ['tools', 'tool_choice', 'response_format']
      const pricing = { prompt: '0.000001', completion: '0.000002' }
      sim.models.create({ id: 'acme/first', endpoints: [{ provider_name: 'Alpha', supported_parameters: supported, pricing }] })
      sim.models.create({ id: 'acme/second', endpoints: [{ provider_name: 'Beta', supported_parameters: supported, pricing }] })
      // The first model's provider down: the same text is served by the second model.
      if (firstDown) sim.faults.providerDown({ provider: 'Alpha' })
      const answer = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key}`, body: text })
      const entry = sim.journal.list().at(-1)
      return JSON.stringify({ bytes: bytesOf(answer), warnings: entry?.warnings })
    }
    fc.assert(
      fc.property(body, fc.array(setup, { minLength: 2, maxLength: 6 }), (request, setups) => {
        const text = `${JSON.stringify({ model: 'acme/first', models: ['acme/first', 'acme/second'], ...request })}${' '.repeat(++unique)}`
        const long = `${text}${' '.repeat(SHARED_MAX_CHARS)}`
        for (const each of setups) expect(answerOf(text, each)).toBe(answerOf(long, each))
      }),
      { seed: SEED, numRuns: runs(120) },
    )
  })

  it('keeps simulators apart: the same text names a preset one has and the other lacks', () => {
    const text = JSON.stringify({ model: '@preset/terse', messages: [{ role: 'user', content: 'Hello' }] })
    const make = (withPreset: boolean) => {
      const sim = createSimulator({ world: 'empty', seed: 3, now: '2026-03-02T10:00:00Z' })
      const org = sim.users.create({ name: 'Org', credits: { total: 100 } })
      const { key } = sim.keys.create({ userId: org.id, name: 'k' })
      sim.models.create({ id: MODEL, endpoints: [{ provider_name: 'Alpha', pricing: { prompt: '0.000001', completion: '0.000002' } }] })
      const preset = withPreset ? sim.presets.create({ userId: org.id, slug: 'terse', name: 'Terse', config: { model: MODEL } }) : undefined
      const send = () => sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key}`, body: text })
      const presetOf = (answer: SimResponse) => {
        const id = (answer.body as { id: string }).id
        const generation = sim.handle({ method: 'GET', path: '/generation', query: `id=${id}`, authorization: `Bearer ${key}` })
        return (generation.body as { data: { preset_id: string | null } }).data.preset_id
      }
      return { preset, send, presetOf }
    }
    const a = make(true)
    const b = make(false)
    const first = a.send()
    expect(first.status).toBe(200)
    expect(b.send().status).toBe(404)
    const second = a.send()
    expect(second.status).toBe(200)
    expect([a.presetOf(first), a.presetOf(second)]).toEqual([a.preset?.id, a.preset?.id])
    expect(typeof a.preset?.id).toBe('string')
  })
})

describe('answers made from a shared body', () => {
  it('are the caller\'s to change: a Responses answer echoes copies, not the frozen body', () => {
    const { sim, key } = chatWorld({ seed: 7 })
    const text = JSON.stringify({ model: MODEL, input: 'Hi', metadata: { team: 'a' }, tool_choice: { type: 'function', name: 'f' }, tools: [{ type: 'function', name: 'f', parameters: { type: 'object', properties: { q: { type: 'string' } } } }] })
    const send = () => sim.handle({ method: 'POST', path: '/responses', authorization: `Bearer ${key}`, body: text }).body as { metadata: Record<string, string>; tool_choice: { name: string }; tools: { parameters: { properties: Record<string, unknown> } }[] }
    const first = send()
    first.metadata['team'] = 'changed'
    first.tool_choice.name = 'changed'
    ;(first.tools[0] as { parameters: { properties: Record<string, unknown> } }).parameters.properties['q'] = 'changed'
    const second = send()
    expect(second.metadata).toEqual({ team: 'a' })
    expect(second.tool_choice).toEqual({ type: 'function', name: 'f' })
    expect(second.tools[0]?.parameters.properties['q']).toEqual({ type: 'string' })
  })
})
