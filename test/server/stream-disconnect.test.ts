// A client that goes away mid-stream over the HTTP server (decisions/0026): with real waits
// between frames, its socket closes after a few of them, and it is charged for those only.
import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createSimulator, estimateCost } from '../../src/index.js'
import { startServer, type SimulatorServer } from '../../src/server/index.js'

const PRICING = { prompt: '0.000001', completion: '0.000002' }
const at = Date.parse('2026-03-02T10:00:00Z')
const pct = (p50: number) => ({ p50, p75: p50, p90: p50, p99: p50 })

function world() {
  const sim = createSimulator({ world: 'empty', seed: 5, now: at })
  const org = sim.users.create({ name: 'Acme', credits: { total: 100 } })
  const { key } = sim.keys.create({ userId: org.id })
  // 40 tokens a second: a chunk of 16 characters every 100 ms.
  sim.models.create({ id: 'acme/slow', endpoints: [{ provider_name: 'Slow', pricing: PRICING, latency_last_30m: pct(10), throughput_last_30m: pct(40) }] })
  sim.inference.respond({ reply: { content: 'x'.repeat(160) } })
  return { sim, org, key }
}

const BODY = JSON.stringify({ model: 'acme/slow', messages: [{ role: 'user', content: 'Go.' }], stream: true })
/** 'Go.' is 1 token, plus 4 for the message. */
const PROMPT_TOKENS = 5

/** POSTs a streamed completion and destroys the socket once `until` says so (or after `afterMs`). */
function postAndLeave(url: string, key: string, until: { events?: number; afterMs?: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
        if (until.events !== undefined && text.split('\n\n').length - 1 >= until.events) {
          req.destroy()
          resolve(text)
        }
      })
      res.on('error', () => {})
    })
    req.on('error', (error) => (error.message.includes('socket hang up') || error.message.includes('aborted') ? undefined : reject(error)))
    if (until.afterMs !== undefined) {
      setTimeout(() => {
        req.destroy()
        resolve('')
      }, until.afterMs)
    }
    req.end(BODY)
  })
}

async function eventually<T>(read: () => T, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5_000
  for (;;) {
    const value = read()
    if (done(value) || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('a client that disconnects from the server mid-stream', () => {
  let server: SimulatorServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  it('is charged only for the frames written before its socket closed, and the generation says cancelled', async () => {
    const { sim, org, key } = world()
    sim.latency.set({ operation: 'createChatCompletion', ms: 1, real: true })
    server = await startServer(sim, { port: 0, control: false })
    // The comment and two content chunks, then the socket goes.
    const text = await postAndLeave(server.url, key, { events: 3 })
    const id = JSON.parse(text.split('\n\n')[1]?.slice(6) as string).id as string
    const read = () => (sim.handle({ method: 'GET', path: '/generation', query: `id=${id}`, authorization: `Bearer ${key}` }).body as { data: any }).data
    const generation = await eventually(read, (g) => g.cancelled === true)
    expect(generation.cancelled).toBe(true)
    // At least the two chunks it read (8 tokens); the server may have written one more before it saw the close.
    expect(generation.tokens_completion).toBeGreaterThanOrEqual(8)
    expect(generation.tokens_completion).toBeLessThanOrEqual(12)
    const cost = estimateCost(PRICING, { promptTokens: PROMPT_TOKENS, completionTokens: generation.tokens_completion }, { at })
    expect(generation.total_cost).toBe(Number(cost))
    expect(sim.credits.get(org.id).total_usage).toBe(Number(cost))
  })

  it('is charged for the prompt alone when it leaves during the wait before the stream', async () => {
    const { sim, org, key } = world()
    sim.latency.set({ operation: 'createChatCompletion', ms: 400, real: true })
    server = await startServer(sim, { port: 0, control: false })
    await postAndLeave(server.url, key, { afterMs: 100 })
    const cost = estimateCost(PRICING, { promptTokens: PROMPT_TOKENS, completionTokens: 0 }, { at })
    const spent = await eventually(() => sim.credits.get(org.id).total_usage, (usage) => usage === Number(cost))
    expect(spent).toBe(Number(cost))
  })
})
