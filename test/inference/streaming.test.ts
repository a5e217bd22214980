// Streaming through both adapters: frames as server-sent events, paced for real only when asked.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { chunkHead, chunkTail, streamFrames } from '../../src/core/inference/stream.js'
import type { FinishReason } from '../../src/core/inference/wire.js'
import type { SimResponse } from '../../src/index.js'
import { BASE, useSimulatorServer } from '../support/server.js'
import { runs } from '../support/runs.js'
import { body, checkEvents, streamingWorld } from './stream-support.js'

const { serve } = useSimulatorServer()

describe('streamed completions', () => {
  it('are frames with offsets from the time to first token, paced at the endpoint\'s throughput', () => {
    const { sim, key } = streamingWorld()
    const response = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key}`, body }) as Extract<SimResponse, { type: 'stream' }>
    expect(response.type).toBe('stream')
    expect(response.headers['content-type']).toBe('text/event-stream')
    const offsets = response.body.map((frame) => frame.atMs)
    expect(offsets[0]).toBe(0)
    expect(offsets[1]).toBe(20)
    expect([...offsets].sort((a, b) => a - b)).toEqual(offsets)
    // 63 characters at 400 tokens (1,600 characters) a second: about 40 ms after the first token.
    expect(offsets.at(-1)).toBeGreaterThanOrEqual(55)
    expect(sim.clock.nowMs()).toBe(Date.parse('2026-03-02T10:00:00Z'))
  })

  it('reach fetch through MSW as text/event-stream, all at once unless a latency rule asks for real waits', async () => {
    const { sim, key } = streamingWorld()
    serve(sim)
    const post = () => fetch(`${BASE}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body })
    let started = performance.now()
    const res = await post()
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    checkEvents(await res.text())
    expect(performance.now() - started).toBeLessThan(1000)
    sim.latency.set({ operation: 'createChatCompletion', ms: 1, real: true })
    started = performance.now()
    checkEvents(await (await post()).text())
    expect(performance.now() - started).toBeGreaterThanOrEqual(50)
  })

  it('end with a finish chunk (empty delta), a usage chunk repeating its choice, and [DONE]; every delta says the assistant', () => {
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, cost: 0, is_byok: false, prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0, audio_tokens: 0, video_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0, image_tokens: 0, audio_tokens: 0 }, cost_details: { upstream_inference_cost: null, upstream_inference_prompt_cost: 0, upstream_inference_completions_cost: 0 } }
    const frames = streamFrames({
      id: 'gen-1',
      provider: 'P',
      model: 'a/b',
      created: 1,
      message: { role: 'assistant', content: 'Hello there, this is more than sixteen characters.', refusal: null, reasoning: null, tool_calls: [{ type: 'function', index: 0, id: 'call_1', function: { name: 'f', arguments: '{}' } }] },
      finishReason: 'tool_calls',
      usage,
      latency: 10,
      throughput: 100,
    })
    expect(frames.at(-1)?.data).toBe('data: [DONE]\n\n')
    const chunks = frames.slice(1, -1).map((f) => JSON.parse(f.data.slice(6)))
    for (const chunk of chunks) {
      expect(Object.keys(chunk)).toEqual(expect.arrayContaining(['id', 'object', 'created', 'model', 'provider', 'choices']))
      expect(chunk).toMatchObject({ id: 'gen-1', object: 'chat.completion.chunk', created: 1, model: 'a/b', provider: 'P' })
    }
    const content = chunks.slice(0, -2)
    expect(content.length).toBeGreaterThan(2)
    for (const chunk of content) expect(chunk.choices[0].delta.role).toBe('assistant')
    // A call streams as the service streams one: index, id, type and name with empty arguments, then the arguments.
    expect(content.at(-2).choices[0].delta).toEqual({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] })
    expect(content.at(-1).choices[0].delta).toEqual({ role: 'assistant', content: null, tool_calls: [{ index: 0, function: { arguments: '{}' } }] })
    const finish = { index: 0, delta: {}, finish_reason: 'tool_calls', native_finish_reason: 'tool_calls', logprobs: null }
    expect(chunks.at(-2).choices).toEqual([finish])
    expect(chunks.at(-2).usage).toBeUndefined()
    expect(chunks.at(-1).choices).toEqual([finish])
    expect(chunks.at(-1).usage).toEqual(usage)
  })
})

describe('a chunk written from its parts', () => {
  // The stream writes each chunk's event from its head, delta and tail rather than stringifying the
  // chunk (chunkHead, chunkTail): the bytes must be JSON.stringify's, for any id, provider, model,
  // time, finish reason, delta and usage.
  it('is the bytes JSON.stringify writes of the chunk', () => {
    const text = fc.string({ unit: 'binary', maxLength: 30 })
    const usage = fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null)), { maxKeys: 4 })
    const delta = fc.oneof(fc.constant({}), fc.record({ role: fc.constant('assistant'), content: fc.option(text) }))
    fc.assert(
      fc.property(text, text, text, fc.integer({ min: 0, max: 2 ** 40 }), fc.constantFrom('stop', 'length', 'tool_calls', 'content_filter', 'error', null), delta, fc.option(usage), (id, provider, model, created, finish, d, u) => {
        const chunk: Record<string, unknown> = { id, provider, model, object: 'chat.completion.chunk', created, choices: [{ index: 0, delta: d, finish_reason: finish, native_finish_reason: finish, logprobs: null }] }
        if (u !== null) chunk['usage'] = u
        const built = `${chunkHead({ id, provider, model, created })}${JSON.stringify(d)}${chunkTail(finish as FinishReason | null, u === null ? '' : `,"usage":${JSON.stringify(u)}`)}`
        expect(built).toBe(`data: ${JSON.stringify(chunk)}\n\n`)
      }),
      { seed: 20261128, numRuns: runs(500) },
    )
  })
})
