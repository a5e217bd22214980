// Leaving a stream early through plain `setupServer(...createHandlers(sim))` after a pause: MSW's
// clone tees the body, and neither branch may read ahead of its reader, however long the client
// waits between its last read and its cancel. A branch that pulled a frame ahead would have the
// client charged, and the journal count, a frame it never read (decisions/0045).
import { setupServer } from 'msw/node'
import { afterEach, describe, expect, it } from 'vitest'
import { type SimResponse, createSimulator, estimateCost } from '../../src/index.js'
import { createHandlers, toResponse } from '../../src/msw/index.js'

const BASE = 'https://openrouter.ai/api/v1'
const PRICING = { prompt: '0.000001', completion: '0.000002', request: '0.0001' }
const at = Date.parse('2026-03-02T10:00:00Z')
/** 63 characters: content chunks of 16, 16, 16 and 15 characters, 4 tokens each. */
const REPLY = 'One two three four five six seven eight nine ten eleven twelve.'
/** 'Count.' is 2 tokens, plus 4 for the message. */
const PROMPT_TOKENS = 6
const pace = { p50: 400, p75: 400, p90: 400, p99: 400 }

let close: (() => void) | undefined
afterEach(() => close?.())

function mounted() {
  const sim = createSimulator({ world: 'empty', seed: 3, now: at })
  const org = sim.users.create({ name: 'Acme', credits: { total: 100 } })
  const { key } = sim.keys.create({ userId: org.id })
  sim.models.create({ id: 'acme/fast', endpoints: [{ provider_name: 'Swift', pricing: PRICING, latency_last_30m: { p50: 20, p75: 20, p90: 20, p99: 20 }, throughput_last_30m: pace }] })
  sim.inference.respond({ reply: { content: REPLY } })
  const server = setupServer(...createHandlers(sim))
  server.listen({ onUnhandledRequest: 'error' })
  close = () => server.close()
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  return { sim, headers }
}

const costOf = (completionTokens: number): number => Number(estimateCost(PRICING, { promptTokens: PROMPT_TOKENS, completionTokens }, { at }))
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

describe('a client that pauses before leaving a stream through createHandlers', () => {
  for (const frames of [1, 2]) {
    it(`reads ${frames} frame${frames === 1 ? '' : 's'}, waits, cancels: charged and journaled for what it read, not a frame more`, async () => {
      const { sim, headers } = mounted()
      const res = await fetch(`${BASE}/chat/completions`, { method: 'POST', headers, body: JSON.stringify({ model: 'acme/fast', messages: [{ role: 'user', content: 'Count.' }], stream: true }) })
      const reader = (res.body as ReadableStream<Uint8Array>).getReader()
      for (let i = 0; i < frames; i++) expect((await reader.read()).done).toBe(false)
      // Time enough for any read-ahead to land before the client leaves.
      await pause(50)
      await reader.cancel()
      const [entry] = sim.journal.list({ operation: 'createChatCompletion' })
      expect([entry?.outcome, entry?.cutShort?.framesSent]).toEqual(['cut-short', frames])
      // The first frame is the comment; each one after it is a content chunk of 4 tokens.
      const tokens = 4 * (frames - 1)
      const generation = (await (await fetch(`${BASE}/generation?id=${entry?.cutShort?.generationId}`, { headers })).json()) as { data: Record<string, unknown> }
      expect(generation.data).toMatchObject({ cancelled: true, tokens_completion: tokens, total_cost: costOf(tokens) })
    })
  }
})

const FRAMES = ['data: one\n\n', 'data: two\n\n', 'data: three\n\n']

/** A stream answer of three frames built by hand; `told` lists every cancel the simulator was given. */
function stream() {
  const told: number[] = []
  const response = {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    type: 'stream',
    body: FRAMES.map((data, i) => ({ data, atMs: i })),
    cancel: (framesSent: number) => {
      told.push(framesSent)
      return true
    },
  } as unknown as SimResponse
  return { response, told }
}

const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes)
const post = (signal?: AbortSignal) => new Request('https://sim.test/api/v1/chat/completions', { method: 'POST', ...(signal && { signal }) })

describe('toResponse: the simulator is told of a client leaving once, and only before the end', () => {
  it("a reader's cancel alone, with no abort after it, tells the frames read", async () => {
    const { response, told } = stream()
    const reader = (toResponse(response, 'POST', post()).body as ReadableStream<Uint8Array>).getReader()
    expect(text((await reader.read()).value)).toBe(FRAMES[0])
    await reader.cancel()
    expect(told).toEqual([1])
  })

  it("an abort, then the cancel of the client's branch of MSW's clone: told once", async () => {
    const { response, told } = stream()
    const controller = new AbortController()
    const res = toResponse(response, 'POST', post(controller.signal))
    const copy = res.clone()
    const client = (res.body as ReadableStream<Uint8Array>).getReader()
    expect(text((await client.read()).value)).toBe(FRAMES[0])
    controller.abort(new Error('gone'))
    await client.cancel()
    await (copy.body as ReadableStream<Uint8Array>).cancel()
    expect(told).toEqual([1])
  })

  it("MSW's copy read to the end first: the client's later cancel of frames already made tells nothing", async () => {
    const { response, told } = stream()
    const res = toResponse(response, 'POST', post())
    const copy = res.clone()
    expect(await copy.text()).toBe(FRAMES.join(''))
    const client = (res.body as ReadableStream<Uint8Array>).getReader()
    expect(text((await client.read()).value)).toBe(FRAMES[0])
    await client.cancel()
    expect(told).toEqual([])
  })
})
