// A chat completion's JSON text is written field by field (no object is built for the wire); it
// must be, byte for byte, JSON.stringify of the body `sim.handle` shows. Checked over random
// replies (any text, lone surrogates included, reasoning, tool calls, stated usage, a cut by
// max_tokens) and random prices, so costs of every magnitude are written.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { toWire } from '../../src/core/http.js'
import type { AnsweredResponse } from '../../src/core/http.js'
import { runs } from '../support/runs.js'

const SEED = 20261126

const price = fc.oneof(
  fc.constantFrom('0', '0.000001', '0.0000005', '0.00000000001', '3', '1000'),
  fc.tuple(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 12 })).map(([units, scale]) => (scale === 0 ? String(units) : (units / 10 ** scale).toFixed(scale))),
)
const text = fc.string({ unit: 'binary', maxLength: 60 })
const reply = fc.record(
  {
    content: fc.option(text, { nil: undefined }),
    reasoning: fc.option(text, { nil: undefined }),
    toolCalls: fc.option(fc.array(fc.record({ name: fc.string({ minLength: 1, maxLength: 12 }), arguments: text }), { maxLength: 2 }), { nil: undefined }),
    usage: fc.option(fc.record({ promptTokens: fc.nat({ max: 100_000 }), completionTokens: fc.nat({ max: 100_000 }) }), { nil: undefined }),
  },
  { requiredKeys: [] },
)

describe('the JSON text of a chat completion', () => {
  it('is JSON.stringify of its body, byte for byte, and its byte length is the text’s', () => {
    fc.assert(
      fc.property(reply, price, price, fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constant(100_000)), text, (given, prompt, completion, maxTokens, question) => {
        const sim = createSimulator({ world: 'empty', seed: 3, now: '2026-03-02T23:30:00Z' })
        const org = sim.users.create({ name: 'Acme', credits: { total: 1_000_000_000 } })
        const { key } = sim.keys.create({ userId: org.id })
        sim.models.create({ id: 'acme/m', endpoints: [{ provider_name: 'Alpha', pricing: { prompt, completion } }] })
        sim.inference.respond({ reply: Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) })
        const body = { model: 'acme/m', messages: [{ role: 'user', content: question }], max_tokens: maxTokens }
        const response = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key}`, body: JSON.stringify(body) })
        // The wire's text first: reading `body` builds the object (and withdraws the written text).
        const wire = toWire(response as AnsweredResponse, 'POST')
        expect(response.status, wire.body as string).toBe(200)
        expect(wire.body).toBe(JSON.stringify(response.body))
        expect(Number(wire.headers['content-length'])).toBe(new TextEncoder().encode(wire.body as string).byteLength)
      }),
      { seed: SEED, numRuns: runs(300) },
    )
  })

  it('streamed, writes each chunk as JSON.stringify would, its usage chunk with the usage the JSON answer carries', () => {
    fc.assert(
      fc.property(reply, price, price, text, (given, prompt, completion, question) => {
        const sim = createSimulator({ world: 'empty', seed: 3, now: '2026-03-02T23:30:00Z' })
        const org = sim.users.create({ name: 'Acme', credits: { total: 1_000_000_000 } })
        const { key } = sim.keys.create({ userId: org.id })
        sim.models.create({ id: 'acme/m', endpoints: [{ provider_name: 'Alpha', pricing: { prompt, completion } }] })
        sim.inference.respond({ reply: Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) })
        const ask = (stream: boolean) => sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key}`, body: JSON.stringify({ model: 'acme/m', stream, messages: [{ role: 'user', content: question }] }) })
        const answer = ask(false)
        const streamed = ask(true)
        expect(streamed.type).toBe('stream')
        const frames = (streamed.body as readonly { data: string }[]).map((frame) => frame.data)
        expect(frames.at(-1)).toBe('data: [DONE]\n\n')
        // The stream's comment frames (`: OPENROUTER PROCESSING`) aside.
        const chunks = frames.filter((data) => data.startsWith('data: {')).map((data) => {
          const chunk = JSON.parse(data.slice('data: '.length)) as { usage?: unknown }
          expect(data).toBe(`data: ${JSON.stringify(chunk)}\n\n`)
          return chunk
        })
        expect(chunks.at(-1)?.usage).toEqual((answer.body as { usage: unknown }).usage)
      }),
      { seed: SEED, numRuns: runs(200) },
    )
  })
})
