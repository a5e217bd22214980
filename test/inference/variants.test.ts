// Model variants (decisions/0038): suffixes after `:` on a model id, derived from the base model's
// endpoints at request time unless the store holds a model of that exact id.
import { describe, expect, it } from 'vitest'
import { createSimulator, type Endpoint } from '../../src/index.js'
import { ALPHA, BETA, GAMMA, MODEL, chat, chatWorld, generation } from './support.js'

const pct = (p50: number) => ({ p50, p75: p50, p90: p50, p99: p50 })
const FREE = { prompt: '0', completion: '0' }
/** A reply of known size, so that a cost can be written down: 1,000 prompt and 100 completion tokens. */
const SIZED = { reply: { content: 'ok', usage: { promptTokens: 1000, completionTokens: 100 } } }

describe('routing variants', () => {
  it('serves `:nitro` as `provider.sort: "throughput"` and `:floor` as `provider.sort: "price"`, naming the base model in the answer', () => {
    const { sim, key } = chatWorld()
    const nitro = chat(sim, key, { model: `${MODEL}:nitro`, provider: { ignore: ['Beta'] } })
    expect([nitro.body.provider, nitro.body.model]).toEqual(['Gamma', MODEL])
    const floor = chat(sim, key, { model: `${MODEL}:floor`, provider: { ignore: ['Beta'] } })
    expect([floor.body.provider, floor.body.model]).toEqual(['Alpha', MODEL])
    // The request's own sort wins over the variant's.
    expect(chat(sim, key, { model: `${MODEL}:nitro`, provider: { sort: 'latency' } }).body.provider).toBe('Gamma')
  })

  it('serves `:exacto` quality first: highest 30-minute uptime, then highest throughput, as `provider.sort: "exacto"` does', () => {
    const { sim, key } = chatWorld()
    sim.models.create({
      id: 'acme/tools',
      endpoints: [
        { ...ALPHA, uptime_last_30m: 97, throughput_last_30m: pct(500) },
        { ...BETA, uptime_last_30m: 99.5, throughput_last_30m: pct(20) },
        { ...GAMMA, uptime_last_30m: 99.5, throughput_last_30m: pct(80) },
      ],
    })
    for (let i = 0; i < 3; i++) expect(chat(sim, key, { model: 'acme/tools:exacto' }).body.provider).toBe('Gamma')
    expect(chat(sim, key, { model: 'acme/tools', provider: { sort: 'exacto' } }).body.provider).toBe('Gamma')
    expect(chat(sim, key, { model: 'acme/tools', provider: { sort: { by: 'exacto' } } }).body.provider).toBe('Gamma')
    // The order is the fallback order: Gamma down, Beta (same uptime, slower) answers, then Alpha.
    sim.faults.providerDown({ provider: 'Gamma' })
    const answer = chat(sim, key, { model: 'acme/tools:exacto' })
    expect(answer.body.provider).toBe('Beta')
    sim.faults.providerDown({ provider: 'Beta' })
    expect(chat(sim, key, { model: 'acme/tools:exacto' }).body.provider).toBe('Alpha')
  })

  it('puts endpoints without an uptime figure last under `:exacto`', () => {
    const { sim, key } = chatWorld()
    sim.models.create({ id: 'acme/new', endpoints: [{ ...ALPHA, uptime_last_30m: null }, { ...BETA, uptime_last_30m: 50 }] })
    expect(chat(sim, key, { model: 'acme/new:exacto' }).body.provider).toBe('Beta')
  })
})

describe('catalog variants derived from the base model', () => {
  it('serves `:free` from the base model\'s free endpoints and names `:free` in the answer; a stored `:free` model is served as it is', () => {
    const { sim, key } = chatWorld()
    sim.models.create({ id: 'acme/mixed', endpoints: [{ ...ALPHA, pricing: FREE }, GAMMA] })
    const answer = chat(sim, key, { model: 'acme/mixed:free' })
    expect([answer.body.provider, answer.body.model, answer.body.usage.cost]).toEqual(['Alpha', 'acme/mixed:free', 0])
    sim.models.create({ id: 'acme/solo:free', endpoints: [{ ...BETA, pricing: FREE }] })
    expect(chat(sim, key, { model: 'acme/solo:free' }).body).toMatchObject({ provider: 'Beta', model: 'acme/solo:free' })
  })

  it('refuses `:free` on a model without free endpoints with a 400 that says so', () => {
    const { sim, key } = chatWorld()
    expect(chat(sim, key, { model: `${MODEL}:free` }).body.error).toEqual({
      code: 400,
      message: `${MODEL}:free is not a valid model ID: ${MODEL} has no free endpoints`,
      metadata: { parameter: 'model', reason: `${MODEL} has no free endpoints`, value: `${MODEL}:free` },
    })
  })

  it('serves `:thinking` from the endpoints that support reasoning, naming `:thinking` in the answer', () => {
    const { sim, key } = chatWorld()
    sim.models.create({ id: 'acme/thinker', endpoints: [ALPHA, { ...GAMMA, supported_parameters: ['max_tokens', 'reasoning', 'include_reasoning'] }] })
    for (let i = 0; i < 5; i++) expect(chat(sim, key, { model: 'acme/thinker:thinking' }).body).toMatchObject({ provider: 'Gamma', model: 'acme/thinker:thinking' })
    const refused = chat(sim, key, { model: `${MODEL}:thinking` })
    expect([refused.status, refused.body.error.message]).toEqual([400, `${MODEL}:thinking is not a valid model ID: ${MODEL} has no endpoint that supports reasoning, which :thinking turns on`])
  })

  it('refuses `:extended` as not simulated, unless the store holds a model of that exact id', () => {
    const { sim, key } = chatWorld()
    const refused = chat(sim, key, { model: `${MODEL}:extended` })
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toBe(`${MODEL}:extended is not a valid model ID: the :extended variant (a larger context window) is not simulated; create a model with this exact id to serve it`)
    sim.models.create({ id: `${MODEL}:extended`, endpoints: [{ ...BETA, context_length: 1_000_000 }] })
    expect(chat(sim, key, { model: `${MODEL}:extended` }).body).toMatchObject({ provider: 'Beta', model: `${MODEL}:extended` })
  })

  it('serves a stored model whose id ends in a variant as it is, not as the variant', () => {
    const { sim, key } = chatWorld()
    sim.models.create({ id: `${MODEL}:nitro`, endpoints: [{ ...ALPHA, provider_name: 'Delta' }] })
    expect(chat(sim, key, { model: `${MODEL}:nitro` }).body).toMatchObject({ provider: 'Delta', model: `${MODEL}:nitro` })
  })

  it('refuses a suffix that is no variant, listing the variants', () => {
    const { sim, key } = chatWorld()
    const refused = chat(sim, key, { model: `${MODEL}:turbo`, models: [MODEL] })
    expect(refused.body.error).toMatchObject({ code: 400, metadata: { parameter: 'model', value: `${MODEL}:turbo` } })
    expect(refused.body.error.message).toBe(`${MODEL}:turbo is not a valid model ID: :turbo is not a model variant; the variants are :free, :nitro, :floor, :online, :thinking, :exacto, :extended`)
  })
})

describe('responder rules and variants', () => {
  it('match a variant\'s request by the stored model that serves it, and an auto request by the model picked', () => {
    const { sim, key } = chatWorld()
    sim.models.create({ id: 'acme/mixed', endpoints: [{ ...ALPHA, pricing: FREE }, GAMMA] })
    sim.inference.respond({ match: { model: MODEL }, reply: { content: 'from the base model' } })
    sim.inference.respond({ match: { model: 'acme/mixed' }, reply: { content: 'from acme/mixed' } })
    for (const id of [`${MODEL}:nitro`, `${MODEL}:online`, `${MODEL}:exacto`]) expect(chat(sim, key, { model: id }).body.choices[0].message.content).toBe('from the base model')
    expect(chat(sim, key, { model: 'acme/mixed:free' }).body.choices[0].message.content).toBe('from acme/mixed')
    // The cheapest paid model is acme/chat-1 (acme/mixed's first endpoint is free).
    expect(chat(sim, key, { model: 'openrouter/auto' }).body.choices[0].message.content).toBe('from the base model')
  })
})

describe('the :online variant', () => {
  it('bills one web search at the endpoint\'s `web_search` price, and names `:online` in the answer and the generation', () => {
    const { sim, key } = chatWorld()
    sim.models.create({ id: 'acme/searcher', endpoints: [{ ...ALPHA, pricing: { ...ALPHA.pricing!, web_search: '0.01' } }] })
    sim.inference.respond(SIZED)
    const plain = chat(sim, key, { model: 'acme/searcher' })
    const online = chat(sim, key, { model: 'acme/searcher:online' })
    // 1,000 x 0.000001 + 100 x 0.000002 = 0.0012, and one search at 0.01.
    expect([plain.body.usage.cost, online.body.usage.cost]).toEqual([0.0012, 0.0112])
    expect(online.body.model).toBe('acme/searcher:online')
    expect(generation(sim, key, online.body.id).body.data).toMatchObject({ model: 'acme/searcher:online', total_cost: 0.0112 })
  })

  it('bills the web plugin\'s $0.02 (5 results at $4 per 1,000) on an endpoint without a web_search price, free endpoints included', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond(SIZED)
    expect(chat(sim, key, { model: `${MODEL}:online`, provider: { only: ['Alpha'] } }).body.usage.cost).toBe(0.0212)
    sim.models.create({ id: 'acme/gratis', endpoints: [{ ...ALPHA, pricing: { ...FREE, web_search: '0' } }] })
    expect(chat(sim, key, { model: 'acme/gratis:online' }).body.usage.cost).toBe(0.02)
  })

  it('stacks on `:free` (`x:free:online`), and a search on a free endpoint needs credits: 402 without them', () => {
    const sim = createSimulator({ world: 'empty', seed: 7, now: '2026-03-02T10:00:00Z' })
    const org = sim.users.create({ name: 'New' })
    const { key } = sim.keys.create({ userId: org.id })
    sim.models.create({ id: 'acme/mixed', endpoints: [{ ...ALPHA, pricing: FREE }, GAMMA] })
    expect(chat(sim, key, { model: 'acme/mixed:free' }).status).toBe(200)
    const refused = chat(sim, key, { model: 'acme/mixed:free:online' })
    expect(refused.status).toBe(402)
    sim.credits.add({ userId: org.id, amount: 1 })
    const answer = chat(sim, key, { model: 'acme/mixed:free:online' })
    expect([answer.status, answer.body.provider, answer.body.model, answer.body.usage.cost]).toEqual([200, 'Alpha', 'acme/mixed:free:online', 0.02])
  })

  it('charges the search to a stream cut short too', () => {
    const { sim, key, keyHash } = chatWorld()
    sim.inference.respond(SIZED)
    const answer = chat(sim, key, { model: `${MODEL}:online`, provider: { only: ['Alpha'] }, stream: true })
    expect(answer.response.type).toBe('stream')
    const cancel = (answer.response as unknown as { cancel(sent: number): boolean }).cancel
    cancel(1)
    // Only the prompt was sent when the client went: 1,000 x 0.000001, and the search.
    expect(sim.keys.get(keyHash)?.usage).toBe(0.021)
  })

  it('bills the search on the Responses API too, whose answer names the variant', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond(SIZED)
    const response = sim.handle({ method: 'POST', path: '/responses', authorization: `Bearer ${key}`, body: JSON.stringify({ model: `${MODEL}:online`, input: 'News?', provider: { only: ['Alpha'] } }) })
    expect((response.body as any).model).toBe(`${MODEL}:online`)
    expect((response.body as any).usage.cost).toBe(0.0212)
  })

  it('bills the same for the web plugin it stands for, `plugins: [{ id: "web" }]`, whose `max_results` sets the plugin\'s results', () => {
    const { sim, key } = chatWorld()
    sim.models.create({ id: 'acme/searcher', endpoints: [{ ...ALPHA, pricing: { ...ALPHA.pricing!, web_search: '0.01' } }] })
    sim.inference.respond(SIZED)
    const cost = (body: Record<string, unknown>) => chat(sim, key, { provider: { only: ['Alpha'] }, ...body }).body.usage.cost
    expect(cost({ model: MODEL, plugins: [{ id: 'web' }] })).toBe(0.0212)
    // 3 results at $0.004; the plugin's settings win over :online's defaults.
    expect(cost({ model: MODEL, plugins: [{ id: 'web', max_results: 3 }] })).toBe(0.0132)
    expect(cost({ model: `${MODEL}:online`, plugins: [{ id: 'web', max_results: 1 }] })).toBe(0.0052)
    // A native search is one search at the endpoint's price, whatever the results.
    expect(cost({ model: 'acme/searcher', plugins: [{ id: 'web', max_results: 10 }] })).toBe(0.0112)
    // A disabled plugin, or none of id "web", searches nothing.
    expect(cost({ model: MODEL, plugins: [{ id: 'web', enabled: false }, { id: 'file-parser' }] })).toBe(0.0012)
    const refused = chat(sim, key, { model: MODEL, plugins: [{ id: 'file-parser' }, { id: 'web', max_results: 0 }] })
    expect([refused.status, refused.body.error.metadata.parameter]).toEqual([400, 'plugins[1].max_results'])
    const response = sim.handle({ method: 'POST', path: '/responses', authorization: `Bearer ${key}`, body: JSON.stringify({ model: MODEL, input: 'News?', plugins: [{ id: 'web' }], provider: { only: ['Alpha'] } }) })
    expect((response.body as any).usage.cost).toBe(0.0212)
  })

  it('is refused on embeddings, whose reply has no use for a search', () => {
    const { sim, key } = chatWorld()
    sim.models.create({ id: 'acme/embed', architecture: { output_modalities: ['embeddings'] }, endpoints: [ALPHA] })
    const response = sim.handle({ method: 'POST', path: '/embeddings', authorization: `Bearer ${key}`, body: JSON.stringify({ model: 'acme/embed:online', input: 'hi' }) })
    expect(response.status).toBe(400)
    expect((response.body as any).error.metadata).toMatchObject({ parameter: 'model', value: 'acme/embed:online' })
    const nitro = sim.handle({ method: 'POST', path: '/embeddings', authorization: `Bearer ${key}`, body: JSON.stringify({ model: 'acme/embed:nitro', input: 'hi' }) })
    expect([nitro.status, (nitro.body as any).model]).toEqual([200, 'acme/embed'])
    // A derived `:free` names itself there too, as on chat.
    sim.models.create({ id: 'acme/embed-mixed', architecture: { output_modalities: ['embeddings'] }, endpoints: [{ ...ALPHA, pricing: FREE }, BETA] })
    const free = sim.handle({ method: 'POST', path: '/embeddings', authorization: `Bearer ${key}`, body: JSON.stringify({ model: 'acme/embed-mixed:free', input: 'hi' }) })
    expect([(free.body as any).model, (free.body as any).usage.cost]).toEqual(['acme/embed-mixed:free', 0])
  })
})

describe('openrouter/auto', () => {
  /** A world of paid chat models, a free one and an image model; `cheap` is the cheapest paid one, holds 8,000 tokens only and lists no tools. */
  function autoWorld() {
    const world = chatWorld()
    const { sim } = world
    sim.models.create({ id: 'acme/cheap', endpoints: [{ ...ALPHA, provider_name: 'Delta', pricing: { prompt: '0.0000001', completion: '0.0000002' } }] })
    sim.models.create({ id: 'acme/tooled', endpoints: [{ ...BETA, pricing: { prompt: '0.0000002', completion: '0.0000004' } }] })
    sim.models.create({ id: 'acme/gratis', endpoints: [{ ...GAMMA, pricing: FREE }] })
    sim.models.create({ id: 'acme/painter', architecture: { output_modalities: ['image'] }, endpoints: [{ ...ALPHA, pricing: { prompt: '0.00000001', completion: '0.00000001' } }] })
    return world
  }

  it('picks the cheapest paid text model by its first endpoint\'s list price, names it in `model` and charges as that model', () => {
    const { sim, key } = autoWorld()
    sim.inference.respond(SIZED)
    const auto = chat(sim, key, { model: 'openrouter/auto' })
    expect([auto.status, auto.body.model, auto.body.provider]).toEqual([200, 'acme/cheap', 'Delta'])
    const direct = chat(sim, key, { model: 'acme/cheap' })
    expect(auto.body.usage.cost).toBe(direct.body.usage.cost)
    expect(generation(sim, key, auto.body.id).body.data.model).toBe('acme/cheap')
  })

  it('breaks a tie of list prices by id', () => {
    const { sim, key } = chatWorld()
    sim.models.create({ id: 'acme/b-twin', endpoints: [{ ...ALPHA, pricing: { prompt: '0.0000001', completion: '0.0000001' } }] })
    sim.models.create({ id: 'acme/a-twin', endpoints: [{ ...BETA, pricing: { prompt: '0.00000015', completion: '0.00000005' } }] })
    expect(chat(sim, key, { model: 'openrouter/auto' }).body.model).toBe('acme/a-twin')
    // Compared exactly: 10^-23 USD dearer loses, though the two sums are the same double.
    sim.models.create({ id: 'acme/0-near', endpoints: [{ ...ALPHA, pricing: { prompt: '0.00000010000000000000001', completion: '0.0000001' } }] })
    expect(chat(sim, key, { model: 'openrouter/auto' }).body.model).toBe('acme/a-twin')
  })

  it('passes over models whose context cannot hold the prompt plus max_tokens', () => {
    const { sim, key } = autoWorld()
    expect(chat(sim, key, { model: 'openrouter/auto', max_tokens: 7000 }).body.model).toBe('acme/cheap')
    expect(chat(sim, key, { model: 'openrouter/auto', max_tokens: 9000 }).body.model).toBe('acme/tooled')
  })

  it('passes over models with no endpoint that supports every parameter the request uses', () => {
    const { sim, key } = autoWorld()
    const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }]
    expect(chat(sim, key, { model: 'openrouter/auto', tools }).body.model).toBe('acme/tooled')
    expect(chat(sim, key, { model: 'openrouter/auto' }).body.model).toBe('acme/cheap')
  })

  it('answers 400 when no model fits, and falls back to `models` when one is listed after it', () => {
    const { sim, key } = autoWorld()
    const long = { role: 'user', content: 'x'.repeat(600_000) }
    const refused = chat(sim, key, { model: 'openrouter/auto', messages: [long] })
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toBe('No model fits this request for openrouter/auto: none holds 150004 prompt tokens plus 1 completion tokens')
    expect(refused.body.error.metadata).toEqual({ parameter: 'model', reason: 'no model fits the request', value: 'openrouter/auto' })
    // Free models are not picked, but a free fallback after auto answers.
    sim.models.create({ id: 'acme/wide:free', endpoints: [{ ...GAMMA, pricing: FREE, context_length: 1_000_000 }] })
    expect(chat(sim, key, { model: 'openrouter/auto', models: ['acme/wide:free'], messages: [long] }).body.model).toBe('acme/wide:free')
    sim.models.create({ id: 'acme/huge', endpoints: [{ ...GAMMA, context_length: 1_000_000 }] })
    expect(chat(sim, key, { model: 'openrouter/auto', models: ['acme/wide:free'], messages: [long] }).body.model).toBe('acme/huge')
  })

  it('hands the request to the next of `models` when the model it picked fails, and can itself be a fallback', () => {
    const { sim, key } = autoWorld()
    sim.faults.providerDown({ provider: 'Delta' })
    expect(chat(sim, key, { model: 'openrouter/auto', models: [MODEL], provider: { only: ['Delta', 'Gamma'] } }).body).toMatchObject({ model: MODEL, provider: 'Gamma' })
    sim.models.create({ id: 'acme/down', endpoints: [{ ...ALPHA, status: -1 }] })
    sim.faults.clear()
    expect(chat(sim, key, { model: 'acme/down', models: ['openrouter/auto'] }).body.model).toBe('acme/cheap')
  })

  it('picks even when the store lists a model of that id, which is never picked itself', () => {
    const { sim, key } = autoWorld()
    sim.models.create({ id: 'openrouter/auto', endpoints: [{ ...ALPHA, provider_name: 'Router', pricing: { prompt: '0.000000001', completion: '0.000000001' } }] })
    expect(chat(sim, key, { model: 'openrouter/auto' }).body).toMatchObject({ model: 'acme/cheap', provider: 'Delta' })
  })

  it('is refused on embeddings, where it has nothing to pick', () => {
    const { sim, key } = autoWorld()
    const response = sim.handle({ method: 'POST', path: '/embeddings', authorization: `Bearer ${key}`, body: JSON.stringify({ model: 'openrouter/auto', input: 'hi' }) })
    expect(response.status).toBe(400)
    expect((response.body as any).error.message).toBe('openrouter/auto is not a valid model ID: openrouter/auto picks among chat models, not on this route')
  })
})

describe('provider preferences with slugs', () => {
  const ENDPOINTS: Partial<Endpoint>[] = [
    { ...ALPHA, provider_name: 'Google Vertex', tag: 'google-vertex', quantization: 'bf16' },
    { ...ALPHA, provider_name: 'Google Vertex', tag: 'google-vertex/europe', quantization: 'bf16' },
    { ...ALPHA, provider_name: 'DeepInfra', tag: 'deepinfra', quantization: 'fp8' },
    { ...ALPHA, provider_name: 'DeepInfra', tag: 'deepinfra/bf16', quantization: 'bf16' },
    { ...ALPHA, provider_name: 'DeepInfra', tag: 'deepinfra/turbo', quantization: 'fp4' },
  ]
  const world = () => {
    const w = chatWorld()
    w.sim.models.create({ id: 'acme/hosted', endpoints: ENDPOINTS })
    return w
  }
  it('matches every region and quantization of a slug without one, and only that tag for a slug with a region', () => {
    const { sim, key } = world()
    const only = (list: string[]) => {
      const tags = new Set<string>()
      for (let i = 0; i < 40; i++) {
        const answer = chat(sim, key, { model: 'acme/hosted', provider: { only: list } })
        tags.add(generation(sim, key, answer.body.id).body.data.provider_responses.at(-1).endpoint_id)
      }
      return [...tags].sort()
    }
    expect(only(['google-vertex'])).toEqual(['google-vertex', 'google-vertex/europe'])
    expect(only(['google-vertex/europe'])).toEqual(['google-vertex/europe'])
    expect(only(['Google Vertex'])).toEqual(['google-vertex', 'google-vertex/europe'])
    expect(only(['deepinfra'])).toEqual(['deepinfra', 'deepinfra/bf16', 'deepinfra/turbo'])
    // A suffix that is a quantization keeps that meaning: DeepInfra's endpoints of that quantization, whatever their tag.
    expect(only(['deepinfra/fp8'])).toEqual(['deepinfra'])
    expect(only(['DEEPINFRA/BF16'])).toEqual(['deepinfra/bf16'])
    expect(only(['deepinfra/turbo'])).toEqual(['deepinfra/turbo'])
    expect(chat(sim, key, { model: 'acme/hosted', provider: { only: ['google-vertex/asia'] } }).body.error.message).toBe('No endpoints found matching your provider preferences')
  })

  it('applies the same matching to `ignore` and `order`', () => {
    const { sim, key } = world()
    const served = (provider: Record<string, unknown>) => {
      const answer = chat(sim, key, { model: 'acme/hosted', provider })
      return generation(sim, key, answer.body.id).body.data.provider_responses.at(-1).endpoint_id
    }
    for (let i = 0; i < 10; i++) expect(served({ ignore: ['google-vertex', 'deepinfra/fp8', 'deepinfra/turbo'] })).toBe('deepinfra/bf16')
    expect(served({ order: ['google-vertex/europe'], allow_fallbacks: false })).toBe('google-vertex/europe')
    sim.faults.providerDown({ provider: 'Google Vertex' })
    const answer = chat(sim, key, { model: 'acme/hosted', provider: { order: ['google-vertex', 'deepinfra/fp4'], allow_fallbacks: false } })
    expect(generation(sim, key, answer.body.id).body.data.provider_responses.map((r: any) => r.endpoint_id).slice(-1)).toEqual(['deepinfra/turbo'])
  })

  it('refuses a slug with an empty part or more than one `/`, naming the entry', () => {
    const { sim, key } = world()
    for (const [list, field] of [[['google-vertex/'], 'only'], [['ok', '/europe'], 'ignore'], [['a/b/c'], 'order']] as const) {
      const answer = chat(sim, key, { model: 'acme/hosted', provider: { [field]: list } })
      expect(answer.status).toBe(400)
      expect(answer.body.error.metadata.parameter).toBe(`provider.${field}[${list.length - 1}]`)
    }
  })
})
