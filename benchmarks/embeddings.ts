/**
 * `POST /embeddings` of 100 inputs through MSW: the simulator's `createHandlers(sim)` against a bare
 * msw handler answering the same body text, pre-serialised, side by side in one process.
 *
 * Set up as a new user would: `createSimulator()` (the embedded default world), its regular key,
 * `sim.world.models.embedding` (1536 dimensions). Each request is `await fetch(url, { method:
 * 'POST', body })` then `await res.json()`. Cases:
 * - `same texts`: the same 100 texts every request (a test suite embedding its fixtures): the target;
 * - `new texts`: 100 texts never embedded before, every request (informational);
 * - `base64`: the same 100 texts as `encoding_format: "base64"` (informational).
 *
 * Target (this machine class): `same texts`, median of the paired per-round ratios <= 1.25x.
 *
 *   npm run bench:embeddings
 *
 * Prints tables, writes benchmarks/results/embeddings.md and embeddings.json. Before timing, each
 * case's body is checked against `sim.handle` for the same request. Exits 1 when the target is missed.
 */
import { deepStrictEqual } from 'node:assert/strict'
import os from 'node:os'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { type Figure, figure, fmtInt, fmtNs, fmtRatio, machine as describeMachine, machineLine, machineMarkdown, median, nowNs, table, writeReport, ratioSpread } from './support.js'
import { pkg, pkgMsw } from './package.js'

const { createSimulator } = pkg
const { createHandlers } = pkgMsw

const INPUTS = 100
const BATCH = 6
const WARMUP_ROUNDS = 2
const ROUNDS = 25
const TARGET_RATIO = 1.25
const SIM_ORIGIN = 'https://openrouter.ai/api/v1'
const BARE_ORIGIN = 'https://bare.test/api/v1'

const WORDS = ['refund', 'policy', 'shipping', 'invoice', 'account', 'password', 'order', 'delivery', 'warranty', 'return', 'billing', 'support']
/** 100 texts of 8 words, distinct, the `round`-th set (round -1: the fixed set). */
function texts(round: number): string[] {
  return Array.from({ length: INPUTS }, (_, i) => `${Array.from({ length: 8 }, (_, w) => WORDS[(i * 7 + w * 5 + Math.max(round, 0)) % WORDS.length]).join(' ')} #${round}-${i}`)
}

interface Case {
  id: string
  label: string
  /** The request body of the n-th request (the same text for both arms of a pair). */
  body: (n: number) => string
  simNs: number[]
  bareNs: number[]
  bodyChars: number
}

async function main(): Promise<void> {
  const startedAt = new Date()
  const loadAtStart = os.loadavg()[0] as number
  const machine = describeMachine()
  console.log(`embeddings benchmark — ${machineLine(machine)}`)
  const sim = createSimulator()
  const model = sim.world.models.embedding
  const headers = { authorization: `Bearer ${sim.world.apiKey}`, 'content-type': 'application/json' }
  let fresh = 0
  const cases: Case[] = [
    { id: 'same', label: 'same texts', body: () => JSON.stringify({ model, input: texts(-1) }), simNs: [], bareNs: [], bodyChars: 0 },
    { id: 'new', label: 'new texts', body: (n) => JSON.stringify({ model, input: texts(n) }), simNs: [], bareNs: [], bodyChars: 0 },
    { id: 'base64', label: 'base64', body: () => JSON.stringify({ model, input: texts(-1), encoding_format: 'base64' }), simNs: [], bareNs: [], bodyChars: 0 },
  ]
  // The bare arm answers the text a twin simulator (same world and seed: the same vectors) answers to
  // the same request body, kept per body. A twin, so that making the bare arm's text never makes the
  // measured simulator's vectors beforehand.
  const twin = createSimulator()
  const answers = new Map<string, string>()
  const answer = (body: string): string => {
    let text = answers.get(body)
    if (text === undefined) {
      const res = twin.handle({ method: 'POST', path: '/embeddings', authorization: headers.authorization, body, headers: { 'content-type': 'application/json' } })
      if (res.status !== 200 || res.type !== 'json') throw new Error(`sim.handle answered ${res.status}`)
      text = JSON.stringify(res.body)
      answers.set(body, text)
    }
    return text
  }
  const server = setupServer(
    ...createHandlers(sim),
    http.post(`${BARE_ORIGIN}/embeddings`, async ({ request }) => new HttpResponse(answers.get(await request.text()), { headers: { 'content-type': 'application/json' } })),
  )
  server.listen({ onUnhandledRequest: 'error' })
  try {
    const post = async (origin: string, body: string): Promise<unknown> => {
      const res = await fetch(`${origin}/embeddings`, { method: 'POST', headers, body })
      const json: unknown = await res.json()
      if (res.status !== 200) throw new Error(`POST ${origin}/embeddings answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`)
      return json
    }
    // What MSW serves is what sim.handle answers (the twin's: the same vectors and usage; ids are drawn by each).
    for (const c of cases) {
      const body = c.body(0)
      const served = (await post(SIM_ORIGIN, body)) as { data: unknown[]; usage: unknown }
      const direct = answer(body)
      const parsed = JSON.parse(direct) as { data: unknown[]; usage: unknown }
      deepStrictEqual(served.data, parsed.data, `${c.label}: the vectors served through MSW differ from sim.handle's`)
      deepStrictEqual(served.usage, parsed.usage, `${c.label}: the usage served through MSW differs from sim.handle's`)
      if (served.data.length !== INPUTS) throw new Error(`${c.label}: ${served.data.length} vectors, expected ${INPUTS}`)
      c.bodyChars = direct.length
    }
    console.log(`checked ${cases.length} cases against sim.handle; timing ${ROUNDS} rounds (+${WARMUP_ROUNDS} warm-up) of ${BATCH} requests per arm, interleaved…`)
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      const order = cases.map((_, i) => cases[(i + round) % cases.length] as Case)
      for (const c of order) {
        let simTotal = 0n
        let bareTotal = 0n
        for (let i = 0; i < BATCH; i++) {
          const body = c.body(c.id === 'new' ? ++fresh : 0)
          answer(body) // the bare arm's text, made outside the timed region
          const arms: ['sim' | 'bare', string][] = i % 2 === 0 ? [['sim', SIM_ORIGIN], ['bare', BARE_ORIGIN]] : [['bare', BARE_ORIGIN], ['sim', SIM_ORIGIN]]
          for (const [arm, origin] of arms) {
            const start = nowNs()
            await post(origin, body)
            const ns = nowNs() - start
            if (arm === 'sim') simTotal += ns
            else bareTotal += ns
          }
          if (c.id === 'new') answers.delete(body)
        }
        if (round >= WARMUP_ROUNDS) {
          c.simNs.push(Number(simTotal) / BATCH)
          c.bareNs.push(Number(bareTotal) / BATCH)
        }
      }
      if (round % 5 === 4) {
        // Usage records and generations stay bounded (the vector texts a simulator keeps are not state: reset keeps them).
        sim.reset()
        twin.reset()
      }
    }
  } finally {
    server.close()
  }

  const figures: Figure[] = []
  const rows = cases.map((c) => {
    const ratios = c.simNs.map((s, i) => s / (c.bareNs[i] as number))
    const ratio = median(ratios)
    if (c.id === 'same') figures.push(figure({ id: 'ratio-same', what: `POST /embeddings of ${INPUTS} inputs (1536 dimensions, float): createHandlers / bare msw handler, ns/request`, measured: ratio, unit: 'x', runs: ROUNDS, op: '<=', bound: TARGET_RATIO, display: `${fmtRatio(ratio)} (rounds ${ratioSpread(ratios)})` }))
    return [c.label, fmtInt(c.bodyChars), fmtNs(median(c.bareNs)), fmtNs(median(c.simNs)), fmtRatio(ratio), ratioSpread(ratios)]
  })
  const t = table(['case', 'body chars', 'bare msw ns/req (median)', 'createHandlers ns/req (median)', 'ratio (median of rounds)', 'min–max ratio of rounds'], rows, ['l', 'r', 'r', 'r', 'r', 'r'])
  console.log(`\n${t.text}`)
  const loadAtEnd = os.loadavg()[0] as number
  writeReport(
    'embeddings',
    `# embeddings benchmark

Run ${startedAt.toISOString()} (\`npm run bench:embeddings\`). Load average (1 min) ${loadAtStart.toFixed(2)} at start, ${loadAtEnd.toFixed(2)} at end.

${machineMarkdown(machine)}

## What is measured

- \`POST /embeddings\` of ${INPUTS} texts of 8 words to \`sim.world.models.embedding\` (1536 dimensions) through one \`setupServer(...createHandlers(sim), bare)\`;
  the bare arm is an \`http.post\` handler answering \`new HttpResponse(text)\`, \`text\` being the exact body the simulator answers to the same request.
- Each round runs a batch of ${BATCH} pairs per case, the arm that goes first alternating within a batch and the case that goes first rotating from round to round;
  ${WARMUP_ROUNDS} warm-up rounds, then ${ROUNDS} measured. The ratio is the median of the paired per-round ratios; the min–max column is their spread.
- The bare arm's text is made by a twin simulator (same world and seed, so the same vectors), outside the timed region, so the measured simulator never saw a \`new texts\` text before.
- \`new texts\` uses texts no request used before (informational: what a first embedding of a text costs, the vectors made and written as decimals).

## Results

${t.markdown}
`,
    figures,
  )
}

await main()
