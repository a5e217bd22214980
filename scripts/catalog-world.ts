// The real catalog: the committed models.dev snapshot (scripts/catalog-snapshot.ts) turned into the
// models of generated worlds, every rule of decisions/0037-real-catalog.md in one place. It writes
// src/fixtures/internal/real-catalog.json, which `generateWorld` reads (adding each endpoint's
// seeded statistics), and is the first step of `npm run fixtures`:
//
//   npx tsx scripts/catalog-world.ts          rewrites src/fixtures/internal/real-catalog.json
//
// `catalogFromSnapshot` is pure (no file system, no clock, no randomness: choices are hashes of the
// model id), so test/fixtures/real-catalog.test.ts checks that the committed file is current.
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { CatalogSnapshot, TomlTable } from './catalog-snapshot.js'
import { snapshotFileName } from './catalog-snapshot.js'
import { HOSTS, HOST_CONTEXTS, PROVIDERS, type Provider } from '../src/fixtures/internal/catalog.js'
import type { CatalogModelData, CatalogEndpointData } from '../src/fixtures/internal/real-catalog.js'
import { formatUnits, perMillion, scaled, toUnits } from '../src/fixtures/internal/price.js'
import {
  type InputModality,
  type OutputModality,
  type Pricing,
  type PricingOverride,
  type Quantization,
  SUPPORTED_PARAMETERS,
  type SupportedParameter,
  type Tokenizer,
} from '../src/core/types.js'

/** The snapshot the committed catalog is made from. */
export const SNAPSHOT_DATE = '2026-07-02'
export const SNAPSHOT_PATH = `fixtures/catalog/${snapshotFileName(SNAPSHOT_DATE)}`
/** Where the catalog goes, relative to the repository root. */
export const CATALOG_PATH = 'src/fixtures/internal/real-catalog.json'

/** A model of the snapshot with its base model's facts merged in, as models.dev itself merges them. */
export interface MergedModel {
  name?: string
  release_date?: string
  reasoning?: boolean
  tool_call?: boolean
  structured_output?: boolean
  temperature?: boolean
  open_weights?: boolean
  family?: string
  cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number; reasoning?: number; tiers?: { tier?: { type?: string; size?: number }; input?: number; output?: number; cache_read?: number; cache_write?: number }[] }
  limit?: { context?: number; input?: number; output?: number }
  modalities?: { input?: string[]; output?: string[] }
}

const isTable = (value: unknown): value is TomlTable => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Tables merged key by key, anything else (arrays included) replaced: models.dev's `mergeDeep`. */
function mergeDeep(base: TomlTable, over: TomlTable): TomlTable {
  const out: TomlTable = { ...base }
  for (const [key, value] of Object.entries(over)) {
    const kept = out[key]
    out[key] = isTable(value) && isTable(kept) ? mergeDeep(kept, value) : value
  }
  return out
}

/**
 * The facts of one openrouter entry: its base model's (without what models.dev does not inherit:
 * benchmarks, license, links, weights), the entry's own on top, then `base_model_omit` removed.
 */
export function mergedModel(snapshot: Pick<CatalogSnapshot, 'baseModels'>, entry: TomlTable): MergedModel {
  const baseName = entry['base_model']
  let base: TomlTable = {}
  if (typeof baseName === 'string') {
    const found = snapshot.baseModels[baseName]
    if (found === undefined) throw new Error(`catalog-world: base model "${baseName}" is not in the snapshot`)
    const { benchmarks: _b, license: _l, links: _k, weights: _w, ...inherited } = found
    base = inherited
  }
  const { base_model: _base, base_model_omit: omit, ...own } = entry
  const merged = mergeDeep(base, own)
  for (const path of Array.isArray(omit) ? omit : []) {
    const parts = String(path).split('.')
    let at: unknown = merged
    for (const part of parts.slice(0, -1)) at = isTable(at) ? at[part] : undefined
    if (isTable(at)) delete at[parts[parts.length - 1] as string]
  }
  return merged as MergedModel
}

/** Why an entry of the snapshot is not a model of the catalog, or undefined when it is one. */
export function skipReason(id: string, model: MergedModel): string | undefined {
  if (id.startsWith('~')) return 'an alias of the latest model of a family (`~author/...`), not a model of its own'
  if (id.startsWith('openrouter/') || id === 'switchpoint/router') return 'a router that answers with another model'
  if (!(model.modalities?.output ?? ['text']).includes('text')) return 'it does not output text'
  if (model.cost?.input === undefined || model.cost.output === undefined) return 'it has no list price'
  // Lyria's clips: the snapshot lists 0 per token for models the service prices per request.
  if (model.cost.input === 0 && model.cost.output === 0 && !id.endsWith(':free')) return 'it is priced per request, not per token'
  return undefined
}

/** FNV-1a of a string: the deterministic "random" choices of the catalog (decisions/0037). */
export function hashOf(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0
  return hash
}

/** A number in [0, 1) for the `salt`th choice about `id`. */
const choice = (id: string, salt: string): number => hashOf(`${id}#${salt}`) / 2 ** 32

const pickOf = <T>(list: readonly T[], u: number): T => list[Math.floor(u * list.length)] as T

/** The id without its variant: `meta-llama/llama-3.3-70b-instruct:free` -> `meta-llama/llama-3.3-70b-instruct`. */
const withoutVariant = (id: string): string => (id.includes(':') ? id.slice(0, id.indexOf(':')) : id)

/** An id that already ends in a date (`gpt-4o-2024-08-06`, `qwen3.5-plus-20260420`, `codestral-2508`, `deepseek-r1-0528`). */
const DATED = /-(?:\d{4}-\d{2}-\d{2}|\d{8}|\d{4})$/

/**
 * The dated canonical slug: the id without its variant, then `-` and the release date
 * (`openai/gpt-5` released 2025-08-07 -> `openai/gpt-5-2025-08-07`); an id that already ends in a
 * date keeps it alone, and a release known to the month only adds `YYYY-MM`.
 */
export function datedSlug(id: string, releaseDate: string | undefined): string {
  const base = withoutVariant(id)
  if (releaseDate === undefined || DATED.test(base)) return base
  if (!/^\d{4}-\d{2}(-\d{2})?$/.test(releaseDate)) throw new Error(`catalog-world: ${id} has a release_date that is not YYYY-MM-DD or YYYY-MM: ${releaseDate}`)
  return `${base}-${releaseDate}`
}

/**
 * What the flags of a model let its endpoints take, in the order of `SUPPORTED_PARAMETERS`.
 * `logprobs`: the endpoint answers log probabilities (hosts of open weights, and OpenAI's own
 * models that do not reason, as the service lists them).
 */
export function supportedParameters(model: MergedModel, host: boolean, logprobs = false): SupportedParameter[] {
  const set = new Set<SupportedParameter>(['max_tokens', 'stop'])
  if (model.temperature !== false) {
    for (const p of ['temperature', 'top_p', 'frequency_penalty', 'presence_penalty', 'seed'] as const) set.add(p)
    // Hosts of open weights run inference servers with the samplers those expose.
    if (host) for (const p of ['top_k', 'min_p', 'repetition_penalty'] as const) set.add(p)
  }
  if (model.reasoning === true) set.add('reasoning').add('include_reasoning')
  if (logprobs) set.add('logprobs').add('top_logprobs')
  if (model.tool_call === true) set.add('tools').add('tool_choice')
  if (model.structured_output === true) set.add('response_format').add('structured_outputs')
  return SUPPORTED_PARAMETERS.filter((p) => set.has(p))
}

/** An endpoint's provider: its display name and tag, and what the fixtures know of it (cache, speed). */
interface Seller {
  name: string
  tag: string
  info: Provider
  /** Its prices against the list price (regional endpoints cost more). */
  factor: number
}

const own = (name: string, tag: string, traits: Partial<Provider> = {}): Provider => ({ name, tag, quantizations: [null], fast: false, cache: 'read', cacheRead: 0.25, implicitCaching: false, ...traits })
const seller = (info: Provider, factor = 1, tag = info.tag, name = info.name): Seller => ({ name, tag, info, factor })
const VERTEX = own('Google', 'google-vertex', { cache: 'read-write', cacheRead: 0.1 })

/**
 * The author's own endpoints, first in a model's list, with the service's provider names and slugs.
 * Anthropic models are also on Amazon Bedrock and Google Vertex (global and Europe); Google's on
 * Google AI Studio and Vertex; OpenAI's closed models on Azure too.
 */
const AUTHOR_SELLERS: Record<string, { display: string; sellers: (open: boolean) => Seller[] }> = {
  openai: { display: 'OpenAI', sellers: (open) => (open ? [] : [seller(PROVIDERS.openai), seller(PROVIDERS.azure)]) },
  anthropic: { display: 'Anthropic', sellers: () => [seller(PROVIDERS.anthropic), seller(PROVIDERS.bedrock), seller(VERTEX), seller(VERTEX, 1.1, 'google-vertex/europe')] },
  google: { display: 'Google', sellers: () => [seller(PROVIDERS.google), seller(VERTEX), seller(VERTEX, 1.1, 'google-vertex/europe')] },
  amazon: { display: 'Amazon', sellers: () => [seller(PROVIDERS.bedrock)] },
  mistralai: { display: 'Mistral', sellers: () => [seller(PROVIDERS.mistral)] },
  deepseek: { display: 'DeepSeek', sellers: () => [seller(PROVIDERS.deepseek)] },
  'x-ai': { display: 'xAI', sellers: () => [seller(PROVIDERS.xai)] },
  qwen: { display: 'Qwen', sellers: () => [seller(PROVIDERS.alibaba)] },
  moonshotai: { display: 'MoonshotAI', sellers: () => [seller(PROVIDERS.moonshot)] },
  'z-ai': { display: 'Z.AI', sellers: () => [seller(PROVIDERS.zai)] },
  minimax: { display: 'MiniMax', sellers: () => [seller(own('Minimax', 'minimax'))] },
  cohere: { display: 'Cohere', sellers: () => [seller(own('Cohere', 'cohere', { cache: 'none' }))] },
  ai21: { display: 'AI21', sellers: () => [seller(own('AI21', 'ai21', { cache: 'none' }))] },
  'aion-labs': { display: 'AionLabs', sellers: () => [seller(own('AionLabs', 'aion-labs', { cache: 'none' }))] },
  'arcee-ai': { display: 'Arcee AI', sellers: () => [seller(own('Arcee AI', 'arcee-ai', { cache: 'none' }))] },
  baidu: { display: 'Baidu', sellers: () => [seller(own('Baidu', 'baidu', { cache: 'none' }))] },
  'bytedance-seed': { display: 'ByteDance Seed', sellers: () => [seller(own('Seed', 'seed'))] },
  inception: { display: 'Inception', sellers: () => [seller(own('Inception', 'inception', { cache: 'none', fast: true }))] },
  inflection: { display: 'Inflection', sellers: () => [seller(own('Inflection', 'inflection', { cache: 'none' }))] },
  kwaipilot: { display: 'Kwaipilot', sellers: () => [seller(own('StreamLake', 'streamlake'))] },
  liquid: { display: 'LiquidAI', sellers: () => [seller(own('Liquid', 'liquid', { cache: 'none' }))] },
  mancer: { display: 'Mancer', sellers: () => [seller(own('Mancer 2', 'mancer', { cache: 'none' }))] },
  morph: { display: 'Morph', sellers: () => [seller(own('Morph', 'morph', { cache: 'none', fast: true }))] },
  'nex-agi': { display: 'Nex AGI', sellers: () => [seller(own('Nex AGI', 'nex-agi', { cache: 'none' }))] },
  nvidia: { display: 'NVIDIA', sellers: () => [seller(own('Nvidia', 'nvidia', { cache: 'none' }))] },
  perceptron: { display: 'Perceptron', sellers: () => [seller(own('Perceptron', 'perceptron', { cache: 'none' }))] },
  perplexity: { display: 'Perplexity', sellers: () => [seller(own('Perplexity', 'perplexity', { cache: 'none' }))] },
  poolside: { display: 'Poolside', sellers: () => [seller(own('Poolside', 'poolside', { cache: 'none' }))] },
  rekaai: { display: 'Reka', sellers: () => [seller(own('Reka', 'reka', { cache: 'none' }))] },
  relace: { display: 'Relace', sellers: () => [seller(own('Relace', 'relace', { cache: 'none', fast: true }))] },
  sakana: { display: 'Sakana AI', sellers: () => [seller(own('Sakana AI', 'sakana-ai', { cache: 'none' }))] },
  stepfun: { display: 'StepFun', sellers: () => [seller(own('StepFun', 'stepfun'))] },
  tencent: { display: 'Tencent', sellers: () => [seller(own('Tencent', 'tencent', { cache: 'none' }))] },
  upstage: { display: 'Upstage', sellers: () => [seller(own('Upstage', 'upstage', { cache: 'none' }))] },
  writer: { display: 'Writer', sellers: () => [seller(PROVIDERS.bedrock)] },
  xiaomi: { display: 'Xiaomi', sellers: () => [seller(own('Xiaomi', 'xiaomi'))] },
}

/** Display names of authors with no endpoint of their own (fine-tuners and open-weight labs). */
const AUTHOR_NAMES: Record<string, string> = {
  'meta-llama': 'Meta', 'anthracite-org': 'Magnum', allenai: 'AllenAI', bytedance: 'ByteDance', cognitivecomputations: 'Venice', deepcogito: 'Deep Cogito',
  gryphe: 'MythoMax', 'ibm-granite': 'IBM', inclusionai: 'inclusionAI', microsoft: 'Microsoft', nousresearch: 'Nous', sao10k: 'Sao10K', thedrummer: 'TheDrummer', undi95: 'ReMM',
}

/** Host prices against the list price (the list price is the cheapest host's, so one is always 1). */
const HOST_FACTORS = [1, 1.1, 1.25, 1.5] as const

/**
 * The hosts of an open-weight model: two or three of HOSTS, chosen by a hash of the id, each with
 * one of its quantizations. A `:free` model runs on Chutes and one other host, at no price.
 */
function hostSellers(id: string, free: boolean): (Seller & { quantization: Quantization | null })[] {
  const count = free ? 2 : 2 + Math.floor(choice(id, 'hosts') * 2)
  const pool = free ? HOSTS.filter((h) => h !== PROVIDERS.chutes) : [...HOSTS]
  const chosen: Provider[] = free ? [PROVIDERS.chutes] : []
  for (let n = 0; chosen.length < count && pool.length > 0; n++) chosen.push(pool.splice(Math.floor(choice(id, `host${n}`) * pool.length), 1)[0] as Provider)
  return chosen.map((info, i) => {
    const quantization = pickOf(info.quantizations, choice(id, `quantization${i}`))
    return { ...seller(info, i === 0 ? 1 : pickOf(HOST_FACTORS, choice(id, `factor${i}`))), tag: quantization === null ? info.tag : `${info.tag}/${quantization}`, quantization }
  })
}

/** USD per million tokens as a decimal string per token, times `factor` (three significant digits). */
function price(perMillionUsd: number, factor: number): string {
  if (perMillionUsd === 0) return '0'
  const units = perMillion(perMillionUsd)
  return formatUnits(factor === 1 ? units : (scaled(units, factor) ?? units))
}

/** DeepSeek's own off-peak discount: half price from 16:30 to 00:30 UTC, the two windows tiling the day. */
const DEEPSEEK_PEAK = { utc_start: 30, utc_end: 1630 } as const
const DEEPSEEK_OFF_PEAK = { utc_start: 1630, utc_end: 30 } as const

/**
 * An endpoint's pricing from the list prices: prompt and completion, cache read and write where
 * the seller caches, reasoning where priced apart; the snapshot's context tiers as
 * `min_prompt_tokens` overrides on the author's own endpoints; DeepSeek's windows on DeepSeek's.
 */
export function endpointPricing(model: MergedModel, sold: Seller, options: { free: boolean; firstParty: boolean }): Pricing {
  const cost = model.cost ?? {}
  if (options.free) return { prompt: '0', completion: '0' }
  const f = sold.factor
  const pricing: Pricing = { prompt: price(cost.input ?? 0, f), completion: price(cost.output ?? 0, f) }
  const caches = sold.info.cache !== 'none'
  if (caches && cost.cache_read !== undefined) pricing.input_cache_read = price(cost.cache_read, f)
  if (caches && cost.cache_write !== undefined) pricing.input_cache_write = price(cost.cache_write, f)
  if (cost.reasoning !== undefined && cost.reasoning !== cost.output) pricing.internal_reasoning = price(cost.reasoning, f)
  const tiers = options.firstParty ? (cost.tiers ?? []).filter((t) => (t.tier?.type ?? 'context') === 'context' && typeof t.tier?.size === 'number') : []
  if (tiers.length > 0) {
    pricing.overrides = tiers.slice(0, 2).map((t) => {
      const override: PricingOverride = { min_prompt_tokens: t.tier?.size as number }
      if (t.input !== undefined) override.prompt = price(t.input, f)
      if (t.output !== undefined) override.completion = price(t.output, f)
      if (t.cache_read !== undefined && pricing.input_cache_read !== undefined) override.input_cache_read = price(t.cache_read, f)
      if (t.cache_write !== undefined && pricing.input_cache_write !== undefined) override.input_cache_write = price(t.cache_write, f)
      return override
    })
  } else if (sold.info === PROVIDERS.deepseek) {
    const half = (p: string): string => formatUnits(Math.round(toUnits(p) / 2))
    const offPeak: PricingOverride = { ...DEEPSEEK_OFF_PEAK, prompt: half(pricing.prompt), completion: half(pricing.completion) }
    if (pricing.input_cache_read !== undefined) offPeak.input_cache_read = half(pricing.input_cache_read)
    pricing.overrides = [{ ...DEEPSEEK_PEAK, prompt: pricing.prompt, completion: pricing.completion }, offPeak]
  }
  return pricing
}

/** models.dev's input modalities in the service's words (`pdf` is a `file`). */
function inputModalities(model: MergedModel): InputModality[] {
  const map: Record<string, InputModality> = { text: 'text', image: 'image', pdf: 'file', audio: 'audio', video: 'video' }
  const out: InputModality[] = []
  for (const m of ['text', 'image', 'pdf', 'audio', 'video']) if ((model.modalities?.input ?? ['text']).includes(m) && !out.includes(map[m] as InputModality)) out.push(map[m] as InputModality)
  return out
}

function outputModalities(model: MergedModel): OutputModality[] {
  const given = model.modalities?.output ?? ['text']
  return (['text', 'image', 'audio'] as const).filter((m) => given.includes(m))
}

/** The tokenizer the service names for a model, by author and family. */
export function tokenizerOf(id: string, model: MergedModel): Tokenizer {
  const author = id.slice(0, id.indexOf('/'))
  const slug = id.slice(id.indexOf('/') + 1)
  if (author === 'openai') return 'GPT'
  if (author === 'anthropic') return 'Claude'
  if (author === 'google') return slug.startsWith('gemma') ? 'Gemma' : 'Gemini'
  if (author === 'x-ai') return 'Grok'
  if (author === 'cohere') return 'Cohere'
  if (author === 'amazon') return 'Nova'
  if (author === 'deepseek') return 'DeepSeek'
  if (author === 'mistralai') return 'Mistral'
  if (author === 'qwen') return /^qwen-?2/.test(slug) ? 'Qwen' : 'Qwen3'
  if (author === 'meta-llama' || /llama/.test(slug) || model.family?.startsWith('llama') === true) return /llama-4/.test(slug) ? 'Llama4' : 'Llama3'
  return 'Other'
}

const thousands = (tokens: number): string => (tokens >= 1_000_000 ? `${tokens / 1_000_000}M` : `${Math.round(tokens / 1000)}K`)

/** The one-line description: what the flags say, the context, the release. */
function describeModel(title: string, author: string, model: MergedModel, context: number): string {
  const traits = [model.reasoning === true && 'reasoning', model.tool_call === true && 'tool calling', model.structured_output === true && 'structured outputs', model.open_weights === true && 'open weights'].filter(Boolean)
  return `${title} from ${author}${traits.length > 0 ? `: ${traits.join(', ')}` : ''}; ${thousands(context)} tokens of context; released ${model.release_date ?? 'unknown'}.`
}

/** A model's name without its author; models.dev marks a family's current model "(latest)", the service does not. */
const titleOf = (id: string, model: MergedModel): string => (model.name ?? id.slice(id.indexOf('/') + 1)).replace(/ \(latest\)$/, '')

/** One snapshot entry as a catalog model, or undefined when {@link skipReason} leaves it out. */
export function catalogModel(snapshot: Pick<CatalogSnapshot, 'baseModels' | 'openrouter'>, id: string, entry: TomlTable): CatalogModelData | undefined {
  const model = mergedModel(snapshot, entry)
  if (skipReason(id, model) !== undefined) return undefined
  const author = id.slice(0, id.indexOf('/'))
  const free = id.endsWith(':free')
  const known = AUTHOR_SELLERS[author]
  const display = known?.display ?? AUTHOR_NAMES[author] ?? author
  // A `:free` variant is named as its paid model with " (free)", as the service names them.
  const paid = free ? snapshot.openrouter[withoutVariant(id)] : undefined
  const title = free && paid !== undefined ? `${titleOf(id, mergedModel(snapshot, paid))} (free)` : titleOf(id, model)
  const name = `${display}: ${title}`
  const context = model.limit?.context ?? 131072
  const output = model.limit?.output ?? null
  const firstParty = free ? [] : (known?.sellers(model.open_weights === true) ?? [])
  const hosts = model.open_weights === true || free || firstParty.length === 0 ? hostSellers(id, free) : []
  const endpoints: CatalogEndpointData[] = []
  for (const [i, sold] of [...firstParty, ...hosts].entries()) {
    const host = i >= firstParty.length
    const shorter = HOST_CONTEXTS.filter((c) => c < context)
    const contextLength = host && shorter.length > 0 && choice(id, `context${i}`) < 0.3 ? pickOf(shorter, choice(id, `short${i}`)) : context
    const parameters = supportedParameters(model, host, host || (author === 'openai' && model.reasoning !== true))
    const pricing = endpointPricing(model, sold, { free, firstParty: !host })
    const tools = parameters.includes('tool_choice')
    endpoints.push({
      provider_name: sold.name,
      tag: sold.tag,
      quantization: 'quantization' in sold ? (sold.quantization as Quantization | null) : null,
      context_length: contextLength,
      max_completion_tokens: output === null ? null : Math.min(output, contextLength),
      pricing,
      supported_parameters: parameters,
      supports_implicit_caching: sold.info.implicitCaching && pricing.input_cache_read !== undefined,
      supports_tool_choice: { none: tools, auto: tools, required: tools, function: tools },
      fast: sold.info.fast,
    })
  }
  const inputs = inputModalities(model)
  const outputs = outputModalities(model)
  return {
    id,
    name,
    canonicalSlug: datedSlug(id, model.release_date),
    released: model.release_date ?? '2023-01-01',
    description: describeModel(title, display, model, context),
    reasoning: model.reasoning === true,
    architecture: { tokenizer: tokenizerOf(id, model), instruct_type: null, modality: `${inputs.join('+')}->${outputs.join('+')}`, input_modalities: inputs, output_modalities: outputs },
    endpoints,
  }
}

/** Every catalog model of a snapshot, by id. */
export function catalogFromSnapshot(snapshot: Pick<CatalogSnapshot, 'baseModels' | 'openrouter'>): CatalogModelData[] {
  const models: CatalogModelData[] = []
  for (const [id, entry] of Object.entries(snapshot.openrouter)) {
    const model = catalogModel(snapshot, id, entry)
    if (model !== undefined) models.push(model)
  }
  return models.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** The committed catalog's text: the source, then one model a line (compact, and a diff per model). */
export function catalogText(snapshot: CatalogSnapshot): string {
  const models = catalogFromSnapshot(snapshot)
  const source = { repository: snapshot.source.repository, commit: snapshot.source.commit, date: snapshot.source.date, license: snapshot.source.license }
  return `{"source":${JSON.stringify(source)},\n"models":[\n${models.map((m) => JSON.stringify(m)).join(',\n')}\n]}\n`
}

const ROOT = resolve(import.meta.dirname, '..')

/** The committed snapshot, parsed. */
export function readSnapshot(): CatalogSnapshot {
  return JSON.parse(readFileSync(join(ROOT, ...SNAPSHOT_PATH.split('/')), 'utf8')) as CatalogSnapshot
}

function main(): void {
  const text = catalogText(readSnapshot())
  writeFileSync(join(ROOT, ...CATALOG_PATH.split('/')), text)
  console.log(`Wrote the real catalog (${Buffer.byteLength(text)} bytes) to ${CATALOG_PATH}.`)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main()
