// `POST /completions`, the legacy text completions route (decisions/0039): the chat money path
// unchanged (resolve, admit, route, reply, count, price, charge, record; chat.ts), with the prompt
// as one user message and a `text_completion` answer: its JSON, or its stream, which ends as a
// chat stream ends (a finish chunk, a usage chunk repeating its choice, `[DONE]`).
import type { UnknownFields } from '../body.js'
import { webPluginOf } from './route.js'
import type { Principal } from '../auth.js'
import type { StreamFrame } from '../protocol.js'
import type { StoreContext } from '../store/context.js'
import { type AnswerShape, type Completed, type InferenceOutcome, type InferenceRuntime, refuseManagementKey, runInference } from './chat.js'
import { readCompletionsRequest } from './completions-request.js'
import type { StreamCut, StreamPlan } from './stream.js'
import { textTokens } from './tokens.js'
import type { ChatChunkError, ChatUsage, FinishReason } from './wire.js'

/** One choice of a text completion: its text, and the reasoning when the model reasoned. */
export interface TextCompletionChoice {
  text: string
  index: number
  finish_reason: FinishReason | null
  native_finish_reason: FinishReason | null
  logprobs: null
  /** The model's reasoning, only when it reasoned (in a stream, on the chunks that carry it). */
  reasoning?: string
}

/** The answer of `POST /completions`. */
export interface TextCompletion {
  /** The generation's id (`gen-...`): `GET /generation?id=` reads what was charged. */
  id: string
  object: 'text_completion'
  created: number
  model: string
  provider: string
  choices: TextCompletionChoice[]
  usage: ChatUsage
}

/** One `data:` chunk of a streamed text completion: `finish_reason` null until the finish chunk. */
export interface TextCompletionChunk extends Omit<TextCompletion, 'usage'> {
  /** On the stream's usage chunk only. */
  usage?: ChatUsage
  /** Only on the chunk of a mid-stream error, whose finish reason is `error` (decisions/0026). */
  error?: ChatChunkError
}

/** Characters per text chunk, as in chat streams: 4 tokens of the estimator. */
const CHUNK_CHARS = 16

/** Runs one text completion for an authenticated caller. Throws the ApiError to answer with. */
export function createCompletion(
  ctx: StoreContext,
  runtime: InferenceRuntime,
  principal: Principal,
  body: Record<string, unknown>,
  path: string,
  unknownFields?: UnknownFields,
): InferenceOutcome<TextCompletion> {
  refuseManagementKey(principal)
  return runInference(ctx, runtime, principal, readCompletionsRequest(body, unknownFields), path, COMPLETIONS_SHAPE, webPluginOf(body))
}

type Head = Pick<Completed, 'id' | 'provider' | 'model' | 'created'>

const chunkOf = (done: Head, choice: TextCompletionChoice): TextCompletionChunk => ({
  id: done.id,
  object: 'text_completion',
  created: done.created,
  model: done.model,
  provider: done.provider,
  choices: [choice],
})

const choiceOf = (text: string, finish: FinishReason | null): TextCompletionChoice => ({ text, index: 0, finish_reason: finish, native_finish_reason: finish, logprobs: null })

const event = (chunk: TextCompletionChunk): string => `data: ${JSON.stringify(chunk)}\n\n`

/**
 * The frames of a streamed text completion up to the one that ends it: the comment at once; the
 * reasoning (choices with `reasoning` and empty `text`), then the text, in pieces of 16 characters
 * from the time to first token on, paced at the endpoint's throughput; a chunk with empty text and
 * the finish reason. With a `cut`, the error chunk after `cut.afterChunks` text chunks instead.
 */
function completionsPlan(done: Omit<Completed, 'usage'>, cut: StreamCut | undefined): StreamPlan {
  const frames: StreamFrame[] = [{ atMs: 0, data: ': OPENROUTER PROCESSING\n\n' }]
  const shares: number[] = [0]
  const perChar = 1000 / (Math.max(done.throughput, 1) * 4)
  const limit = cut?.afterChunks ?? Number.POSITIVE_INFINITY
  let at = done.latency
  let sent = 0
  let estimate = 0
  const push = (choice: TextCompletionChoice, piece: string): void => {
    const tokens = textTokens(piece)
    estimate += tokens
    if (sent >= limit) return
    frames.push({ atMs: Math.round(at), data: event(chunkOf(done, choice)) })
    shares.push(tokens)
    sent++
    at += piece.length * perChar
  }
  const reasoning = done.message.reasoning ?? ''
  for (let i = 0; i < reasoning.length; i += CHUNK_CHARS) {
    const piece = reasoning.slice(i, i + CHUNK_CHARS)
    push({ ...choiceOf('', null), reasoning: piece }, piece)
  }
  const text = done.message.content ?? ''
  for (let i = 0; i < text.length; i += CHUNK_CHARS) {
    const piece = text.slice(i, i + CHUNK_CHARS)
    push(choiceOf(piece, null), piece)
  }
  if (cut !== undefined) {
    frames.push({ atMs: Math.round(at), data: event({ ...chunkOf(done, choiceOf('', 'error')), error: cut.error }) })
  } else {
    if (sent === 0) push(choiceOf('', null), '')
    frames.push({ atMs: Math.round(at), data: event(chunkOf(done, choiceOf('', done.finishReason))) })
  }
  shares.push(0)
  return { frames, shares, terminal: frames.length - 1, estimate }
}

/** `POST /completions`' answer: a `text_completion`, or its chunks as stream frames. */
const COMPLETIONS_SHAPE: AnswerShape<TextCompletion> = {
  operation: 'createCompletion',
  json: (done) => {
    const choice = choiceOf(done.message.content ?? '', done.finishReason)
    if (done.message.reasoning !== null) choice.reasoning = done.message.reasoning
    return { ...chunkOf(done, choice), usage: done.usage }
  },
  plan: completionsPlan,
  // The usage chunk repeats the finish chunk's choice, as a chat stream's does (decisions/0039).
  end: (plan, done) => {
    const atMs = (plan.frames[plan.terminal] as StreamFrame).atMs
    plan.frames.push({ atMs, data: event({ ...chunkOf(done, choiceOf('', done.finishReason)), usage: done.usage }) }, { atMs, data: 'data: [DONE]\n\n' })
    plan.shares.push(0, 0)
  },
}
