// The public catalog: models and their endpoints, video models, the model list and its filters,
// providers, embedding models. No key needed (a bad one is still 401: decisions/0001). How the
// catalog is derived from the store, and each filter's rule: decisions/0023.
import { ApiError } from '../errors.js'
import { cachedJson, dataPayload, listPayload } from '../json-text.js'
import { enumParam, offsetParam, single } from '../params.js'
import { type CatalogQuery, catalogEntry, outputBit, parameterBit } from '../store/catalog.js'
import { anonymousJson } from '../store/models.js'
import { modelWithStatistics } from '../inference/statistics.js'
import { MODEL_CATEGORIES, OUTPUT_MODALITIES, type OutputModality, SUPPORTED_PARAMETERS, type SupportedParameter } from '../types.js'
import { type Operation, clone, jsonAnswer, payloadResponse } from './operation.js'

/** The most models one page may ask for, as the service caps `limit`. */
export const CATALOG_PAGE_LIMIT = 1000

/** A comma-separated list of known values, in the order of `allowed`, each once; any unknown or empty item is a 400 naming the parameter. */
function commaList<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[]): T[] | undefined {
  const value = single(query, name)
  if (value === undefined) return undefined
  const given = new Set(value.split(','))
  for (const item of given) if (!allowed.includes(item as T)) throw ApiError.badParameter(name, `must be a comma-separated list of ${allowed.join(', ')}`, value)
  return allowed.filter((item) => given.has(item))
}

function limitParam(query: URLSearchParams): number | undefined {
  const value = single(query, 'limit')
  if (value === undefined) return undefined
  const n = Number(value)
  if (!/^\d+$/.test(value) || n < 1 || n > CATALOG_PAGE_LIMIT) throw ApiError.badParameter('limit', `must be an integer from 1 to ${CATALOG_PAGE_LIMIT}`, value)
  return n
}

const OUTPUT_CHOICES = [...OUTPUT_MODALITIES, 'all'] as const
const TEXT = outputBit('text')

/** `output_modalities`: absent means text, `all` means every model; otherwise models outputting any of those listed. */
export function outputsParam(query: URLSearchParams): { bits: number; given: string | undefined } {
  const listed = commaList(query, 'output_modalities', OUTPUT_CHOICES)
  if (listed === undefined) return { bits: TEXT, given: undefined }
  if (listed.includes('all')) return { bits: 0, given: 'all' }
  let bits = 0
  for (const modality of listed as OutputModality[]) bits |= outputBit(modality)
  return { bits, given: listed.join(',') }
}

/** The page and the filters of a request, and the page's link (the query normalised: known parameters only, in one order). */
export function pageQuery(path: string, query: URLSearchParams, filters: { outputs: number; parameters: number; given: [string, string | undefined][] }): CatalogQuery {
  const limit = limitParam(query)
  const offset = offsetParam(query, 'offset') ?? 0
  const given: [string, string | undefined][] = [...filters.given, ['limit', limit === undefined ? undefined : String(limit)]]
  const search = given
    .filter((pair): pair is [string, string] => pair[1] !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(value).replaceAll('%2C', ',')}`)
    .join('&')
  return { outputs: filters.outputs, parameters: filters.parameters, offset, limit, link: search === '' ? path : `${path}?${search}` }
}

export const CATALOG_OPERATIONS: readonly Operation[] = [
  {
    name: 'listEndpoints',
    method: 'GET',
    template: '/models/{author}/{slug}/endpoints',
    auth: 'public',
    run({ ctx, params, principal, inference }) {
      const id = `${params['author']}/${params['slug']}`
      const model = ctx.data.models.get(id)
      if (!model) throw ApiError.notFound({ resource: 'model', model: id })
      // The endpoints' figures from traffic where it suffices (decisions/0025); the view is cached as the model is.
      const shown = modelWithStatistics(ctx, inference.statisticsViews, model)
      return payloadResponse(dataPayload(principal ? cachedJson(shown) : anonymousJson(shown), clone))
    },
  },
  {
    name: 'listVideoModels',
    method: 'GET',
    template: '/videos/models',
    auth: 'public',
    run({ ctx }) {
      return payloadResponse(listPayload(Array.from(ctx.data.videoModels.values(), cachedJson), clone, { texts: ctx.listTexts, list: 'video models' }))
    },
  },
  {
    name: 'listModels',
    method: 'GET',
    template: '/models',
    auth: 'public',
    run({ ctx, query }) {
      // `category` is checked and kept in the page's link, but selects nothing: the store has no usage rankings (decisions/0023).
      const category = enumParam(query, 'category', MODEL_CATEGORIES)
      const outputs = outputsParam(query)
      const supported = commaList(query, 'supported_parameters', SUPPORTED_PARAMETERS)
      let parameters = 0
      for (const parameter of supported ?? ([] as SupportedParameter[])) parameters |= parameterBit(parameter)
      const page = pageQuery('/models', query, {
        outputs: outputs.bits,
        parameters,
        given: [
          ['category', category],
          ['output_modalities', outputs.given],
          ['supported_parameters', supported?.join(',')],
        ],
      })
      return payloadResponse(ctx.indices.catalog.page(ctx.data.models, page))
    },
  },
  {
    name: 'countModels',
    method: 'GET',
    template: '/models/count',
    auth: 'public',
    run({ ctx, query }) {
      const count = ctx.indices.catalog.matching(ctx.data.models, { outputs: outputsParam(query).bits, parameters: 0 })
      return jsonAnswer(200, { data: { count } })
    },
  },
  {
    name: 'getModel',
    method: 'GET',
    template: '/model/{author}/{slug}',
    auth: 'public',
    run({ ctx, params }) {
      const id = `${params['author']}/${params['slug']}`
      const model = ctx.data.models.get(id)
      const entry = model === undefined ? null : catalogEntry(model)
      if (entry === null) throw ApiError.notFound({ resource: 'model', model: id })
      return payloadResponse(dataPayload(entry.json, clone))
    },
  },
  {
    name: 'listProviders',
    method: 'GET',
    template: '/providers',
    auth: 'public',
    run({ ctx }) {
      return payloadResponse(ctx.indices.catalog.providerList(ctx.data.models))
    },
  },
  {
    name: 'listEmbeddingsModels',
    method: 'GET',
    template: '/embeddings/models',
    auth: 'public',
    run({ ctx, query }) {
      const page = pageQuery('/embeddings/models', query, { outputs: outputBit('embeddings'), parameters: 0, given: [] })
      return payloadResponse(ctx.indices.catalog.page(ctx.data.models, page))
    },
  },
]
