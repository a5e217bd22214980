// The wire types of types.ts as a runtime schema: one structural description of every JSON body the
// simulated operations answer with, and a validator that lists what a body breaks, each problem with its
// JSON path. The simulator's own responses are tested against it (test/wire/shapes.test.ts), and
// `checkService` (model-access-sim/live) holds a live service to it, so both sides meet the same
// description. Pure: no node:, msw, faker or fast-check.
//
// The field lists are checked against types.ts by the compiler: `object<T>()` takes exactly the keys
// of T, a field that may be absent (`?`) must be `optional(...)`, a field whose type admits null must
// be `nullable(...)` (or `literalNull`), and a field whose type does not admit null must not be.
import type { OperationName } from './protocol.js'
import type { ChatAssistantMessage, ChatCompletion, ChatToolCall, ChatUsage, Generation, ProviderResponse } from './inference/wire.js'
import type { ChatLogprobs, TokenLogprob, TopLogprob } from './inference/logprobs.js'
import type { ResponsesResult, ResponsesUsage } from './inference/responses.js'
import type { TextCompletion } from './inference/completions.js'
import type { EmbeddingData, EmbeddingsResponse, EmbeddingsUsage } from './inference/embeddings.js'
import type { WorkspaceBudget } from './store/budgets.js'
import type { OrganizationMember, WorkspaceMember } from './store/members.js'
import type { Guardrail, GuardrailKeyAssignment, GuardrailMemberAssignment } from './store/guardrails.js'
import type { GuardrailBuiltinFilter, GuardrailContentFilter } from './store/state.js'
import type { ByokKey } from './store/byok.js'
import { parseInstant } from './time.js'
import {
  type ActivityItem,
  type ApiKey,
  type Architecture,
  type CatalogArchitecture,
  type CatalogModel,
  type CatalogModelList,
  type DefaultParameters,
  type Provider,
  type TopProvider,
  type Credits,
  type CurrentKey,
  type CurrentKeyRateLimit,
  type DeletedKeyResponse,
  type AuthCodeResponse,
  type AuthKeyResponse,
  type OAuthJwk,
  type TokenExchangeResponse,
  type FreeModelDailyRequests,
  DATA_REGIONS,
  type Endpoint,
  type ErrorEnvelope,
  type ModelWithEndpoints,
  type PercentileStats,
  type Pricing,
  type PricingOverride,
  type SupportsToolChoice,
  type VideoModel,
  type WorkloadPerformance,
  type Workspace,
  type Preset,
  type PresetVersion,
  type PresetWithVersion,
  ENDPOINT_STATUSES,
  INPUT_MODALITIES,
  INSTRUCT_TYPES,
  OUTPUT_MODALITIES,
  QUANTIZATIONS,
  SUPPORTED_PARAMETERS,
  TOKENIZERS,
  VIDEO_ASPECT_RATIOS,
  VIDEO_FRAME_IMAGES,
  VIDEO_RESOLUTIONS,
  WEEKDAYS,
  WORKLOADS,
} from './types.js'

/** A value that is never null: scalars, enumerations, arrays, objects and records. */
export type PlainShape =
  | { readonly kind: 'string' }
  | { readonly kind: 'number' }
  | { readonly kind: 'integer' }
  | { readonly kind: 'boolean' }
  /** An ISO 8601 instant with a time and an offset (`2026-03-02T10:00:00.000000+00:00`, `...Z`). */
  | { readonly kind: 'timestamp' }
  /** A price: plain decimal notation in a string, no sign, no exponent (`"0.000001"`, `"0"`). */
  | { readonly kind: 'decimal' }
  /** One of a const array of types.ts; `name` is that array's name, for messages. */
  | { readonly kind: 'enum'; readonly name: string; readonly values: readonly (string | number)[] }
  | { readonly kind: 'array'; readonly of: Shape }
  /** An object with any keys (only `keys`, when given), each value of shape `of`. */
  | { readonly kind: 'record'; readonly of: Shape; readonly keys?: { readonly name: string; readonly values: readonly string[] } }
  | { readonly kind: 'object'; readonly name: string; readonly fields: Readonly<Record<string, Field>> }
  /** Anything JSON (metadata objects the wire leaves open). */
  | { readonly kind: 'unknown' }

/** An object with named fields. */
export type ObjectShape = Extract<PlainShape, { kind: 'object' }>
/** `T | null`: the field is present and may be null. */
export type NullableShape = { readonly kind: 'nullable'; readonly of: PlainShape }
/** Exactly `null` (a field the wire always sends as null). */
export type NullShape = { readonly kind: 'null' }
export type Shape = PlainShape | NullableShape | NullShape
/** A field marked `?`: it may be absent; when present, it is `of` (null only if `of` allows it). */
export type OptionalField = { readonly kind: 'optional'; readonly of: Shape }
export type Field = Shape | OptionalField

// ---- builders ---------------------------------------------------------------------------------

export const string: PlainShape = { kind: 'string' }
export const number: PlainShape = { kind: 'number' }
export const integer: PlainShape = { kind: 'integer' }
export const boolean: PlainShape = { kind: 'boolean' }
export const timestamp: PlainShape = { kind: 'timestamp' }
export const decimal: PlainShape = { kind: 'decimal' }
export const unknown: PlainShape = { kind: 'unknown' }
export const literalNull: NullShape = { kind: 'null' }

/** One of the values of a const array (`enumOf('QUANTIZATIONS', QUANTIZATIONS)`). */
export function enumOf(name: string, values: readonly (string | number)[]): PlainShape {
  return { kind: 'enum', name, values }
}
export function arrayOf(of: Shape): PlainShape {
  return { kind: 'array', of }
}
export function recordOf(of: Shape, keys?: { name: string; values: readonly string[] }): PlainShape {
  return keys === undefined ? { kind: 'record', of } : { kind: 'record', of, keys }
}
export function nullable(of: PlainShape): NullableShape {
  return { kind: 'nullable', of }
}
export function optional<S extends Shape>(of: S): OptionalField & { readonly of: S } {
  return { kind: 'optional', of }
}

type IsOptional<T, K extends keyof T> = {} extends Pick<T, K> ? true : false
/** The field a property of T must be described with: optional or not, nullable or not, as T says. */
type FieldFor<T, K extends keyof T> =
  IsOptional<T, K> extends true
    ? OptionalField & { readonly of: null extends Exclude<T[K], undefined> ? NullableShape | NullShape : PlainShape }
    : null extends T[K]
      ? NullableShape | NullShape
      : PlainShape

/** An object with exactly the fields of T (the compiler holds the list to T's keys). */
export function object<T extends object>(name: string, fields: { readonly [K in keyof T]-?: FieldFor<T, K> }): PlainShape {
  return { kind: 'object', name, fields: fields as Readonly<Record<string, Field>> }
}

// ---- the wire types of types.ts -------------------------------------------------------------------

const LIMIT_RESETS = ['daily', 'weekly', 'monthly'] as const

/** `ApiKey`: `GET /keys` and `GET /keys/{hash}`. */
export const API_KEY = object<ApiKey>('ApiKey', {
  hash: string,
  name: string,
  label: string,
  disabled: boolean,
  limit: nullable(number),
  limit_remaining: nullable(number),
  limit_reset: nullable(enumOf('LimitReset', LIMIT_RESETS)),
  include_byok_in_limit: boolean,
  usage: number,
  usage_daily: number,
  usage_weekly: number,
  usage_monthly: number,
  byok_usage: number,
  byok_usage_daily: number,
  byok_usage_weekly: number,
  byok_usage_monthly: number,
  created_at: timestamp,
  updated_at: nullable(timestamp),
  expires_at: nullable(timestamp),
  creator_user_id: nullable(string),
  workspace_id: string,
  external_user: nullable(string),
})

/** `CurrentKey`: the `data` of `GET /key`. */
export const CURRENT_KEY = object<CurrentKey>('CurrentKey', {
  label: string,
  limit: nullable(number),
  limit_remaining: nullable(number),
  limit_reset: nullable(enumOf('LimitReset', LIMIT_RESETS)),
  include_byok_in_limit: boolean,
  usage: number,
  usage_daily: number,
  usage_weekly: number,
  usage_monthly: number,
  byok_usage: number,
  byok_usage_daily: number,
  byok_usage_weekly: number,
  byok_usage_monthly: number,
  is_free_tier: boolean,
  is_management_key: boolean,
  is_provisioning_key: boolean,
  rate_limit: object<CurrentKeyRateLimit>('RateLimit', { interval: string, note: string, requests: integer }),
  free_model_daily_requests: object<FreeModelDailyRequests>('FreeModelDailyRequests', { limit: integer, remaining: integer, used: integer }),
  allowed_data_regions: arrayOf(enumOf('DATA_REGIONS', DATA_REGIONS)),
  expires_at: nullable(timestamp),
  creator_user_id: nullable(string),
  workspace_id: string,
  organization_id: literalNull,
})

/** `Credits`: the `data` of `GET /credits`. */
export const CREDITS = object<Credits>('Credits', { total_credits: number, total_usage: number })

/** `Workspace`: `GET /workspaces/{id}`. */
export const WORKSPACE = object<Workspace>('Workspace', {
  id: string,
  name: string,
  slug: string,
  description: nullable(string),
  created_at: timestamp,
  updated_at: nullable(timestamp),
  created_by: nullable(string),
  default_guardrail_id: string,
  default_image_model: nullable(string),
  default_text_model: nullable(string),
  default_provider_sort: nullable(string),
  include_byok_in_budgets: boolean,
  io_logging_api_key_ids: nullable(arrayOf(integer)),
  io_logging_sampling_rate: number,
  is_data_discount_logging_enabled: boolean,
  is_observability_broadcast_enabled: boolean,
  is_observability_io_logging_enabled: boolean,
})

const PERCENTILES = object<PercentileStats>('PercentileStats', { p50: number, p75: number, p90: number, p99: number })

const WORKLOAD_PERFORMANCE = object<WorkloadPerformance>('WorkloadPerformance', {
  latency: nullable(PERCENTILES),
  throughput: nullable(PERCENTILES),
  request_count: nullable(number),
})

const SUPPORTS_TOOL_CHOICE = object<SupportsToolChoice>('SupportsToolChoice', { none: boolean, auto: boolean, required: boolean, function: boolean })

const PRICING_OVERRIDE = object<PricingOverride>('PricingOverride', {
  prompt: optional(decimal),
  completion: optional(decimal),
  audio: optional(decimal),
  input_audio_cache: optional(decimal),
  input_cache_read: optional(decimal),
  input_cache_write: optional(decimal),
  input_cache_write_1h: optional(decimal),
  min_prompt_tokens: optional(number),
  utc_start: optional(integer),
  utc_end: optional(integer),
  utc_days: optional(arrayOf(enumOf('WEEKDAYS', WEEKDAYS))),
})

/** `Pricing`: prices are decimal strings; `prompt` and `completion` are always there. */
export const PRICING = object<Pricing>('Pricing', {
  prompt: decimal,
  completion: decimal,
  request: optional(decimal),
  image: optional(decimal),
  image_output: optional(decimal),
  image_token: optional(decimal),
  audio: optional(decimal),
  audio_output: optional(decimal),
  input_audio_cache: optional(decimal),
  input_cache_read: optional(decimal),
  input_cache_write: optional(decimal),
  input_cache_write_1h: optional(decimal),
  internal_reasoning: optional(decimal),
  web_search: optional(decimal),
  discount: optional(number),
  overrides: optional(arrayOf(PRICING_OVERRIDE)),
})

const ARCHITECTURE = object<Architecture>('Architecture', {
  tokenizer: nullable(enumOf('TOKENIZERS', TOKENIZERS)),
  instruct_type: nullable(enumOf('INSTRUCT_TYPES', INSTRUCT_TYPES)),
  modality: nullable(string),
  input_modalities: arrayOf(enumOf('INPUT_MODALITIES', INPUT_MODALITIES)),
  output_modalities: arrayOf(enumOf('OUTPUT_MODALITIES', OUTPUT_MODALITIES)),
})

/** `Endpoint`: one provider endpoint of a model. */
export const ENDPOINT = object<Endpoint>('Endpoint', {
  name: string,
  model_id: string,
  model_name: string,
  context_length: integer,
  pricing: PRICING,
  provider_name: string,
  tag: string,
  quantization: nullable(enumOf('QUANTIZATIONS', QUANTIZATIONS)),
  max_completion_tokens: nullable(integer),
  max_prompt_tokens: nullable(integer),
  supported_parameters: arrayOf(enumOf('SUPPORTED_PARAMETERS', SUPPORTED_PARAMETERS)),
  supports_implicit_caching: boolean,
  supports_tool_choice: SUPPORTS_TOOL_CHOICE,
  uptime_last_5m: nullable(number),
  uptime_last_30m: nullable(number),
  uptime_last_1d: nullable(number),
  latency_last_30m: nullable(PERCENTILES),
  throughput_last_30m: nullable(PERCENTILES),
  status: optional(enumOf('ENDPOINT_STATUSES', ENDPOINT_STATUSES)),
  supports_voice_cloning: optional(boolean),
  perf_last_30m_by_workload: optional(recordOf(WORKLOAD_PERFORMANCE, { name: 'WORKLOADS', values: WORKLOADS })),
})

/** `ModelWithEndpoints`: the `data` of `GET /models/{author}/{slug}/endpoints`. */
export const MODEL_WITH_ENDPOINTS = object<ModelWithEndpoints>('ModelWithEndpoints', {
  id: string,
  name: string,
  created: integer,
  description: string,
  architecture: ARCHITECTURE,
  endpoints: arrayOf(ENDPOINT),
})

type UpscaleFactor = NonNullable<VideoModel['upscale_factor']>

/** `VideoModel`: one entry of `GET /videos/models`. */
export const VIDEO_MODEL = object<VideoModel>('VideoModel', {
  id: string,
  canonical_slug: string,
  name: string,
  created: integer,
  description: optional(string),
  generate_audio: nullable(boolean),
  allowed_passthrough_parameters: arrayOf(string),
  pricing_skus: optional(nullable(recordOf(decimal))),
  seed: nullable(boolean),
  supported_aspect_ratios: nullable(arrayOf(enumOf('VIDEO_ASPECT_RATIOS', VIDEO_ASPECT_RATIOS))),
  supported_durations: nullable(arrayOf(integer)),
  supported_frame_images: nullable(arrayOf(enumOf('VIDEO_FRAME_IMAGES', VIDEO_FRAME_IMAGES))),
  supported_resolutions: nullable(arrayOf(enumOf('VIDEO_RESOLUTIONS', VIDEO_RESOLUTIONS))),
  supported_sizes: nullable(arrayOf(string)),
  creativity: nullable(arrayOf(integer)),
  upscale_factor: nullable(object<UpscaleFactor>('UpscaleFactor', { min: optional(nullable(number)), max: optional(nullable(number)) })),
  hugging_face_id: optional(nullable(string)),
})

const CATALOG_ARCHITECTURE = object<CatalogArchitecture>('CatalogArchitecture', {
  tokenizer: optional(enumOf('TOKENIZERS', TOKENIZERS)),
  instruct_type: optional(nullable(enumOf('INSTRUCT_TYPES', INSTRUCT_TYPES))),
  modality: nullable(string),
  input_modalities: arrayOf(enumOf('INPUT_MODALITIES', INPUT_MODALITIES)),
  output_modalities: arrayOf(enumOf('OUTPUT_MODALITIES', OUTPUT_MODALITIES)),
})

type PerRequestLimits = NonNullable<CatalogModel['per_request_limits']>

/** `CatalogModel`: one model of `GET /models`, `GET /model/{author}/{slug}` and `GET /embeddings/models`. */
export const CATALOG_MODEL = object<CatalogModel>('CatalogModel', {
  id: string,
  canonical_slug: string,
  hugging_face_id: optional(nullable(string)),
  name: string,
  created: integer,
  description: optional(string),
  context_length: nullable(integer),
  architecture: CATALOG_ARCHITECTURE,
  pricing: PRICING,
  top_provider: object<TopProvider>('TopProvider', { context_length: optional(nullable(integer)), max_completion_tokens: optional(nullable(integer)), is_moderated: boolean }),
  per_request_limits: nullable(object<PerRequestLimits>('PerRequestLimits', { prompt_tokens: number, completion_tokens: number })),
  supported_parameters: arrayOf(enumOf('SUPPORTED_PARAMETERS', SUPPORTED_PARAMETERS)),
  default_parameters: nullable(
    object<DefaultParameters>('DefaultParameters', {
      temperature: optional(nullable(number)),
      top_p: optional(nullable(number)),
      top_k: optional(nullable(integer)),
      frequency_penalty: optional(nullable(number)),
      presence_penalty: optional(nullable(number)),
      repetition_penalty: optional(nullable(number)),
    }),
  ),
  supported_voices: nullable(arrayOf(string)),
  knowledge_cutoff: optional(nullable(string)),
  expiration_date: optional(nullable(string)),
  links: object<CatalogModel['links']>('ModelLinks', { details: string }),
})

/** `CatalogModelList`: the body of `GET /models` and `GET /embeddings/models`. */
export const CATALOG_MODEL_LIST = object<CatalogModelList>('CatalogModelList', {
  data: arrayOf(CATALOG_MODEL),
  links: object<CatalogModelList['links']>('ListLinks', { next: nullable(string) }),
  total_count: integer,
})

/** `Provider`: one entry of `GET /providers`. */
export const PROVIDER = object<Provider>('Provider', {
  name: string,
  slug: string,
  privacy_policy_url: nullable(string),
  terms_of_service_url: optional(nullable(string)),
  status_page_url: optional(nullable(string)),
  headquarters: optional(nullable(string)),
  datacenters: optional(nullable(arrayOf(string))),
})

// ---- the money path (inference/wire.ts) -------------------------------------------------------------

const FINISH_REASONS = ['stop', 'length', 'tool_calls', 'content_filter', 'error'] as const

type CostDetails = ChatUsage['cost_details']
type ChatChoice = ChatCompletion['choices'][number]

/** `ChatUsage`: token counts and the exact cost of a completion. */
export const CHAT_USAGE = object<ChatUsage>('ChatUsage', {
  prompt_tokens: integer,
  completion_tokens: integer,
  total_tokens: integer,
  cost: number,
  is_byok: boolean,
  prompt_tokens_details: object<ChatUsage['prompt_tokens_details']>('PromptTokensDetails', { cached_tokens: integer, cache_write_tokens: integer, audio_tokens: integer, video_tokens: integer }),
  completion_tokens_details: object<ChatUsage['completion_tokens_details']>('CompletionTokensDetails', { reasoning_tokens: integer, image_tokens: integer, audio_tokens: integer }),
  cost_details: object<CostDetails>('CostDetails', {
    upstream_inference_cost: nullable(number),
    upstream_inference_prompt_cost: number,
    upstream_inference_completions_cost: number,
  }),
})

const TOOL_CALL = object<ChatToolCall>('ChatToolCall', {
  type: enumOf('ToolCallType', ['function']),
  index: integer,
  id: string,
  function: object<ChatToolCall['function']>('ToolCallFunction', { name: string, arguments: string }),
})

const TOP_LOGPROB = object<TopLogprob>('TopLogprob', { token: string, logprob: number, bytes: arrayOf(integer) })

/** `ChatTokenLogprobs`: a choice's log probabilities, when asked (decisions/0048). */
const CHAT_LOGPROBS = object<ChatLogprobs>('ChatTokenLogprobs', {
  content: nullable(arrayOf(object<TokenLogprob>('ChatTokenLogprob', { token: string, logprob: number, bytes: arrayOf(integer), top_logprobs: arrayOf(TOP_LOGPROB) }))),
  refusal: literalNull,
})

/** `ChatCompletion`: the 200 of `POST /chat/completions` without `stream`. */
export const CHAT_COMPLETION = object<ChatCompletion>('ChatCompletion', {
  id: string,
  provider: string,
  model: string,
  object: enumOf('ChatCompletionObject', ['chat.completion']),
  created: integer,
  choices: arrayOf(
    object<ChatChoice>('ChatChoice', {
      index: integer,
      logprobs: nullable(CHAT_LOGPROBS),
      finish_reason: enumOf('FinishReason', FINISH_REASONS),
      native_finish_reason: enumOf('FinishReason', FINISH_REASONS),
      message: object<ChatAssistantMessage>('ChatAssistantMessage', {
        role: enumOf('Role', ['assistant']),
        content: nullable(string),
        refusal: nullable(string),
        reasoning: nullable(string),
        // A union of three entry types (text, summary, encrypted): its entries are checked by the official SDK's schemas.
        reasoning_details: optional(arrayOf(unknown)),
        tool_calls: optional(arrayOf(TOOL_CALL)),
      }),
    }),
  ),
  system_fingerprint: nullable(string),
  usage: CHAT_USAGE,
})

type TextChoice = TextCompletion['choices'][number]

/** `TextCompletion`: the 200 of `POST /completions` without `stream` (decisions/0039). */
export const TEXT_COMPLETION = object<TextCompletion>('TextCompletion', {
  id: string,
  object: enumOf('TextCompletionObject', ['text_completion']),
  created: integer,
  model: string,
  provider: string,
  choices: arrayOf(
    object<TextChoice>('TextCompletionChoice', {
      text: string,
      index: integer,
      finish_reason: nullable(enumOf('FinishReason', FINISH_REASONS)),
      native_finish_reason: nullable(enumOf('FinishReason', FINISH_REASONS)),
      logprobs: literalNull,
      reasoning: optional(string),
    }),
  ),
  usage: CHAT_USAGE,
})

/** `ResponsesUsage`: token counts and the exact cost of a response. */
const RESPONSES_USAGE = object<ResponsesUsage>('ResponsesUsage', {
  input_tokens: integer,
  input_tokens_details: object<ResponsesUsage['input_tokens_details']>('InputTokensDetails', { cached_tokens: integer, cache_write_tokens: integer }),
  output_tokens: integer,
  output_tokens_details: object<ResponsesUsage['output_tokens_details']>('OutputTokensDetails', { reasoning_tokens: integer }),
  total_tokens: integer,
  cost: number,
  is_byok: boolean,
  cost_details: object<ResponsesUsage['cost_details']>('UsageCostDetails', {
    upstream_inference_cost: nullable(number),
    upstream_inference_input_cost: number,
    upstream_inference_output_cost: number,
  }),
})

/**
 * `ResponsesResult`: the 200 of `POST /responses` without `stream`. Output items, tools and the
 * tool choice are unions of many kinds: their shapes are checked by the official SDK's schemas in
 * the tests, and left open here.
 */
export const RESPONSES_RESULT = object<ResponsesResult>('ResponsesResult', {
  id: string,
  object: enumOf('ResponseObject', ['response']),
  created_at: integer,
  completed_at: nullable(integer),
  model: string,
  status: enumOf('ResponseStatus', ['completed', 'incomplete', 'failed', 'in_progress', 'cancelled', 'queued']),
  error: nullable(object<NonNullable<ResponsesResult['error']>>('ResponsesError', { code: string, message: string })),
  incomplete_details: nullable(object<NonNullable<ResponsesResult['incomplete_details']>>('IncompleteDetails', { reason: enumOf('IncompleteReason', ['max_output_tokens', 'content_filter']) })),
  instructions: nullable(string),
  metadata: nullable(recordOf(string)),
  output: arrayOf(unknown),
  output_text: string,
  temperature: nullable(number),
  top_p: nullable(number),
  presence_penalty: nullable(number),
  frequency_penalty: nullable(number),
  max_output_tokens: nullable(integer),
  max_tool_calls: nullable(integer),
  top_logprobs: nullable(integer),
  parallel_tool_calls: boolean,
  tool_choice: unknown,
  tools: arrayOf(unknown),
  store: boolean,
  user: nullable(string),
  safety_identifier: nullable(string),
  prompt_cache_key: nullable(string),
  usage: nullable(RESPONSES_USAGE),
})

/**
 * `CreateEmbeddingsResponse`: the 200 of `POST /embeddings`. `embedding` is numbers or a base64
 * string by `encoding_format` (the schema has no unions: unknown here, each form is tested).
 */
export const EMBEDDINGS_RESPONSE = object<EmbeddingsResponse>('CreateEmbeddingsResponse', {
  id: string,
  object: enumOf('EmbeddingsObject', ['list']),
  data: arrayOf(object<EmbeddingData>('Embedding', { object: enumOf('EmbeddingObject', ['embedding']), embedding: unknown, index: integer })),
  model: string,
  provider: string,
  usage: object<EmbeddingsUsage>('EmbeddingsUsage', {
    prompt_tokens: integer,
    total_tokens: integer,
    cost: number,
    is_byok: boolean,
    cost_details: object<EmbeddingsUsage['cost_details']>('CostDetails', { upstream_inference_cost: nullable(number), upstream_inference_prompt_cost: number, upstream_inference_completions_cost: number }),
  }),
})

/** `Generation`: the `data` of `GET /generation?id=`. */
export const GENERATION = object<Generation>('Generation', {
  id: string,
  upstream_id: nullable(string),
  total_cost: number,
  cache_discount: nullable(number),
  upstream_inference_cost: nullable(number),
  created_at: timestamp,
  model: string,
  app_id: nullable(integer),
  streamed: nullable(boolean),
  cancelled: nullable(boolean),
  provider_name: nullable(string),
  latency: nullable(number),
  moderation_latency: nullable(number),
  generation_time: nullable(number),
  finish_reason: nullable(string),
  native_finish_reason: nullable(string),
  tokens_prompt: nullable(integer),
  tokens_completion: nullable(integer),
  native_tokens_prompt: nullable(integer),
  native_tokens_completion: nullable(integer),
  native_tokens_completion_images: nullable(integer),
  native_tokens_reasoning: nullable(integer),
  native_tokens_cached: nullable(integer),
  num_media_prompt: nullable(integer),
  num_input_audio_prompt: nullable(integer),
  num_media_completion: nullable(integer),
  num_search_results: nullable(integer),
  num_fetches: nullable(integer),
  origin: string,
  usage: number,
  is_byok: boolean,
  api_type: nullable(enumOf('ApiType', ['completions', 'embeddings'])),
  data_region: enumOf('DataRegion', ['global']),
  external_user: nullable(string),
  http_referer: nullable(string),
  user_agent: nullable(string),
  preset_id: nullable(string),
  router: nullable(string),
  service_tier: nullable(string),
  web_search_engine: nullable(string),
  workspace_id: nullable(string),
  provider_responses: nullable(
    arrayOf(
      object<ProviderResponse>('ProviderResponse', {
        id: string,
        endpoint_id: string,
        model_permaslug: string,
        provider_name: string,
        status: nullable(integer),
        latency: number,
        is_byok: boolean,
      }),
    ),
  ),
  request_id: optional(nullable(string)),
  session_id: optional(nullable(string)),
})

/** `PresetVersion`: one version of a preset (`GET /presets/{slug}/versions/{version}`). */
export const PRESET_VERSION = object<PresetVersion>('PresetVersion', {
  id: string,
  preset_id: string,
  version: integer,
  config: recordOf(unknown),
  system_prompt: nullable(string),
  creator_id: string,
  created_at: timestamp,
  updated_at: timestamp,
})

const PRESET_FIELDS = {
  id: string,
  name: string,
  slug: string,
  description: nullable(string),
  status: enumOf('PresetStatus', ['active', 'disabled', 'archived']),
  status_updated_at: nullable(timestamp),
  created_at: timestamp,
  updated_at: timestamp,
  creator_user_id: nullable(string),
  workspace_id: nullable(string),
  designated_version_id: nullable(string),
} as const

/** `Preset`: an entry of `GET /presets`. */
export const PRESET = object<Preset>('Preset', PRESET_FIELDS)

/** `PresetWithVersion`: `GET /presets/{slug}`, and the answer of the preset routes that write one. */
export const PRESET_WITH_VERSION = object<PresetWithVersion>('PresetWithVersion', { ...PRESET_FIELDS, designated_version: nullable(PRESET_VERSION) })

/** `WorkspaceBudget`: a workspace's spending limit for one interval (decisions/0052). */
export const WORKSPACE_BUDGET = object<WorkspaceBudget>('WorkspaceBudget', {
  id: string,
  workspace_id: string,
  limit_usd: number,
  reset_interval: nullable(enumOf('ResetInterval', ['daily', 'weekly', 'monthly'])),
  created_at: timestamp,
  updated_at: timestamp,
})

/** `{ data, include_byok_in_budgets }`: the answers of the workspace budget routes. */
const budgetAnswer = (name: string, data: Shape): ObjectShape => ({ kind: 'object', name: `{ data: ${name}, include_byok_in_budgets: boolean }`, fields: { data, include_byok_in_budgets: optional(boolean) } })
/** `OrganizationMember`: an entry of `GET /organization/members` (decisions/0051). */
export const ORGANIZATION_MEMBER = object<OrganizationMember>('OrganizationMember', {
  id: string,
  email: string,
  first_name: nullable(string),
  last_name: nullable(string),
  role: enumOf('OrganizationRole', ['org:admin', 'org:member']),
})

/** `WorkspaceMember`: an entry of `GET /workspaces/{id}/members`. */
export const WORKSPACE_MEMBER = object<WorkspaceMember>('WorkspaceMember', {
  id: string,
  user_id: string,
  workspace_id: string,
  role: enumOf('WorkspaceRole', ['admin', 'member']),
  created_at: timestamp,
})

const ACTION = enumOf('GuardrailAction', ['redact', 'block', 'flag'])
const nullableBoolean = nullable(boolean)
const names = nullable(arrayOf(string))

/** `Guardrail`: `GET /guardrails/{id}` and the entries of `GET /guardrails` (decisions/0051). */
export const GUARDRAIL = object<Guardrail>('Guardrail', {
  id: string,
  name: string,
  description: nullable(string),
  allowed_models: names,
  ignored_models: names,
  allowed_providers: names,
  ignored_providers: names,
  allowed_data_regions: nullable(arrayOf(enumOf('GuardrailDataRegion', ['global', 'europe', 'us']))),
  content_filters: nullable(arrayOf(object<GuardrailContentFilter>('ContentFilter', { action: ACTION, label: optional(nullable(string)), pattern: string }))),
  content_filter_builtins: nullable(
    arrayOf(object<GuardrailBuiltinFilter>('ContentFilterBuiltin', { action: ACTION, label: optional(string), scan_scope: optional(enumOf('ScanScope', ['user_only', 'all_messages'])), slug: string })),
  ),
  enable_free_model_publication: nullableBoolean,
  enable_free_model_training: nullableBoolean,
  enable_paid_model_training: nullableBoolean,
  enforce_zdr: nullableBoolean,
  enforce_zdr_anthropic: nullableBoolean,
  enforce_zdr_google: nullableBoolean,
  enforce_zdr_openai: nullableBoolean,
  enforce_zdr_other: nullableBoolean,
  enforce_zdr_xai: nullableBoolean,
  include_byok_in_budgets: boolean,
  limit_usd: nullable(number),
  reset_interval: nullable(enumOf('GuardrailInterval', ['daily', 'weekly', 'monthly'])),
  workspace_id: nullable(string),
  created_at: timestamp,
  updated_at: nullable(timestamp),
})

/** `KeyAssignment`: an entry of the key assignment lists. */
export const GUARDRAIL_KEY_ASSIGNMENT = object<GuardrailKeyAssignment>('KeyAssignment', {
  id: string,
  guardrail_id: string,
  key_hash: string,
  key_name: string,
  key_label: string,
  assigned_by: nullable(string),
  created_at: timestamp,
})

/** `MemberAssignment`: an entry of the member assignment lists. */
export const GUARDRAIL_MEMBER_ASSIGNMENT = object<GuardrailMemberAssignment>('MemberAssignment', {
  id: string,
  guardrail_id: string,
  user_id: string,
  organization_id: string,
  assigned_by: nullable(string),
  created_at: timestamp,
})

/** `ActivityItem`: a UTC day's requests on one endpoint (`GET /activity`). */
export const ACTIVITY_ITEM = object<ActivityItem>('ActivityItem', {
  date: string,
  model: string,
  model_permaslug: string,
  endpoint_id: string,
  provider_name: string,
  usage: number,
  byok_usage_inference: number,
  requests: integer,
  prompt_tokens: integer,
  completion_tokens: integer,
  reasoning_tokens: integer,
  workspace_id: optional(string),
})

/** `BYOKKey`: a BYOK provider credential, never its raw key (decisions/0054). */
export const BYOK_KEY = object<ByokKey>('BYOKKey', {
  id: string,
  provider: string,
  label: string,
  name: optional(nullable(string)),
  workspace_id: nullable(string),
  allowed_api_key_hashes: nullable(arrayOf(string)),
  allowed_models: nullable(arrayOf(string)),
  allowed_user_ids: nullable(arrayOf(string)),
  declared_zdr: nullable(boolean),
  disabled: boolean,
  is_byok_only: boolean,
  is_fallback: boolean,
  is_required: boolean,
  sort_order: integer,
  created_at: timestamp,
})

const pageOf = (name: string, of: PlainShape): ObjectShape => ({ kind: 'object', name: `{ data: ${name}[], total_count: integer }`, fields: { data: arrayOf(of), total_count: integer } })

type ErrorBody = ErrorEnvelope['error']

/** `ErrorEnvelope`: the body of every failing operation. `code` must also equal the status: see {@link errorEnvelopeProblems}. */
export const ERROR_ENVELOPE = object<ErrorEnvelope>('ErrorEnvelope', {
  error: object<ErrorBody>('Error', { code: integer, message: string, metadata: optional(nullable(recordOf(unknown))) }),
  user_id: optional(nullable(string)),
  openrouter_metadata: optional(nullable(recordOf(unknown))),
})

/** The operations that answer JSON on success (all but `getFileContent`, which answers bytes). */
export type JsonOperationName = Exclude<OperationName, 'getFileContent'>

const dataOf = (name: string, of: PlainShape): ObjectShape => ({ kind: 'object', name: `{ data: ${name} }`, fields: { data: of } })

/** The 200 body of each JSON operation; its `name` says it in a line (`{ data: ApiKey[] }`). */
export const RESPONSE_SHAPES: Readonly<Record<JsonOperationName, ObjectShape>> = {
  listKeys: dataOf('ApiKey[]', arrayOf(API_KEY)),
  getKey: dataOf('ApiKey', API_KEY),
  listEndpoints: dataOf('ModelWithEndpoints', MODEL_WITH_ENDPOINTS),
  getWorkspace: dataOf('Workspace', WORKSPACE),
  listVideoModels: dataOf('VideoModel[]', arrayOf(VIDEO_MODEL)),
  listModels: CATALOG_MODEL_LIST as ObjectShape,
  countModels: dataOf('{ count }', object<{ count: number }>('ModelsCount', { count: integer })),
  getModel: dataOf('CatalogModel', CATALOG_MODEL),
  listProviders: dataOf('Provider[]', arrayOf(PROVIDER)),
  listEmbeddingsModels: CATALOG_MODEL_LIST as ObjectShape,
  listWorkspaces: { kind: 'object', name: '{ data: Workspace[], total_count: integer }', fields: { data: arrayOf(WORKSPACE), total_count: integer } },
  createWorkspace: dataOf('Workspace', WORKSPACE),
  updateWorkspace: dataOf('Workspace', WORKSPACE),
  deleteWorkspace: { kind: 'object', name: '{ deleted: true }', fields: { deleted: boolean } },
  createChatCompletion: CHAT_COMPLETION as ObjectShape,
  getGeneration: dataOf('Generation', GENERATION),
  createResponses: RESPONSES_RESULT as ObjectShape,
  createCompletion: TEXT_COMPLETION as ObjectShape,
  createKey: { kind: 'object', name: '{ data: ApiKey, key: string }', fields: { data: API_KEY, key: string } },
  updateKey: dataOf('ApiKey', API_KEY),
  deleteKey: object<DeletedKeyResponse>('{ deleted: true }', { deleted: boolean }) as ObjectShape,
  getCurrentKey: dataOf('CurrentKey', CURRENT_KEY),
  getCurrentKeyLegacy: dataOf('CurrentKey', CURRENT_KEY),
  getCredits: dataOf('Credits', CREDITS),
  createEmbeddings: EMBEDDINGS_RESPONSE as ObjectShape,
  createAuthKeysCode: dataOf('AuthCode', object<AuthCodeResponse['data']>('AuthCode', { id: string, app_id: integer, created_at: timestamp })),
  exchangeAuthCodeForAPIKey: object<AuthKeyResponse>('AuthKeyResponse', { key: string, user_id: nullable(string) }) as ObjectShape,
  createOauthToken: object<TokenExchangeResponse>('TokenExchangeResponse', {
    access_token: string,
    expires_in: integer,
    issued_token_type: enumOf('IssuedTokenType', ['urn:ietf:params:oauth:token-type:access_token']),
    scope: string,
    token_type: enumOf('TokenType', ['Bearer']),
  }) as ObjectShape,
  listOauthJwks: {
    kind: 'object',
    name: '{ keys: OAuthJwk[] }',
    fields: {
      keys: arrayOf(
        object<OAuthJwk>('OAuthJwk', {
          alg: enumOf('Alg', ['ES256']),
          crv: enumOf('Crv', ['P-256']),
          kid: string,
          kty: enumOf('Kty', ['EC']),
          use: enumOf('Use', ['sig']),
          x: string,
          y: string,
        }),
      ),
    },
  },
  listPresets: pageOf('Preset', PRESET),
  getPreset: dataOf('PresetWithVersion', PRESET_WITH_VERSION),
  listPresetVersions: pageOf('PresetVersion', PRESET_VERSION),
  getPresetVersion: dataOf('PresetVersion', PRESET_VERSION),
  createPresetsChatCompletions: dataOf('PresetWithVersion', PRESET_WITH_VERSION),
  createPresetsResponses: dataOf('PresetWithVersion', PRESET_WITH_VERSION),
  createPresetsMessages: dataOf('PresetWithVersion', PRESET_WITH_VERSION),
  listWorkspaceBudgets: budgetAnswer('WorkspaceBudget[]', arrayOf(WORKSPACE_BUDGET)),
  getWorkspaceBudget: budgetAnswer('WorkspaceBudget', WORKSPACE_BUDGET),
  upsertWorkspaceBudget: budgetAnswer('WorkspaceBudget', WORKSPACE_BUDGET),
  deleteWorkspaceBudget: { kind: 'object', name: '{ deleted: true }', fields: { deleted: boolean } },
  // Members (operations/members.ts, decisions/0051).
  listOrganizationMembers: pageOf('OrganizationMember', ORGANIZATION_MEMBER),
  listWorkspaceMembers: pageOf('WorkspaceMember', WORKSPACE_MEMBER),
  bulkAddWorkspaceMembers: { kind: 'object', name: '{ added_count: integer, data: WorkspaceMember[] }', fields: { added_count: integer, data: arrayOf(WORKSPACE_MEMBER) } },
  bulkRemoveWorkspaceMembers: { kind: 'object', name: '{ removed_count: integer }', fields: { removed_count: integer } },
  // Guardrails (operations/guardrails.ts, decisions/0051).
  listGuardrails: pageOf('Guardrail', GUARDRAIL),
  createGuardrail: dataOf('Guardrail', GUARDRAIL),
  getGuardrail: dataOf('Guardrail', GUARDRAIL),
  updateGuardrail: dataOf('Guardrail', GUARDRAIL),
  deleteGuardrail: { kind: 'object', name: '{ deleted: true }', fields: { deleted: boolean } },
  listKeyAssignments: pageOf('KeyAssignment', GUARDRAIL_KEY_ASSIGNMENT),
  listMemberAssignments: pageOf('MemberAssignment', GUARDRAIL_MEMBER_ASSIGNMENT),
  listGuardrailKeyAssignments: pageOf('KeyAssignment', GUARDRAIL_KEY_ASSIGNMENT),
  listGuardrailMemberAssignments: pageOf('MemberAssignment', GUARDRAIL_MEMBER_ASSIGNMENT),
  bulkAssignKeysToGuardrail: { kind: 'object', name: '{ assigned_count: integer }', fields: { assigned_count: integer } },
  bulkUnassignKeysFromGuardrail: { kind: 'object', name: '{ unassigned_count: integer }', fields: { unassigned_count: integer } },
  bulkAssignMembersToGuardrail: { kind: 'object', name: '{ assigned_count: integer }', fields: { assigned_count: integer } },
  bulkUnassignMembersFromGuardrail: { kind: 'object', name: '{ unassigned_count: integer }', fields: { unassigned_count: integer } },
  getUserActivity: dataOf('ActivityItem[]', arrayOf(ACTIVITY_ITEM)),
  getAnalyticsMeta: dataOf('AnalyticsMeta', {
    kind: 'object',
    name: 'AnalyticsMeta',
    fields: {
      dimensions: arrayOf({ kind: 'object', name: 'AnalyticsDimension', fields: { name: string, display_label: string } }),
      metrics: arrayOf({ kind: 'object', name: 'AnalyticsMetric', fields: { name: string, display_label: string, display_format: string, is_rate: boolean } }),
      operators: arrayOf({ kind: 'object', name: 'AnalyticsOperator', fields: { name: string, value_type: string } }),
      granularities: arrayOf({ kind: 'object', name: 'AnalyticsGranularity', fields: { name: string, display_label: string } }),
    },
  }),
  listGenerationContent: dataOf('GenerationContent', {
    kind: 'object',
    name: 'GenerationContent',
    fields: {
      error: nullable(recordOf(unknown)),
      input: recordOf(unknown),
      output: { kind: 'object', name: 'GenerationContentOutput', fields: { completion: nullable(string), reasoning: nullable(string) } },
    },
  }),
  submitGenerationFeedback: dataOf('{ success: true }', { kind: 'object', name: 'FeedbackResult', fields: { success: boolean } }),
  listModelsUser: CATALOG_MODEL_LIST as ObjectShape,
  listEndpointsZdr: dataOf('Endpoint[]', arrayOf(ENDPOINT)),
  queryAnalytics: dataOf('AnalyticsResult', {
    kind: 'object',
    name: 'AnalyticsResult',
    fields: {
      data: arrayOf(recordOf(unknown)),
      metadata: { kind: 'object', name: 'AnalyticsMetadata', fields: { query_time_ms: number, row_count: integer, truncated: boolean } },
      warnings: optional(arrayOf(string)),
    },
  }),
  createBYOKKey: dataOf('BYOKKey', BYOK_KEY),
  listBYOKKeys: pageOf('BYOKKey', BYOK_KEY),
  getBYOKKey: dataOf('BYOKKey', BYOK_KEY),
  updateBYOKKey: dataOf('BYOKKey', BYOK_KEY),
  deleteBYOKKey: { kind: 'object', name: '{ deleted: true }', fields: { deleted: boolean } },
}

/** What a 200 of `GET /files/{file_id}/content` carries besides the bytes. */
export const FILE_CONTENT = {
  contentType: 'application/octet-stream',
  /** Headers the simulator always sets on a download. */
  headers: ['content-type', 'content-length', 'content-disposition'],
} as const

// ---- the validator ------------------------------------------------------------------------------

/** How {@link validateShape} treats a field that the shape does not declare. */
export interface ValidateOptions {
  /** `'report'` (the default): a problem each (the simulator never sends one); `'ignore'`: allowed. */
  extraFields?: 'report' | 'ignore' | undefined
}

const DECIMAL = /^\d+(\.\d+)?$/

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A value as a problem shows it: JSON for scalars (shortened), "an object"/"an array" otherwise. */
export function shown(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (Array.isArray(value)) return 'an array'
  if (isRecord(value)) return 'an object'
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 40 ? `${text.slice(0, 37)}...` : text
}

function listed(values: readonly (string | number)[]): string {
  const head = values.slice(0, 4).map((v) => JSON.stringify(v))
  return values.length > 4 ? `${head.join(', ')}, ...` : head.join(', ')
}

/** What a shape expects, in words: `number or null`, `one of QUANTIZATIONS ("int4", ...)`. */
export function describeShape(shape: Shape): string {
  switch (shape.kind) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      return shape.kind
    case 'timestamp':
      return 'an ISO 8601 timestamp string'
    case 'decimal':
      return 'a decimal string'
    case 'unknown':
      return 'any JSON value'
    case 'null':
      return 'null'
    case 'enum':
      return `one of ${shape.name} (${listed(shape.values)})`
    case 'array':
      return `an array of ${item(shape.of)}`
    case 'record':
      return `an object (values: ${item(shape.of)})`
    case 'object':
      return `an object (${shape.name})`
    case 'nullable':
      return `${describeShape(shape.of)} or null`
  }
}

/** An element's shape in a container's description: an object by its name (`an array of ApiKey`). */
const item = (shape: Shape): string => (shape.kind === 'object' ? shape.name : describeShape(shape))

const child = (path: string, key: string): string => (path === '' ? key : /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`)

/** Whether a value fits a shape's own kind, not looking inside arrays and objects. */
function fitsScalar(shape: PlainShape, value: unknown): boolean {
  switch (shape.kind) {
    case 'string':
      return typeof value === 'string'
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'timestamp':
      return typeof value === 'string' && parseInstant(value) !== undefined
    case 'decimal':
      return typeof value === 'string' && DECIMAL.test(value)
    case 'enum':
      return (typeof value === 'string' || typeof value === 'number') && shape.values.includes(value)
    case 'array':
      return Array.isArray(value)
    case 'record':
    case 'object':
      return isRecord(value)
    case 'unknown':
      return true
  }
}

function walk(shape: Shape, value: unknown, path: string, extra: boolean, problems: string[]): void {
  const at = path === '' ? '(body)' : path
  if (shape.kind === 'null') {
    if (value !== null) problems.push(`${at}: expected null, got ${shown(value)}`)
    return
  }
  if (shape.kind === 'nullable') {
    if (value === null) return
    if (!fitsScalar(shape.of, value)) {
      problems.push(`${at}: expected ${describeShape(shape)}, got ${shown(value)}`)
      return
    }
    walk(shape.of, value, path, extra, problems)
    return
  }
  if (!fitsScalar(shape, value)) {
    problems.push(`${at}: expected ${describeShape(shape)}, got ${shown(value)}`)
    return
  }
  if (shape.kind === 'array') {
    ;(value as unknown[]).forEach((item, i) => walk(shape.of, item, `${path}[${i}]`, extra, problems))
  } else if (shape.kind === 'record') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (shape.keys !== undefined && !shape.keys.values.includes(key)) {
        problems.push(`${child(path, key)}: unexpected key, expected one of ${shape.keys.name} (${listed(shape.keys.values)})`)
        continue
      }
      walk(shape.of, item, child(path, key), extra, problems)
    }
  } else if (shape.kind === 'object') {
    const record = value as Record<string, unknown>
    for (const [key, field] of Object.entries(shape.fields)) {
      const present = Object.hasOwn(record, key)
      if (field.kind === 'optional') {
        if (present) walk(field.of, record[key], child(path, key), extra, problems)
      } else if (!present) {
        problems.push(`${child(path, key)}: missing, expected ${describeShape(field)}`)
      } else {
        walk(field, record[key], child(path, key), extra, problems)
      }
    }
    if (extra) {
      for (const key of Object.keys(record)) {
        if (!Object.hasOwn(shape.fields, key)) problems.push(`${child(path, key)}: unexpected field (${shape.name} has no such field)`)
      }
    }
  }
}

/**
 * Every way `value` breaks `shape`, one line each with its JSON path:
 * `data[3].limit_remaining: expected number or null, got "5"`. Empty when it fits.
 */
export function validateShape(shape: Shape, value: unknown, options: ValidateOptions = {}): string[] {
  const problems: string[] = []
  walk(shape, value, '', (options.extraFields ?? 'report') === 'report', problems)
  return problems
}

/** What is wrong with an error body for `status`: the envelope's shape, and `error.code` equal to the status. */
export function errorEnvelopeProblems(status: number, body: unknown, options: ValidateOptions = {}): string[] {
  const problems = validateShape(ERROR_ENVELOPE, body, options)
  const code = isRecord(body) && isRecord(body['error']) ? body['error']['code'] : undefined
  if (typeof code === 'number' && code !== status) problems.push(`error.code: expected ${status} (the HTTP status), got ${code}`)
  return problems
}

/**
 * What is wrong with a 200 of `GET /files/{file_id}/content`: the content type, a `content-length`
 * equal to the byte count, and an `attachment` content disposition. `header` reads a header by its
 * lower-case name (null when absent).
 */
export function fileContentProblems(status: number, header: (name: string) => string | null | undefined, byteLength: number): string[] {
  const problems: string[] = []
  if (status !== 200) problems.push(`status: expected 200, got ${status}`)
  const type = header('content-type')
  if (type == null) problems.push(`content-type: missing, expected ${FILE_CONTENT.contentType}`)
  else if (mediaType(type) !== FILE_CONTENT.contentType) problems.push(`content-type: expected ${FILE_CONTENT.contentType}, got ${JSON.stringify(type)}`)
  const length = header('content-length')
  if (length == null) problems.push(`content-length: missing, expected ${byteLength} (the byte count)`)
  else if (length.trim() !== String(byteLength)) problems.push(`content-length: expected ${byteLength} (the byte count), got ${JSON.stringify(length)}`)
  const disposition = header('content-disposition')
  if (disposition == null) problems.push('content-disposition: missing, expected attachment; filename="..."')
  else if (!/^attachment\s*(;|$)/i.test(disposition)) problems.push(`content-disposition: expected attachment; filename="...", got ${JSON.stringify(disposition)}`)
  return problems
}

/** The media type of a content-type header, without its parameters, in lower case. */
export function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase()
}
