// The money ledger as a property, over random prices (weekday overrides, windows that wrap past
// midnight, long-context tiers), clocks and request sequences from several keys of one
// organisation, through sim.handle and through MSW: each answer's cost is the engine's exact cost
// of the routed endpoint at that instant, and the generation's `total_cost` says the same; the sum
// of the generations' costs equals the keys' added usage (each key's its own), which equals the
// organisation's added `total_usage` on `GET /credits`. Chat completions, Responses requests and
// embeddings mix in the same sequences. All compared in whole 10^-10 USD as BigInt.
import fc from 'fast-check'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator, estimateCost, type Pricing, type PricingOverride } from '../../src/index.js'
import { createHandlers } from '../../src/msw/index.js'
import { runs } from '../support/runs.js'

const BASE = 'http://money-ledger.test/api/v1'
const EMBEDDINGS = { output_modalities: ['embeddings' as const], input_modalities: ['text' as const], modality: 'text->embeddings' }
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const

/** A price of at most 8 decimals, as real prices have. */
const price = fc.tuple(fc.integer({ min: 1, max: 99_999 }), fc.integer({ min: 6, max: 8 })).map(([units, places]) => (units / 10 ** places).toFixed(places).replace(/0+$/, ''))
const hhmm = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 1, 30, 59)).map(([h, m]) => h * 100 + m)
const window = fc.tuple(hhmm, hhmm).filter(([start, end]) => start !== end)
const days = fc.subarray([...WEEKDAYS], { minLength: 1 })

/** Every kind of override the pricing engine takes: weekdays alone, weekdays with a window (often wrapping), a window, a tier. */
const override: fc.Arbitrary<PricingOverride> = fc.oneof(
  fc.tuple(days, price, price).map(([utc_days, prompt, completion]) => ({ utc_days, prompt, completion })),
  fc.tuple(days, window, price, price).map(([utc_days, [utc_start, utc_end], prompt, completion]) => ({ utc_days, utc_start, utc_end, prompt, completion })),
  fc.tuple(window, price).map(([[utc_start, utc_end], completion]) => ({ utc_start, utc_end, completion })),
  fc.tuple(fc.integer({ min: 0, max: 3000 }), price, price).map(([min_prompt_tokens, prompt, completion]) => ({ min_prompt_tokens, prompt, completion })),
)
/** Discounts of at most two decimals keep every cost within the 10 decimals usage is kept in (decisions/0024). */
const pricing: fc.Arbitrary<Pricing> = fc
  .record({ prompt: price, completion: price, request: fc.option(price, { nil: undefined }), discount: fc.option(fc.constantFrom(0.1, 0.25, 0.5), { nil: undefined }), overrides: fc.array(override, { minLength: 1, maxLength: 3 }) })
  .map(({ request, discount, ...rest }) => ({ ...rest, ...(request !== undefined && { request }), ...(discount !== undefined && { discount }) }))

const step = fc.record({
  // Up to three days: sequences cross midnights and weekdays.
  advanceMs: fc.oneof(fc.integer({ min: 0, max: 3_600_000 }), fc.integer({ min: 0, max: 72 * 3_600_000 })),
  key: fc.nat({ max: 2 }),
  model: fc.nat({ max: 1 }),
  words: fc.integer({ min: 0, max: 2000 }),
  maxTokens: fc.option(fc.integer({ min: 1, max: 400 }), { nil: undefined }),
  stream: fc.boolean(),
  via: fc.constantFrom('handle' as const, 'msw' as const),
  // A chat completion, a Responses request (the same money path, another shape), or embeddings.
  api: fc.constantFrom('chat' as const, 'responses' as const, 'embeddings' as const),
})

const instant = fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2026-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.getTime())
const models = fc.array(fc.array(pricing, { minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 2 })

/** A decimal string as an exact count of 10^-10 USD. */
function units(decimal: string): bigint {
  const [whole = '0', fraction = ''] = decimal.split('.')
  if (fraction.length > 10) throw new Error(`${decimal} has more than 10 decimals`)
  return BigInt(whole) * 10_000_000_000n + BigInt(fraction.padEnd(10, '0'))
}
/** A USD figure the wire reports as a number, in 10^-10 USD: every figure has at most 10 decimals. */
const unitsOf = (usd: number): bigint => units(usd.toFixed(10))

function world(seed: number, start: number, pricings: Pricing[][]) {
  const sim = createSimulator({ world: 'empty', seed, now: start })
  const org = sim.users.create({ name: 'Acme', credits: { total: 100_000 } })
  const admin = sim.keys.create({ userId: org.id, management: true })
  const keys = [0, 1, 2].map((i) => sim.keys.create({ userId: org.id, name: `key ${i}` }))
  pricings.forEach((endpoints, m) => {
    sim.models.create({ id: `acme/model-${m}`, endpoints: endpoints.map((p, e) => ({ provider_name: `Provider ${m}${e}`, pricing: p, context_length: 200_000, max_completion_tokens: 4096 })) })
    // The same prices as an embedding model: its cost is the prompt part of them (and the request fee).
    sim.models.create({ id: `acme/embed-${m}`, architecture: EMBEDDINGS, endpoints: endpoints.map((p, e) => ({ provider_name: `Embedder ${m}${e}`, pricing: p, context_length: 200_000 })) })
  })
  return { sim, org, admin: admin.key, keys }
}

type World = ReturnType<typeof world>

/** One answer's figures, whichever way it travelled and whatever its shape. */
interface Answer {
  status: number
  id: string
  promptTokens: number
  completionTokens: number
  cost: number
}

/** The figures of a JSON answer, or of a stream's last event with usage (the usage chunk, `response.completed`). */
function figures(status: number, body: unknown, text: string | null): Answer {
  let last = body as any
  if (text !== null) {
    const events = text.split('\n\n').map((e) => e.split('\n').find((line) => line.startsWith('data: {'))).filter((line) => line !== undefined)
    last = JSON.parse((events.at(-1) as string).slice(6))
    if (last.response !== undefined) last = last.response
  }
  const usage = last.usage
  if (usage.completion_tokens === undefined && usage.output_tokens === undefined) return { status, id: last.id, promptTokens: usage.prompt_tokens, completionTokens: 0, cost: usage.cost }
  return usage.input_tokens === undefined
    ? { status, id: last.id, promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens, cost: usage.cost }
    : { status, id: last.id, promptTokens: usage.input_tokens, completionTokens: usage.output_tokens, cost: usage.cost }
}

async function complete(w: World, secret: string, path: string, body: Record<string, unknown>, via: 'handle' | 'msw'): Promise<Answer> {
  if (via === 'handle') {
    const res = w.sim.handle({ method: 'POST', path, authorization: `Bearer ${secret}`, body: JSON.stringify(body) })
    if (res.type === 'stream') return figures(res.status, null, res.body.map((f) => f.data).join(''))
    return figures(res.status, res.body, null)
  }
  const res = await fetch(`${BASE}${path}`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const text = await res.text()
  return res.headers.get('content-type') === 'text/event-stream' ? figures(res.status, null, text) : figures(res.status, JSON.parse(text), null)
}

async function getJson(w: World, secret: string, path: string, via: 'handle' | 'msw'): Promise<any> {
  if (via === 'handle') {
    const [route, query] = path.split('?')
    return w.sim.handle({ method: 'GET', path: route ?? '', query: query ?? '', authorization: `Bearer ${secret}` }).body
  }
  return (await fetch(`${BASE}${path}`, { headers: { authorization: `Bearer ${secret}` } })).json()
}

describe('the money ledger', () => {
  const server = setupServer()
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterAll(() => server.close())

  it('sums: the generations\' costs = the keys\' added usage (each key its own) = the credits\' added total_usage, exactly, with weekday overrides, through sim.handle and MSW', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), instant, models, fc.array(step, { minLength: 1, maxLength: 10 }), async (seed, start, pricings, steps) => {
        const w = world(seed, start, pricings)
        server.resetHandlers(...createHandlers(w.sim, { baseUrl: BASE }))
        const credits = async (via: 'handle' | 'msw') => unitsOf((await getJson(w, w.admin, '/credits', via)).data.total_usage)
        const keyUsage = async (i: number, via: 'handle' | 'msw') => unitsOf((await getJson(w, w.keys[i]!.key, '/key', via)).data.usage)
        const creditsBefore = await credits('msw')
        const usageBefore = await Promise.all([0, 1, 2].map((i) => keyUsage(i, 'handle')))
        const spentBy = [0n, 0n, 0n]
        let generations = 0n
        for (const s of steps) {
          w.sim.clock.advance(s.advanceMs)
          const model = `acme/model-${s.model}`
          const key = w.keys[s.key]!
          const text = 'word '.repeat(s.words)
          const answer =
            s.api === 'chat'
              ? await complete(w, key.key, '/chat/completions', { model, messages: [{ role: 'user', content: text }], stream: s.stream, ...(s.maxTokens !== undefined && { max_tokens: s.maxTokens }) }, s.via)
              : s.api === 'responses'
                ? await complete(w, key.key, '/responses', { model, input: text, stream: s.stream, ...(s.maxTokens !== undefined && { max_output_tokens: s.maxTokens }) }, s.via)
                : await complete(w, key.key, '/embeddings', { model: `acme/embed-${s.model}`, input: [`${text}end`, `${s.words} words`] }, s.via)
          expect(answer.status).toBe(200)
          // The engine's exact cost of the routed endpoint at this instant, weekday and tier resolved.
          const routed = (await getJson(w, key.key, `/generation?id=${answer.id}`, 'handle')).data.provider_name
          const endpoint = w.sim.models.get(s.api === 'embeddings' ? `acme/embed-${s.model}` : model)!.endpoints.find((e) => e.provider_name === routed)!
          const cost = estimateCost(endpoint.pricing, { promptTokens: answer.promptTokens, completionTokens: answer.completionTokens }, { at: w.sim.clock.nowMs() })
          expect(answer.cost).toBe(Number(cost))
          expect(unitsOf(answer.cost)).toBe(units(cost))
          const generation = (await getJson(w, key.key, `/generation?id=${answer.id}`, s.via)).data
          expect(unitsOf(generation.total_cost)).toBe(units(cost))
          generations += unitsOf(generation.total_cost)
          spentBy[s.key] = (spentBy[s.key] as bigint) + units(cost)
        }
        const usageAfter = await Promise.all([0, 1, 2].map((i) => keyUsage(i, 'msw')))
        const added = usageAfter.map((after, i) => after - (usageBefore[i] as bigint))
        expect(added).toEqual(spentBy)
        expect(added.reduce((a, b) => a + b, 0n)).toBe(generations)
        expect((await credits('handle')) - creditsBefore).toBe(generations)
        expect((await credits('msw')) - creditsBefore).toBe(generations)
      }),
      { verbose: true, numRuns: runs(30) },
    )
  })

  it('prices by the weekday: a Saturday-only price applies on Saturday and not on the Friday before it, to the last decimal', async () => {
    const saturday = Date.parse('2026-03-07T12:00:00Z')
    const w = world(1, saturday - 86_400_000, [[{ prompt: '0.000001', completion: '0.000002', overrides: [{ utc_days: ['saturday'], prompt: '0.00000013', completion: '0.00000017' }] }], [{ prompt: '0', completion: '0' }]])
    server.resetHandlers(...createHandlers(w.sim, { baseUrl: BASE }))
    const body = { model: 'acme/model-0', messages: [{ role: 'user', content: 'word '.repeat(40) }], max_tokens: 10 }
    const friday = await complete(w, w.keys[0]!.key, '/chat/completions', body, 'msw')
    w.sim.clock.advance(86_400_000)
    const onSaturday = await complete(w, w.keys[0]!.key, '/chat/completions', body, 'msw')
    expect([friday.promptTokens, friday.completionTokens]).toEqual([onSaturday.promptTokens, onSaturday.completionTokens])
    const { promptTokens: p, completionTokens: c } = friday
    expect(units(String(friday.cost))).toBe(BigInt(p) * 10_000n + BigInt(c) * 20_000n)
    expect(unitsOf(onSaturday.cost)).toBe(BigInt(p) * 1_300n + BigInt(c) * 1_700n)
  })
})
