// Streaming (`stream: true`): the frames of a server-sent event stream, each at its simulated
// offset from the start of the response. The adapters write them, waiting for real between them
// only when a latency rule asks for real waits (decisions/0024).
import type { ChatAssistantMessage, ChatChunk, ChatUsage, FinishReason } from './wire.js'

/** One piece of a stream: its text (a whole SSE event, blank line included) and when it is sent. */
export interface StreamFrame {
  /** Milliseconds after the response starts. */
  atMs: number
  data: string
}

/** What a stream is made of: a completed reply and the endpoint's timing. */
export interface StreamSource {
  id: string
  provider: string
  model: string
  created: number
  message: ChatAssistantMessage
  finishReason: FinishReason
  usage: ChatUsage
  /** Time to first token, milliseconds. */
  latency: number
  /** Tokens per second. */
  throughput: number
}

/** Characters per content chunk: 4 tokens of the estimator. */
const CHUNK_CHARS = 16

const event = (chunk: ChatChunk): string => `data: ${JSON.stringify(chunk)}\n\n`

/**
 * The frames of a streamed reply: the `: OPENROUTER PROCESSING` comment at once; reasoning, text
 * and tool calls in `chat.completion.chunk` events from the time to first token on, paced at the
 * endpoint's throughput; a chunk with the finish reason; a last chunk with no choices and the
 * usage (cost included); then `data: [DONE]`.
 */
export function streamFrames(source: StreamSource): StreamFrame[] {
  const { id, provider, model, created, message } = source
  const frames: StreamFrame[] = [{ atMs: 0, data: ': OPENROUTER PROCESSING\n\n' }]
  const chunk = (delta: ChatChunk['choices'][number]['delta'], finish: FinishReason | null): ChatChunk => ({
    id,
    provider,
    model,
    object: 'chat.completion.chunk',
    created,
    choices: [{ index: 0, delta, finish_reason: finish, native_finish_reason: finish, logprobs: null }],
  })
  const perChar = 1000 / (Math.max(source.throughput, 1) * 4)
  let sent = 0
  let at = source.latency
  // The content chunks differ only in their delta: the rest is stringified once and the delta
  // spliced in, the same bytes as stringifying each chunk (a 100-chunk reply stringified 100 chunks).
  const template = event(chunk(null as unknown as ChatChunk['choices'][number]['delta'], null))
  const cut = template.lastIndexOf('"delta":null') + '"delta":'.length
  const [head, tail] = [template.slice(0, cut), template.slice(cut + 'null'.length)]
  const push = (delta: ChatChunk['choices'][number]['delta'], chars: number): void => {
    frames.push({ atMs: Math.round(at), data: head + JSON.stringify(sent === 0 ? { role: 'assistant', ...delta } : delta) + tail })
    sent++
    at += chars * perChar
  }
  const pieces = (text: string): string[] => {
    const out: string[] = []
    for (let i = 0; i < text.length; i += CHUNK_CHARS) out.push(text.slice(i, i + CHUNK_CHARS))
    return out
  }
  for (const piece of pieces(message.reasoning ?? '')) push({ content: '', reasoning: piece }, piece.length)
  for (const piece of pieces(message.content ?? '')) push({ content: piece }, piece.length)
  ;(message.tool_calls ?? []).forEach((call, index) => {
    push({ content: null, tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: call.function.arguments } }] }, call.function.arguments.length)
  })
  if (sent === 0) push({ content: '' }, 0)
  frames.push({ atMs: Math.round(at), data: event(chunk({ content: '' }, source.finishReason)) })
  frames.push({ atMs: Math.round(at), data: event({ id, provider, model, object: 'chat.completion.chunk', created, choices: [], usage: source.usage }) })
  frames.push({ atMs: Math.round(at), data: 'data: [DONE]\n\n' })
  return frames
}

/** The whole text of a stream, as a client that reads it to the end receives it. */
export function streamText(frames: readonly StreamFrame[]): string {
  return frames.map((frame) => frame.data).join('')
}
