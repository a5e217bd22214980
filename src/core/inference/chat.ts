// `POST /chat/completions`, the money path, step by step (DESIGN steps 1-9, decisions/0024):
// validate, resolve the model, admit the caller, route, reply, count tokens, price, charge, record.
// Each step is deterministic for a given seed, world, clock and request sequence.
import type { UnknownFields } from '../body.js'
import type { Principal } from '../auth.js'
import { ApiError, ERROR_MESSAGES, type ErrorStatus } from '../errors.js'
import type { FaultResponse, InferenceFacts, StreamFault } from '../faults.js'
import { atomically, type StoreContext } from '../store/context.js'
import { type JsonPayload, utf8Length } from '../json-text.js'
import type { KeyState } from '../store/state.js'
import type { Endpoint } from '../types.js'
import type { CompiledPricing } from '../pricing/compile.js'
import { countFreeRequest, freeQuotaRefusal } from './free-quota.js'
import { canonicalSlugOf } from '../store/models.js'
import { type GenerationFacts, activityOf, recordGeneration } from '../store/generations.js'
import { refuseAtWorkspaceBudget } from './budgets.js'
import { endpointRefusal, filterMessages, governing, modelRefusal, refuseAtGuardrailLimits } from './guardrails.js'
import { chargeKey, recordByokUsage, refuseAtKeyLimit, refuseWithoutCredits } from './ledger.js'
import { byokOnlyWithout, byokTries, credentialFor } from './byok.js'
import { byokFee } from './byok-fee.js'
import type { ByokState } from '../store/state.js'
import { costToUnits, priceCounts, usageText } from './price.js'
import { defaultReply, replyHash } from './reply.js'
import { type ReasoningStyle, type ReplyOptions, composeReply, cutAtStop, formatted, requestSeed, toolArguments } from './compose.js'
import { chatLogprobs, tokenLogprobs } from './logprobs.js'
import { type ResponderReply, type ResponderRule, type ResponderState, type Responders, ResponderFailure } from './responders.js'
import { type StatisticsViews, hadOutage, recordAttempt } from './statistics.js'
import type { EmbeddingsCache } from './vectors.js'
import { type ChatInput, readChatRequest } from './request.js'
import { withPreset } from './presets.js'
import { DEFAULT_WEB_SEARCH, type ResolvedModel, type WebSearch, pricingOf, resolveModels, routeEndpoints, searchBilling, webPluginOf } from './route.js'
import { type StreamCut, type StreamPlan, type StreamSource, endStream, streamPlan } from './stream.js'
import type { GuardrailFlag, StreamFrame } from '../protocol.js'
import { type StreamCounts, type StreamSettle, sentCounts, streamCanceller } from './settle.js'
import { streamCut } from './stream-errors.js'
import { promptTokensOf, textTokens, CHARS_PER_TOKEN } from './tokens.js'
import { assistantMessage } from './message.js'
import type { ChatCompletion, ChatToolCall, FinishReason, ProviderResponse } from './wire.js'

/** What the money path needs of its simulator besides the store. */
export interface InferenceRuntime {
  /** The simulator's seed: default replies are derived from it. */
  readonly seed: number
  /** How default replies behave (`createSimulator({ replies })`, decisions/0048). */
  readonly replies: ReplyOptions
  readonly responders: Responders
  /** The simulator's caches of embeddings' JSON (inference/vectors.ts). */
  readonly embeddings: EmbeddingsCache
  /** The simulator's last view of each model's endpoint statistics (inference/statistics.ts). */
  readonly statisticsViews: StatisticsViews
  /** The fault rule that makes this provider fail for this request, if any (rules with a `provider`). */
  providerFault(facts: InferenceFacts): { name: string; respond: FaultResponse } | null
  /** The mid-stream fault (a rule with `afterChunks`) that cuts this streamed reply, if any (decisions/0026). */
  streamFault(facts: InferenceFacts): StreamFault | null
}

/** What a successful request produced: its JSON answer, or the frames of its stream. */
export type InferenceOutcome<T> =
  | { type: 'json'; answer: AnswerPayload<T>; responder: ResponderState | null; warnings: string[]; flags?: GuardrailFlag[] }
  /**
   * `settle(framesSent)`: the client went away after that many frames (decisions/0026); the
   * router makes it the response's `cancel`, and journals it (decisions/0044).
   * `rebuild()`: the same frames made again, for a journal that keeps the means to make them
   * rather than the frames themselves.
   */
  | { type: 'stream'; frames: StreamFrame[]; settle: StreamSettle; rebuild: () => StreamFrame[]; responder: ResponderState | null; warnings: string[]; flags?: GuardrailFlag[] }

/** What a successful completion produced: the JSON answer, or the frames of a stream. */
export type ChatOutcome = InferenceOutcome<ChatCompletion>

/**
 * A completion that has been priced, charged and recorded: what an operation's answer is made of.
 * `POST /chat/completions` makes a ChatCompletion or chunks of it; `POST /responses` a Responses
 * result or its events.
 */
export interface Completed extends StreamSource {
  /** The 20 random characters of the generation's id (`gen-...`), for ids derived from it. */
  suffix: string
  stream: boolean
  /** JSON.stringify(usage), when the pricing kept it for these counts. */
  usageJson?: string
}

/**
 * How an operation shapes its answer (chat completions, Responses): the JSON of a completed
 * request, or its stream. A stream is planned before the price is known, frame by frame with the
 * completion tokens each frame carries, so that a mid-stream error or a disconnect charges what
 * was sent (decisions/0026); `end` then adds what follows a reply that finished (its usage).
 */
export interface AnswerShape<T> {
  /** The operation, as responder rules name it in `match.operation`. */
  readonly operation: 'createChatCompletion' | 'createResponses' | 'createCompletion'
  json(done: Completed): T
  /** The JSON text of `json(done)`, byte for byte, written without building the object (optional: else it is stringified). */
  text?(done: Completed): string
  /** The frames up to the one that ends the reply; with a cut, the error after `cut.afterChunks` content frames instead. */
  plan(done: Omit<Completed, 'usage'>, cut: StreamCut | undefined): StreamPlan
  end(plan: StreamPlan, done: Completed): void
}


/** The reply of one attempt, before truncation and counting. */
interface Reply {
  content: string | null
  /** The reasoning text the caller sees; null when none, or when it is excluded. */
  reasoning: string | null
  /** Reasoning tokens billed, shown or not; null: those of `reasoning`. */
  reasoningTokens: number | null
  /** How the model's provider shows reasoning; null: a plain `reasoning.text` (a responder's reasoning). */
  style: ReasoningStyle | null
  toolCalls: ChatToolCall[]
  finishReason: FinishReason
  stated: ResponderReply['usage']
  /** What the request's schemas asked that the reply could not give (decisions/0048). */
  warnings: string[]
}

/** Token counts of a reply: the estimator's, or the responder's where it states them. */
interface Counts {
  promptTokens: number
  completionTokens: number
  reasoningTokens: number
  cachedTokens: number
}

const lastUserText = (input: ChatInput): string | null => {
  for (let i = input.messages.length - 1; i >= 0; i--) {
    const message = input.messages[i]
    if (message?.role === 'user') return message.text
  }
  return null
}

/** No tool calls: shared, never written to (a cut assigns a new list). */
const NO_TOOL_CALLS: ChatToolCall[] = []
/** No warnings: shared, never written to. */
const NO_WARNINGS: string[] = []

const callsOf = (calls: readonly { name: string; arguments: string; id?: string | undefined }[], idBase: string): ChatToolCall[] =>
  calls.length === 0 ? NO_TOOL_CALLS : calls.map((call, i) => ({ type: 'function', index: i, id: call.id ?? `call_${idBase}_${i}`, function: { name: call.name, arguments: call.arguments } }))

/**
 * The reply of the endpoint that answers: a responder rule's, or the default reply (compose.ts).
 * A rule's call without `arguments` gets arguments valid for the tool the request declares, and
 * `structured: true` content valid for the request's format (decisions/0048).
 */
function replyOf(rule: ResponderRule | undefined, runtime: InferenceRuntime, model: string, endpoint: Endpoint, input: ChatInput, idBase: string): Reply {
  const given = rule?.reply
  if (given === undefined) {
    const composed = composeReply(runtime.seed, model, input, { reasoning: endpoint.supported_parameters.includes('reasoning') }, runtime.replies)
    const toolCalls = callsOf(composed.toolCalls, idBase)
    return {
      content: composed.content,
      reasoning: composed.reasoning?.text ?? null,
      reasoningTokens: composed.reasoning?.tokens ?? null,
      style: composed.reasoning?.style ?? null,
      toolCalls,
      finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      stated: undefined,
      warnings: composed.warnings.length === 0 ? NO_WARNINGS : composed.warnings,
    }
  }
  const warnings: string[] = []
  // What the rule leaves to the default reply is made as the default reply makes it, the request's seed included.
  const seed = requestSeed(runtime.seed, input.demands)
  let h: number | undefined
  const hash = (): number => (h ??= replyHash(seed, model, input.messages))
  const calls = (given.toolCalls ?? []).map((call): { name: string; arguments: string; id?: string | undefined } => {
    if (call.arguments !== undefined) return call as { name: string; arguments: string; id?: string | undefined }
    const tool = input.demands.tools.find((declared) => declared.name === call.name)
    if (tool === undefined) {
      warnings.push(`the responder calls ${call.name}, which the request does not declare: its arguments are {}`)
      return { ...call, arguments: '{}' }
    }
    return { ...call, arguments: toolArguments(tool, hash(), warnings) }
  })
  const toolCalls = callsOf(calls, idBase)
  const text = (): string => defaultReply(seed, model, input)
  const content = given.structured === true ? formatted(input.demands, hash(), text, warnings) : given.content === undefined ? (toolCalls.length > 0 ? '' : text()) : given.content
  return {
    content,
    reasoning: given.reasoning ?? null,
    reasoningTokens: null,
    style: null,
    toolCalls,
    finishReason: given.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    stated: given.usage,
    warnings: warnings.length === 0 ? NO_WARNINGS : warnings,
  }
}

const toolCallTokens = (calls: readonly ChatToolCall[]): number => calls.reduce((sum, c) => sum + Math.ceil((c.function.name.length + c.function.arguments.length) / CHARS_PER_TOKEN), 0)

/**
 * Cuts a reply to `cap` completion tokens: reasoning first, then the text, each to whole tokens of
 * 4 characters; tool calls do not survive a cut. Returns the counts as they stand after it.
 */
function truncate(reply: Reply, counts: Counts, cap: number | null): void {
  if (cap === null || counts.completionTokens <= cap) return
  reply.finishReason = 'length'
  counts.completionTokens = cap
  counts.reasoningTokens = Math.min(counts.reasoningTokens, cap)
  if (reply.reasoning !== null) reply.reasoning = reply.reasoning.slice(0, counts.reasoningTokens * CHARS_PER_TOKEN)
  if (reply.content !== null) reply.content = reply.content.slice(0, (cap - counts.reasoningTokens) * CHARS_PER_TOKEN)
  reply.toolCalls = []
}

/** An attempt's failure as the caller sees it when no attempt succeeds. */
export function attemptError(status: number, message: string | undefined, metadata: Record<string, unknown> | undefined, provider: string): ApiError {
  return new ApiError(status as ErrorStatus, {
    message: message ?? (ERROR_MESSAGES as Record<number, string>)[status] ?? ERROR_MESSAGES[502],
    metadata: metadata ?? { provider_name: provider },
  })
}

/** A management key administers; it does not spend (decisions/0024): 403 before its body is read. */
export function refuseManagementKey(principal: Principal): void {
  if (principal.management) {
    throw new ApiError(403, { message: 'Management keys cannot be used for inference requests; use a regular API key', metadata: { reason: 'management_key' } })
  }
}

/** Runs one chat completion for an authenticated caller. Throws the ApiError to answer with. */
export function chatCompletion(ctx: StoreContext, runtime: InferenceRuntime, principal: Principal, body: Record<string, unknown>, path: string, unknownFields?: UnknownFields): ChatOutcome {
  refuseManagementKey(principal)
  // A request naming a preset is the request the preset makes of it (decisions/0050).
  const use = withPreset(ctx, principal.userId, body, 'chat')
  const read = readChatRequest(use.body, unknownFields)
  // The input read is shared by the requests that sent the same body (decisions/0063): copied to change.
  const input = use.presetId === null ? read : { ...read, presetId: use.presetId }
  return runInference(ctx, runtime, principal, input, path, CHAT_SHAPE, webPluginOf(use.body))
}

/**
 * Steps 2 to 9 of the money path for a request already read into a ChatInput (by the chat or the
 * Responses reader): resolve, admit, route, reply, count, price, charge, record; `shape` makes
 * the answer; `plugin`: the body's web plugin, whose search is billed (decisions/0038). Throws the
 * ApiError to answer with.
 */
export function runInference<T>(ctx: StoreContext, runtime: InferenceRuntime, principal: Principal, input: ChatInput, path: string, shape: AnswerShape<T>, plugin: WebSearch | null = null): InferenceOutcome<T> {
  const key = ctx.data.keys.get(principal.keyHash) as KeyState
  // The guardrails that govern the key (decisions/0055); their content filters change what the model sees.
  const guards = governing(ctx, key)
  const filtered = filterMessages(guards, input.messages)
  if (filtered.messages !== input.messages) input = { ...input, messages: filtered.messages }
  const estimatedPrompt = promptTokensOf(input)
  const models = resolveModels(ctx, input, { promptTokens: estimatedPrompt, maxTokens: input.maxTokens, parameters: input.parameters })
  const now = ctx.clock.nowMs()
  refuseAtKeyLimit(ctx, key, now)
  refuseAtWorkspaceBudget(ctx, key, now)
  refuseAtGuardrailLimits(ctx, key, guards, now)
  const lastUser = lastUserText(input)
  // Routing draws from the seeded stream; a request that fails leaves it as it was.
  return atomically(ctx, () => {
    const attempts: ProviderResponse[] = []
    let failure: ApiError | undefined
    // The last failure a responder's error made, and its rule: the journal names the rule when that is the answer.
    let ruleFailure: { error: ApiError; by: ResponderState } | undefined
    for (const model of models) {
      // The plugin's own settings win over `:online`'s, which are the plugin's defaults.
      const search = plugin ?? (model.webSearch ? DEFAULT_WEB_SEARCH : null)
      const refused = guards.length === 0 ? null : modelRefusal(guards, model.model, model.id)
      if (refused !== null) {
        failure = refused
        continue
      }
      const guard = guards.length === 0 ? undefined : (e: Endpoint) => endpointRefusal(guards, model.model, e)
      const route = routeEndpoints(model, input, { promptTokens: estimatedPrompt, at: now, random: ctx.random, sort: null, outage: (e) => hadOutage(ctx, model.model, e), guard })
      if (route instanceof ApiError) {
        failure = route
        continue
      }
      for (const endpoint of route) {
        // A free endpoint past the organisation's daily quota is passed over: 429 if nothing else answers.
        const overQuota = freeQuotaRefusal(ctx, principal.userId, endpoint, now)
        if (overQuota !== null) {
          failure = overQuota
          continue
        }
        // The organisation's BYOK credential for the endpoint's provider, if one applies (decisions/0054);
        // an `is_byok_only` provider without one is passed over as the preferences pass one over.
        const credential = credentialFor(ctx, key, model.model.id, endpoint)
        if (byokOnlyWithout(ctx, key, endpoint, credential)) {
          failure ??= new ApiError(404, { message: 'No endpoints found matching your provider preferences', metadata: { reason: 'no_endpoint_provider', model: model.id } })
          continue
        }
        const billing = search === null ? undefined : searchBilling(endpoint, search)
        const latency = Math.round(endpoint.latency_last_30m?.p50 ?? 500)
        // Through the credential, or the organisation's credits, or one and then the other when the
        // first fails (`is_fallback` says which goes first, decisions/0054).
        const tries = byokTries(ctx, key, endpoint, credential)
        // The first way's 402, when no way can pay: it says what the preferred way could afford.
        let unpaid: ApiError | undefined
        let paid = 0
        for (const via of tries) {
          try {
            refuseWithoutCredits(ctx, principal.userId, endpoint, input.maxTokens, estimatedPrompt, now, billing, via !== undefined)
          } catch (error) {
            // The credits cannot pay: with another way to try, that way is tried (a fallback credential serves once the credits run out).
            if (tries.length === 1 || !(error instanceof ApiError)) throw error
            failure = unpaid ??= error
            // No way can pay: the 402 ends the request, as it does with one way.
            if (via === tries[tries.length - 1] && paid === 0) throw unpaid
            continue
          }
          paid++
          const attemptId = `${endpoint.tag}-${attempts.length + 1}`
          const attempt = (status: number, ms = latency): ProviderResponse => ({
            id: attemptId,
            endpoint_id: endpoint.tag,
            model_permaslug: canonicalSlugOf(model.model),
            provider_name: endpoint.provider_name,
            status,
            latency: ms,
            is_byok: via !== undefined,
          })
          const fault = runtime.providerFault({ provider: endpoint.provider_name, keyHash: principal.keyHash, path, operation: shape.operation })
          if (fault !== null) {
            const respond = typeof fault.respond === 'string' ? { status: 502 } : fault.respond
            attempts.push(attempt(respond.status))
            recordAttempt(ctx, model.model, endpoint, respond.status)
            failure = attemptError(respond.status, respond.message, respond.metadata, endpoint.provider_name)
            continue
          }
          // Rules name the stored model that serves the request, a variant's base included (decisions/0042).
          const picked = runtime.responders.pick({ operation: shape.operation, model: model.model.id, provider: endpoint.provider_name, keyHash: principal.keyHash, lastUserMessage: lastUser, hasTools: input.hasTools })
          const rule = picked?.rule
          if (picked !== undefined && rule?.error !== undefined) {
            attempts.push(attempt(rule.error.status))
            recordAttempt(ctx, model.model, endpoint, rule.error.status)
            failure = attemptError(rule.error.status, rule.error.message, rule.error.metadata, endpoint.provider_name)
            ruleFailure = { error: failure, by: picked }
            continue
          }
          const ttft = rule?.reply?.latencyMs ?? latency
          // A mid-stream error: the attempt started answering, then failed (decisions/0026).
          const streamFault = input.stream ? runtime.streamFault({ provider: endpoint.provider_name, keyHash: principal.keyHash, path, operation: shape.operation }) : null
          attempts.push(attempt(streamFault === null ? 200 : streamFault.respond.status, ttft))
          countFreeRequest(ctx, key.userId, endpoint, now)
          const outcome = complete(ctx, runtime, { key, model, endpoint, input, rule, estimatedPrompt, now, attempts, latency: ttft, streamFault, billing, byok: via }, shape)
          // For the journal: the rule that answered (null: the default reply did), and what guardrails flagged.
          if (picked !== undefined) outcome.responder = picked
          if (filtered.flags.length > 0) outcome.flags = filtered.flags
          return outcome
        }
      }
    }
    if (failure !== undefined && failure === ruleFailure?.error) throw new ResponderFailure(failure, ruleFailure.by)
    throw failure ?? new ApiError(502)
  })
}

interface Completion {
  key: KeyState
  model: ResolvedModel
  endpoint: Endpoint
  input: ChatInput
  rule: ResponderRule | undefined
  estimatedPrompt: number
  now: number
  attempts: ProviderResponse[]
  latency: number
  streamFault: StreamFault | null
  /** A web search's pricing and count, when the request searches (decisions/0038). */
  billing: { pricing: CompiledPricing; webSearches: number } | undefined
  /** The BYOK credential that serves the request (decisions/0054); undefined: the service's own account. */
  byok: ByokState | undefined
}

/** A message as GET /generation/content shows it: its role and text. */
const contentMessage = (message: ChatInput['messages'][number]): { role: string; content: string } => ({ role: message.role, content: message.text })

const mediaPartsOf = (input: ChatInput): number => {
  let parts = 0
  for (const message of input.messages) parts += message.mediaParts
  return parts
}

/** Steps 5 to 9 on the endpoint that answered: reply, count, price, charge, record. */
function complete<T>(ctx: StoreContext, runtime: InferenceRuntime, c: Completion, shape: AnswerShape<T>): InferenceOutcome<T> {
  const { key, model, endpoint, input, now } = c
  const suffix = ctx.random.alphanumeric(20)
  const id = `gen-${Math.floor(now / 1000)}-${suffix}`
  const reply = replyOf(c.rule, runtime, model.id, endpoint, input, suffix)
  // A text completion is text alone (decisions/0039): a rule's tool calls are not part of it.
  if (shape.operation === 'createCompletion' && reply.toolCalls.length > 0) {
    reply.toolCalls = NO_TOOL_CALLS
    if (reply.finishReason === 'tool_calls') reply.finishReason = 'stop'
  }
  // A stop sequence cuts the text before it, and the reply stops there (decisions/0048).
  if (reply.content !== null && input.demands.stop.length > 0) {
    const cut = cutAtStop(reply.content, input.demands.stop)
    if (cut !== null) {
      reply.content = cut
      if (reply.toolCalls.length === 0) reply.finishReason = 'stop'
    }
  }
  const reasoningTokens = c.rule?.reply?.usage?.reasoningTokens ?? reply.reasoningTokens ?? (reply.reasoning === null ? 0 : textTokens(reply.reasoning))
  const counts: Counts = {
    promptTokens: reply.stated?.promptTokens ?? c.estimatedPrompt,
    completionTokens: reply.stated?.completionTokens ?? reasoningTokens + textTokens(reply.content ?? '') + toolCallTokens(reply.toolCalls),
    reasoningTokens,
    cachedTokens: reply.stated?.cachedTokens ?? 0,
  }
  if (counts.reasoningTokens > counts.completionTokens) counts.completionTokens = counts.reasoningTokens
  const endpointCap = endpoint.max_completion_tokens
  const cap = input.maxTokens === null ? endpointCap : endpointCap === null ? input.maxTokens : Math.min(input.maxTokens, endpointCap)
  truncate(reply, counts, cap)
  counts.cachedTokens = Math.min(counts.cachedTokens, counts.promptTokens)
  const message = assistantMessage(reply.content, reply.reasoning, reply.toolCalls, reply.style)
  // Log probabilities of the text as sent, where the request asks and the endpoint gives them.
  const logprobs = input.demands.logprobs !== null && endpoint.supported_parameters.includes('logprobs') ? tokenLogprobs(reply.content ?? '', input.demands.logprobs, replyHash(requestSeed(runtime.seed, input.demands), model.id, input.messages)) : null
  const created = Math.floor(now / 1000)
  const throughput = c.rule?.reply?.tokensPerSecond ?? endpoint.throughput_last_30m?.p50 ?? 50

  // A stream's frames up to its end; a mid-stream error charges only the chunks before it (decisions/0026).
  const cut = c.streamFault === null ? undefined : streamCut(c.streamFault)
  const source = input.stream
    ? { id, suffix, provider: endpoint.provider_name, model: model.reported, created, message, finishReason: reply.finishReason, latency: c.latency, throughput, stream: input.stream, logprobs }
    : undefined
  const plan = source === undefined ? undefined : shape.plan(source, cut)
  if (plan !== undefined && cut !== undefined) {
    Object.assign(counts, sentCounts(counts, plan.shares, plan.terminal, plan.estimate))
    reply.finishReason = 'error'
  }

  // Step 7: the endpoint's pricing at this instant and prompt size, exact.
  // A web search is billed with the request, at the pricing that prices it (decisions/0038).
  const pricing = c.billing?.pricing ?? pricingOf(endpoint)
  const webSearches = c.billing?.webSearches ?? 0
  const priced = priceCounts(pricing, counts, now, webSearches)
  // Through a BYOK credential (decisions/0054) the provider bills the customer the cost (the
  // upstream cost), and the service charges its fee: 5% of it, exact, rounded half up to 10^-10 USD.
  let { cost, usage: chatUsage, usageJson } = priced
  if (c.byok !== undefined) {
    cost = byokFee(priced.cost)
    chatUsage = { ...chatUsage, cost: Number(cost), is_byok: true, cost_details: { ...chatUsage.cost_details, upstream_inference_cost: Number(priced.cost) } }
    usageJson = usageText(chatUsage)
  }
  const units = costToUnits(cost)

  // Step 8: the key's usage record at this instant, and the organisation's credits, in one write.
  const record = chargeKey(ctx, key, units, now)
  // What the provider billed is the key's BYOK usage, which the credits never pay.
  const byokRecord = c.byok === undefined ? undefined : { index: key.usageCount + 1, record: recordByokUsage(ctx, ctx.data.keys.get(key.hash) as KeyState, costToUnits(priced.cost), now) }

  recordAttempt(ctx, model.model, endpoint, c.streamFault === null ? 200 : c.streamFault.respond.status, c.latency, throughput)
  const generationTime = Math.round((counts.completionTokens / Math.max(throughput, 1)) * 1000)
  const facts: GenerationFacts = {
    id,
    upstreamId: `chatcmpl-${suffix}`,
    cost: Number(cost),
    createdMs: now,
    model: model.reported,
    streamed: input.stream,
    provider: endpoint.provider_name,
    latency: c.latency,
    generationTime,
    finishReason: reply.finishReason,
    promptTokens: counts.promptTokens,
    completionTokens: counts.completionTokens,
    reasoningTokens: counts.reasoningTokens,
    cachedTokens: counts.cachedTokens,
    mediaParts: mediaPartsOf(input),
    apiType: 'completions',
    externalUser: input.user,
    workspaceId: key.workspaceId,
    attempts: c.attempts,
    sessionId: input.sessionId,
    presetId: input.presetId ?? null,
    // What GET /generation/content shows: references to values made anyway, no copy (decisions/0053).
    content: {
      input: shape.operation === 'createCompletion' ? { prompt: input.messages[0]?.text ?? '' } : { messages: input.messages.map(contentMessage) },
      completion: reply.content,
      reasoning: reply.reasoning,
    },
  }
  if (c.byok !== undefined) facts.byokUpstreamCost = Number(priced.cost)
  const row = recordGeneration(ctx, { userId: key.userId, keyHash: key.hash, cost, units, facts, activity: activityOf(model.model, endpoint, key.creatorUserId) })

  // Written out, not spread from `base`: a spread of it was the costliest line of a completion.
  const done: Completed = { id, suffix, provider: endpoint.provider_name, model: model.reported, created, message, finishReason: reply.finishReason, usage: chatUsage, usageJson, latency: c.latency, throughput, stream: input.stream, logprobs }
  if (plan === undefined) return { type: 'json', answer: new AnswerPayload(shape, done), responder: null, warnings: reply.warnings }
  if (cut === undefined) shape.end(plan, done)
  const price = (sent: StreamCounts) => {
    const upstream = pricing.cost(webSearches === 0 ? sent : { ...sent, webSearches }, { at: now })
    if (c.byok === undefined) return { cost: upstream, units: costToUnits(upstream) }
    const fee = byokFee(upstream)
    return { cost: fee, units: costToUnits(fee), upstream: { cost: upstream, units: costToUnits(upstream) } }
  }
  const settle = streamCanceller(ctx, { keyHash: key.hash, record, index: key.usageCount, generation: row, counts: { ...counts }, plan, estimate: plan.estimate, throughput, price, ...(byokRecord !== undefined && { byok: byokRecord }) })
  // The plan is a function of these values alone (none of them changes after), so it is made again alike.
  const rebuild = (): StreamFrame[] => {
    const again = shape.plan(source as Omit<Completed, 'usage'>, cut)
    if (cut === undefined) shape.end(again, done)
    return again.frames
  }
  return { type: 'stream', frames: plan.frames, settle, rebuild, responder: null, warnings: reply.warnings }
}

/**
 * A completed request's JSON answer: its text written by the shape (the adapters send it; no
 * object is built for that), its value built on first read of the response's body. The text is
 * not kept, only its size: the journal holds a thousand answers, and their texts, kept for
 * nothing but a second send, were a quarter of what a completion left live for the collector to
 * copy (decisions/0033). The adapters ask for the text once.
 */
export class AnswerPayload<T> implements JsonPayload {
  private size: number | undefined

  constructor(
    private readonly shape: AnswerShape<T>,
    private readonly done: Completed,
  ) {}

  get byteLength(): number {
    if (this.size === undefined) this.text()
    return this.size as number
  }

  text(): string {
    const text = this.shape.text === undefined ? JSON.stringify(this.shape.json(this.done)) : this.shape.text(this.done)
    this.size ??= utf8Length(text)
    return text
  }

  value(): T {
    return this.shape.json(this.done)
  }
}

/** `POST /chat/completions`' answer: a ChatCompletion, or its chunks as stream frames. */
const CHAT_SHAPE: AnswerShape<ChatCompletion> = {
  operation: 'createChatCompletion',
  json: ({ id, provider, model, created, message, finishReason, usage, logprobs }) => ({
    id,
    provider,
    model,
    object: 'chat.completion',
    created,
    choices: [{ index: 0, logprobs: chatLogprobs(logprobs ?? null, message.content), finish_reason: finishReason, native_finish_reason: finishReason, message }],
    system_fingerprint: null,
    usage,
  }),
  // The same fields in the same order as `json`; strings through JSON.stringify, numbers as JSON writes them.
  text: ({ id, provider, model, created, message, finishReason, usage, usageJson, logprobs }) =>
    `{"id":${JSON.stringify(id)},"provider":${JSON.stringify(provider)},"model":${JSON.stringify(model)},"object":"chat.completion","created":${created},` +
    `"choices":[{"index":0,"logprobs":${logprobs == null ? 'null' : JSON.stringify(chatLogprobs(logprobs, message.content))},"finish_reason":${JSON.stringify(finishReason)},"native_finish_reason":${JSON.stringify(finishReason)},"message":${JSON.stringify(message)}}],` +
    `"system_fingerprint":null,"usage":${usageJson ?? usageText(usage)}}`,
  plan: (done, cut) => streamPlan(done, cut),
  end: (plan, done) => {
    endStream(plan, done)
  },
}
