// The wire shapes of the money path, with the exact JSON field names: a chat completion, a stream
// chunk, and a generation as `GET /generation` shows it. Every field the official SDK requires is
// here; `x: T | null` is always present, `x?: T` may be absent.

import type { ChatLogprobs } from './logprobs.js'

/** A tool call in an assistant message: `index` is its place in the message's list, as the service sends it. */
export interface ChatToolCall {
  type: 'function'
  index: number
  id: string
  function: { name: string; arguments: string }
}

/**
 * One entry of `reasoning_details`, of the types providers send (decisions/0048): the reasoning's
 * text (Anthropic's signed), a summary of it (OpenAI's), or an opaque encrypted block.
 */
export type ChatReasoningDetail =
  | { type: 'reasoning.text'; text: string; format: string; index: number; signature?: string }
  | { type: 'reasoning.summary'; summary: string; format: string; index: number }
  | { type: 'reasoning.encrypted'; data: string; format: string; index: number }

/**
 * The assistant message of a non-streamed completion, as the service sends it (decisions/0039):
 * `content` null when the reply is only tool calls, `refusal` and `reasoning` always present (null
 * when none), `reasoning_details` only with reasoning, `tool_calls` only with calls.
 */
export interface ChatAssistantMessage {
  role: 'assistant'
  content: string | null
  refusal: string | null
  reasoning: string | null
  reasoning_details?: ChatReasoningDetail[]
  tool_calls?: ChatToolCall[]
}

/**
 * `usage` of a completion (and of the stream's usage chunk): token counts and the exact cost in
 * USD, with every detail field the service sends (decisions/0039).
 */
export interface ChatUsage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
  /** The cost charged, in USD: the decimal of `estimateCost` as a number. */
  cost: number
  is_byok: boolean
  /** `cached_tokens` read from the cache; the simulator writes no cache and takes no audio or video (0). */
  prompt_tokens_details: { cached_tokens: number; cache_write_tokens: number; audio_tokens: number; video_tokens: number }
  /** `reasoning_tokens` of the completion; the simulator makes no images or audio (0). */
  completion_tokens_details: { reasoning_tokens: number; image_tokens: number; audio_tokens: number }
  cost_details: {
    /** Null: only a bring-your-own-key request reports the provider's own bill here, and the simulator bills none. */
    upstream_inference_cost: number | null
    /** The prompt's part of the cost at the endpoint's prices (cached tokens at their own price). */
    upstream_inference_prompt_cost: number
    /** The completion's part (reasoning tokens at their own price). */
    upstream_inference_completions_cost: number
  }
}

/** The finish reasons a reply may have. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error'

/** `POST /chat/completions` without `stream`: the SDK's ChatResult. */
export interface ChatCompletion {
  id: string
  provider: string
  model: string
  object: 'chat.completion'
  created: number
  choices: { index: number; logprobs: ChatLogprobs | null; finish_reason: FinishReason; native_finish_reason: FinishReason; message: ChatAssistantMessage }[]
  system_fingerprint: string | null
  usage: ChatUsage
}

/** A tool call as a stream delta carries it. */
export interface ChatStreamToolCall {
  index: number
  id?: string
  type?: 'function'
  function?: { name?: string; arguments?: string }
}

/** One `data:` event of a streamed completion: the SDK's ChatStreamChunk. */
export interface ChatChunk {
  id: string
  provider: string
  model: string
  object: 'chat.completion.chunk'
  created: number
  choices: {
    index: number
    delta: { role?: 'assistant'; content?: string | null; reasoning?: string | null; reasoning_details?: ChatReasoningDetail[]; tool_calls?: ChatStreamToolCall[] }
    finish_reason: FinishReason | null
    native_finish_reason: FinishReason | null
    logprobs: ChatLogprobs | null
  }[]
  system_fingerprint?: string
  usage?: ChatUsage
  /** Only on the chunk of a mid-stream error, whose finish reason is `error` (decisions/0026). */
  error?: ChatChunkError
}

/** The `error` of a mid-stream error chunk: the SDK's ChatStreamChunkError (`code` is an HTTP status). */
export interface ChatChunkError {
  code: number
  message: string
  /** `error_type` is the SDK's ApiErrorType (`provider_unavailable`, `server`, ...). */
  metadata: { error_type: string; [field: string]: unknown }
}

/** One attempt of a generation at a provider. */
export interface ProviderResponse {
  id: string
  endpoint_id: string
  model_permaslug: string
  provider_name: string
  status: number | null
  latency: number
  is_byok: boolean
}

/** The `data` of `GET /generation?id=`: the SDK's GenerationResponse fields. */
export interface Generation {
  id: string
  upstream_id: string | null
  total_cost: number
  cache_discount: number | null
  upstream_inference_cost: number | null
  created_at: string
  model: string
  app_id: number | null
  streamed: boolean | null
  cancelled: boolean | null
  provider_name: string | null
  latency: number | null
  moderation_latency: number | null
  generation_time: number | null
  finish_reason: string | null
  native_finish_reason: string | null
  tokens_prompt: number | null
  tokens_completion: number | null
  native_tokens_prompt: number | null
  native_tokens_completion: number | null
  native_tokens_completion_images: number | null
  native_tokens_reasoning: number | null
  native_tokens_cached: number | null
  num_media_prompt: number | null
  num_input_audio_prompt: number | null
  num_media_completion: number | null
  num_search_results: number | null
  num_fetches: number | null
  origin: string
  usage: number
  is_byok: boolean
  api_type: 'completions' | 'embeddings' | null
  data_region: 'global'
  external_user: string | null
  http_referer: string | null
  user_agent: string | null
  preset_id: string | null
  router: string | null
  service_tier: string | null
  web_search_engine: string | null
  workspace_id: string | null
  provider_responses: ProviderResponse[] | null
  request_id?: string | null
  session_id?: string | null
}
