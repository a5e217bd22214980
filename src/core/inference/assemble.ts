// The wire records of one completion (its JSON answer, its stream's chunks, its generation) made
// from drawn parts, for the fixtures (faker) and the arbitraries (fast-check): the same shapes and
// the same arithmetic as the money path (chat.ts), so that a record's `usage.cost` is the exact
// cost of its tokens at its pricing and instant, and its parts agree with each other.
import { compilePricing } from '../pricing/compile.js'
import { generationWire } from '../store/generations.js'
import { priceCounts } from './price.js'
import type { Pricing } from '../types.js'
import { assistantMessage } from './message.js'
import { streamFrames } from './stream.js'
import type { ChatAssistantMessage, ChatChunk, ChatCompletion, ChatToolCall, ChatUsage, FinishReason, Generation } from './wire.js'

/** What one completion is made of. Token counts must agree: reasoning within completion, cached within prompt. */
export interface CompletionParts {
  /** The 20 alphanumerics of `gen-<seconds>-<suffix>`. */
  suffix: string
  provider: string
  model: string
  /** When it was made, epoch milliseconds: `created`, and the instant it is priced at. */
  createdMs: number
  content: string | null
  reasoning: string | null
  toolCalls: ChatToolCall[]
  finishReason: FinishReason
  promptTokens: number
  completionTokens: number
  reasoningTokens: number
  cachedTokens: number
  pricing: Pricing
  streamed: boolean
  workspaceId: string | null
  user: string | null
  /** Time to first token and generation time, milliseconds. */
  latencyMs: number
  generationMs: number
}

export const generationIdOf = (parts: CompletionParts): string => `gen-${Math.floor(parts.createdMs / 1000)}-${parts.suffix}`

/** `usage` with the exact cost of the tokens at the pricing and instant, split as the money path splits it. */
export function usageOf(parts: CompletionParts): ChatUsage {
  const { promptTokens, completionTokens, reasoningTokens, cachedTokens } = parts
  return priceCounts(compilePricing(parts.pricing), { promptTokens, completionTokens, reasoningTokens, cachedTokens }, parts.createdMs).usage
}

const messageOf = (parts: CompletionParts): ChatAssistantMessage => assistantMessage(parts.content, parts.reasoning, parts.toolCalls)

/** The JSON answer of `POST /chat/completions`. */
export function completionOf(parts: CompletionParts): ChatCompletion {
  return {
    id: generationIdOf(parts),
    provider: parts.provider,
    model: parts.model,
    object: 'chat.completion',
    created: Math.floor(parts.createdMs / 1000),
    choices: [{ index: 0, logprobs: null, finish_reason: parts.finishReason, native_finish_reason: parts.finishReason, message: messageOf(parts) }],
    system_fingerprint: null,
    usage: usageOf(parts),
  }
}

/** The `data:` chunks of the same completion streamed, in order: deltas, the finish reason, then the usage. */
export function chunksOf(parts: CompletionParts): ChatChunk[] {
  const frames = streamFrames({
    id: generationIdOf(parts),
    provider: parts.provider,
    model: parts.model,
    created: Math.floor(parts.createdMs / 1000),
    message: messageOf(parts),
    finishReason: parts.finishReason,
    usage: usageOf(parts),
    latency: parts.latencyMs,
    throughput: 50,
  })
  return frames.filter((frame) => frame.data.startsWith('data: {')).map((frame) => JSON.parse(frame.data.slice(6)) as ChatChunk)
}

/** The `data` of `GET /generation?id=` for the completion. */
export function generationRecordOf(parts: CompletionParts): Generation {
  return generationWire({
    id: generationIdOf(parts),
    upstreamId: `chatcmpl-${parts.suffix}`,
    cost: usageOf(parts).cost,
    createdMs: parts.createdMs,
    model: parts.model,
    streamed: parts.streamed,
    provider: parts.provider,
    latency: parts.latencyMs,
    generationTime: parts.generationMs,
    finishReason: parts.finishReason,
    promptTokens: parts.promptTokens,
    completionTokens: parts.completionTokens,
    reasoningTokens: parts.reasoningTokens,
    cachedTokens: parts.cachedTokens,
    mediaParts: 0,
    apiType: 'completions',
    externalUser: parts.user,
    workspaceId: parts.workspaceId,
    attempts: [{ id: `${parts.suffix}-1`, endpoint_id: `${parts.provider.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`, model_permaslug: parts.model, provider_name: parts.provider, status: 200, latency: parts.latencyMs, is_byok: false }],
    sessionId: null,
  })
}
