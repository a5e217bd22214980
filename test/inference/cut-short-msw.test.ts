// Every outcome recorded through MSW (issue 36, decisions/0044): a fetch aborted with an
// AbortController after a few chunks of a stream is journaled `'cut-short'` with what it was
// sent and charged, its generation's cost; one aborted during a real latency wait before a
// non-streamed answer is `'client-left'`, charged whole. The MSW server here is set up as the
// README says (`createHandlers`, and `forwardStreamCancels`, in test/support/server.ts).
import { describe, expect, it, vi } from 'vitest'
import { estimateCost } from '../../src/index.js'
import { BASE, useSimulatorServer } from '../support/server.js'
import { SLOW_AT as at, SLOW_PRICING as PRICING, SLOW_PROMPT_TOKENS as PROMPT_TOKENS, SLOW_REPLY_TOKENS, entryWith, slowBody, slowWorld } from '../support/slow-world.js'

const msw = useSimulatorServer()

function world() {
  const made = slowWorld(400)
  msw.serve(made.sim)
  return made
}

const post = (key: string, stream: boolean, signal: AbortSignal) =>
  fetch(`${BASE}/chat/completions`, { method: 'POST', signal, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: slowBody(stream) })

/** A completion whose fetch is aborted during a real latency wait of 300 ms: its journal entry, once it says `outcome`. */
async function abortDuringWait(stream: boolean, outcome: 'cut-short' | 'client-left') {
  const { sim, key, usage } = world()
  sim.latency.set({ operation: 'createChatCompletion', ms: 300, real: true })
  const abort = new AbortController()
  const answer = post(key, stream, abort.signal)
  await vi.waitFor(() => expect(sim.journal.list()).toHaveLength(1))
  abort.abort()
  await expect(answer).rejects.toThrow()
  return { entry: await entryWith(sim, outcome), usage }
}

describe('the journal through MSW, for a client that leaves early', () => {
  it('journals a fetch aborted after three frames as cut-short, charged its generation cost', async () => {
    const { sim, key, usage } = world()
    const abort = new AbortController()
    const res = await post(key, true, abort.signal)
    const reader = res.body!.getReader()
    const read: string[] = []
    // The comment and two content chunks: a frame is made only when the reader asks for it.
    for (let i = 0; i < 3; i++) read.push(new TextDecoder().decode((await reader.read()).value))
    abort.abort()
    const entry = await entryWith(sim, 'cut-short')
    expect(entry?.outcome).toBe('cut-short')
    const cut = entry!.cutShort!
    expect(cut.framesSent).toBe(3)
    expect(cut.bytesSent).toBe(Buffer.byteLength(read.join('')))
    expect((entry!.response.body as { data: string }[]).map((f) => f.data)).toEqual(read)
    const generation = (sim.handle({ method: 'GET', path: '/generation', query: `id=${cut.generationId}`, authorization: `Bearer ${key}` }).body as { data: any }).data
    expect(generation).toMatchObject({ cancelled: true, tokens_completion: 8 })
    expect(cut.charged).toBe(generation.total_cost)
    expect(cut.charged).toBe(Number(estimateCost(PRICING, { promptTokens: PROMPT_TOKENS, completionTokens: 8 }, { at })))
    expect(usage()).toBe(cut.charged)
    expect(sim.journal.list({ outcome: 'cut-short' }).map((e) => e.seq)).toEqual([1])
  })

  it('journals a reader that cancels as cut-short too', async () => {
    const { sim, key, usage } = world()
    const res = await post(key, true, new AbortController().signal)
    const reader = res.body!.getReader()
    await reader.read()
    await reader.read()
    await reader.cancel()
    const [entry] = sim.journal.list()
    expect(entry).toMatchObject({ outcome: 'cut-short', cutShort: { framesSent: 2 } })
    expect(usage()).toBe(entry?.cutShort?.charged)
  })

  it('journals a non-streamed completion aborted during a real wait as client-left, charged whole', async () => {
    const { entry, usage } = await abortDuringWait(false, 'client-left')
    expect(entry).toMatchObject({ outcome: 'client-left', status: 200, cutShort: null })
    expect(usage()).toBe(Number(estimateCost(PRICING, { promptTokens: PROMPT_TOKENS, completionTokens: SLOW_REPLY_TOKENS }, { at })))
  })

  it('journals a stream aborted during a real wait before it as cut-short with nothing sent, charged the prompt', async () => {
    const { entry, usage } = await abortDuringWait(true, 'cut-short')
    expect(entry.cutShort).toMatchObject({ framesSent: 0, bytesSent: 0 })
    expect(usage()).toBe(Number(estimateCost(PRICING, { promptTokens: PROMPT_TOKENS, completionTokens: 0 }, { at })))
  })
})
