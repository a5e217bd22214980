// The plain reader (model, messages of { role, content } text, stream, max_tokens) gives what the
// general reader gives, or steps aside: over random bodies near that shape, readChatRequest and
// the field-by-field reader return equal inputs, or throw the same 400; with unknown fields
// accepted, they list the same ones, and under a strict policy they refuse the same one.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { REFUSE_UNKNOWN, unknownFieldsPolicy } from '../../src/core/body.js'
import { readAnyChatRequest, readChatRequest } from '../../src/core/inference/request.js'
import { anyValue, outcome } from '../support/readers.js'
import { runs } from '../support/runs.js'

const SEED = 20261126

const role = fc.oneof(fc.constantFrom('system', 'developer', 'user', 'assistant', 'tool'), anyValue)
const content = fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 20 }) }, { weight: 1, arbitrary: anyValue }, { weight: 1, arbitrary: fc.constant([{ type: 'text', text: 'hi' }]) })

/** A message: usually `{ role, content }`, sometimes with another field, a field left out, or not an object. */
const message = fc.oneof(
  { weight: 6, arbitrary: fc.record({ role, content }) },
  { weight: 1, arbitrary: fc.record({ role, content, name: fc.string({ maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ role, content, tool_call_id: fc.string({ maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ role, content, nmae: fc.string({ maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ content }) },
  { weight: 1, arbitrary: fc.record({ role }) },
  { weight: 1, arbitrary: anyValue },
)

const body = fc
  .record(
    {
      model: fc.oneof({ weight: 5, arbitrary: fc.constantFrom('a/b', 'bench/chat', 'x') }, { weight: 1, arbitrary: anyValue }),
      messages: fc.oneof({ weight: 5, arbitrary: fc.array(message, { maxLength: 4 }) }, { weight: 1, arbitrary: anyValue }),
      stream: anyValue,
      max_tokens: fc.oneof(fc.integer({ min: -2, max: 100_000 }), anyValue),
      temperature: fc.oneof(fc.double({ min: 0, max: 2, noNaN: true }), anyValue),
      user: fc.oneof(fc.string({ maxLength: 4 }), anyValue),
      models: fc.constant(['a/b', 'c/d']),
      temprature: fc.constant(1),
      usage: fc.oneof(fc.constant({ include: true }), anyValue),
    },
    { requiredKeys: [] },
  )
  .map((b) => JSON.parse(JSON.stringify(b)) as Record<string, unknown>)

describe('the plain chat request reader', () => {
  it('gives what the field-by-field reader gives, or the same 400, for any body near its shape, unknown fields refused or listed', () => {
    fc.assert(
      fc.property(body, (b) => {
        expect(outcome(() => readChatRequest(b))).toStrictEqual(outcome(() => readAnyChatRequest(b)))
        expect(outcome(() => readChatRequest(b, REFUSE_UNKNOWN))).toStrictEqual(outcome(() => readAnyChatRequest(b, REFUSE_UNKNOWN)))
        const plain = unknownFieldsPolicy(false)
        const general = unknownFieldsPolicy(false)
        expect(outcome(() => readChatRequest(b, plain))).toStrictEqual(outcome(() => readAnyChatRequest(b, general)))
        expect(plain.ignored).toStrictEqual(general.ignored)
      }),
      { seed: SEED, numRuns: runs(3000), verbose: true },
    )
  })

  it('reads the common request itself, into an input of its own each time', () => {
    const b = { model: 'a/b', messages: [{ role: 'user', content: 'Hello' }], stream: true, max_tokens: 12 }
    const first = readChatRequest(b)
    expect(first).toStrictEqual(readAnyChatRequest(b))
    expect(first).toMatchObject({ models: ['a/b'], maxTokens: 12, stream: true, parameters: ['max_tokens'], messages: [{ role: 'user', text: 'Hello' }] })
    // Nothing is shared between requests: routing may keep or change what it is handed.
    const second = readChatRequest(b)
    expect(second.provider).not.toBe(first.provider)
    expect(second.parameters).not.toBe(first.parameters)
  })

  it('gives what the field-by-field reader gives for every body of its own shape', () => {
    const plain = fc.record(
      {
        model: fc.string({ minLength: 1, maxLength: 8 }),
        messages: fc.array(fc.record({ role: fc.constantFrom('system', 'developer', 'user', 'assistant'), content: fc.string({ maxLength: 30 }) }), { minLength: 1, maxLength: 5 }),
        stream: fc.boolean(),
        max_tokens: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 1_000_000 })),
      },
      { requiredKeys: ['model', 'messages'] },
    )
    fc.assert(
      fc.property(plain, (b) => {
        expect(readChatRequest(b)).toStrictEqual(readAnyChatRequest(b))
      }),
      { seed: SEED, numRuns: runs(1000) },
    )
  })

  it('leaves a body with a field it does not read to the general reader, which names it or lists it', () => {
    const refused = (b: Record<string, unknown>) => (outcome(() => readChatRequest(b)) as { metadata: { parameter: string } }).metadata.parameter
    expect(refused({ model: 'a/b', messages: [{ role: 'user', content: 'x' }], colour: 'red' })).toBe('colour')
    const lenient = unknownFieldsPolicy(false)
    expect(readChatRequest({ model: 'a/b', messages: [{ role: 'user', content: 'x', nmae: 'n' }], colour: 'red' }, lenient).messages).toEqual([{ role: 'user', text: 'x', mediaParts: 0, toolCallChars: 0 }])
    expect(lenient.ignored).toEqual(['colour', 'messages[0].nmae'])
    expect(refused({ model: 'a/b', messages: [{ role: 'tool', content: 'x' }] })).toBe('messages[0].tool_call_id')
    expect(refused({ model: '', messages: [{ role: 'user', content: 'x' }] })).toBe('model')
  })
})
