// Step 2 and 4 of the money path: which model, and which endpoint, answers a request.
import { describe, expect, it } from 'vitest'
import { ALPHA, BETA, GAMMA, MODEL, chat, chatWorld, generation } from './support.js'

const provider = (answer: { body: any }): string => answer.body.provider

describe('routing by provider preferences', () => {
  it('sorts by price through the pricing engine, by throughput and by latency', () => {
    const { sim, key } = chatWorld()
    expect(provider(chat(sim, key, { model: MODEL, provider: { sort: 'price' } }))).toBe('Beta')
    expect(provider(chat(sim, key, { model: MODEL, provider: { sort: 'throughput' } }))).toBe('Beta')
    expect(provider(chat(sim, key, { model: MODEL, provider: { sort: 'latency' } }))).toBe('Gamma')
    expect(provider(chat(sim, key, { model: MODEL, provider: { sort: { by: 'latency', partition: 'none' } } }))).toBe('Gamma')
  })

  it('reads `sort: "price"` at the clock\'s instant, so a time-window override can change the cheapest endpoint', () => {
    const { sim, key } = chatWorld({ now: '2026-03-02T10:00:00Z' })
    const offPeak = [{ utc_start: 2200, utc_end: 600, prompt: '0.0000001', completion: '0.0000001' }]
    sim.models.create({ id: 'acme/windowed', endpoints: [{ ...ALPHA, pricing: { ...ALPHA.pricing!, overrides: offPeak } }, BETA] })
    expect(provider(chat(sim, key, { model: 'acme/windowed', provider: { sort: 'price' } }))).toBe('Beta')
    sim.clock.set('2026-03-02T23:30:00Z')
    expect(provider(chat(sim, key, { model: 'acme/windowed', provider: { sort: 'price' } }))).toBe('Alpha')
    // Past midnight the window still holds: it wraps.
    sim.clock.set('2026-03-03T05:59:00Z')
    expect(provider(chat(sim, key, { model: 'acme/windowed', provider: { sort: 'price' } }))).toBe('Alpha')
  })

  it('reads `sort: "price"` at the request\'s prompt size, so a long-context tier can change the cheapest endpoint', () => {
    const { sim, key } = chatWorld()
    const tier = [{ min_prompt_tokens: 1000, prompt: '0.00001', completion: '0.00001' }]
    sim.models.create({ id: 'acme/tiered', endpoints: [{ ...BETA, pricing: { ...BETA.pricing!, overrides: tier } }, { ...ALPHA, context_length: 200000 }] })
    expect(provider(chat(sim, key, { model: 'acme/tiered', provider: { sort: 'price' } }))).toBe('Beta')
    const long = 'word '.repeat(1000)
    expect(provider(chat(sim, key, { model: 'acme/tiered', messages: [{ role: 'user', content: long }], provider: { sort: 'price' } }))).toBe('Alpha')
  })

  it('keeps only the providers of `only`, by name or tag in any case, and drops those of `ignore`', () => {
    const { sim, key } = chatWorld()
    expect(provider(chat(sim, key, { model: MODEL, provider: { only: ['gamma'] } }))).toBe('Gamma')
    expect(provider(chat(sim, key, { model: MODEL, provider: { ignore: ['Beta', 'GAMMA'] } }))).toBe('Alpha')
    const none = chat(sim, key, { model: MODEL, provider: { only: ['Alpha'], ignore: ['Alpha'] } })
    expect(none.status).toBe(404)
    expect(none.body.error.message).toBe('No endpoints found matching your provider preferences')
  })

  it('tries the providers of `order` first, in that order', () => {
    const { sim, key } = chatWorld()
    expect(provider(chat(sim, key, { model: MODEL, provider: { order: ['Gamma', 'Alpha'] } }))).toBe('Gamma')
    expect(provider(chat(sim, key, { model: MODEL, provider: { order: ['alpha', 'Gamma'] } }))).toBe('Alpha')
  })

  it('keeps the endpoints of the listed quantizations', () => {
    const { sim, key } = chatWorld()
    expect(provider(chat(sim, key, { model: MODEL, provider: { quantizations: ['fp8'] } }))).toBe('Alpha')
    expect(chat(sim, key, { model: MODEL, provider: { quantizations: ['int4'] } }).body.error.message).toBe('No endpoints found matching your quantization preferences')
  })

  it('with `require_parameters`, keeps the endpoints that support every parameter the request uses', () => {
    const { sim, key } = chatWorld()
    const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }]
    for (let i = 0; i < 5; i++) expect(provider(chat(sim, key, { model: MODEL, tools, provider: { require_parameters: true } }))).toBe('Beta')
    expect(provider(chat(sim, key, { model: MODEL, top_p: 0.5, provider: { require_parameters: true } }))).toBe('Gamma')
    const none = chat(sim, key, { model: MODEL, tools, top_p: 0.5, provider: { require_parameters: true } })
    expect([none.status, none.body.error.message]).toEqual([404, 'No endpoints found that can handle the requested parameters'])
    // Without the flag, unsupported parameters are ignored rather than refused.
    expect(chat(sim, key, { model: MODEL, tools, top_p: 0.5 }).status).toBe(200)
  })

  it('keeps the endpoints within `max_price`, read in USD per million tokens (strings, as the SDK sends them, or numbers)', () => {
    const { sim, key } = chatWorld()
    expect(provider(chat(sim, key, { model: MODEL, provider: { max_price: { prompt: '0.5', completion: 1 } } }))).toBe('Beta')
    expect(provider(chat(sim, key, { model: MODEL, provider: { max_price: { prompt: 1, completion: 2 }, sort: 'latency' } }))).toBe('Alpha')
    const none = chat(sim, key, { model: MODEL, provider: { max_price: { prompt: 0.1 } } })
    expect([none.status, none.body.error.message]).toEqual([404, 'No endpoints found within your max_price'])
  })

  it('with `data_collection: "deny"`, drops free endpoints, whose providers may keep prompts', () => {
    const { sim, key } = chatWorld()
    sim.models.create({ id: 'acme/mixed', endpoints: [{ ...ALPHA, pricing: { prompt: '0', completion: '0' } }, GAMMA] })
    expect(provider(chat(sim, key, { model: 'acme/mixed' }))).toBe('Alpha')
    expect(provider(chat(sim, key, { model: 'acme/mixed', provider: { data_collection: 'deny' } }))).toBe('Gamma')
  })

  it('drops endpoints with a negative status and those whose context window cannot hold the prompt and max_tokens', () => {
    const { sim, key } = chatWorld()
    sim.models.create({ id: 'acme/degraded', endpoints: [{ ...BETA, status: -2 }, GAMMA] })
    for (let i = 0; i < 5; i++) expect(provider(chat(sim, key, { model: 'acme/degraded' }))).toBe('Gamma')
    // 10,000 characters are 2,504 prompt tokens: Alpha's 8,000 hold them, but not with 6,000 more.
    const long = { role: 'user', content: 'x'.repeat(10_000) }
    for (let i = 0; i < 5; i++) expect(provider(chat(sim, key, { model: MODEL, messages: [long], max_tokens: 6000, provider: { ignore: ['Beta'] } }))).toBe('Gamma')
    const down = chatWorld()
    down.sim.models.create({ id: 'acme/down', endpoints: [{ ...ALPHA, status: -1 }] })
    expect(chat(down.sim, down.key, { model: 'acme/down' }).body.error).toMatchObject({ code: 404, message: 'No endpoints available for this model right now' })
  })

  it('without a sort, draws the first endpoint weighted by 1 / price squared, the same way for the same seed', () => {
    const draw = (seed: number) => {
      const { sim, key } = chatWorld({ seed })
      return Array.from({ length: 200 }, () => provider(chat(sim, key, { model: MODEL })))
    }
    const picks = draw(11)
    const count = (name: string) => picks.filter((p) => p === name).length
    // Beta costs half of Alpha per token (4x the weight); Gamma six times Alpha (1/36 of it).
    expect(count('Beta')).toBeGreaterThan(count('Alpha'))
    expect(count('Alpha')).toBeGreaterThan(count('Gamma'))
    expect(count('Alpha')).toBeGreaterThan(10)
    expect(count('Gamma')).toBeLessThan(10)
    expect(draw(11)).toEqual(picks)
    expect(draw(12)).not.toEqual(picks)
  })
})

describe('fallbacks', () => {
  it('hands the request to the next provider when one fails, and records every attempt in the generation', () => {
    const { sim, key } = chatWorld()
    sim.faults.providerDown({ provider: 'beta' })
    sim.inference.respond({ match: { provider: 'Alpha' }, error: { status: 503, message: 'Alpha is overloaded' } })
    const answer = chat(sim, key, { model: MODEL, provider: { order: ['Beta', 'Alpha', 'Gamma'] } })
    expect([answer.status, provider(answer)]).toEqual([200, 'Gamma'])
    const { data } = generation(sim, key, answer.body.id).body
    expect(data.provider_responses.map((r: any) => [r.provider_name, r.status])).toEqual([
      ['Beta', 502],
      ['Alpha', 503],
      ['Gamma', 200],
    ])
    expect(data.provider_name).toBe('Gamma')
    expect(sim.faults.list()[0]?.fired).toBe(1)
  })

  it('with `allow_fallbacks: false` and an `order`, tries the listed providers only, and answers with the last failure', () => {
    const { sim, key } = chatWorld()
    sim.faults.providerDown({ provider: 'Beta' })
    const answer = chat(sim, key, { model: MODEL, provider: { order: ['Beta'], allow_fallbacks: false } })
    expect(answer.status).toBe(502)
    expect(answer.body.error).toMatchObject({ code: 502, message: 'Provider returned error', metadata: { provider_name: 'Beta' } })
    expect(provider(chat(sim, key, { model: MODEL, provider: { order: ['Beta', 'Alpha'], allow_fallbacks: false } }))).toBe('Alpha')
    sim.faults.providerDown({ provider: 'Alpha' })
    expect(chat(sim, key, { model: MODEL, provider: { order: ['Beta', 'Alpha'], allow_fallbacks: false } }).status).toBe(502)
    // With fallbacks, the providers not listed come after the listed ones.
    expect(provider(chat(sim, key, { model: MODEL, provider: { order: ['Beta', 'Alpha'] } }))).toBe('Gamma')
  })

  it('without `order` and without fallbacks, tries one endpoint only', () => {
    const { sim, key } = chatWorld()
    sim.faults.providerDown({ provider: 'Beta' })
    sim.faults.providerDown({ provider: 'Alpha' })
    expect(chat(sim, key, { model: MODEL, provider: { sort: 'price', allow_fallbacks: false } }).status).toBe(502)
    expect(provider(chat(sim, key, { model: MODEL, provider: { sort: 'price' } }))).toBe('Gamma')
  })

  it('answers with the last failure when every provider fails, charging nothing and recording no generation', () => {
    const { sim, key, keyHash } = chatWorld()
    sim.inference.respond({ error: { status: 429, message: 'Upstream rate limited', metadata: { provider_name: 'any' } } })
    const answer = chat(sim, key, { model: MODEL })
    expect(answer.status).toBe(429)
    expect(answer.body.error).toEqual({ code: 429, message: 'Upstream rate limited', metadata: { provider_name: 'any' } })
    expect(sim.keys.get(keyHash)?.usage).toBe(0)
    expect(sim.inference.responders.list()[0]?.used).toBe(3)
  })

  it('tries each of `models` in order when the ones before cannot answer', () => {
    const { sim, key } = chatWorld()
    sim.models.create({ id: 'acme/down', endpoints: [{ ...ALPHA, status: -1 }] })
    sim.models.create({ id: 'acme/failing', endpoints: [{ ...ALPHA, provider_name: 'Delta' }] })
    sim.faults.providerDown({ provider: 'Delta' })
    const answer = chat(sim, key, { model: 'acme/down', models: ['acme/failing', MODEL] })
    expect([answer.status, answer.body.model]).toEqual([200, MODEL])
    expect(chat(sim, key, { models: ['acme/failing', MODEL] }).body.model).toBe(MODEL)
    expect(chat(sim, key, { models: ['acme/down'] }).status).toBe(404)
  })
})

describe('resolving the model', () => {
  it('answers 400 naming an unknown model, in `model` or in `models`', () => {
    const { sim, key } = chatWorld()
    expect(chat(sim, key, { model: 'acme/nope' }).body.error).toEqual({
      code: 400,
      message: 'acme/nope is not a valid model ID',
      metadata: { parameter: 'model', reason: 'is not a valid model ID', value: 'acme/nope' },
    })
    expect(chat(sim, key, { model: MODEL, models: ['acme/nope'] }).body.error.metadata).toEqual({ parameter: 'models[0]', reason: 'is not a valid model ID', value: 'acme/nope' })
    expect(chat(sim, key, { model: MODEL, models: [MODEL, 'acme/nope'] }).body.error.metadata.parameter).toBe('models[1]')
    expect(chat(sim, key, { models: [MODEL, 'acme/nope'] }).body.error.metadata.parameter).toBe('models[1]')
  })

  it('serves a `:free` variant from the base model\'s free endpoints, and a stored `:free` model as it is', () => {
    const { sim, key } = chatWorld()
    sim.models.create({ id: 'acme/mixed', endpoints: [{ ...ALPHA, pricing: { prompt: '0', completion: '0' } }, GAMMA] })
    for (let i = 0; i < 5; i++) {
      const answer = chat(sim, key, { model: 'acme/mixed:free' })
      expect([answer.body.provider, answer.body.usage.cost]).toEqual(['Alpha', 0])
    }
    expect(chat(sim, key, { model: `${MODEL}:free` }).status).toBe(400)
    sim.models.create({ id: 'acme/solo:free', endpoints: [{ ...BETA, pricing: { prompt: '0', completion: '0' } }] })
    expect(chat(sim, key, { model: 'acme/solo:free' }).body.provider).toBe('Beta')
  })

  it('serves `:nitro` sorted by throughput and `:floor` sorted by price', () => {
    const { sim, key } = chatWorld()
    expect(provider(chat(sim, key, { model: `${MODEL}:nitro`, provider: { ignore: ['Beta'] } }))).toBe('Gamma')
    expect(provider(chat(sim, key, { model: `${MODEL}:floor`, provider: { ignore: ['Beta'] } }))).toBe('Alpha')
  })
})
