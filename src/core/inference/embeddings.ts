// `POST /embeddings` on the money path (decisions/0030): the same steps as a chat completion
// (decisions/0024): validate, resolve the model, admit the caller, route with fallbacks, answer,
// count, price, charge, record. The reply is one deterministic unit vector per input (vectors.ts),
// and the cost is the prompt tokens at the routed endpoint's prompt price plus its request fee.
import { fieldError, type UnknownFields } from '../body.js'
import type { Principal } from '../auth.js'
import { ApiError } from '../errors.js'
import { atomically, type StoreContext } from '../store/context.js'
import type { KeyState } from '../store/state.js'
import type { Endpoint } from '../types.js'
import { attemptError, type InferenceRuntime } from './chat.js'
import { costToUnits, flatPricing } from './price.js'
import { type EmbeddingInput, type EmbeddingsInput, readEmbeddingsRequest } from './embeddings-request.js'
import type { InputMessage } from './request.js'
import { MEDIA_PART_TOKENS, textTokens } from './tokens.js'
import { type GenerationFacts, activityOf, recordGeneration } from '../store/generations.js'
import { canonicalSlugOf } from '../store/models.js'
import { refuseAtWorkspaceBudget } from './budgets.js'
import { type Governing, endpointRefusal, filterMessages, governing, modelRefusal, refuseAtGuardrailLimits } from './guardrails.js'
import { chargeKey, refuseAtKeyLimit, refuseEmbeddingsWithoutCredits } from './ledger.js'
import { type ResponderRule, type ResponderState, ResponderFailure } from './responders.js'
import { type ResolvedModel, pricingOf, resolveModels, routeEndpoints } from './route.js'
import type { JsonPayload } from '../json-text.js'
import type { GuardrailFlag } from '../protocol.js'
import { dataText } from './vectors.js'
import type { ProviderResponse } from './wire.js'
import { embeddingDimensions } from './dimensions.js'

/** One vector of an embeddings answer. */
export interface EmbeddingData {
  object: 'embedding'
  /** The float32 values as numbers, or (`encoding_format: "base64"`) their little-endian bytes in base64. */
  embedding: number[] | string
  index: number
}

/** The usage of an embeddings answer: prompt tokens only, and what they cost. */
export interface EmbeddingsUsage {
  prompt_tokens: number
  total_tokens: number
  /** The cost charged, in USD: the decimal of `estimateCost` as a number. */
  cost: number
  is_byok: boolean
  cost_details: { upstream_inference_cost: number | null; upstream_inference_prompt_cost: number; upstream_inference_completions_cost: number }
}

/** The body of a successful `POST /embeddings` (the SDK's CreateEmbeddingsResponse). */
export interface EmbeddingsResponse {
  /** The generation's id: `GET /generation?id=` reads what was charged. */
  id: string
  object: 'list'
  data: EmbeddingData[]
  model: string
  /** The provider that made the vectors, as the service names it (decisions/0039). */
  provider: string
  usage: EmbeddingsUsage
}

/**
 * Runs one embeddings request for an authenticated caller, answering its body as a payload (the
 * text made from each vector's cached JSON; see {@link embeddingsPayload}). Throws the ApiError to
 * answer with.
 */
export function createEmbeddings(ctx: StoreContext, runtime: InferenceRuntime, principal: Principal, body: Record<string, unknown>, path: string, unknownFields?: UnknownFields): { payload: JsonPayload; responder: ResponderState | null; flags: GuardrailFlag[] } {
  if (principal.management) {
    throw new ApiError(403, { message: 'Management keys cannot be used for inference requests; use a regular API key', metadata: { reason: 'management_key' } })
  }
  const input = readEmbeddingsRequest(body, unknownFields)
  const [model] = resolveModels(ctx, { models: [input.model], modelFields: ['model'] }) as [ResolvedModel]
  if (model.webSearch) {
    throw new ApiError(400, { message: `${input.model} is not a valid model ID for embeddings: :online searches the web for a chat reply`, metadata: { parameter: 'model', reason: 'the :online variant does not apply to embeddings', value: input.model } })
  }
  if (!model.model.architecture.output_modalities.includes('embeddings')) {
    throw new ApiError(400, { message: `${input.model} is not an embeddings model`, metadata: { parameter: 'model', reason: 'is not an embeddings model (its output modalities do not include embeddings)', value: input.model } })
  }
  const most = embeddingDimensions(model.model.id)
  if (input.dimensions !== null && input.dimensions > most) {
    throw fieldError('dimensions', `must be at most ${most}, the output size of ${model.model.id}`, String(input.dimensions))
  }
  const dimensions = input.dimensions ?? most
  const key = ctx.data.keys.get(principal.keyHash) as KeyState
  const now = ctx.clock.nowMs()
  // The governing guardrails (decisions/0055): the model first, then the limits, as for chat.
  const guards = governing(ctx, key)
  const refused = guards.length === 0 ? null : modelRefusal(guards, model.model, model.id)
  if (refused !== null) throw refused
  refuseAtKeyLimit(ctx, key, now)
  refuseAtWorkspaceBudget(ctx, key, now)
  refuseAtGuardrailLimits(ctx, key, guards, now)
  let flags = NO_FLAGS
  if (guards.length > 0) {
    const filtered = filteredInputs(guards, input.inputs)
    input.inputs = filtered.inputs
    flags = filtered.flags
  }
  const estimatedPrompt = input.inputs.reduce((sum, i) => sum + i.tokens, 0)
  const longest = input.inputs.reduce((most, i) => Math.max(most, i.tokens), 0)
  const texts = input.inputs.flatMap((i) => (i.text === null ? [] : [i.text]))
  // Routing as for chat: no completion (maxTokens 0), no sampling parameters to require.
  const routing = { provider: input.provider, maxTokens: 0, parameters: [] }
  return atomically(ctx, () => {
    const attempts: ProviderResponse[] = []
    const guard = guards.length === 0 ? undefined : (e: Endpoint) => endpointRefusal(guards, model.model, e)
    const route = routeEndpoints(model, routing, { promptTokens: estimatedPrompt, contextTokens: longest, at: now, random: ctx.random, sort: null, guard })
    if (route instanceof ApiError) throw route
    let failure: ApiError | undefined
    // The last failure a responder's error made, and its rule: the journal names the rule when that is the answer.
    let ruleFailure: { error: ApiError; by: ResponderState } | undefined
    for (const endpoint of route) {
      refuseEmbeddingsWithoutCredits(ctx, principal.userId, endpoint, estimatedPrompt, now)
      const latency = Math.round(endpoint.latency_last_30m?.p50 ?? 500)
      const attempt = (status: number): ProviderResponse => ({
        id: `${endpoint.tag}-${attempts.length + 1}`,
        endpoint_id: endpoint.tag,
        model_permaslug: canonicalSlugOf(model.model),
        provider_name: endpoint.provider_name,
        status,
        latency,
        is_byok: false,
      })
      const fault = runtime.providerFault({ provider: endpoint.provider_name, keyHash: principal.keyHash, path, operation: 'createEmbeddings' })
      if (fault !== null) {
        const respond = typeof fault.respond === 'string' ? { status: 502 } : fault.respond
        attempts.push(attempt(respond.status))
        failure = attemptError(respond.status, respond.message, respond.metadata, endpoint.provider_name)
        continue
      }
      const picked = runtime.responders.pick({ operation: 'createEmbeddings', model: model.model.id, provider: endpoint.provider_name, keyHash: principal.keyHash, lastUserMessage: null, hasTools: false, inputs: texts })
      const rule = picked?.rule
      if (picked !== undefined && rule?.error !== undefined) {
        attempts.push(attempt(rule.error.status))
        failure = attemptError(rule.error.status, rule.error.message, rule.error.metadata, endpoint.provider_name)
        ruleFailure = { error: failure, by: picked }
        continue
      }
      attempts.push(attempt(200))
      const answer = complete(ctx, runtime, { key, model, endpoint, input, rule, estimatedPrompt, dimensions, now, attempts, latency })
      // For the journal: the rule that answered (null: the default vectors did).
      return { payload: answer, responder: picked ?? null, flags }
    }
    if (failure !== undefined && failure === ruleFailure?.error) throw new ResponderFailure(failure, ruleFailure.by)
    throw failure ?? new ApiError(502)
  })
}

/**
 * The inputs after the governing guardrails' content filters, each input read as a user's
 * message: a block is a 403, a redaction changes the text the vector is made from and its tokens.
 */
function filteredInputs(guards: readonly Governing[], inputs: EmbeddingInput[]): { inputs: EmbeddingInput[]; flags: GuardrailFlag[] } {
  const messages = inputs.map((i): InputMessage => ({ role: 'user', text: i.text ?? '', mediaParts: 0, toolCallChars: 0 }))
  const { messages: filtered, flags } = filterMessages(guards, messages)
  if (filtered === messages) return { inputs, flags }
  const changed = inputs.map((i, n) => {
    const text = (filtered[n] as InputMessage).text
    if (i.text === null || text === i.text) return i
    return { ...i, key: i.key === i.text ? text : `${text}\u0000${i.key}`, text, tokens: textTokens(text) + i.mediaParts * MEDIA_PART_TOKENS }
  })
  return { inputs: changed, flags }
}

/** No flags: shared, never written to. */
const NO_FLAGS: GuardrailFlag[] = Object.freeze([]) as unknown as GuardrailFlag[]

interface Answer {
  key: KeyState
  model: ResolvedModel
  endpoint: Endpoint
  input: EmbeddingsInput
  rule: ResponderRule | undefined
  estimatedPrompt: number
  dimensions: number
  now: number
  attempts: ProviderResponse[]
  latency: number
}

/** The answer on the endpoint that served it: vectors, count, price, charge, record. */
function complete(ctx: StoreContext, runtime: InferenceRuntime, a: Answer): JsonPayload {
  const { key, model, endpoint, input, now } = a
  const suffix = ctx.random.alphanumeric(20)
  const id = `gen-${Math.floor(now / 1000)}-${suffix}`
  const promptTokens = a.rule?.reply?.usage?.promptTokens ?? a.estimatedPrompt

  const pricing = pricingOf(endpoint)
  const cost = pricing.cost({ promptTokens, completionTokens: 0 }, { at: now })
  const promptCost = flatPricing(pricing.resolve({ promptTokens, at: now })).cost({ promptTokens, requests: 0 }, { at: now })
  const units = costToUnits(cost)

  chargeKey(ctx, key, units, now)

  const facts: GenerationFacts = {
    id,
    upstreamId: `embd-${suffix}`,
    cost: Number(cost),
    createdMs: now,
    model: model.reported,
    streamed: false,
    provider: endpoint.provider_name,
    latency: a.latency,
    generationTime: 0,
    finishReason: null,
    promptTokens,
    completionTokens: 0,
    reasoningTokens: 0,
    cachedTokens: 0,
    mediaParts: input.inputs.reduce((sum, i) => sum + i.mediaParts, 0),
    apiType: 'embeddings',
    externalUser: input.user,
    workspaceId: key.workspaceId,
    attempts: a.attempts,
    sessionId: input.sessionId,
  }
  recordGeneration(ctx, { userId: key.userId, keyHash: key.hash, cost, units, facts, activity: activityOf(model.model, endpoint, key.creatorUserId) })

  const usage: EmbeddingsUsage = {
    prompt_tokens: promptTokens,
    total_tokens: promptTokens,
    cost: Number(cost),
    is_byok: false,
    cost_details: { upstream_inference_cost: null, upstream_inference_prompt_cost: Number(promptCost), upstream_inference_completions_cost: 0 },
  }
  return embeddingsPayload(runtime, { id, model: model.reported, provider: endpoint.provider_name, usage }, input.inputs.map((i) => i.key), a.dimensions, input.encodingFormat === 'base64')
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/**
 * The body of an embeddings answer as a payload: the answer's fields around its `data`, byte for
 * byte what `JSON.stringify` of the value writes. It keeps the inputs' keys, not the text (the
 * journal keeps payloads: a 100-vector answer is 3 MB of text): the adapters take its bytes, made
 * from the kept bytes of the list's data; `text()` joins the vectors' JSON again; `value()` parses it.
 */
function embeddingsPayload(runtime: InferenceRuntime, head: { id: string; model: string; provider: string; usage: EmbeddingsUsage }, keys: readonly string[], dimensions: number, base64: boolean): JsonPayload {
  const { texts, data } = runtime.embeddings
  const open = encoder.encode(`{"id":${JSON.stringify(head.id)},"object":"list","data":`)
  const close = encoder.encode(`,"model":${JSON.stringify(head.model)},"provider":${JSON.stringify(head.provider)},"usage":${JSON.stringify(head.usage)}}`)
  // Looked up now for the length, and held until the adapter asks for the bytes (then let go: the
  // journal keeps this payload, and the cache, not every answer, holds the data).
  let pending: Uint8Array | undefined = data.data(runtime.seed, head.model, keys, dimensions, base64)
  const byteLength = open.byteLength + pending.byteLength + close.byteLength
  return {
    byteLength,
    bytes() {
      const middle = pending ?? data.data(runtime.seed, head.model, keys, dimensions, base64)
      pending = undefined
      const out = new Uint8Array(open.byteLength + middle.byteLength + close.byteLength)
      out.set(open, 0)
      out.set(middle, open.byteLength)
      out.set(close, open.byteLength + middle.byteLength)
      return out
    },
    text() {
      return decoder.decode(open) + dataText(texts, runtime.seed, head.model, keys, dimensions, base64) + decoder.decode(close)
    },
    value() {
      return JSON.parse(this.text()) as EmbeddingsResponse
    },
  }
}
