// The catalog through the official SDK over MSW: sdk.models.list/count/get, sdk.providers.list and
// sdk.embeddings.listModels parse with no validation error, and carry what the simulator derives.
import { OpenRouter } from '@openrouter/sdk'
import { OpenRouterDefaultError } from '@openrouter/sdk/models/errors'
import { describe, expect, it } from 'vitest'
import { type CatalogModelList, type Provider, createSimulator } from '../../src/index.js'
import { BASE, failureOf, sdkClient, useSimulatorServer } from '../support/server.js'

const server = useSimulatorServer()

const client = (apiKey?: string): OpenRouter => sdkClient(apiKey)

/** The default world (its 3 embedding models included) plus two embedding models, so every operation has something to list. */
function catalogSim() {
  const sim = createSimulator()
  sim.models.create({ id: 'openai/text-embedding-ada-002', created: '2024-01-25T00:00:00Z', architecture: { tokenizer: 'GPT', output_modalities: ['embeddings'] }, endpoints: [{ provider_name: 'OpenAI', context_length: 8192, pricing: { prompt: '0.00000002', completion: '0' }, supported_parameters: [] }] })
  sim.models.create({ id: 'mistralai/mistral-embed', created: '2024-03-01T00:00:00Z', architecture: { tokenizer: 'Mistral', output_modalities: ['embeddings'] }, endpoints: [{ provider_name: 'Mistral', context_length: 8192, pricing: { prompt: '0.0000001', completion: '0' }, supported_parameters: [] }] })
  // Non-ASCII text, so a content-length counted in UTF-16 units would be wrong.
  sim.models.create({ id: 'deepseek/deepseek-v3.2-fr', description: 'Modèle de raisonnement — 深度求索', endpoints: [{ provider_name: '深度求索' }] })
  server.serve(sim)
  return sim
}

const wireList = (sim: ReturnType<typeof catalogSim>, path: string, query = ''): CatalogModelList => sim.handle({ method: 'GET', path, query }).body as CatalogModelList

describe('sdk.models', () => {
  it('list() parses and holds every text model, in the simulator’s order, with the derived fields', async () => {
    const sim = catalogSim()

    const page = await client().models.list()

    const expected = wireList(sim, '/models', 'limit=500&offset=0')
    expect(page.result.data.map((m) => m.id)).toEqual(expected.data.map((m) => m.id))
    expect(page.result.totalCount).toBe(expected.total_count)
    expect(page.result.links.next).toBeNull()
    const first = page.result.data[0]
    const wire = expected.data[0]
    expect(first).toMatchObject({
      canonicalSlug: wire?.canonical_slug,
      contextLength: wire?.context_length,
      pricing: { prompt: wire?.pricing.prompt, completion: wire?.pricing.completion },
      topProvider: { contextLength: wire?.top_provider.context_length, isModerated: wire?.top_provider.is_moderated },
      supportedParameters: wire?.supported_parameters,
      perRequestLimits: null,
      defaultParameters: null,
      links: { details: wire?.links.details },
    })
  })

  it('list() walks every page with the SDK’s iterator', async () => {
    const sim = catalogSim()

    const seen: string[] = []
    for await (const page of await client().models.list({ outputModalities: 'all', limit: 7 })) {
      seen.push(...page.result.data.map((m) => m.id))
    }

    expect(seen).toEqual(wireList(sim, '/models', 'output_modalities=all').data.map((m) => m.id))
    expect(seen.length).toBeGreaterThan(14)
  })

  it('list() passes the filters through: supported parameters, output modalities and category', async () => {
    const sim = catalogSim()
    const sdk = client()

    const tools = await sdk.models.list({ supportedParameters: 'tools,structured_outputs', category: 'programming' })
    const embeddings = await sdk.models.list({ outputModalities: 'embeddings' })

    const expected = wireList(sim, '/models', 'supported_parameters=tools,structured_outputs')
    expect(tools.result.data.map((m) => m.id)).toEqual(expected.data.map((m) => m.id))
    for (const model of tools.result.data) expect(model.supportedParameters).toEqual(expect.arrayContaining(['tools', 'structured_outputs']))
    // Newest first, then by id: the two made here, and the default world's three.
    expect(embeddings.result.data.map((m) => m.id)).toEqual(['mistralai/mistral-embed', 'openai/text-embedding-3-large', 'openai/text-embedding-3-small', 'openai/text-embedding-ada-002', 'mistralai/mistral-embed-2312'])
  })

  it('count() counts the text models, or those of the given output modalities', async () => {
    const sim = catalogSim()
    const sdk = client()

    expect(await sdk.models.count()).toEqual({ data: { count: wireList(sim, '/models').total_count } })
    expect(await sdk.models.count({ outputModalities: 'embeddings' })).toEqual({ data: { count: 2 + 3 } })
    expect(await sdk.models.count({ outputModalities: 'all' })).toEqual({ data: { count: sim.models.list().length } })
  })

  it('get() answers the model as the list has it, :free variants included', async () => {
    const sim = catalogSim()
    const sdk = client(sim.world.apiKey)

    const free = await sdk.models.get({ author: 'meta-llama', slug: 'llama-3.3-70b-instruct:free' })
    const paid = await sdk.models.get({ author: 'meta-llama', slug: 'llama-3.3-70b-instruct' })

    // A :free variant shares its paid model's dated canonical slug.
    expect(free.data).toMatchObject({ id: sim.world.models.free, canonicalSlug: 'meta-llama/llama-3.3-70b-instruct-2024-12-06', pricing: { prompt: '0', completion: '0' } })
    expect(paid.data.canonicalSlug).toBe(free.data.canonicalSlug)
    const listed = (await sdk.models.list()).result.data.find((m) => m.id === sim.world.models.paid)
    expect(paid.data).toEqual(listed)
  })
})

describe('sdk.providers.list', () => {
  it('parses and lists every provider the endpoints use, sorted', async () => {
    const sim = catalogSim()

    const { data } = await client().providers.list()

    const names = [...new Set(sim.models.list().flatMap((m) => m.endpoints.map((e) => e.provider_name)))].sort()
    expect(data.map((p) => p.name)).toEqual(names)
    const wire = (sim.handle({ method: 'GET', path: '/providers' }).body as { data: Provider[] }).data
    expect(data[0]).toEqual({
      name: wire[0]?.name,
      slug: wire[0]?.slug,
      privacyPolicyUrl: wire[0]?.privacy_policy_url,
      termsOfServiceUrl: wire[0]?.terms_of_service_url,
      statusPageUrl: wire[0]?.status_page_url,
      headquarters: null,
      datacenters: null,
    })
  })
})

describe('sdk.embeddings.listModels', () => {
  it('parses and lists the embedding models, page by page', async () => {
    catalogSim()

    const pages: string[][] = []
    for await (const page of await client().embeddings.listModels({ limit: 1 })) pages.push(page.result.data.map((m) => m.id))

    expect(pages).toEqual([...(['mistralai/mistral-embed', 'openai/text-embedding-3-large', 'openai/text-embedding-3-small', 'openai/text-embedding-ada-002', 'mistralai/mistral-embed-2312']).map((id) => [id]), []])
  })

  it('is an empty list in a world without embedding models', async () => {
    server.serve(createSimulator({ world: 'empty' }))

    const page = await client().embeddings.listModels()

    expect(page.result).toEqual({ data: [], links: { next: null }, totalCount: 0 })
  })
})

describe('the wire', () => {
  it('sends byte for byte the JSON of the body sim.handle answers', async () => {
    const sim = catalogSim()

    for (const path of ['/models', '/model/deepseek/deepseek-v3.2-fr', '/models?output_modalities=all&limit=5&offset=5', '/models/count', '/model/meta-llama/llama-3.3-70b-instruct%3Afree', '/providers', '/embeddings/models']) {
      const [route, query = ''] = path.split('?') as [string, string?]
      const response = await fetch(`${BASE}${path}`)
      expect(response.headers.get('content-type')).toBe('application/json')
      const text = await response.text()
      expect(text, path).toBe(JSON.stringify(sim.handle({ method: 'GET', path: route, query }).body))
      expect(response.headers.get('content-length'), path).toBe(String(new TextEncoder().encode(text).byteLength))
    }
  })

  it('answers a bad credential with 401 on every catalog operation, which the SDK surfaces as its default error', async () => {
    catalogSim()
    const sdk = client(`sk-or-v1-${'0'.repeat(64)}`)

    for (const call of [() => sdk.models.list(), () => sdk.models.count(), () => sdk.models.get({ author: 'meta-llama', slug: 'llama-3.3-70b-instruct' }), () => sdk.providers.list(), () => sdk.embeddings.listModels()]) {
      const error = await failureOf(call())
      expect(error).toBeInstanceOf(OpenRouterDefaultError)
      expect((error as OpenRouterDefaultError).statusCode).toBe(401)
    }
  })
})
