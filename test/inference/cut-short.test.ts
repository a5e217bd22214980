// Every outcome recorded (issue 36, decisions/0044): a stream the client left early is journaled
// `'cut-short'` with the frames and bytes it was sent and what it was charged, its generation's
// cost; a non-streamed answer whose client left during a real latency wait is `'client-left'`,
// charged whole. Through sim.handle here; through MSW and the server in their own files.
import { describe, expect, it } from 'vitest'
import { createSimulator, estimateCost, type SimResponse } from '../../src/index.js'

type Stream = Extract<SimResponse, { type: 'stream' }>
type Json = Extract<SimResponse, { type: 'json' }>

const PRICING = { prompt: '0.000001', completion: '0.000002', request: '0.0001' }
const at = Date.parse('2026-03-02T10:00:00Z')
/** 63 characters: content chunks of 16, 16, 16 and 15 characters, 4 tokens each. */
const REPLY = 'One two three four five six seven eight nine ten eleven twelve.'
const fast = { p50: 20, p75: 20, p90: 20, p99: 20 }
/** 'Count.' is 2 tokens, plus 4 for the message. */
const PROMPT_TOKENS = 6

function world() {
  const sim = createSimulator({ world: 'empty', seed: 3, now: at })
  const org = sim.users.create({ name: 'Acme', credits: { total: 100 } })
  const { key, record } = sim.keys.create({ userId: org.id })
  sim.models.create({ id: 'acme/fast', endpoints: [{ provider_name: 'Swift', pricing: PRICING, latency_last_30m: fast, throughput_last_30m: { p50: 400, p75: 400, p90: 400, p99: 400 } }] })
  sim.inference.respond({ reply: { content: REPLY } })
  const send = (stream: boolean): SimResponse =>
    sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key}`, body: JSON.stringify({ model: 'acme/fast', messages: [{ role: 'user', content: 'Count.' }], stream }) })
  const generation = (id: string): any => (sim.handle({ method: 'GET', path: '/generation', query: `id=${id}`, authorization: `Bearer ${key}` }).body as { data: unknown }).data
  const usage = (): number => sim.keys.get(record.hash)!.usage
  return { sim, send, generation, usage }
}

const utf8 = (text: string): number => new TextEncoder().encode(text).byteLength
const idOf = (response: Stream): string => JSON.parse((response.body[1] as { data: string }).data.slice(6)).id

describe('a stream the client left early', () => {
  it('is journaled cut-short with the frames and bytes sent, charged its generation cost, and shows only the frames sent', () => {
    const { sim, send, generation, usage } = world()
    const response = send(true) as Stream
    // The comment and two content chunks (8 tokens).
    expect(response.cancel?.(3)).toBe(true)
    const [entry] = sim.journal.list()
    const cost = Number(estimateCost(PRICING, { promptTokens: PROMPT_TOKENS, completionTokens: 8 }, { at }))
    expect(entry?.outcome).toBe('cut-short')
    expect(entry?.status).toBe(200)
    expect(entry?.cutShort).toEqual({
      framesSent: 3,
      bytesSent: response.body.slice(0, 3).reduce((sum, frame) => sum + utf8(frame.data), 0),
      charged: cost,
      generationId: idOf(response),
    })
    expect(generation(idOf(response)).total_cost).toBe(entry?.cutShort?.charged)
    expect(usage()).toBe(cost)
    // The stored frames are those sent: no usage chunk at the full cost.
    expect(entry?.response.body).toEqual(response.body.slice(0, 3))
    expect(JSON.stringify(entry?.response.body)).not.toContain('"usage"')
  })

  it('is found by the outcome filter, and other entries have no cutShort', () => {
    const { sim, send } = world()
    send(true)
    ;(send(true) as Stream).cancel?.(2)
    send(false)
    expect(sim.journal.list({ outcome: 'cut-short' }).map((e) => e.seq)).toEqual([2])
    expect(sim.journal.list({ outcome: 'response' }).map((e) => [e.seq, e.cutShort])).toEqual([
      [1, null],
      [3, null],
    ])
  })

  it('left after the finish chunk is still cut short, charged in full as its generation', () => {
    const { sim, send, generation, usage } = world()
    const response = send(true) as Stream
    const full = generation(idOf(response)).total_cost
    // Frames: the comment, 4 content chunks, the finish chunk, the usage chunk, [DONE]: 6 sent.
    expect(response.cancel?.(6)).toBe(false)
    const [entry] = sim.journal.list()
    expect(entry?.outcome).toBe('cut-short')
    expect(entry?.cutShort).toMatchObject({ framesSent: 6, charged: full })
    expect(usage()).toBe(full)
    expect(entry?.response.body).toHaveLength(6)
  })

  it('stays a response when every frame was sent, and only the first cancel counts', () => {
    const { sim, send } = world()
    const whole = send(true) as Stream
    expect(whole.cancel?.(whole.body.length)).toBe(false)
    const cut = send(true) as Stream
    cut.cancel?.(2)
    expect(cut.cancel?.(1)).toBe(false)
    expect(sim.journal.list().map((e) => [e.outcome, e.cutShort?.framesSent ?? null])).toEqual([
      ['response', null],
      ['cut-short', 2],
    ])
  })

  it('cut short with 0 frames (the client left during a real wait before the stream) is charged the prompt alone', () => {
    const { sim, send, generation } = world()
    sim.latency.set({ operation: 'createChatCompletion', ms: 500, real: true })
    const response = send(true) as Stream
    response.cancel?.(0)
    const [entry] = sim.journal.list()
    expect(entry?.cutShort).toMatchObject({ framesSent: 0, bytesSent: 0, charged: Number(estimateCost(PRICING, { promptTokens: PROMPT_TOKENS, completionTokens: 0 }, { at })) })
    expect(generation(idOf(response)).total_cost).toBe(entry?.cutShort?.charged)
    expect(entry?.response.body).toEqual([])
  })
})

describe('a non-streamed completion whose client left during a real latency wait', () => {
  it('is journaled client-left and charged whole', () => {
    const { sim, send, generation, usage } = world()
    sim.latency.set({ operation: 'createChatCompletion', ms: 500, real: true })
    const response = send(false) as Json
    const id = (response.body as { id: string }).id
    const full = generation(id).total_cost
    expect(response.cancel?.(0)).toBe(false)
    const [entry] = sim.journal.list()
    expect(entry).toMatchObject({ outcome: 'client-left', status: 200, cutShort: null })
    expect(sim.journal.list({ outcome: 'client-left' })).toHaveLength(1)
    expect(generation(id)).toMatchObject({ cancelled: false, total_cost: full })
    expect(usage()).toBe(full)
    // A second report changes nothing; a frame count other than 0 is refused by name.
    expect(response.cancel?.(0)).toBe(false)
    expect(() => response.cancel?.(1)).toThrow(/"framesSent" must be 0/)
  })

  it('has no cancel without a real wait: the adapters send it at once', () => {
    const { sim, send } = world()
    expect((send(false) as Json).cancel).toBeUndefined()
    sim.latency.set({ operation: 'createChatCompletion', ms: 500 })
    expect((send(false) as Json).cancel).toBeUndefined()
  })

  it('the journal filter refuses an unknown outcome, listing the five', () => {
    const { sim } = world()
    expect(() => sim.journal.list({ outcome: 'cut' as never })).toThrow('"filter.outcome" must be one of "response", "network-error", "never", "cut-short", "client-left"')
  })
})
