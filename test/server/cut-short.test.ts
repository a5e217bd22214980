// Every outcome recorded over the HTTP server (issue 36, decisions/0044): a client that reads a
// few chunks of a stream and aborts is journaled `'cut-short'` with what it was sent and charged;
// one that leaves a non-streamed completion during a real latency wait is `'client-left'`,
// charged whole; `GET /__sim/journal?outcome=` finds both.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { estimateCost } from '../../src/index.js'
import { startServer, type SimulatorServer } from '../../src/server/index.js'
import { SLOW_AT as at, SLOW_PRICING as PRICING, SLOW_PROMPT_TOKENS as PROMPT_TOKENS, SLOW_REPLY_TOKENS, entryWith, slowBody as body, slowWorld } from '../support/slow-world.js'

/** 40 tokens a second: a chunk of 16 characters every 100 ms. */
const world = () => slowWorld(40)

describe('the journal over the server, for a client that leaves early', () => {
  let server: SimulatorServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  it('journals a stream the client aborted after a few chunks as cut-short, charged its generation cost', async () => {
    const { sim, key, usage } = world()
    sim.latency.set({ operation: 'createChatCompletion', ms: 1, real: true })
    server = await startServer(sim, { port: 0 })
    const abort = new AbortController()
    const res = await fetch(`${server.url}/chat/completions`, { method: 'POST', signal: abort.signal, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body(true) })
    const reader = res.body!.getReader()
    let text = ''
    // The comment and two content chunks, then the client goes.
    while (text.split('\n\n').length - 1 < 3) text += new TextDecoder().decode((await reader.read()).value)
    abort.abort()
    const entry = await entryWith(sim, 'cut-short')
    expect(entry?.outcome).toBe('cut-short')
    const cut = entry!.cutShort!
    // At least the three frames read; the server may have written one more before it saw the close.
    expect(cut.framesSent).toBeGreaterThanOrEqual(3)
    expect(cut.framesSent).toBeLessThanOrEqual(4)
    const frames = entry!.response.body as { data: string }[]
    expect(frames).toHaveLength(cut.framesSent)
    expect(cut.bytesSent).toBe(Buffer.byteLength(frames.map((f) => f.data).join('')))
    expect(text.length).toBeLessThanOrEqual(cut.bytesSent)
    const generation = (sim.handle({ method: 'GET', path: '/generation', query: `id=${cut.generationId}`, authorization: `Bearer ${key}` }).body as { data: any }).data
    expect(generation.cancelled).toBe(true)
    expect(cut.charged).toBe(generation.total_cost)
    expect(cut.charged).toBe(Number(estimateCost(PRICING, { promptTokens: PROMPT_TOKENS, completionTokens: generation.tokens_completion }, { at })))
    expect(usage()).toBe(cut.charged)

    // The control API's filter finds it, and only it.
    await fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body(false) })
    const listed = (await (await fetch(`${server.controlUrl}/journal?outcome=cut-short`)).json()) as { data: any[] }
    expect(listed.data.map((e) => [e.seq, e.outcome, e.cutShort])).toEqual([[1, 'cut-short', cut]])
    const responses = (await (await fetch(`${server.controlUrl}/journal?outcome=response`)).json()) as { data: any[] }
    // The generation read, and the completion after.
    expect(responses.data.map((e) => e.seq)).toEqual([2, 3])
  })

  it('journals a non-streamed completion the client left during a real wait as client-left, charged whole', async () => {
    const { sim, key, usage } = world()
    sim.latency.set({ operation: 'createChatCompletion', ms: 400, real: true })
    server = await startServer(sim, { port: 0 })
    const abort = new AbortController()
    const answer = fetch(`${server.url}/chat/completions`, { method: 'POST', signal: abort.signal, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body(false) })
    await vi.waitFor(() => expect(sim.journal.list()).toHaveLength(1))
    abort.abort()
    await expect(answer).rejects.toThrow()
    const entry = await entryWith(sim, 'client-left')
    expect(entry).toMatchObject({ outcome: 'client-left', status: 200, cutShort: null })
    const full = Number(estimateCost(PRICING, { promptTokens: PROMPT_TOKENS, completionTokens: SLOW_REPLY_TOKENS }, { at }))
    expect(usage()).toBe(full)
    const listed = (await (await fetch(`${server.controlUrl}/journal?outcome=client-left`)).json()) as { data: any[] }
    expect(listed.data.map((e) => e.seq)).toEqual([1])
  })

  it('refuses an unknown outcome in the journal filter, listing the five', async () => {
    const { sim } = world()
    server = await startServer(sim, { port: 0 })
    const res = await fetch(`${server.controlUrl}/journal?outcome=cut`)
    expect(res.status).toBe(400)
    expect(JSON.stringify(await res.json())).toContain('must be one of response, network-error, never, cut-short, client-left')
  })
})
