// `POST /responses`: the chat pipeline (admission, routing, responders, pricing, charging,
// generations) with the Responses API's request and result shapes and its stream of events
// (decisions/0031). The result's id is the generation's, so `GET /generation?id=` reads its cost.
import type { UnknownFields } from '../body.js'
import type { Principal } from '../auth.js'
import type { StoreContext } from '../store/context.js'
import type { StreamFrame } from '../protocol.js'
import { type AnswerShape, type Completed, type InferenceOutcome, type InferenceRuntime, refuseManagementKey, runInference } from './chat.js'
import { withPreset } from './presets.js'
import { webPluginOf } from './route.js'
import { type ResponsesEcho, type ResponsesFunctionTool, readResponsesRequest } from './responses-request.js'
import { type StreamCut, type StreamPlan, pieces } from './stream.js'
import { textTokens } from './tokens.js'
import type { ChatReasoningDetail, FinishReason } from './wire.js'

/** An output item of a Responses result: reasoning, the assistant's message, or a function call. */
export type ResponsesOutputItem =
  | {
      type: 'reasoning'
      id: string
      summary: { type: 'summary_text'; text: string }[]
      content: { type: 'reasoning_text'; text: string }[]
      status: ItemStatus
      /** The provider's opaque reasoning, where it sends one (decisions/0048). */
      encrypted_content?: string
      format?: string
      signature?: string
    }
  | { type: 'message'; id: string; role: 'assistant'; status: ItemStatus; content: ResponsesOutputText[] }
  | { type: 'function_call'; id: string; call_id: string; name: string; arguments: string; status: ItemStatus }

type ItemStatus = 'in_progress' | 'completed' | 'incomplete'

/** A text part of the assistant's message. */
export interface ResponsesOutputText {
  type: 'output_text'
  text: string
  annotations: never[]
  logprobs: never[]
}

/** `usage` of a Responses result: token counts and the exact cost in USD. */
export interface ResponsesUsage {
  input_tokens: number
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number }
  output_tokens: number
  output_tokens_details: { reasoning_tokens: number }
  total_tokens: number
  cost: number
  is_byok: boolean
  cost_details: { upstream_inference_cost: number | null; upstream_inference_input_cost: number; upstream_inference_output_cost: number }
}

/** The result of `POST /responses` (the SDK's OpenResponsesResult). */
export interface ResponsesResult {
  id: string
  object: 'response'
  created_at: number
  completed_at: number | null
  model: string
  status: 'completed' | 'incomplete' | 'failed' | 'in_progress'
  error: { code: 'server_error'; message: string } | null
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null
  instructions: string | null
  metadata: Record<string, string> | null
  output: ResponsesOutputItem[]
  output_text: string
  temperature: number | null
  top_p: number | null
  presence_penalty: number | null
  frequency_penalty: number | null
  max_output_tokens: number | null
  max_tool_calls: number | null
  top_logprobs: number | null
  parallel_tool_calls: boolean
  tool_choice: ResponsesEcho['toolChoice']
  tools: ResponsesFunctionTool[]
  store: false
  user: string | null
  safety_identifier: string | null
  prompt_cache_key: string | null
  usage: ResponsesUsage | null
}

/** Runs one Responses request for an authenticated caller. Throws the ApiError to answer with. */
export function createResponse(ctx: StoreContext, runtime: InferenceRuntime, principal: Principal, body: Record<string, unknown>, path: string, unknownFields?: UnknownFields): InferenceOutcome<ResponsesResult> {
  refuseManagementKey(principal)
  const use = withPreset(ctx, principal.userId, body, 'responses')
  const { chat: read, echo } = readResponsesRequest(use.body, unknownFields)
  // The input read is shared by the requests that sent the same body (decisions/0063): copied to change.
  const chat = use.presetId === null ? read : { ...read, presetId: use.presetId }
  return runInference(ctx, runtime, principal, chat, path, responsesShape(echo), webPluginOf(use.body))
}

/** The Responses result of a request, or its events: the request's figures echoed in both. */
function responsesShape(echo: ResponsesEcho): AnswerShape<ResponsesResult> {
  return {
    operation: 'createResponses',
    json: (done) => resultOf(done, echo),
    plan: (done, cut) => responsesPlan(done, echo, cut),
    end: (plan, done) => {
      const final = resultOf(done, echo)
      const type = final.status === 'completed' ? 'response.completed' : final.status === 'incomplete' ? 'response.incomplete' : 'response.failed'
      // Every frame after the opening comment is an event, numbered from 0.
      const atMs = (plan.frames[plan.terminal] as StreamFrame).atMs
      plan.frames.push({ atMs, data: eventText(type, plan.frames.length - 1, { response: final }) }, { atMs, data: 'data: [DONE]\n\n' })
      plan.shares.push(0, 0)
    },
  }
}

/** The status a finish reason gives a response, and why it is incomplete or failed. */
function statusOf(finish: FinishReason): Pick<ResponsesResult, 'status' | 'incomplete_details' | 'error'> {
  if (finish === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, error: null }
  if (finish === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' }, error: null }
  if (finish === 'error') return { status: 'failed', incomplete_details: null, error: { code: 'server_error', message: 'The provider ended the response with an error' } }
  return { status: 'completed', incomplete_details: null, error: null }
}

const outputText = (text: string): ResponsesOutputText => ({ type: 'output_text', text, annotations: [], logprobs: [] })

/** The output items of a completed request: reasoning, then the message (when there is text or no call), then each function call. */
function outputOf(done: Pick<Completed, 'message' | 'suffix'>, status: ItemStatus): ResponsesOutputItem[] {
  const { message, suffix } = done
  const items: ResponsesOutputItem[] = []
  if (message.reasoning) items.push(reasoningItem(message.reasoning, message.reasoning_details ?? [], `rs_${suffix}`, status))
  const calls = message.tool_calls ?? []
  if ((message.content ?? '') !== '' || calls.length === 0) {
    items.push({ type: 'message', id: `msg_${suffix}`, role: 'assistant', status, content: [outputText(message.content ?? '')] })
  }
  calls.forEach((call, i) => items.push({ type: 'function_call', id: `fc_${suffix}_${i}`, call_id: call.id, name: call.function.name, arguments: call.function.arguments, status }))
  return items
}

/**
 * A reasoning item as the model's provider sends it (decisions/0048): a summary (OpenAI's models)
 * or the reasoning's text, with the provider's format, signature and encrypted content where the
 * message's `reasoning_details` carry them.
 */
function reasoningItem(text: string, details: readonly ChatReasoningDetail[], id: string, status: ItemStatus): Extract<ResponsesOutputItem, { type: 'reasoning' }> {
  const first = details[0]
  const summary = first?.type === 'reasoning.summary'
  const item: Extract<ResponsesOutputItem, { type: 'reasoning' }> = {
    type: 'reasoning',
    id,
    summary: summary ? [{ type: 'summary_text', text }] : [],
    content: summary ? [] : [{ type: 'reasoning_text', text }],
    status,
  }
  if (first !== undefined && first.format !== 'unknown') item.format = first.format
  if (first?.type === 'reasoning.text' && first.signature !== undefined) item.signature = first.signature
  for (const detail of details) if (detail.type === 'reasoning.encrypted') item.encrypted_content = detail.data
  return item
}

function usageOf(u: Completed['usage']): ResponsesUsage {
  return {
    input_tokens: u.prompt_tokens,
    input_tokens_details: { cached_tokens: u.prompt_tokens_details.cached_tokens, cache_write_tokens: u.prompt_tokens_details.cache_write_tokens },
    output_tokens: u.completion_tokens,
    output_tokens_details: { reasoning_tokens: u.completion_tokens_details.reasoning_tokens },
    total_tokens: u.total_tokens,
    cost: u.cost,
    // Served through a BYOK credential: the flag and the upstream cost, as the chat usage says (decisions/0054).
    is_byok: u.is_byok,
    cost_details: {
      upstream_inference_cost: u.cost_details.upstream_inference_cost,
      upstream_inference_input_cost: u.cost_details.upstream_inference_prompt_cost,
      upstream_inference_output_cost: u.cost_details.upstream_inference_completions_cost,
    },
  }
}

/** The result as a whole, or (`final: false`) as the stream's first events show it, before any output. */
function resultOf(done: Omit<Completed, 'usage'> & { usage?: Completed['usage'] }, echo: ResponsesEcho, final = true): ResponsesResult {
  const status = statusOf(done.finishReason)
  const itemStatus: ItemStatus = status.status === 'incomplete' ? 'incomplete' : 'completed'
  return {
    id: done.id,
    object: 'response',
    created_at: done.created,
    completed_at: final ? done.created : null,
    model: done.model,
    ...(final ? status : { status: 'in_progress', incomplete_details: null, error: null }),
    instructions: echo.instructions,
    // The echo is read once per body text and shared, frozen (decisions/0063): each answer gets its own copies.
    metadata: echo.metadata === null ? null : { ...echo.metadata },
    output: final ? outputOf(done, itemStatus) : [],
    output_text: final ? (done.message.content ?? '') : '',
    temperature: echo.temperature,
    top_p: echo.topP,
    presence_penalty: echo.presencePenalty,
    frequency_penalty: echo.frequencyPenalty,
    max_output_tokens: echo.maxOutputTokens,
    max_tool_calls: echo.maxToolCalls,
    top_logprobs: echo.topLogprobs,
    parallel_tool_calls: echo.parallelToolCalls,
    tool_choice: typeof echo.toolChoice === 'string' ? echo.toolChoice : { ...echo.toolChoice },
    tools: echo.tools.length === 0 ? [] : structuredClone(echo.tools),
    store: false,
    user: echo.user,
    safety_identifier: echo.safetyIdentifier,
    prompt_cache_key: echo.promptCacheKey,
    usage: final && done.usage !== undefined ? usageOf(done.usage) : null,
  }
}

const eventText = (type: string, sequence: number, fields: Record<string, unknown>): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence, ...fields })}\n\n`

/**
 * The event stream of a response up to the end of its output: `response.created` and
 * `response.in_progress` at once; from the endpoint's time to first token on, each output item
 * added, its text (reasoning, message text, function-call arguments) in deltas of 16 characters
 * paced at the endpoint's throughput, each part and item done. The shape's `end` then adds
 * `response.completed` (or `response.incomplete`, `response.failed`) with the whole result, usage
 * and cost included, and `data: [DONE]`. Each frame carries the completion tokens it sends: a
 * delta of reasoning or text its own, a function call all of its tokens on its
 * `function_call_arguments.done`. With a `cut`, an `error` event follows the cut's number of deltas
 * and ends the stream (decisions/0026, decisions/0031).
 */
export function responsesPlan(done: Omit<Completed, 'usage'>, echo: ResponsesEcho, cut?: StreamCut): StreamPlan {
  const frames: StreamFrame[] = [{ atMs: 0, data: ': OPENROUTER PROCESSING\n\n' }]
  const shares: number[] = [0]
  let at = 0
  let deltas = 0
  let estimate = 0
  const perChar = 1000 / (Math.max(done.throughput, 1) * 4)
  const limit = cut?.afterChunks ?? Number.POSITIVE_INFINITY
  const emit = (type: string, fields: Record<string, unknown>, chars = 0, tokens = 0): void => {
    frames.push({ atMs: Math.round(at), data: eventText(type, frames.length - 1, fields) })
    shares.push(tokens)
    at += chars * perChar
  }
  /** A delta, counted in the estimate; once the cut's number is reached, nothing is sent and false says so. */
  const delta = (type: string, fields: Record<string, unknown>, piece: string, tokens: number): boolean => {
    estimate += tokens
    if (deltas >= limit) return false
    deltas++
    emit(type, { ...fields, delta: piece }, piece.length, tokens)
    return true
  }
  const start = resultOf(done, echo, false)
  emit('response.created', { response: start })
  emit('response.in_progress', { response: start })
  at = done.latency
  const status = statusOf(done.finishReason).status === 'incomplete' ? 'incomplete' : 'completed'
  let open = true
  outputOf(done, status).forEach((item, output_index) => {
    const where = { item_id: item.id, output_index }
    if (item.type === 'reasoning' && item.summary.length > 0) {
      // A summary streams in its part, as OpenAI's models send theirs.
      const text = item.summary[0]?.text ?? ''
      if (open) {
        emit('response.output_item.added', { output_index, item: { ...item, summary: [], status: 'in_progress' } })
        emit('response.reasoning_summary_part.added', { ...where, summary_index: 0, part: { type: 'summary_text', text: '' } })
      }
      for (const piece of pieces(text)) if (!delta('response.reasoning_summary_text.delta', { ...where, summary_index: 0 }, piece, textTokens(piece))) open = false
      if (open) {
        emit('response.reasoning_summary_text.done', { ...where, summary_index: 0, text })
        emit('response.reasoning_summary_part.done', { ...where, summary_index: 0, part: { type: 'summary_text', text } })
      }
    } else if (item.type === 'reasoning') {
      const text = item.content[0]?.text ?? ''
      if (open) emit('response.output_item.added', { output_index, item: { ...item, content: [], status: 'in_progress' } })
      for (const piece of pieces(text)) if (!delta('response.reasoning_text.delta', { ...where, content_index: 0 }, piece, textTokens(piece))) open = false
      if (open) emit('response.reasoning_text.done', { ...where, content_index: 0, text })
    } else if (item.type === 'message') {
      const text = item.content[0]?.text ?? ''
      if (open) {
        emit('response.output_item.added', { output_index, item: { ...item, content: [], status: 'in_progress' } })
        emit('response.content_part.added', { ...where, content_index: 0, part: outputText('') })
      }
      for (const piece of pieces(text)) if (!delta('response.output_text.delta', { ...where, content_index: 0, logprobs: [] }, piece, textTokens(piece))) open = false
      if (open) {
        emit('response.output_text.done', { ...where, content_index: 0, text, logprobs: [] })
        emit('response.content_part.done', { ...where, content_index: 0, part: outputText(text) })
      }
    } else {
      const tokens = textTokens(item.name + item.arguments)
      if (open) emit('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } })
      for (const piece of pieces(item.arguments)) if (!delta('response.function_call_arguments.delta', where, piece, 0)) open = false
      estimate += tokens
      if (open) emit('response.function_call_arguments.done', { ...where, name: item.name, arguments: item.arguments }, 0, tokens)
    }
    if (open) emit('response.output_item.done', { output_index, item })
  })
  if (cut !== undefined) emit('error', { code: cut.error.metadata.error_type, message: cut.error.message, param: null })
  return { frames, shares, terminal: frames.length - 1, estimate }
}
