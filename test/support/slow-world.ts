// A world of one organisation, one key and one model whose reply is 160 characters (40 content
// tokens), for the tests of a client that leaves early through an adapter (decisions/0026, 0044).
import { vi } from 'vitest'
import { createSimulator, type JournalEntry, type JournalOutcome, type Simulator } from '../../src/index.js'

export const SLOW_PRICING = { prompt: '0.000001', completion: '0.000002' }
export const SLOW_AT = Date.parse('2026-03-02T10:00:00Z')
/** 'Go.' is 1 token, plus 4 for the message. */
export const SLOW_PROMPT_TOKENS = 5
/** The reply's completion tokens: 160 characters at 4 a token. */
export const SLOW_REPLY_TOKENS = 40

const pct = (p50: number) => ({ p50, p75: p50, p90: p50, p99: p50 })

/** The world, at `throughput` tokens a second (40: a chunk of 16 characters every 100 ms under a real latency rule). */
export function slowWorld(throughput: number) {
  const sim = createSimulator({ world: 'empty', seed: 5, now: SLOW_AT })
  const org = sim.users.create({ name: 'Acme', credits: { total: 100 } })
  const { key, record } = sim.keys.create({ userId: org.id })
  sim.models.create({ id: 'acme/slow', endpoints: [{ provider_name: 'Slow', pricing: SLOW_PRICING, latency_last_30m: pct(10), throughput_last_30m: pct(throughput) }] })
  sim.inference.respond({ reply: { content: 'x'.repeat(160) } })
  return { sim, key, usage: () => sim.keys.get(record.hash)!.usage }
}

/** The body of a completion of the slow model, streamed or not. */
export const slowBody = (stream: boolean): string => JSON.stringify({ model: 'acme/slow', messages: [{ role: 'user', content: 'Go.' }], stream })

/** The first journal entry with `outcome`, once there is one (an adapter reports a client gone a little after it left). */
export function entryWith(sim: Simulator<unknown>, outcome: JournalOutcome): Promise<JournalEntry> {
  return vi.waitFor(() => {
    const [entry] = sim.journal.list({ outcome })
    if (entry === undefined) throw new Error(`no journal entry is ${outcome} yet`)
    return entry
  })
}
