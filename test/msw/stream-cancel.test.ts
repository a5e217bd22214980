// Leaving a stream early through plain `setupServer(...createHandlers(sim))`, the README's first
// set-up, with no `forwardStreamCancels` (decisions/0045): a fetch aborted mid-stream or a reader
// cancelled ends the stream, the next request answers, and the generation says `cancelled: true`,
// charged for the frames the client was given. msw 3 runs the same through the docs example
// "leaving a stream early" (test/pack/readme-examples.sh, Node 24).
import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import { OpenRouter } from '@openrouter/sdk'
import { setupServer } from 'msw/node'
import { afterEach, describe, expect, it } from 'vitest'
import { createSimulator, estimateCost } from '../../src/index.js'
import { createHandlers } from '../../src/msw/index.js'

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

/** A simulator behind plain `setupServer(...createHandlers(sim))`; `real`: frames paced in real time (10 ms each). */
function mounted(real = false) {
  const sim = createSimulator({ world: 'empty', seed: 3, now: at })
  const org = sim.users.create({ name: 'Acme', credits: { total: 100 } })
  const { key } = sim.keys.create({ userId: org.id })
  sim.models.create({ id: 'acme/fast', endpoints: [{ provider_name: 'Swift', pricing: PRICING, latency_last_30m: { p50: 20, p75: 20, p90: 20, p99: 20 }, throughput_last_30m: pace }] })
  sim.inference.respond({ reply: { content: REPLY } })
  if (real) sim.latency.set({ operation: 'createChatCompletion', ms: 1, real: true })
  const server = setupServer(...createHandlers(sim))
  server.listen({ onUnhandledRequest: 'error' })
  close = () => server.close()
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  const generation = async (id: string) => ((await within(fetch(`${BASE}/generation?id=${id}`, { headers }), 'the next request')).json() as Promise<{ data: Record<string, unknown> }>).then((b) => b.data)
  return { sim, key, headers, generation }
}

/** `promise`, or a failure naming `what` after 3 s: a hang fails here, not at the test's timeout. */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not settle in 3 s`)), 3000)))
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** Opens a streamed completion and reads its first three frames (the comment, two content chunks: 8 tokens). */
async function readThree(headers: Record<string, string>, signal: AbortSignal | null = null) {
  const res = await fetch(`${BASE}/chat/completions`, { method: 'POST', headers, signal, body: JSON.stringify({ model: 'acme/fast', messages: [{ role: 'user', content: 'Count.' }], stream: true }) })
  const reader = (res.body as ReadableStream<Uint8Array>).getReader()
  const texts: string[] = []
  for (let i = 0; i < 3; i++) texts.push(new TextDecoder().decode((await reader.read()).value))
  const id = (/"id":"([^"]+)"/.exec(texts.join('')) ?? [])[1] as string
  return { reader, id }
}

const costOf = (completionTokens: number): number => Number(estimateCost(PRICING, { promptTokens: PROMPT_TOKENS, completionTokens }, { at }))

/** The V8 collector, callable from a test: no `--expose-gc` on the command line needed. */
function collector(): () => void {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

describe('leaving a stream early through plain createHandlers', () => {
  for (const real of [false, true]) {
    const paced = real ? ', frames paced in real time' : ''
    it(`a reader's cancel settles, the next request answers, and only what was read is charged${paced}`, async () => {
      const { headers, generation } = mounted(real)
      const { reader, id } = await readThree(headers)
      await within(reader.cancel(), "the reader's cancel")
      expect(await generation(id)).toMatchObject({ cancelled: true, tokens_completion: 8, total_cost: costOf(8), finish_reason: null })
    })

    it(`a fetch aborted mid-stream ends the body as fetch does, and only what was read is charged${paced}`, async () => {
      const { headers, generation } = mounted(real)
      const controller = new AbortController()
      const { reader, id } = await readThree(headers, controller.signal)
      controller.abort()
      await expect(within(reader.read(), 'the read after the abort')).rejects.toMatchObject({ name: 'AbortError' })
      expect(await generation(id)).toMatchObject({ cancelled: true, tokens_completion: 8, total_cost: costOf(8) })
    })
  }

  it('an abort after a garbage collection still reaches the stream (the request is held, not only its signal)', async () => {
    const gc = collector()
    const { headers, generation } = mounted(true)
    const controller = new AbortController()
    const { reader, id } = await readThree(headers, controller.signal)
    gc()
    await new Promise((resolve) => setTimeout(resolve, 5))
    gc()
    controller.abort()
    await expect(within(reader.read(), 'the read after the abort')).rejects.toMatchObject({ name: 'AbortError' })
    expect(await generation(id)).toMatchObject({ cancelled: true, tokens_completion: 8 })
  })

  it('a fetch aborted during a real latency wait, before the stream, is charged for the prompt only', async () => {
    const { sim, headers, generation } = mounted()
    sim.latency.set({ operation: 'createChatCompletion', ms: 150, real: true })
    const controller = new AbortController()
    const request = fetch(`${BASE}/chat/completions`, { method: 'POST', headers, signal: controller.signal, body: JSON.stringify({ model: 'acme/fast', messages: [{ role: 'user', content: 'Count.' }], stream: true }) })
    setTimeout(() => controller.abort(), 20)
    await expect(within(request, 'the aborted fetch')).rejects.toMatchObject({ name: 'AbortError' })
    // The handler answers once the wait is over, and finds the client gone.
    await new Promise((resolve) => setTimeout(resolve, 250))
    // The journal keeps the frames sent (none here) and names the generation (decisions/0044).
    const [entry] = sim.journal.list({ operation: 'createChatCompletion' })
    expect([entry?.outcome, entry?.cutShort?.framesSent]).toEqual(['cut-short', 0])
    expect(await generation(entry!.cutShort!.generationId)).toMatchObject({ cancelled: true, tokens_completion: 0, total_cost: costOf(0) })
  })

  it("a stream read to the end is charged in full, and an abort after it changes nothing", async () => {
    const { headers, generation } = mounted()
    const controller = new AbortController()
    const res = await fetch(`${BASE}/chat/completions`, { method: 'POST', headers, signal: controller.signal, body: JSON.stringify({ model: 'acme/fast', messages: [{ role: 'user', content: 'Count.' }], stream: true }) })
    const text = await within(res.text(), 'reading the whole stream')
    controller.abort()
    const id = (/"id":"([^"]+)"/.exec(text) ?? [])[1] as string
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true)
    expect(await generation(id)).toMatchObject({ cancelled: false, tokens_completion: 16, total_cost: costOf(16) })
  })

  it("MSW's own copy of the answer, read by a life-cycle listener, ends where the client left", async () => {
    const { sim, headers, generation } = mounted(true)
    close?.()
    const server = setupServer(...createHandlers(sim))
    server.listen({ onUnhandledRequest: 'error' })
    close = () => server.close()
    const copies: Promise<string>[] = []
    server.events.on('response:mocked', ({ response }) => void copies.push(response.text()))
    const { reader, id } = await readThree(headers)
    await within(reader.cancel(), "the reader's cancel")
    // The copy's reads pull frames too (as a tee's do), so it may be a frame or two ahead of the client.
    const copy = await within(copies[0] as Promise<string>, "MSW's copy")
    expect(copy).not.toContain('[DONE]')
    expect(await generation(id)).toMatchObject({ cancelled: true })
  })

  it("the official SDK: breaking out of a stream settles, and the generation says cancelled", async () => {
    const { key } = mounted()
    const sdk = new OpenRouter({ apiKey: key, serverURL: BASE, retryConfig: { strategy: 'none' } })
    const run = async () => {
      const chunks = (await sdk.chat.send({ chatRequest: { model: 'acme/fast', messages: [{ role: 'user', content: 'Count.' }], stream: true } })) as AsyncIterable<{ id: string }>
      for await (const chunk of chunks) return chunk.id
      return ''
    }
    const id = await within(run(), "the SDK's break")
    const generation = (await within(sdk.generations.getGeneration({ id }), 'the next request')).data
    // The SDK reads ahead of the loop (its own stream buffers an event), so a few chunks went out.
    expect(generation.cancelled).toBe(true)
    expect(generation.tokensCompletion).toBeLessThan(16)
  })
})

// MSW's clone tees the body: neither branch may read ahead of its reader, however long the client
// waits between its last read and its cancel, or the client is charged, and the journal counts, a
// frame it never read.
describe('a client that pauses before leaving a stream through createHandlers', () => {
  for (const frames of [1, 2]) {
    it(`reads ${frames} frame${frames === 1 ? '' : 's'}, waits, cancels: charged and journaled for what it read, not a frame more`, async () => {
      const { sim, headers, generation } = mounted()
      const res = await fetch(`${BASE}/chat/completions`, { method: 'POST', headers, body: JSON.stringify({ model: 'acme/fast', messages: [{ role: 'user', content: 'Count.' }], stream: true }) })
      const reader = (res.body as ReadableStream<Uint8Array>).getReader()
      for (let i = 0; i < frames; i++) expect((await reader.read()).done).toBe(false)
      // Time enough for any read-ahead to land before the client leaves.
      await new Promise((resolve) => setTimeout(resolve, 50))
      await reader.cancel()
      const [entry] = sim.journal.list({ operation: 'createChatCompletion' })
      expect([entry?.outcome, entry?.cutShort?.framesSent]).toEqual(['cut-short', frames])
      // The first frame is the comment; each one after it is a content chunk of 4 tokens.
      const tokens = 4 * (frames - 1)
      expect(await generation(entry?.cutShort?.generationId as string)).toMatchObject({ cancelled: true, tokens_completion: tokens, total_cost: costOf(tokens) })
    })
  }
})
