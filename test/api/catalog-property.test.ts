// Property: for any world, the catalog operations agree with the store they are derived from
// (decisions/0023), written here from the store's models directly, not from the simulator's own
// derivation. fast-check prints the seed and path of a failing run.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { modelWithEndpoints, world } from '../../src/arbitraries/index.js'
import { type CatalogModel, type CatalogModelList, type ModelWithEndpoints, type Provider, SUPPORTED_PARAMETERS, createSimulator } from '../../src/index.js'
import { runs } from '../support/runs.js'

const settings = { verbose: true, numRuns: runs(60) }

/** What decisions/0023 says the catalog shows of a stored model (only models with endpoints are shown). */
function expectedEntry(model: ModelWithEndpoints): Partial<CatalogModel> {
  const [top] = model.endpoints as [ModelWithEndpoints['endpoints'][number]]
  return {
    id: model.id,
    canonical_slug: model.id.split(':')[0] as string,
    name: model.name,
    created: model.created,
    description: model.description,
    context_length: Math.max(...model.endpoints.map((e) => e.context_length)),
    pricing: top.pricing,
    top_provider: { context_length: top.context_length, max_completion_tokens: top.max_completion_tokens, is_moderated: ['OpenAI', 'Anthropic'].includes(top.provider_name) },
    supported_parameters: SUPPORTED_PARAMETERS.filter((p) => model.endpoints.some((e) => e.supported_parameters.includes(p))),
  }
}

const byCatalogOrder = (a: ModelWithEndpoints, b: ModelWithEndpoints): number => b.created - a.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

describe('the catalog agrees with the store', () => {
  it('for any world: GET /models?output_modalities=all lists exactly the models with endpoints, in order, as derived from the store', () => {
    fc.assert(
      fc.property(world({ maxModels: 6 }), fc.nat(5), (spec, limitSeed) => {
        const sim = createSimulator({ world: spec })
        const stored = sim.models.list().filter((m) => m.endpoints.length > 0).sort(byCatalogOrder)
        const get = (path: string, query = ''): unknown => sim.handle({ method: 'GET', path, query }).body

        const all = get('/models', 'output_modalities=all') as CatalogModelList
        expect(all.data.map((m) => m.id)).toEqual(stored.map((m) => m.id))
        expect(all.total_count).toBe(stored.length)
        all.data.forEach((entry, i) => expect(entry).toMatchObject(expectedEntry(stored[i] as ModelWithEndpoints)))

        // Default list: models that output text; count agrees with it.
        const text = stored.filter((m) => m.architecture.output_modalities.includes('text'))
        expect((get('/models') as CatalogModelList).data.map((m) => m.id)).toEqual(text.map((m) => m.id))
        expect(get('/models/count')).toEqual({ data: { count: text.length } })
        const embeddings = stored.filter((m) => m.architecture.output_modalities.includes('embeddings'))
        expect((get('/embeddings/models') as CatalogModelList).data.map((m) => m.id)).toEqual(embeddings.map((m) => m.id))

        // Pages of any size put back together are the whole list.
        const limit = limitSeed + 1
        const paged: string[] = []
        for (let offset = 0; offset < stored.length + limit; offset += limit) {
          paged.push(...(get('/models', `output_modalities=all&limit=${limit}&offset=${offset}`) as CatalogModelList).data.map((m) => m.id))
        }
        expect(paged).toEqual(stored.map((m) => m.id))

        // Each listed model reads the same alone.
        for (const entry of all.data) {
          const [author, slug] = entry.id.split('/') as [string, string]
          expect(get(`/model/${author}/${encodeURIComponent(slug)}`)).toEqual({ data: entry })
        }

        const providers = [...new Set(sim.models.list().flatMap((m) => m.endpoints.map((e) => e.provider_name)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        expect((get('/providers') as { data: Provider[] }).data.map((p) => p.name)).toEqual(providers)
      }),
      settings,
    )
  })

  it('for any models and any parameter set: supported_parameters keeps exactly the models some endpoints of which support each one', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(modelWithEndpoints({ minEndpoints: 1, maxEndpoints: 3 }), { maxLength: 5, selector: (m) => m.id }),
        fc.subarray([...SUPPORTED_PARAMETERS], { minLength: 1, maxLength: 3 }),
        (models, parameters) => {
          const sim = createSimulator({ world: 'empty' })
          for (const model of models) sim.models.create({ ...model, created: model.created * 1000 })

          const body = sim.handle({ method: 'GET', path: '/models', query: `output_modalities=all&supported_parameters=${parameters.join(',')}` }).body as CatalogModelList

          const expected = sim
            .models.list()
            .filter((m) => parameters.every((p) => m.endpoints.some((e) => e.supported_parameters.includes(p))))
            .sort(byCatalogOrder)
          expect(body.data.map((m) => m.id)).toEqual(expected.map((m) => m.id))
        },
      ),
      settings,
    )
  })
})
