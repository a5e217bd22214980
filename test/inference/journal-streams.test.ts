// The journal keeps a stream's means to make its frames again, not the frames (a thousand 100-chunk
// streams were some 30 MB held, and garbage collection half a streamed request's cost). What
// `list()` shows must be, frame for frame, what `handle()` returned: chat and Responses streams,
// with reasoning and tool calls, cut by a mid-stream fault, disconnected early, and after later
// requests have moved the simulator on.
import { describe, expect, it } from 'vitest'
import type { SimResponse } from '../../src/index.js'
import { MODEL, chatWorld } from './support.js'

type Stream = Extract<SimResponse, { type: 'stream' }>

function send(sim: ReturnType<typeof chatWorld>['sim'], key: string, path: string, body: Record<string, unknown>): Stream {
  const response = sim.handle({ method: 'POST', path, authorization: `Bearer ${key}`, body: JSON.stringify(body) })
  expect(response.type, JSON.stringify(response.body)).toBe('stream')
  return response as Stream
}

/** The frames the journal shows for the entry of sequence number `seq`. */
function journalled(sim: ReturnType<typeof chatWorld>['sim'], seq: number): unknown {
  const entry = sim.journal.list().find((e) => e.seq === seq)
  return entry?.response.body
}

describe('the journal of streamed answers', () => {
  it('shows the frames handle() returned, for chat and Responses streams of every kind of reply', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ match: { lastUserMessage: 'think' }, reply: { reasoning: 'Weighing it up. '.repeat(5), content: 'Done thinking.' } })
    sim.inference.respond({ match: { lastUserMessage: 'tool' }, reply: { toolCalls: [{ name: 'lookup', arguments: '{"q":"weather"}' }] } })
    sim.inference.respond({ match: { lastUserMessage: 'long' }, reply: { content: 'A long answer, in many pieces. '.repeat(12) } })
    const streams: Stream[] = []
    for (const text of ['think', 'tool', 'long', 'plain']) {
      streams.push(send(sim, key, '/chat/completions', { model: MODEL, stream: true, messages: [{ role: 'user', content: text }] }))
      streams.push(send(sim, key, '/responses', { model: MODEL, stream: true, input: text }))
    }
    // Later requests move the random stream, the clock's usage and the generation store on.
    sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key}`, body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'after' }] }) })
    streams.forEach((stream, i) => {
      expect(stream.body.length).toBeGreaterThan(3)
      expect(journalled(sim, i + 1), `stream ${i}`).toEqual(stream.body)
    })
    // Asked twice, made twice alike; and a copy each time (editing one changes nothing).
    const first = sim.journal.list()[0]?.response.body as { data: string }[]
    first[1]!.data = 'edited'
    expect(journalled(sim, 1)).toEqual(streams[0]!.body)
  })

  it('shows the frames of a stream cut by a mid-stream fault, and of one the client left early', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { content: 'Sixteen chars. '.repeat(10) } })
    sim.faults.add({ operation: 'createChatCompletion', afterChunks: 2, respond: { status: 502 }, times: 1 })
    const cut = send(sim, key, '/chat/completions', { model: MODEL, stream: true, messages: [{ role: 'user', content: 'go' }] })
    expect(cut.body.at(-1)?.data).toContain('"finish_reason":"error"')
    const left = send(sim, key, '/chat/completions', { model: MODEL, stream: true, messages: [{ role: 'user', content: 'go' }] })
    expect(left.cancel?.(3)).toBe(true)
    expect(journalled(sim, 1)).toEqual(cut.body)
    // The journal shows what the client was sent: the comment and two content chunks, no usage chunk (decisions/0044).
    expect(journalled(sim, 2)).toEqual(left.body.slice(0, 3))
    expect(sim.journal.list()[1]?.outcome).toBe('cut-short')
  })

  it('shows the frames with bodies: "none" left out and simulated latency kept', () => {
    const { sim, key } = chatWorld()
    sim.latency.set({ operation: 'createChatCompletion', ms: 250 })
    const stream = send(sim, key, '/chat/completions', { model: MODEL, stream: true, messages: [{ role: 'user', content: 'hi' }] })
    const [entry] = sim.journal.list()
    expect(entry?.response).toEqual({ status: 200, headers: stream.headers, type: 'stream', delayMs: 250, body: stream.body })
    expect(entry?.delayMs).toBe(250)
  })
})
