// Streaming (`stream: true`): the frames of a server-sent event stream, each at its simulated
// offset from the start of the response. The adapters write them, waiting for real between them
// only when a latency rule asks for real waits (decisions/0024).
import type { StreamFrame } from '../protocol.js'
import { CHARS_PER_TOKEN, textTokens } from './tokens.js'
import type { TokenLogprob } from './logprobs.js'
import type { ChatAssistantMessage, ChatChunk, ChatChunkError, ChatReasoningDetail, ChatUsage, FinishReason } from './wire.js'

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
  /** The content's token log probabilities, when the request asked and the endpoint gives them (decisions/0048). */
  logprobs?: TokenLogprob[] | null
}

/** Characters per content chunk: 4 tokens of the estimator. */
const CHUNK_CHARS = 16

/** A text in the pieces a stream sends it in: 16 characters each (4 tokens of the estimator). */
export function pieces(text: string): string[] {
  const out: string[] = []
  for (let i = 0; i < text.length; i += CHUNK_CHARS) out.push(text.slice(i, i + CHUNK_CHARS))
  return out
}

/** A delta's opening: its role, then its other fields. */
const ROLE_OPEN = '{"role":"assistant",'

const event = (chunk: ChatChunk): string => `data: ${JSON.stringify(chunk)}\n\n`

/**
 * The event of a chunk of `source`'s stream up to its delta, `data: {"id":…,"choices":[{"index":0,"delta":`,
 * as `JSON.stringify` writes a chunk: each chunk's text is this, its delta's JSON and {@link chunkTail}.
 */
export function chunkHead(source: Pick<StreamSource, 'id' | 'provider' | 'model' | 'created'>): string {
  return `data: {"id":${JSON.stringify(source.id)},"provider":${JSON.stringify(source.provider)},"model":${JSON.stringify(source.model)},"object":"chat.completion.chunk","created":${JSON.stringify(source.created)},"choices":[{"index":0,"delta":`
}

/** What follows a chunk's delta: its finish reason, no log probabilities, then `after` beside the choices (`,"usage":{…}`). */
export function chunkTail(finish: FinishReason | null, after = ''): string {
  const reason = JSON.stringify(finish)
  return `,"finish_reason":${reason},"native_finish_reason":${reason},"logprobs":null}]${after}}\n\n`
}

/** The tail of a chunk that does not finish the reply. */
const OPEN_TAIL = chunkTail(null)

/**
 * A mid-stream error (decisions/0026): the stream stops after `afterChunks` content chunks and
 * sends one chunk with `error: { code, message, metadata }` and `finish_reason: "error"` instead of
 * the rest; no usage chunk and no `[DONE]` follow it.
 */
export interface StreamCut {
  afterChunks: number
  error: ChatChunkError
}

/** A stream's frames, with what each carries of the completion (for billing a part of it). */
export interface StreamPlan {
  frames: StreamFrame[]
  /**
   * The estimator's completion tokens in each frame (decisions/0024's 4 characters a token, of the
   * reasoning, text and tool call pieces it carries); 0 for every frame that carries none.
   */
  shares: number[]
  /** The index of the frame that ends the reply: the finish-reason chunk, or the error chunk of a cut. */
  terminal: number
  /** The estimator's completion tokens of the whole reply, cut or not. */
  estimate: number
}

/**
 * The frames of a streamed reply up to the one that ends it: the `: OPENROUTER PROCESSING`
 * comment at once; reasoning, text and tool calls in `chat.completion.chunk` events from the time
 * to first token on, paced at the endpoint's throughput, each delta with `role: "assistant"`; a
 * chunk with an empty delta and the finish reason. With a `cut`, the error chunk comes after
 * `cut.afterChunks` content chunks instead, and ends the stream.
 * {@link endStream} adds the usage chunk and `[DONE]` to a reply that finished.
 */
export function streamPlan(source: Omit<StreamSource, 'usage'>, cut?: StreamCut): StreamPlan {
  const { id, provider, model, created, message } = source
  const frames: StreamFrame[] = [{ atMs: 0, data: ': OPENROUTER PROCESSING\n\n' }]
  const shares: number[] = [0]
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
  let estimate = 0
  const limit = cut?.afterChunks ?? Number.POSITIVE_INFINITY
  // The chunks differ only in their delta and finish reason: the rest is written once and the delta
  // spliced in, the same bytes as stringifying each chunk (a 100-chunk reply stringified 100 chunks).
  const head = chunkHead(source)
  const tail = OPEN_TAIL
  /** Adds a frame whose delta's JSON is `json` (after the role, on every delta, as the service sends it), or counts its tokens only past a cut. */
  const pushJson = (json: string, chars: number, tokens: number, end = tail): void => {
    estimate += tokens
    if (sent >= limit) return
    frames.push({ atMs: Math.round(at), data: head + ROLE_OPEN + json.slice(1) + end })
    shares.push(tokens)
    sent++
    at += chars * perChar
  }
  const push = (delta: ChatChunk['choices'][number]['delta'], chars: number, tokens: number): void => pushJson(JSON.stringify(delta), chars, tokens)
  // A piece of 16 characters is 4 tokens, and only the last piece of a text is shorter: the
  // pieces' tokens sum to the text's, so the shares of a whole reply are its completion tokens.
  // A text piece's delta is written as JSON.stringify writes `{ content: '', reasoning: piece }`
  // or `{ content: piece }`, without the object: a 100-chunk reply made 100 of them.
  // Reasoning before content, each piece with its `reasoning_details` entry of the message's kind;
  // a signature on the last piece, and an encrypted block after it, as providers stream them.
  const reasoning = message.reasoning ?? ''
  const details = message.reasoning_details ?? []
  const first = details[0]
  for (let i = 0; i < reasoning.length; i += CHUNK_CHARS) {
    const piece = reasoning.slice(i, i + CHUNK_CHARS)
    const last = i + CHUNK_CHARS >= reasoning.length
    pushJson(`{"content":"","reasoning":${JSON.stringify(piece)},"reasoning_details":[${JSON.stringify(pieceDetail(first, piece, last))}]}`, piece.length, textTokens(piece))
  }
  for (const detail of details) if (detail.type === 'reasoning.encrypted') pushJson(`{"content":"","reasoning_details":[${JSON.stringify(detail)}]}`, 0, 0)
  const content = message.content ?? ''
  const logprobs = source.logprobs ?? null
  for (let i = 0; i < content.length; i += CHUNK_CHARS) {
    const piece = content.slice(i, i + CHUNK_CHARS)
    // A chunk's log probabilities are those of the tokens it carries (4 of 4 characters).
    const end = logprobs === null ? tail : tail.replace('"logprobs":null', `"logprobs":${JSON.stringify({ content: logprobs.slice(i / 4, (i + CHUNK_CHARS) / 4), refusal: null })}`)
    pushJson(`{"content":${JSON.stringify(piece)}}`, piece.length, textTokens(piece), end)
  }
  // A call as the service streams one: its index, id, type and name with empty arguments, then the
  // arguments in pieces. Each delta carries the tokens its characters complete, name first, so a
  // call's shares sum to the tokens of its name and arguments.
  ;(message.tool_calls ?? []).forEach((call, index) => {
    const { name, arguments: args } = call.function
    let counted = textTokens(name)
    push({ content: null, tool_calls: [{ index, id: call.id, type: 'function', function: { name, arguments: '' } }] }, 0, counted)
    // Each piece's delta written as JSON.stringify writes `{ content: null, tool_calls: [{ index, function: { arguments } }] }`.
    const open = `{"content":null,"tool_calls":[{"index":${index},"function":{"arguments":`
    for (let i = 0; i < args.length; i += CHUNK_CHARS) {
      const piece = args.slice(i, i + CHUNK_CHARS)
      const upTo = Math.ceil((name.length + Math.min(i + CHUNK_CHARS, args.length)) / CHARS_PER_TOKEN)
      pushJson(`${open}${JSON.stringify(piece)}}}]}`, piece.length, upTo - counted)
      counted = upTo
    }
  })
  if (cut !== undefined) {
    frames.push({ atMs: Math.round(at), data: event({ ...chunk({ content: '' }, 'error'), error: cut.error }) })
    shares.push(0)
    return { frames, shares, terminal: frames.length - 1, estimate }
  }
  if (sent === 0) push({ content: '' }, 0, 0)
  // The finish chunk: an empty delta and the finish reason (decisions/0039).
  frames.push({ atMs: Math.round(at), data: `${head}{}${chunkTail(source.finishReason)}` })
  shares.push(0)
  return { frames, shares, terminal: frames.length - 1, estimate }
}

/** A streamed reasoning piece's `reasoning_details` entry: the message's first entry's kind and format, the piece as its text. */
function pieceDetail(first: ChatReasoningDetail | undefined, piece: string, last: boolean): ChatReasoningDetail {
  if (first?.type === 'reasoning.summary') return { type: 'reasoning.summary', summary: piece, format: first.format, index: 0 }
  const detail: ChatReasoningDetail = { type: 'reasoning.text', text: piece, format: first?.format ?? 'unknown', index: 0 }
  if (last && first?.type === 'reasoning.text' && first.signature !== undefined) detail.signature = first.signature
  return detail
}

/**
 * Ends the plan of a finished reply: a chunk that repeats the finish chunk's choice (the same
 * index, empty delta and finish reason) and adds the usage (cost included; `usageJson`, its text
 * when the caller has it, saves writing it again), then `data: [DONE]`.
 * The choice is repeated because some clients (LangChain's ChatOpenRouter) read usage only from a
 * chunk that has one, as the service's own usage chunk does (decisions/0039).
 */
export function endStream(
  plan: StreamPlan,
  source: Pick<StreamSource, 'id' | 'provider' | 'model' | 'created' | 'finishReason' | 'usage'> & { usageJson?: string | undefined },
): StreamPlan {
  const atMs = (plan.frames[plan.terminal] as StreamFrame).atMs
  // The usage's JSON as the pricing already wrote it for the JSON answer, when it did.
  const usage = `${chunkHead(source)}{}${chunkTail(source.finishReason, `,"usage":${source.usageJson ?? JSON.stringify(source.usage)}`)}`
  plan.frames.push({ atMs, data: usage }, { atMs, data: 'data: [DONE]\n\n' })
  plan.shares.push(0, 0)
  return plan
}

/** The frames of a streamed reply to its end, usage chunk and `[DONE]` included. */
export function streamFrames(source: StreamSource): StreamFrame[] {
  return endStream(streamPlan(source), source).frames
}

/** The whole text of a stream, as a client that reads it to the end receives it. */
export function streamText(frames: readonly StreamFrame[]): string {
  return frames.map((frame) => frame.data).join('')
}
