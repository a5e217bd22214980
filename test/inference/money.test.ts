// The money invariants of the path, over random clocks, prices and request sequences: each answer's
// cost is the engine's exact cost of the routed endpoint at that instant, the generation says the
// same, the key's usage grows by exactly the sum, and a key overspends its limit by less than one
// request. Then determinism: the same seed and requests give byte-identical answers.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator, estimateCost, type Pricing, type PricingOverride } from '../../src/index.js'
import { toResponse } from '../../src/msw/index.js'
import { chat, generation } from './support.js'
import { runs } from '../support/runs.js'

// fast-check prints the seed and path of a failing run; pass them back as { seed, path } to replay it.
const settings = { verbose: true, numRuns: runs(40) }

/** A price of 1 to 99,999 units of 10^-6 to 10^-8 USD: at most 8 decimals, as real prices have. */
const price = fc.tuple(fc.integer({ min: 1, max: 99_999 }), fc.integer({ min: 6, max: 8 })).map(([units, places]) => (units / 10 ** places).toFixed(places).replace(/0+$/, ''))
const hhmm = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45)).map(([h, m]) => h * 100 + m)
/** A window that often wraps past midnight (start after end), or a long-context tier. */
const override: fc.Arbitrary<PricingOverride> = fc.oneof(
  fc.tuple(hhmm, hhmm, price, price).filter(([start, end]) => start !== end).map(([utc_start, utc_end, prompt, completion]) => ({ utc_start, utc_end, prompt, completion })),
  fc.tuple(fc.integer({ min: 0, max: 3000 }), price, price).map(([min_prompt_tokens, prompt, completion]) => ({ min_prompt_tokens, prompt, completion })),
)
/** Discounts of at most two decimals keep every cost within the 10 decimals usage is kept in. */
const pricing: fc.Arbitrary<Pricing> = fc
  .record({ prompt: price, completion: price, request: fc.option(price, { nil: undefined }), discount: fc.option(fc.constantFrom(0, 0.1, 0.25, 0.5), { nil: undefined }), overrides: fc.array(override, { maxLength: 2 }) })
  .map(({ request, discount, ...rest }) => ({ ...rest, ...(request !== undefined && { request }), ...(discount !== undefined && { discount }) }))

const step = fc.record({
  advanceMs: fc.integer({ min: 0, max: 36 * 3_600_000 }),
  model: fc.integer({ min: 0, max: 1 }),
  words: fc.integer({ min: 0, max: 800 }),
  maxTokens: fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined }),
  stream: fc.boolean(),
  sort: fc.constantFrom(undefined, 'price', 'latency'),
})

/** A decimal string as an exact count of 10^-10 USD. */
const tenths = (decimal: string): bigint => {
  const [whole = '0', fraction = ''] = decimal.split('.')
  expect(fraction.length).toBeLessThanOrEqual(10)
  return BigInt(whole) * 10_000_000_000n + BigInt(fraction.padEnd(10, '0'))
}

/** The usage chunk of a streamed answer. */
function streamedUsage(frames: readonly { data: string }[]): { cost: number; prompt_tokens: number; completion_tokens: number; id: string; provider: string } {
  const chunks = frames.filter((f) => f.data.startsWith('data: {')).map((f) => JSON.parse(f.data.slice(6)))
  const last = chunks.at(-1)
  return { ...last.usage, id: last.id, provider: last.provider }
}

function world(seed: number, start: number, pricings: Pricing[][], limit?: number) {
  const sim = createSimulator({ world: 'empty', seed, now: start })
  const org = sim.users.create({ name: 'Acme', credits: { total: 10_000 } })
  const { key, record } = sim.keys.create({ userId: org.id, ...(limit !== undefined && { limit }) })
  pricings.forEach((endpoints, m) => {
    sim.models.create({ id: `acme/model-${m}`, endpoints: endpoints.map((p, e) => ({ provider_name: `Provider ${m}${e}`, pricing: p, context_length: 100_000, max_completion_tokens: 4096 })) })
  })
  return { sim, key, keyHash: record.hash }
}

const instant = fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2026-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.getTime())
const models = fc.array(fc.array(pricing, { minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 2 })

describe('the money path', () => {
  it('charges each answer the exact cost of its routed endpoint at its instant, and the key exactly their sum', () => {
    fc.assert(
      fc.property(fc.integer(), instant, models, fc.array(step, { minLength: 1, maxLength: 12 }), (seed, start, pricings, steps) => {
        const { sim, key, keyHash } = world(seed, start, pricings)
        let total = 0n
        for (const s of steps) {
          sim.clock.advance(s.advanceMs)
          const model = `acme/model-${s.model}`
          const answer = chat(sim, key, {
            model,
            messages: [{ role: 'user', content: 'word '.repeat(s.words) }],
            stream: s.stream,
            ...(s.maxTokens !== undefined && { max_tokens: s.maxTokens }),
            ...(s.sort !== undefined && { provider: { sort: s.sort } }),
          })
          expect(answer.status).toBe(200)
          const usage = s.stream ? streamedUsage(answer.body) : { ...answer.body.usage, id: answer.body.id, provider: answer.body.provider }
          const endpoint = sim.models.get(model)!.endpoints.find((e) => e.provider_name === usage.provider)!
          const cost = estimateCost(endpoint.pricing, { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens }, { at: sim.clock.nowMs() })
          expect(usage.cost).toBe(Number(cost))
          expect(generation(sim, key, usage.id).body.data.total_cost).toBe(Number(cost))
          total += tenths(cost)
        }
        const usage = sim.keys.get(keyHash)!.usage
        expect(BigInt(Math.round(usage * 1e10))).toBe(total)
      }),
      settings,
    )
  })

  it('never lets a key spend past its limit by one request\'s cost or more, and refuses it once the limit is used up', () => {
    fc.assert(
      fc.property(fc.integer(), instant, models, fc.integer({ min: 1, max: 2000 }), (seed, start, pricings, limitTenThousandths) => {
        const limit = limitTenThousandths / 10_000
        const { sim, key, keyHash } = world(seed, start, pricings, limit)
        let largest = 0
        let refused = false
        for (let i = 0; i < 400 && !refused; i++) {
          const answer = chat(sim, key, { model: 'acme/model-0', messages: [{ role: 'user', content: 'word '.repeat(500) }] })
          if (answer.status === 403) {
            refused = true
            expect(answer.body.error.message).toBe('Key limit exceeded (total limit). Manage it using https://openrouter.ai/settings/keys')
          } else {
            expect(answer.status).toBe(200)
            largest = Math.max(largest, answer.body.usage.cost)
          }
        }
        const record = sim.keys.get(keyHash)!
        expect(record.usage).toBeLessThan(limit + largest + 1e-12)
        if (refused) expect(record.limit_remaining).toBe(0)
      }),
      { ...settings, numRuns: runs(25) },
    )
  })
})

describe('determinism', () => {
  it('gives byte-identical answers, streamed and not, for the same seed and the same requests', async () => {
    const run = async () => {
      const sim = createSimulator({ seed: 99 })
      const texts: string[] = []
      const requests = [
        { model: sim.world.models.timeWindowed },
        { model: sim.world.models.longContext, stream: true },
        { model: sim.world.models.paid, max_tokens: 5 },
        { models: [sim.world.models.free, sim.world.models.paid] },
      ]
      for (const [i, request] of requests.entries()) {
        sim.clock.advance(i * 7_200_000)
        const answer = chat(sim, sim.world.apiKey, request)
        texts.push(await toResponse(answer.response, 'POST').text())
        const id = answer.response.type === 'json' ? answer.body.id : streamedUsage(answer.body).id
        texts.push(await toResponse(generation(sim, sim.world.apiKey, id).response).text())
      }
      return texts
    }
    const first = await run()
    expect(await run()).toEqual(first)
    expect(first.join('\n').length).toBeGreaterThan(1000)
  })
})
