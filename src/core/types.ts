/**
 * Wire types of the model-access service, with the exact JSON field names.
 *
 * Nullability follows what the official SDK (`@openrouter/sdk` 1.3.19) demands: a field typed
 * `T | null` is always present; a field marked `?` may be absent but is never `null`.
 */

/** How often a key's spending limit resets; `null` means never. */
export type LimitReset = 'daily' | 'weekly' | 'monthly'

/**
 * Some of the fields of a record, as an options object takes them: each may be left out or given as
 * `undefined` (the same thing), so a project with `exactOptionalPropertyTypes` can pass a value that
 * may be missing. `Partial<T>`, with `undefined` allowed.
 */
export type SomeFields<T> = { [K in keyof T]?: T[K] | undefined }

/** An API key as `GET /keys` and `GET /keys/{hash}` return it. */
export interface ApiKey {
  hash: string
  name: string
  label: string
  disabled: boolean
  limit: number | null
  limit_remaining: number | null
  limit_reset: LimitReset | null
  include_byok_in_limit: boolean
  usage: number
  usage_daily: number
  usage_weekly: number
  usage_monthly: number
  byok_usage: number
  byok_usage_daily: number
  byok_usage_weekly: number
  byok_usage_monthly: number
  created_at: string
  updated_at: string | null
  expires_at: string | null
  creator_user_id: string | null
  workspace_id: string
  /** The partner-defined user the key was made for (`external.user` of `POST /keys`), or null. */
  external_user: string | null
}

/** The answer of `POST /keys`: the new key's record and its bearer secret, shown only here. */
export interface CreatedKeyResponse {
  data: ApiKey
  key: string
}

/** The legacy rate limit `GET /key` reports (`interval` such as `10s`; `requests` -1 when none applies). */
export interface CurrentKeyRateLimit {
  interval: string
  note: string
  requests: number
}

/** How many free-model requests the organisation may still make today (UTC). */
export interface FreeModelDailyRequests {
  limit: number
  remaining: number
  used: number
}

/**
 * Data regions a key may route requests to (`allowed_data_regions` of `GET /key`).
 *
 * @example
 * import { DATA_REGIONS } from 'model-access-sim'
 * console.log(DATA_REGIONS)
 * //=> ["global","europe","us"]
 */
export const DATA_REGIONS = ['global', 'europe', 'us'] as const
export type DataRegion = (typeof DATA_REGIONS)[number]

/** The calling key's figures, as `GET /key` returns them (any valid key, management or not). */
export interface CurrentKey {
  label: string
  limit: number | null
  limit_remaining: number | null
  limit_reset: LimitReset | null
  include_byok_in_limit: boolean
  usage: number
  usage_daily: number
  usage_weekly: number
  usage_monthly: number
  byok_usage: number
  byok_usage_daily: number
  byok_usage_weekly: number
  byok_usage_monthly: number
  is_free_tier: boolean
  is_management_key: boolean
  is_provisioning_key: boolean
  rate_limit: CurrentKeyRateLimit
  free_model_daily_requests: FreeModelDailyRequests
  allowed_data_regions: DataRegion[]
  expires_at: string | null
  creator_user_id: string | null
  /** The key's workspace. The SDK admits null; every key of the simulator belongs to a workspace. */
  workspace_id: string
  /** Null: the simulator's organisations are accounts of their own, named by `user_id` (decisions/0021). */
  organization_id: null
}

/** An organisation's credits, as `GET /credits` returns them: USD bought, and USD spent by all its keys, deleted ones included. */
export interface Credits {
  total_credits: number
  total_usage: number
}

/** The answer of `DELETE /keys/{hash}`. */
export interface DeletedKeyResponse {
  deleted: true
}

/** The answer of `POST /auth/keys/code`: the PKCE flow's authorization code is `data.id` (decisions/0049). */
export interface AuthCodeResponse {
  data: { id: string; app_id: number; created_at: string }
}

/** The answer of `POST /auth/keys`: the key a PKCE authorization code was exchanged for. */
export interface AuthKeyResponse {
  key: string
  user_id: string | null
}

/** A public key access tokens are signed with (RFC 7517). */
export interface OAuthJwk {
  alg: 'ES256'
  crv: 'P-256'
  kid: string
  kty: 'EC'
  use: 'sig'
  x: string
  y: string
}

/** The answer of `GET /oauth/jwks`; the simulator signs no token, so its set is empty (decisions/0049). */
export interface OAuthJwks {
  keys: OAuthJwk[]
}

/** The answer of `POST /oauth/token` (RFC 8693); the simulator never gives one (decisions/0049). */
export interface TokenExchangeResponse {
  access_token: string
  expires_in: number
  issued_token_type: 'urn:ietf:params:oauth:token-type:access_token'
  scope: string
  token_type: 'Bearer'
}

/** A workspace as `GET /workspaces/{id}` returns it. */
export interface Workspace {
  id: string
  name: string
  slug: string
  description: string | null
  created_at: string
  updated_at: string | null
  created_by: string | null
  default_guardrail_id: string
  default_image_model: string | null
  default_text_model: string | null
  default_provider_sort: string | null
  include_byok_in_budgets: boolean
  io_logging_api_key_ids: number[] | null
  io_logging_sampling_rate: number
  is_data_discount_logging_enabled: boolean
  is_observability_broadcast_enabled: boolean
  is_observability_io_logging_enabled: boolean
}

/** What `GET /workspaces` answers: one page of an organisation's workspaces, oldest first, and how many it has in all. */
export interface WorkspaceList {
  data: Workspace[]
  total_count: number
}

/**
 * Every value the wire allows here (input modalities).
 *
 * @example
 * import { INPUT_MODALITIES } from 'model-access-sim'
 * console.log(INPUT_MODALITIES.slice(0, 2))
 * //=> ["text","image"]
 */
export const INPUT_MODALITIES = ['text', 'image', 'file', 'audio', 'video'] as const
export type InputModality = (typeof INPUT_MODALITIES)[number]

/**
 * Every value the wire allows here (output modalities).
 *
 * @example
 * import { OUTPUT_MODALITIES } from 'model-access-sim'
 * console.log(OUTPUT_MODALITIES.slice(0, 2))
 * //=> ["text","image"]
 */
export const OUTPUT_MODALITIES = [
  'text',
  'image',
  'embeddings',
  'audio',
  'video',
  'rerank',
  'speech',
  'transcription',
  'decisions',
] as const
export type OutputModality = (typeof OUTPUT_MODALITIES)[number]

/**
 * Every value the wire allows here (tokenizers).
 *
 * @example
 * import { TOKENIZERS } from 'model-access-sim'
 * console.log(TOKENIZERS.slice(0, 2))
 * //=> ["Router","Media"]
 */
export const TOKENIZERS = [
  'Router',
  'Media',
  'Other',
  'GPT',
  'Claude',
  'Gemini',
  'Gemma',
  'Grok',
  'Cohere',
  'Nova',
  'Qwen',
  'Yi',
  'DeepSeek',
  'Mistral',
  'Llama2',
  'Llama3',
  'Llama4',
  'PaLM',
  'RWKV',
  'Qwen3',
] as const
export type Tokenizer = (typeof TOKENIZERS)[number]

/**
 * Every value the wire allows here (instruct types).
 *
 * @example
 * import { INSTRUCT_TYPES } from 'model-access-sim'
 * console.log(INSTRUCT_TYPES.slice(0, 2))
 * //=> ["none","alpaca"]
 */
export const INSTRUCT_TYPES = [
  'none',
  'alpaca',
  'alpaca-modif',
  'chatml',
  'neural',
  'vicuna',
  'zephyr',
  'rwkv',
  'phi3',
  'openchat',
  'airoboros',
  'nemotron',
  'qwq',
  'qwen3',
  'deepseek-r1',
  'deepseek-v3.1',
  'code-llama',
  'llama2',
  'llama3',
  'mistral',
  'gemma',
  'claude',
] as const
export type InstructType = (typeof INSTRUCT_TYPES)[number]

/**
 * Every value the wire allows here (quantizations).
 *
 * @example
 * import { QUANTIZATIONS } from 'model-access-sim'
 * console.log(QUANTIZATIONS.slice(0, 2))
 * //=> ["int4","int8"]
 */
export const QUANTIZATIONS = [
  'int4',
  'int8',
  'fp4',
  'mxfp4',
  'nvfp4',
  'fp6',
  'fp8',
  'mxfp8',
  'fp16',
  'bf16',
  'fp32',
  'unknown',
] as const
export type Quantization = (typeof QUANTIZATIONS)[number]

/**
 * Every value the wire allows here (endpoint statuses).
 *
 * @example
 * import { ENDPOINT_STATUSES } from 'model-access-sim'
 * console.log(ENDPOINT_STATUSES.slice(0, 2))
 * //=> [0,-1]
 */
export const ENDPOINT_STATUSES = [0, -1, -2, -3, -5, -10] as const
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number]

/**
 * Every value the wire allows here (supported parameters).
 *
 * @example
 * import { SUPPORTED_PARAMETERS } from 'model-access-sim'
 * console.log(SUPPORTED_PARAMETERS.slice(0, 2))
 * //=> ["temperature","top_p"]
 */
export const SUPPORTED_PARAMETERS = [
  'temperature',
  'top_p',
  'top_k',
  'min_p',
  'top_a',
  'frequency_penalty',
  'presence_penalty',
  'repetition_penalty',
  'max_tokens',
  'max_completion_tokens',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'prediction',
  'seed',
  'response_format',
  'structured_outputs',
  'stop',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'include_reasoning',
  'reasoning',
  'reasoning_effort',
  'web_search_options',
  'verbosity',
] as const
export type SupportedParameter = (typeof SUPPORTED_PARAMETERS)[number]

/**
 * Every value the wire allows here (weekdays).
 *
 * @example
 * import { WEEKDAYS } from 'model-access-sim'
 * console.log(WEEKDAYS.slice(0, 2))
 * //=> ["monday","tuesday"]
 */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
export type Weekday = (typeof WEEKDAYS)[number]

/** The model's architecture block; all five fields are always present. */
export interface Architecture {
  tokenizer: Tokenizer | null
  instruct_type: InstructType | null
  modality: string | null
  input_modalities: InputModality[]
  output_modalities: OutputModality[]
}

/** Percentiles of latency (ms to first token) or throughput (output tokens per second). */
export interface PercentileStats {
  p50: number
  p75: number
  p90: number
  p99: number
}

/**
 * Workload classes the SDK knows; it silently drops any other key of `perf_last_30m_by_workload`.
 *
 * @example
 * import { WORKLOADS } from 'model-access-sim'
 * console.log(WORKLOADS.slice(0, 2))
 * //=> ["text_generation","image_generation"]
 */
export const WORKLOADS = [
  'text_generation',
  'image_generation',
  'video_generation',
  'embeddings',
  'rerank',
  'stt',
  'tts',
  'decisions',
  'unknown',
] as const
export type Workload = (typeof WORKLOADS)[number]

/** Performance of one workload class over the last 30 minutes. */
export interface WorkloadPerformance {
  latency: PercentileStats | null
  throughput: PercentileStats | null
  request_count: number | null
}

/** Which `tool_choice` values passed testing on an endpoint. */
export interface SupportsToolChoice {
  none: boolean
  auto: boolean
  required: boolean
  function: boolean
}

/**
 * Price keys an override may set.
 *
 * @example
 * import { OVERRIDABLE_PRICE_KEYS } from 'model-access-sim'
 * console.log(OVERRIDABLE_PRICE_KEYS.slice(0, 2))
 * //=> ["prompt","completion"]
 */
export const OVERRIDABLE_PRICE_KEYS = [
  'prompt',
  'completion',
  'audio',
  'input_audio_cache',
  'input_cache_read',
  'input_cache_write',
  'input_cache_write_1h',
] as const
export type OverridablePriceKey = (typeof OVERRIDABLE_PRICE_KEYS)[number]

/**
 * Every price key of a pricing object (decimal strings, USD per unit).
 *
 * @example
 * import { PRICE_KEYS } from 'model-access-sim'
 * console.log(PRICE_KEYS.slice(0, 2))
 * //=> ["prompt","completion"]
 */
export const PRICE_KEYS = [
  'prompt',
  'completion',
  'request',
  'image',
  'image_output',
  'image_token',
  'audio',
  'audio_output',
  'input_audio_cache',
  'input_cache_read',
  'input_cache_write',
  'input_cache_write_1h',
  'internal_reasoning',
  'web_search',
] as const
export type PriceKey = (typeof PRICE_KEYS)[number]

/** A conditional price override. */
export interface PricingOverride {
  prompt?: string | undefined
  completion?: string | undefined
  audio?: string | undefined
  input_audio_cache?: string | undefined
  input_cache_read?: string | undefined
  input_cache_write?: string | undefined
  input_cache_write_1h?: string | undefined
  min_prompt_tokens?: number | undefined
  utc_start?: number | undefined
  utc_end?: number | undefined
  utc_days?: Weekday[] | undefined
}

/** Endpoint pricing: `prompt` and `completion` are required; prices are decimal strings. */
export interface Pricing {
  prompt: string
  completion: string
  request?: string | undefined
  image?: string | undefined
  image_output?: string | undefined
  image_token?: string | undefined
  audio?: string | undefined
  audio_output?: string | undefined
  input_audio_cache?: string | undefined
  input_cache_read?: string | undefined
  input_cache_write?: string | undefined
  input_cache_write_1h?: string | undefined
  internal_reasoning?: string | undefined
  web_search?: string | undefined
  discount?: number | undefined
  overrides?: PricingOverride[] | undefined
}

/** One provider endpoint of a model. */
export interface Endpoint {
  name: string
  model_id: string
  model_name: string
  context_length: number
  pricing: Pricing
  provider_name: string
  tag: string
  quantization: Quantization | null
  max_completion_tokens: number | null
  max_prompt_tokens: number | null
  supported_parameters: SupportedParameter[]
  supports_implicit_caching: boolean
  supports_tool_choice: SupportsToolChoice
  uptime_last_5m: number | null
  uptime_last_30m: number | null
  uptime_last_1d: number | null
  latency_last_30m: PercentileStats | null
  throughput_last_30m: PercentileStats | null
  status?: EndpointStatus
  supports_voice_cloning?: boolean
  perf_last_30m_by_workload?: Partial<Record<Workload, WorkloadPerformance>>
}

/** The `data` of `GET /models/{author}/{slug}/endpoints`. */
export interface ModelWithEndpoints {
  id: string
  name: string
  created: number
  description: string
  architecture: Architecture
  endpoints: Endpoint[]
}

/**
 * Every value the wire allows here (video resolutions).
 *
 * @example
 * import { VIDEO_RESOLUTIONS } from 'model-access-sim'
 * console.log(VIDEO_RESOLUTIONS.slice(0, 2))
 * //=> ["360p","480p"]
 */
export const VIDEO_RESOLUTIONS = ['360p', '480p', '720p', '768p', '1080p', '1K', '2K', '4K'] as const
export type VideoResolution = (typeof VIDEO_RESOLUTIONS)[number]

/**
 * Every value the wire allows here (video aspect ratios).
 *
 * @example
 * import { VIDEO_ASPECT_RATIOS } from 'model-access-sim'
 * console.log(VIDEO_ASPECT_RATIOS.slice(0, 2))
 * //=> ["16:9","9:16"]
 */
export const VIDEO_ASPECT_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4', '3:2', '2:3', '21:9', '9:21'] as const
export type VideoAspectRatio = (typeof VIDEO_ASPECT_RATIOS)[number]

/**
 * Every value the wire allows here (video frame images).
 *
 * @example
 * import { VIDEO_FRAME_IMAGES } from 'model-access-sim'
 * console.log(VIDEO_FRAME_IMAGES.slice(0, 2))
 * //=> ["first_frame","last_frame"]
 */
export const VIDEO_FRAME_IMAGES = ['first_frame', 'last_frame'] as const
export type VideoFrameImage = (typeof VIDEO_FRAME_IMAGES)[number]

/** A video generation model as `GET /videos/models` lists it. */
export interface VideoModel {
  id: string
  canonical_slug: string
  name: string
  created: number
  description?: string
  generate_audio: boolean | null
  allowed_passthrough_parameters: string[]
  pricing_skus?: Record<string, string> | null
  seed: boolean | null
  supported_aspect_ratios: VideoAspectRatio[] | null
  supported_durations: number[] | null
  supported_frame_images: VideoFrameImage[] | null
  supported_resolutions: VideoResolution[] | null
  supported_sizes: string[] | null
  creativity: number[] | null
  upscale_factor: { min?: number | null; max?: number | null } | null
  hugging_face_id?: string | null
}

/** The error body every failing operation returns. */
export interface ErrorEnvelope {
  error: {
    code: number
    message: string
    metadata?: Record<string, unknown> | null
  }
  user_id?: string | null
  openrouter_metadata?: Record<string, unknown> | null
}

/** `{ data }` wrapper of every JSON success body. */
export interface DataEnvelope<T> {
  data: T
}

/**
 * The categories `GET /models?category=` accepts (the service's use-case rankings).
 *
 * @example
 * import { MODEL_CATEGORIES } from 'model-access-sim'
 * console.log(MODEL_CATEGORIES.slice(0, 2))
 * //=> ["programming","roleplay"]
 */
export const MODEL_CATEGORIES = [
  'programming',
  'roleplay',
  'marketing',
  'marketing/seo',
  'technology',
  'science',
  'translation',
  'legal',
  'finance',
  'health',
  'trivia',
  'academia',
] as const
export type ModelCategory = (typeof MODEL_CATEGORIES)[number]

/** The architecture of a catalog model: as the endpoints' view has it, but `tokenizer` is absent rather than null when unknown. */
export interface CatalogArchitecture {
  tokenizer?: Tokenizer
  instruct_type?: InstructType | null
  modality: string | null
  input_modalities: InputModality[]
  output_modalities: OutputModality[]
}

/** What the catalog says of a model's default endpoint. */
export interface TopProvider {
  context_length?: number | null
  max_completion_tokens?: number | null
  is_moderated: boolean
}

/** Parameters the model applies when a request leaves them out. */
export interface DefaultParameters {
  temperature?: number | null
  top_p?: number | null
  top_k?: number | null
  frequency_penalty?: number | null
  presence_penalty?: number | null
  repetition_penalty?: number | null
}

/** One model of `GET /models`, `GET /model/{author}/{slug}` and `GET /embeddings/models` (decisions/0023). */
export interface CatalogModel {
  id: string
  /** The id without its variant (`meta-llama/llama-3.3-70b-instruct` for the `:free` one). */
  canonical_slug: string
  hugging_face_id?: string | null
  name: string
  created: number
  description?: string
  /** The longest context window among the model's endpoints. */
  context_length: number | null
  architecture: CatalogArchitecture
  /** The default (first) endpoint's pricing. */
  pricing: Pricing
  top_provider: TopProvider
  per_request_limits: { prompt_tokens: number; completion_tokens: number } | null
  /** Every parameter some endpoint of the model supports. */
  supported_parameters: SupportedParameter[]
  default_parameters: DefaultParameters | null
  supported_voices: string[] | null
  knowledge_cutoff?: string | null
  expiration_date?: string | null
  links: { details: string }
}

/** A page of the catalog: the body of `GET /models` and `GET /embeddings/models`. */
export interface CatalogModelList {
  data: CatalogModel[]
  /** `next`: the path of the next page, or null on the last one (and when the request asked for no page). */
  links: { next: string | null }
  /** How many models match the filters, over all pages. */
  total_count: number
}

/** One provider of `GET /providers`. */
export interface Provider {
  name: string
  slug: string
  privacy_policy_url: string | null
  terms_of_service_url?: string | null
  status_page_url?: string | null
  /** ISO 3166-1 alpha-2 country code. */
  headquarters?: string | null
  datacenters?: string[] | null
}

/** A preset's status: the simulator makes every preset `active` (decisions/0050). */
export type PresetStatus = 'active' | 'disabled' | 'archived'

/** A preset as `GET /presets` lists it: its slug, name and which version is current. */
export interface Preset {
  id: string
  name: string
  slug: string
  description: string | null
  status: PresetStatus
  status_updated_at: string | null
  created_at: string
  updated_at: string
  creator_user_id: string | null
  workspace_id: string | null
  /** The id of the current version: the latest (decisions/0050). */
  designated_version_id: string | null
}

/** One version of a preset: the config and system prompt a request with `@preset/<slug>` takes. */
export interface PresetVersion {
  id: string
  preset_id: string
  /** 1, 2, 3...: every change of config or system prompt makes the next. */
  version: number
  /** Request fields, as a chat completion names them (`model`, `temperature`, `provider`...). */
  config: Record<string, unknown>
  system_prompt: string | null
  creator_id: string
  created_at: string
  updated_at: string
}

/** A preset with its current version inline: `GET /presets/{slug}`, and the answer of the preset routes that write one. */
export interface PresetWithVersion extends Preset {
  designated_version: PresetVersion | null
}

/** A page of presets (`GET /presets`) or of one preset's versions (`GET /presets/{slug}/versions`), with the count over all pages. */
export interface PresetPage<T> {
  data: T[]
  total_count: number
}

/** One item of `GET /activity`'s `data`: a UTC day's requests on one endpoint (decisions/0053); `workspace_id` with `group_by=workspace` only. */
export interface ActivityItem {
  date: string
  model: string
  model_permaslug: string
  endpoint_id: string
  provider_name: string
  usage: number
  byok_usage_inference: number
  requests: number
  prompt_tokens: number
  completion_tokens: number
  reasoning_tokens: number
  workspace_id?: string
}
