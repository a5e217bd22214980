// The simulator clock does not move by itself (decisions/0026): a streamed completion, even one
// paced in real time, leaves a virtual clock where it was but for what a latency rule asks; a
// simulator created with `clock: 'real'` (the opt-in) follows wall time, streams included.
import { afterEach, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { startServer, type SimulatorServer } from '../../src/server/index.js'

const start = Date.parse('2026-03-02T10:00:00Z')
const pct = (p50: number) => ({ p50, p75: p50, p90: p50, p99: p50 })

function world(clock: 'virtual' | 'real') {
  const sim = createSimulator({ world: 'empty', seed: 9, now: start, clock })
  const org = sim.users.create({ name: 'Acme', credits: { total: 100 } })
  const { key } = sim.keys.create({ userId: org.id })
  // Time to first token 50 ms, then 16 characters every 100 ms: 4 chunks, about 350 ms in all.
  sim.models.create({ id: 'acme/paced', endpoints: [{ provider_name: 'Paced', pricing: { prompt: '0.000001', completion: '0.000002' }, latency_last_30m: pct(50), throughput_last_30m: pct(40) }] })
  sim.inference.respond({ reply: { content: 'y'.repeat(64) } })
  return { sim, key }
}

const BODY = JSON.stringify({ model: 'acme/paced', messages: [{ role: 'user', content: 'Go.' }], stream: true })

describe('the simulator clock and streams', () => {
  let server: SimulatorServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  const post = (key: string) => fetch(`${server?.url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: BODY })

  it('does not move for a stream, nor for its real waits: only a latency rule moves a virtual clock, by its ms', async () => {
    const { sim, key } = world('virtual')
    server = await startServer(sim, { port: 0, control: false })
    await (await post(key)).text()
    expect(sim.clock.nowMs()).toBe(start)
    sim.latency.set({ operation: 'createChatCompletion', ms: 5, real: true })
    const began = performance.now()
    await (await post(key)).text()
    expect(performance.now() - began).toBeGreaterThanOrEqual(300)
    expect(sim.clock.nowMs()).toBe(start + 5)
  })

  it('follows wall time when the user opts in with clock: "real", streams included', async () => {
    const { sim, key } = world('real')
    sim.latency.set({ operation: 'createChatCompletion', ms: 1, real: true })
    server = await startServer(sim, { port: 0, control: false })
    const began = performance.now()
    await (await post(key)).text()
    const waited = performance.now() - began
    expect(waited).toBeGreaterThanOrEqual(300)
    expect(sim.clock.nowMs() - start).toBeGreaterThanOrEqual(Math.floor(waited) - 50)
  })
})
