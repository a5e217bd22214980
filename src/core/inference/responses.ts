// `POST /responses`: the chat pipeline (admission, routing, responders, pricing, charging,
// generations) with the Responses API's request and result shapes and its stream of events
// (decisions/0031). The result's id is the generation's, so `GET /generation?id=` reads its cost.
import type { Principal } from '../auth.js'
import type { StoreContext } from '../store/context.js'
import { type Completed, type InferenceRuntime, refuseManagementKey, runInference } from './chat.js'
import { type ResponsesEcho, type ResponsesFunctionTool, readResponsesRequest } from './responses-request.js'
import { type StreamFrame, pieces } from './stream.js'
import type { FinishReason } from './wire.js'

/** An output item of a Responses result: reasoning, the assistant's message, or a function call. */
export type ResponsesOutputItem =
  | { type: 'reasoning'; id: string; summary: { type: 'summary_text'; text: string }[]; content: { type: 'reasoning_text'; text: string }[]; status: ItemStatus }
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
  input_tokens_details: { cached_tokens: number }
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

/** What `POST /responses` produced: the JSON result, or the frames of its event stream. */
export type ResponsesOutcome = { type: 'json'; body: ResponsesResult } | { type: 'stream'; frames: StreamFrame[] }

/** Runs one Responses request for an authenticated caller. Throws the ApiError to answer with. */
export function createResponse(ctx: StoreContext, runtime: InferenceRuntime, principal: Principal, body: Record<string, unknown>, path: string): ResponsesOutcome {
  refuseManagementKey(principal)
  const { chat, echo } = readResponsesRequest(body)
  return runInference(ctx, runtime, principal, chat, path, (done) => (done.stream ? { type: 'stream', frames: responseEvents(done, echo) } : { type: 'json', body: resultOf(done, echo) }))
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
function outputOf(done: Completed, status: ItemStatus): ResponsesOutputItem[] {
  const { message, suffix } = done
  const items: ResponsesOutputItem[] = []
  if (message.reasoning) items.push({ type: 'reasoning', id: `rs_${suffix}`, summary: [], content: [{ type: 'reasoning_text', text: message.reasoning }], status })
  const calls = message.tool_calls ?? []
  if ((message.content ?? '') !== '' || calls.length === 0) {
    items.push({ type: 'message', id: `msg_${suffix}`, role: 'assistant', status, content: [outputText(message.content ?? '')] })
  }
  calls.forEach((call, i) => items.push({ type: 'function_call', id: `fc_${suffix}_${i}`, call_id: call.id, name: call.function.name, arguments: call.function.arguments, status }))
  return items
}

function usageOf(done: Completed): ResponsesUsage {
  const u = done.usage
  return {
    input_tokens: u.prompt_tokens,
    input_tokens_details: { cached_tokens: u.prompt_tokens_details.cached_tokens },
    output_tokens: u.completion_tokens,
    output_tokens_details: { reasoning_tokens: u.completion_tokens_details.reasoning_tokens },
    total_tokens: u.total_tokens,
    cost: u.cost,
    is_byok: false,
    cost_details: {
      upstream_inference_cost: null,
      upstream_inference_input_cost: u.cost_details.upstream_inference_prompt_cost,
      upstream_inference_output_cost: u.cost_details.upstream_inference_completions_cost,
    },
  }
}

/** The result as a whole, or (`final: false`) as the stream's first events show it, before any output. */
function resultOf(done: Completed, echo: ResponsesEcho, final = true): ResponsesResult {
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
    metadata: echo.metadata,
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
    tool_choice: echo.toolChoice,
    tools: echo.tools,
    store: false,
    user: echo.user,
    safety_identifier: echo.safetyIdentifier,
    prompt_cache_key: echo.promptCacheKey,
    usage: final ? usageOf(done) : null,
  }
}

/**
 * The event stream of a response: `response.created` and `response.in_progress` at once; from the
 * endpoint's time to first token on, each output item added, its text (reasoning, message text,
 * function-call arguments) in deltas of 16 characters paced at the endpoint's throughput, each
 * part and item done; then `response.completed` (or `response.incomplete`, `response.failed`)
 * with the whole result, usage and cost included; then `data: [DONE]`.
 */
export function responseEvents(done: Completed, echo: ResponsesEcho): StreamFrame[] {
  const frames: StreamFrame[] = [{ atMs: 0, data: ': OPENROUTER PROCESSING\n\n' }]
  let sequence = 0
  let at = 0
  const perChar = 1000 / (Math.max(done.throughput, 1) * 4)
  const emit = (type: string, fields: Record<string, unknown>, chars = 0): void => {
    frames.push({ atMs: Math.round(at), data: `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n` })
    at += chars * perChar
  }
  const start = resultOf(done, echo, false)
  emit('response.created', { response: start })
  emit('response.in_progress', { response: start })
  at = done.latency
  const final = resultOf(done, echo)
  final.output.forEach((item, output_index) => {
    if (item.type === 'reasoning') {
      emit('response.output_item.added', { output_index, item: { ...item, content: [], status: 'in_progress' } })
      const text = item.content[0]?.text ?? ''
      for (const piece of pieces(text)) emit('response.reasoning_text.delta', { item_id: item.id, output_index, content_index: 0, delta: piece }, piece.length)
      emit('response.reasoning_text.done', { item_id: item.id, output_index, content_index: 0, text })
    } else if (item.type === 'message') {
      const text = item.content[0]?.text ?? ''
      emit('response.output_item.added', { output_index, item: { ...item, content: [], status: 'in_progress' } })
      emit('response.content_part.added', { item_id: item.id, output_index, content_index: 0, part: outputText('') })
      for (const piece of pieces(text)) emit('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta: piece, logprobs: [] }, piece.length)
      emit('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text, logprobs: [] })
      emit('response.content_part.done', { item_id: item.id, output_index, content_index: 0, part: outputText(text) })
    } else {
      emit('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } })
      for (const piece of pieces(item.arguments)) emit('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: piece }, piece.length)
      emit('response.function_call_arguments.done', { item_id: item.id, output_index, name: item.name, arguments: item.arguments })
    }
    emit('response.output_item.done', { output_index, item })
  })
  const last = final.status === 'completed' ? 'response.completed' : final.status === 'incomplete' ? 'response.incomplete' : 'response.failed'
  emit(last, { response: final })
  frames.push({ atMs: Math.round(at), data: 'data: [DONE]\n\n' })
  return frames
}
