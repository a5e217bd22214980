// The public catalog through sim.handle: GET /models and its filters and pages, /models/count,
// /model/{author}/{slug}, /providers and /embeddings/models, derived from the store's models
// (decisions/0023), and kept current when models change.
import { describe, expect, it } from 'vitest'
import { payloadOf } from '../../src/core/operations/operation.js'
import { startServer } from '../../src/server/index.js'
import {
  type CatalogModel,
  type CatalogModelList,
  type CreateModelOptions,
  type Provider,
  type SimRequest,
  type Simulator as AnySimulator,
  createSimulator,
  OUTPUT_MODALITIES,
  SUPPORTED_PARAMETERS,
} from '../../src/index.js'

type Simulator = AnySimulator<unknown>

const T0 = '2026-03-02T10:00:00Z'
const unix = (iso: string): number => Date.parse(iso) / 1000

/** A small hand-made catalog: ids, instants and endpoints chosen so each rule shows. */
const MODELS: CreateModelOptions[] = [
  {
    id: 'acme/chat-1',
    created: '2026-01-10T00:00:00Z',
    description: 'A chat model.',
    architecture: { tokenizer: 'GPT', instruct_type: null, input_modalities: ['text', 'image'], output_modalities: ['text'] },
    endpoints: [
      { provider_name: 'OpenAI', context_length: 128000, max_completion_tokens: 16384, pricing: { prompt: '0.000002', completion: '0.000008' }, supported_parameters: ['max_tokens', 'tools'] },
      { provider_name: 'Azure', context_length: 200000, max_completion_tokens: 32768, pricing: { prompt: '0.000001', completion: '0.000004' }, supported_parameters: ['temperature', 'seed'] },
    ],
  },
  {
    id: 'acme/chat-1:free',
    created: '2026-01-10T00:00:00Z',
    endpoints: [{ provider_name: 'Chutes', context_length: 32768, pricing: { prompt: '0', completion: '0' }, supported_parameters: ['max_tokens'] }],
  },
  {
    id: 'beta/painter',
    created: '2026-02-01T00:00:00Z',
    architecture: { tokenizer: null, input_modalities: ['text'], output_modalities: ['image', 'text'] },
    endpoints: [{ provider_name: 'Google AI Studio', pricing: { prompt: '0.0000003', completion: '0.0000025', image_output: '0.00003' }, supported_parameters: ['temperature', 'response_format'] }],
  },
  {
    id: 'beta/embed-small',
    created: '2025-12-01T00:00:00Z',
    architecture: { tokenizer: 'Other', input_modalities: ['text'], output_modalities: ['embeddings'] },
    endpoints: [{ provider_name: 'Together', context_length: 8192, pricing: { prompt: '0.00000002', completion: '0' }, supported_parameters: [] }],
  },
  {
    id: 'beta/embed-large',
    created: '2026-02-20T00:00:00Z',
    architecture: { tokenizer: 'Other', input_modalities: ['text'], output_modalities: ['embeddings'] },
    endpoints: [{ provider_name: 'Together', context_length: 8192, pricing: { prompt: '0.00000013', completion: '0' }, supported_parameters: [] }],
  },
  { id: 'gamma/voice', created: '2026-02-25T00:00:00Z', architecture: { input_modalities: ['text'], output_modalities: ['speech'] }, endpoints: [{ provider_name: '深度求索' }] },
  { id: 'gamma/no-endpoints', created: '2026-02-28T00:00:00Z', endpoints: [] },
]

function catalogSim(): Simulator {
  const sim = createSimulator({ world: 'empty', now: T0 })
  for (const model of MODELS) sim.models.create(model)
  return sim
}

const get = (sim: Simulator, path: string, query = '', authorization?: string): ReturnType<Simulator['handle']> =>
  sim.handle({ method: 'GET', path, query, ...(authorization === undefined ? {} : { authorization }) } satisfies SimRequest)

function list(sim: Simulator, query = '', path = '/models'): CatalogModelList {
  const res = get(sim, path, query)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body as CatalogModelList
}
const ids = (sim: Simulator, query = '', path = '/models'): string[] => list(sim, query, path).data.map((m) => m.id)

function badParameter(sim: Simulator, path: string, query: string, parameter: string): void {
  const res = get(sim, path, query)
  expect(res.status, query).toBe(400)
  expect((res.body as { error: { metadata: { parameter: string } } }).error.metadata.parameter).toBe(parameter)
}

describe('GET /models', () => {
  it('lists the text-output models with endpoints, newest created first and then by id', () => {
    const sim = catalogSim()

    const body = list(sim)

    // painter (02-01) before the chat pair (01-10: by id, the base before its :free variant); no embeddings, speech or endpoint-less model.
    expect(body.data.map((m) => m.id)).toEqual(['beta/painter', 'acme/chat-1', 'acme/chat-1:free'])
    expect(body.total_count).toBe(3)
    expect(body.links).toEqual({ next: null })
  })

  it('derives each model from the model and its endpoints', () => {
    const sim = catalogSim()

    const chat = list(sim).data.find((m) => m.id === 'acme/chat-1') as CatalogModel

    expect(chat).toEqual({
      id: 'acme/chat-1',
      canonical_slug: 'acme/chat-1',
      hugging_face_id: null,
      name: 'Acme: Chat 1',
      created: unix('2026-01-10T00:00:00Z'),
      description: 'A chat model.',
      // The longest window of any endpoint.
      context_length: 200000,
      architecture: { tokenizer: 'GPT', instruct_type: null, modality: 'text+image->text', input_modalities: ['text', 'image'], output_modalities: ['text'] },
      // The first endpoint's, though the second is cheaper.
      pricing: { prompt: '0.000002', completion: '0.000008' },
      top_provider: { context_length: 128000, max_completion_tokens: 16384, is_moderated: true },
      per_request_limits: null,
      // The union over endpoints, in the order of SUPPORTED_PARAMETERS.
      supported_parameters: ['temperature', 'max_tokens', 'seed', 'tools'],
      default_parameters: null,
      supported_voices: null,
      links: { details: '/api/v1/models/acme/chat-1/endpoints' },
    })
  })

  it('gives a variant its own entry whose canonical slug drops the variant, and leaves out a null tokenizer', () => {
    const sim = catalogSim()
    const all = list(sim, 'output_modalities=all').data

    expect(all.find((m) => m.id === 'acme/chat-1:free')).toMatchObject({ canonical_slug: 'acme/chat-1', name: 'Acme: Chat 1 (free)', pricing: { prompt: '0', completion: '0' } })
    expect(all.find((m) => m.id === 'acme/chat-1:free')?.top_provider.is_moderated).toBe(false)
    expect(all.find((m) => m.id === 'beta/painter')?.architecture).not.toHaveProperty('tokenizer')
  })

  it('keeps models that support every listed parameter', () => {
    const sim = catalogSim()

    expect(ids(sim, 'supported_parameters=temperature')).toEqual(['beta/painter', 'acme/chat-1'])
    expect(ids(sim, 'supported_parameters=tools,temperature')).toEqual(['acme/chat-1'])
    expect(ids(sim, 'supported_parameters=tools,response_format')).toEqual([])
    expect(list(sim, 'supported_parameters=max_tokens').total_count).toBe(2)
  })

  it('keeps models that output any listed modality; all lists every model with endpoints', () => {
    const sim = catalogSim()

    expect(ids(sim, 'output_modalities=image')).toEqual(['beta/painter'])
    expect(ids(sim, 'output_modalities=embeddings')).toEqual(['beta/embed-large', 'beta/embed-small'])
    expect(ids(sim, 'output_modalities=speech,embeddings')).toEqual(['gamma/voice', 'beta/embed-large', 'beta/embed-small'])
    expect(ids(sim, 'output_modalities=text')).toEqual(ids(sim))
    expect(ids(sim, 'output_modalities=all')).toEqual(['gamma/voice', 'beta/embed-large', 'beta/painter', 'acme/chat-1', 'acme/chat-1:free', 'beta/embed-small'])
    expect(ids(sim, 'output_modalities=image,all')).toEqual(ids(sim, 'output_modalities=all'))
  })

  it('accepts every category and narrows nothing by it: the simulator has no usage rankings', () => {
    const sim = catalogSim()

    for (const category of ['programming', 'marketing/seo', 'academia']) expect(ids(sim, `category=${encodeURIComponent(category)}`)).toEqual(ids(sim))
  })

  it('combines the filters', () => {
    const sim = catalogSim()

    expect(ids(sim, 'output_modalities=image,text&supported_parameters=temperature&category=programming')).toEqual(['beta/painter', 'acme/chat-1'])
    // gamma/voice has the default endpoint's parameters, response_format and temperature among them.
    expect(ids(sim, 'output_modalities=all&supported_parameters=temperature,response_format')).toEqual(['gamma/voice', 'beta/painter'])
    expect(list(sim, 'output_modalities=embeddings&supported_parameters=tools').total_count).toBe(0)
  })

  it('pages with limit and offset, counting every match in total_count and linking the next page', () => {
    const sim = catalogSim()

    const first = list(sim, 'output_modalities=all&limit=2&offset=0')
    const second = list(sim, 'output_modalities=all&limit=2&offset=2')
    const last = list(sim, 'output_modalities=all&limit=2&offset=4')

    expect([...first.data, ...second.data, ...last.data].map((m) => m.id)).toEqual(ids(sim, 'output_modalities=all'))
    expect([first.total_count, second.total_count, last.total_count]).toEqual([6, 6, 6])
    expect(first.links.next).toBe('/api/v1/models?output_modalities=all&limit=2&offset=2')
    expect(second.links.next).toBe('/api/v1/models?output_modalities=all&limit=2&offset=4')
    expect(last.links.next).toBeNull()
    // Without a limit, the rest of the list, and no next page.
    expect(list(sim, 'offset=1')).toMatchObject({ total_count: 3, links: { next: null } })
    expect(list(sim, 'offset=1').data.map((m) => m.id)).toEqual(ids(sim).slice(1))
    expect(list(sim, 'limit=1&category=marketing%2Fseo&supported_parameters=max_tokens').links.next).toBe('/api/v1/models?category=marketing%2Fseo&supported_parameters=max_tokens&limit=1&offset=1')
    expect(list(sim, 'limit=500&offset=100')).toEqual({ data: [], links: { next: null }, total_count: 3 })
  })

  it('refuses unknown filter values, malformed pages and repeated parameters with a 400 naming the parameter', () => {
    const sim = catalogSim()

    badParameter(sim, '/models', 'supported_parameters=tools,telepathy', 'supported_parameters')
    badParameter(sim, '/models', 'supported_parameters=tools,', 'supported_parameters')
    badParameter(sim, '/models', 'supported_parameters=', 'supported_parameters')
    badParameter(sim, '/models', 'supported_parameters=Tools', 'supported_parameters')
    badParameter(sim, '/models', 'output_modalities=smell', 'output_modalities')
    badParameter(sim, '/models', 'output_modalities=text&output_modalities=image', 'output_modalities')
    badParameter(sim, '/models', 'category=cooking', 'category')
    for (const limit of ['0', '1001', '-1', '2.5', 'ten']) badParameter(sim, '/models', `limit=${limit}`, 'limit')
    for (const offset of ['-1', '1.5', 'x']) badParameter(sim, '/models', `offset=${offset}`, 'offset')
  })

  it('ignores query parameters it does not simulate', () => {
    const sim = catalogSim()

    expect(ids(sim, 'sort=pricing-low-to-high&q=chat&zdr=true&colour=blue')).toEqual(ids(sim))
  })

  it('is the same to an anonymous caller and to a key, and 401 to an unknown key', () => {
    const sim = createSimulator()

    const anonymous = get(sim, '/models')
    const regular = get(sim, '/models', '', `Bearer ${sim.world.apiKey}`)
    const unknown = get(sim, '/models', '', `Bearer sk-or-v1-${'0'.repeat(64)}`)

    expect(regular.body).toEqual(anonymous.body)
    expect(unknown.status).toBe(401)
  })

  it('sends the cached text of exactly the body it answers', () => {
    const sim = catalogSim()

    for (const query of ['', 'output_modalities=all&limit=2&offset=2', 'supported_parameters=max_tokens']) {
      const res = get(sim, '/models', query)
      const text = payloadOf(res)?.text()
      expect(text).toBe(JSON.stringify(res.body))
    }
  })
})

describe('GET /models/count', () => {
  it('counts the models GET /models lists for the same output modalities', () => {
    const sim = catalogSim()
    const count = (query = ''): unknown => get(sim, '/models/count', query).body

    expect(count()).toEqual({ data: { count: 3 } })
    expect(count('output_modalities=embeddings')).toEqual({ data: { count: 2 } })
    expect(count('output_modalities=all')).toEqual({ data: { count: 6 } })
    expect(count('output_modalities=image,speech')).toEqual({ data: { count: 2 } })
  })

  it('refuses an unknown output modality with a 400 naming it', () => {
    badParameter(catalogSim(), '/models/count', 'output_modalities=text,smell', 'output_modalities')
  })
})

describe('GET /model/{author}/{slug}', () => {
  it('answers the model as GET /models lists it', () => {
    const sim = catalogSim()
    const listed = list(sim, 'output_modalities=all').data

    for (const model of listed) {
      const [author, slug] = model.id.split('/') as [string, string]
      const res = get(sim, `/model/${author}/${encodeURIComponent(slug)}`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ data: model })
    }
  })

  it('resolves a :free variant to the variant itself, percent-encoded or not', () => {
    const sim = catalogSim()

    expect((get(sim, '/model/acme/chat-1%3Afree').body as { data: CatalogModel }).data.id).toBe('acme/chat-1:free')
    expect((get(sim, '/model/acme/chat-1:free').body as { data: CatalogModel }).data.pricing.prompt).toBe('0')
  })

  it('is 404 for an unknown model, a variant the model does not have, and a model without endpoints', () => {
    const sim = catalogSim()

    for (const path of ['/model/acme/chat-9', '/model/beta/painter%3Afree', '/model/gamma/no-endpoints']) {
      const res = get(sim, path)
      expect(res.status, path).toBe(404)
      expect(res.body).toMatchObject({ error: { code: 404, metadata: { resource: 'model', model: path.slice('/model/'.length).replace('%3A', ':') } } })
    }
  })
})

describe('GET /providers', () => {
  it('lists every provider name the endpoints use, once each, sorted, with values derived from the name', () => {
    const sim = catalogSim()

    const { data } = get(sim, '/providers').body as { data: Provider[] }

    expect(data.map((p) => p.name)).toEqual(['Azure', 'Chutes', 'Google AI Studio', 'OpenAI', 'Together', '深度求索'])
    expect(data.find((p) => p.name === 'Google AI Studio')).toEqual({
      name: 'Google AI Studio',
      slug: 'google-ai-studio',
      privacy_policy_url: 'https://google-ai-studio.example/privacy',
      terms_of_service_url: 'https://google-ai-studio.example/terms',
      status_page_url: 'https://status.google-ai-studio.example',
      headquarters: null,
      datacenters: null,
    })
    expect(data.find((p) => p.name === '深度求索')?.slug).toMatch(/^provider-[0-9a-f]{8}$/)
  })

  it('gives a name outside the simulator’s provider table a slug made from it', () => {
    const sim = createSimulator({ world: 'empty', now: T0 })
    sim.models.create({ id: 'acme/x', endpoints: [{ provider_name: 'Acme Cloud (EU)' }] })

    expect(get(sim, '/providers').body).toMatchObject({ data: [{ name: 'Acme Cloud (EU)', slug: 'acme-cloud-eu' }] })
  })
})

describe('GET /embeddings/models', () => {
  it('lists the models that output embeddings, paged by limit and offset', () => {
    const sim = catalogSim()

    expect(ids(sim, '', '/embeddings/models')).toEqual(['beta/embed-large', 'beta/embed-small'])
    const first = list(sim, 'limit=1&offset=0', '/embeddings/models')
    expect(first).toMatchObject({ total_count: 2, links: { next: '/api/v1/embeddings/models?limit=1&offset=1' } })
    expect(list(sim, 'limit=1&offset=1', '/embeddings/models')).toMatchObject({ data: [{ id: 'beta/embed-small' }], links: { next: null } })
    expect(list(sim, '', '/embeddings/models').data).toEqual(list(sim, 'output_modalities=embeddings').data)
  })

  it('refuses a malformed limit or offset with a 400 naming it', () => {
    const sim = catalogSim()

    badParameter(sim, '/embeddings/models', 'limit=0', 'limit')
    badParameter(sim, '/embeddings/models', 'offset=-3', 'offset')
  })
})

describe('the catalog follows the store', () => {
  it('shows a model created after every catalog response was cached, at once', () => {
    const sim = catalogSim()
    const before = {
      list: get(sim, '/models').body,
      all: get(sim, '/models', 'output_modalities=all&limit=2&offset=0').body,
      count: get(sim, '/models/count').body,
      providers: get(sim, '/providers').body,
      embeddings: get(sim, '/embeddings/models').body,
    }

    sim.models.create({
      id: 'zeta/newest',
      created: '2026-03-01T00:00:00Z',
      endpoints: [{ provider_name: 'Groq', supported_parameters: ['tools'] }],
    })
    sim.models.create({ id: 'zeta/embed', architecture: { output_modalities: ['embeddings'] }, endpoints: [{ provider_name: 'Together' }] })

    expect(ids(sim)[0]).toBe('zeta/newest')
    expect(list(sim).total_count).toBe((before.list as CatalogModelList).total_count + 1)
    expect(ids(sim, 'output_modalities=all&limit=2&offset=0')).not.toEqual((before.all as CatalogModelList).data.map((m) => m.id))
    expect(get(sim, '/models/count').body).toEqual({ data: { count: (before.count as { data: { count: number } }).data.count + 1 } })
    expect((get(sim, '/providers').body as { data: Provider[] }).data.map((p) => p.name)).toContain('Groq')
    expect(ids(sim, '', '/embeddings/models')).toEqual(['zeta/embed', ...(before.embeddings as CatalogModelList).data.map((m) => m.id)])
    expect(get(sim, '/model/zeta/newest').status).toBe(200)
  })

  it('goes back with the store on restore and reset', () => {
    const sim = catalogSim()
    const snapshot = sim.snapshot()
    const original = get(sim, '/models', 'output_modalities=all').body
    sim.models.create({ id: 'zeta/later', created: '2026-03-01T00:00:00Z', endpoints: [{ provider_name: 'Groq' }] })
    expect(ids(sim, 'output_modalities=all')).toContain('zeta/later')

    sim.restore(snapshot)
    expect(get(sim, '/models', 'output_modalities=all').body).toEqual(original)
    expect(get(sim, '/model/zeta/later').status).toBe(404)
    expect((get(sim, '/providers').body as { data: Provider[] }).data.map((p) => p.name)).not.toContain('Groq')

    // The baseline is the empty world the simulator was created with: the catalog empties with it.
    sim.reset()
    expect(get(sim, '/models/count', 'output_modalities=all').body).toEqual({ data: { count: 0 } })
    expect(get(sim, '/providers').body).toEqual({ data: [] })
  })

  it('keeps a catalog per simulator: two simulators share nothing', () => {
    const a = catalogSim()
    const b = catalogSim()
    list(a)
    list(b)

    a.models.create({ id: 'zeta/only-in-a', created: '2026-03-01T00:00:00Z', endpoints: [{}] })

    expect(ids(a)).toContain('zeta/only-in-a')
    expect(ids(b)).not.toContain('zeta/only-in-a')
  })
})

describe('the catalog over the server', () => {
  it('lists a model created through the control API at once', async () => {
    const sim = catalogSim()
    const server = await startServer(sim, { port: 0 })
    try {
      const before = (await (await fetch(`${server.url}/models`)).json()) as CatalogModelList
      const created = await fetch(new URL('/__sim/models', server.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'zeta/served', created: '2026-03-01T00:00:00Z', endpoints: [{ provider_name: 'Groq' }] }) })
      expect(created.status).toBe(201)

      const after = (await (await fetch(`${server.url}/models`)).json()) as CatalogModelList

      expect(after.data.map((m) => m.id)).toEqual(['zeta/served', ...before.data.map((m) => m.id)])
    } finally {
      await server.close()
    }
  })
})

describe('the catalog of the default world', () => {
  it('lists every model of the default world, each with the first endpoint’s pricing and known enum values', () => {
    const sim = createSimulator()

    const { data, total_count } = list(sim, 'output_modalities=all')

    expect(total_count).toBe(sim.models.list().filter((m) => m.endpoints.length > 0).length)
    for (const model of data) {
      const stored = sim.models.get(model.id)
      expect(model.pricing).toEqual(stored?.endpoints[0]?.pricing)
      for (const parameter of model.supported_parameters) expect(SUPPORTED_PARAMETERS).toContain(parameter)
      for (const modality of model.architecture.output_modalities) expect(OUTPUT_MODALITIES).toContain(modality)
    }
  })
})
