// The public catalog (GET /models, /models/count, /model/{author}/{slug}, /providers,
// /embeddings/models) as a view of the store's models: each model's catalog entry is derived from
// the model and its endpoints, and every rule of the derivation is in decisions/0023. Entries are
// cached on the (immutable) model record; the sorted catalog, each filtered page's text and the
// provider list are cached per simulator (in StoreIndices) and dropped on any change to a model.
import { memoByRecord } from '../memo.js'
import { type CachedJson, type JsonPayload, utf8Length } from '../json-text.js'
import { type CatalogArchitecture, type CatalogModel, type ModelWithEndpoints, OUTPUT_MODALITIES, type OutputModality, type Provider, SUPPORTED_PARAMETERS, type SupportedParameter } from '../types.js'
import { PROVIDERS } from './defaults.js'
import { canonicalSlugOf } from './models.js'

/** Providers whose first-party endpoints the service moderates (`top_provider.is_moderated`). */
const MODERATED_PROVIDERS: ReadonlySet<string> = new Set(['OpenAI', 'Anthropic'])

/** The path prefix the service writes its links with (`links.details`, `links.next`). */
export const SERVICE_PATH = '/api/v1'

/**
 * The catalog entry of a model, derived from it and its endpoints (decisions/0023); undefined for a
 * model without endpoints, which no request can reach and the catalog does not list.
 */
export function catalogModelOf(model: ModelWithEndpoints): CatalogModel | undefined {
  const top = model.endpoints[0]
  if (top === undefined) return undefined
  let contextLength = 0
  const supported = new Set<SupportedParameter>()
  for (const endpoint of model.endpoints) {
    if (endpoint.context_length > contextLength) contextLength = endpoint.context_length
    for (const parameter of endpoint.supported_parameters) supported.add(parameter)
  }
  const { tokenizer, instruct_type, modality, input_modalities, output_modalities } = model.architecture
  const architecture: CatalogArchitecture = {
    ...(tokenizer === null ? {} : { tokenizer }),
    instruct_type,
    modality,
    input_modalities: [...input_modalities],
    output_modalities: [...output_modalities],
  }
  return {
    id: model.id,
    canonical_slug: canonicalSlugOf(model),
    hugging_face_id: null,
    name: model.name,
    created: model.created,
    description: model.description,
    context_length: contextLength,
    architecture,
    pricing: structuredClone(top.pricing),
    top_provider: { context_length: top.context_length, max_completion_tokens: top.max_completion_tokens, is_moderated: MODERATED_PROVIDERS.has(top.provider_name) },
    per_request_limits: null,
    supported_parameters: SUPPORTED_PARAMETERS.filter((parameter) => supported.has(parameter)),
    default_parameters: null,
    supported_voices: null,
    links: { details: `${SERVICE_PATH}/models/${model.id}/endpoints` },
  }
}

/** Providers whose slug is not their name's: Google Vertex's endpoints are named "Google" (decisions/0037). */
const SLUGS_APART: Readonly<Record<string, string>> = { Google: 'google-vertex' }

/** A provider's slug: the one the simulator's endpoints carry for a known provider, else derived from the name. */
export function providerSlug(name: string): string {
  const known = PROVIDERS.find((provider) => provider.name === name)
  if (known !== undefined) return known.tag
  const apart = Object.hasOwn(SLUGS_APART, name) ? SLUGS_APART[name] : undefined
  if (apart !== undefined) return apart
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
  if (slug !== '') return slug
  // A name with no ASCII letter or digit: a slug of its own, so two such names never share one.
  let hash = 0x811c9dc5
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193) >>> 0
  return `provider-${hash.toString(16).padStart(8, '0')}`
}

/**
 * The catalog entry of a provider, derived from its name alone (decisions/0023): the slug, and
 * policy and status pages under the reserved `.example` domain, so no test can reach a real site.
 * The simulator knows no headquarters or datacenters: both null.
 */
export function providerOf(name: string): Provider {
  const slug = providerSlug(name)
  return {
    name,
    slug,
    privacy_policy_url: `https://${slug}.example/privacy`,
    terms_of_service_url: `https://${slug}.example/terms`,
    status_page_url: `https://status.${slug}.example`,
    headquarters: null,
    datacenters: null,
  }
}

/** A model's catalog entry with its cached JSON and filter bits; kept on the model record, which never changes. */
export interface CatalogEntry {
  readonly json: CachedJson<CatalogModel>
  /** Bit i set: the model outputs OUTPUT_MODALITIES[i]. */
  readonly outputs: number
  /** Bit i set: some endpoint supports SUPPORTED_PARAMETERS[i]. */
  readonly parameters: number
  readonly created: number
  readonly id: string
}

export const outputBit = (modality: OutputModality): number => 1 << OUTPUT_MODALITIES.indexOf(modality)
export const parameterBit = (parameter: SupportedParameter): number => 1 << SUPPORTED_PARAMETERS.indexOf(parameter)

/**
 * The catalog entry of a model (null: it has no endpoints), made once per model record (a frozen
 * record of the shared default world too, so a WeakMap, not a property on it).
 */
export const catalogEntry: (model: ModelWithEndpoints) => CatalogEntry | null = memoByRecord((model) => {
  const value = catalogModelOf(model)
  if (value === undefined) return null
  const json = JSON.stringify(value)
  let outputs = 0
  for (const modality of value.architecture.output_modalities) outputs |= outputBit(modality)
  let parameters = 0
  for (const parameter of value.supported_parameters) parameters |= parameterBit(parameter)
  return { json: { value, json, bytes: utf8Length(json) }, outputs, parameters, created: value.created, id: value.id }
})

/** Catalog order: newest `created` first, then id (code-unit order), so equal instants still sort one way. */
export function compareCatalog(a: { created: number; id: string }, b: { created: number; id: string }): number {
  if (a.created !== b.created) return b.created - a.created
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/** What selects a page of the catalog; the operations parse it from the query. */
export interface CatalogQuery {
  /** Models outputting any of these bits; 0: every model. */
  outputs: number
  /** Models supporting all of these bits. */
  parameters: number
  offset: number
  /** undefined: the rest of the list. */
  limit: number | undefined
  /** The path of this page with its normalised query, without `offset` (`/models?output_modalities=text&limit=500`): names the page, and makes `links.next`. */
  link: string
}

/** A page of the catalog as the wire carries it: `{ data, links, total_count }`, its text made once. */
class CatalogPage implements JsonPayload {
  readonly byteLength: number
  private readonly body: string

  constructor(
    private readonly entries: readonly CatalogEntry[],
    private readonly next: string | null,
    private readonly total: number,
  ) {
    const parts = new Array<string>(entries.length)
    for (let i = 0; i < entries.length; i++) parts[i] = (entries[i] as CatalogEntry).json.json
    this.body = `{"data":[${parts.join(',')}],"links":{"next":${JSON.stringify(next)}},"total_count":${total}}`
    this.byteLength = utf8Length(this.body)
  }

  text(): string {
    return this.body
  }

  value(): unknown {
    const data = new Array<unknown>(this.entries.length)
    for (let i = 0; i < data.length; i++) data[i] = structuredClone((this.entries[i] as CatalogEntry).json.value)
    return { data, links: { next: this.next }, total_count: this.total }
  }
}

/** A body whose text is fixed: the provider list. */
class FixedPayload implements JsonPayload {
  readonly byteLength: number

  constructor(
    private readonly body: string,
    private readonly make: () => unknown,
  ) {
    this.byteLength = utf8Length(body)
  }

  text(): string {
    return this.body
  }

  value(): unknown {
    return this.make()
  }
}

/**
 * The catalog's derived state for one simulator, kept in StoreIndices: the listed models in
 * catalog order, the pages asked for, the providers. Any change to a model drops it all
 * ({@link CatalogCache.invalidate}); a restore that swaps the indices starts from an empty one.
 */
export class CatalogCache {
  private ordered: readonly CatalogEntry[] | undefined
  private readonly pages = new Map<string, CatalogPage>()
  private providers: FixedPayload | undefined

  invalidate(): void {
    this.ordered = undefined
    this.pages.clear()
    this.providers = undefined
  }

  /** Every listed model (those with endpoints), in catalog order. */
  entries(models: ReadonlyMap<string, ModelWithEndpoints>): readonly CatalogEntry[] {
    if (this.ordered !== undefined) return this.ordered
    const entries: CatalogEntry[] = []
    for (const model of models.values()) {
      const entry = catalogEntry(model)
      if (entry !== null) entries.push(entry)
    }
    return (this.ordered = entries.sort(compareCatalog))
  }

  /** The models matching a query's filters, over all pages. */
  matching(models: ReadonlyMap<string, ModelWithEndpoints>, query: Pick<CatalogQuery, 'outputs' | 'parameters'>): number {
    let count = 0
    for (const entry of this.entries(models)) if (matches(entry, query)) count++
    return count
  }

  /**
   * The page a query asks for, made once until a model changes. `only`: the ids of the models a
   * caller may see (`GET /models/user` under guardrails); such a page is made afresh each time,
   * never kept, as another caller may see other models.
   */
  page(models: ReadonlyMap<string, ModelWithEndpoints>, query: CatalogQuery, only?: ReadonlySet<string>): JsonPayload {
    const name = `${query.link}\u0000${query.offset}`
    const kept = only === undefined ? this.pages.get(name) : undefined
    if (kept !== undefined) return kept
    const selected: CatalogEntry[] = []
    let total = 0
    const end = query.limit === undefined ? Infinity : query.offset + query.limit
    for (const entry of this.entries(models)) {
      if (!matches(entry, query) || (only !== undefined && !only.has(entry.id))) continue
      if (total >= query.offset && total < end) selected.push(entry)
      total++
    }
    const next = query.limit !== undefined && end < total ? `${SERVICE_PATH}${query.link}${query.link.includes('?') ? '&' : '?'}offset=${end}` : null
    const page = new CatalogPage(selected, next, total)
    if (only !== undefined) return page
    // Each distinct query keeps a page; a caller walking thousands of offsets must not grow this without end.
    if (this.pages.size >= 256) this.pages.clear()
    this.pages.set(name, page)
    return page
  }

  /** `{ data: Provider[] }`: every provider name the endpoints use, sorted (code-unit order), once each. */
  providerList(models: ReadonlyMap<string, ModelWithEndpoints>): JsonPayload {
    if (this.providers !== undefined) return this.providers
    const names = new Set<string>()
    for (const model of models.values()) for (const endpoint of model.endpoints) names.add(endpoint.provider_name)
    const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    const make = (): unknown => ({ data: sorted.map(providerOf) })
    return (this.providers = new FixedPayload(JSON.stringify(make()), make))
  }
}

function matches(entry: CatalogEntry, query: Pick<CatalogQuery, 'outputs' | 'parameters'>): boolean {
  return (query.outputs === 0 || (entry.outputs & query.outputs) !== 0) && (entry.parameters & query.parameters) === query.parameters
}
