import fc from 'fast-check'
import { type CompletionParts, chunksOf, completionOf, generationRecordOf } from '../core/inference/assemble.js'
import type { ChatChunk, ChatCompletion, ChatToolCall, FinishReason, Generation } from '../core/inference/wire.js'
import { fieldsOf } from '../core/store/check.js'
import { checkConstraints, invalidConstraint } from './internal/constraints.js'
import { pricing } from './pricing.js'

/** The constraints {@link chatCompletion} takes; any other is refused. */
export const COMPLETION_CONSTRAINT_NAMES = fieldsOf<ChatCompletionConstraints>({ finishReason: true })
/** The constraints {@link chatChunk} takes; any other is refused. */
export const CHUNK_CONSTRAINT_NAMES = fieldsOf<ChatChunkConstraints>({ kind: true })
/** The constraints {@link generation} takes; any other is refused. */
export const GENERATION_CONSTRAINT_NAMES = fieldsOf<GenerationConstraints>({ streamed: true })

const FINISH_REASONS: readonly FinishReason[] = ['stop', 'length', 'tool_calls', 'content_filter', 'error']
const CHUNK_KINDS = ['delta', 'finish', 'usage', 'any'] as const

/** Options of {@link chatCompletion}. */
export interface ChatCompletionConstraints {
  /** The finish reason of every completion; default: any. */
  finishReason?: FinishReason | undefined
}

/** Options of {@link chatChunk}. */
export interface ChatChunkConstraints {
  /**
   * Which chunk of a stream: `'delta'` (text, reasoning or a tool call, `finish_reason` null),
   * `'finish'` (the chunk with the finish reason), `'usage'` (the finish chunk's choice again, and the usage); default `'any'`.
   */
  kind?: (typeof CHUNK_KINDS)[number] | undefined
}

/** Options of {@link generation}. */
export interface GenerationConstraints {
  /** Whether every generation was streamed; default: either. */
  streamed?: boolean | undefined
}

const ALNUM = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz']
const suffix = fc.string({ unit: fc.constantFrom(...ALNUM), minLength: 20, maxLength: 20 })
/** Text leaning to what breaks parsers and counters: empty, one character, unicode, newlines. */
const text = fc.oneof(fc.constant(''), fc.constantFrom('a', 'é', '🎉', '\n', 'Hello, world.'), fc.string({ maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 20 }))
const toolCall: fc.Arbitrary<ChatToolCall> = fc
  .record({ id: suffix.map((s) => `call_${s}`), name: fc.constantFrom('get_weather', 'lookup', 'f'), args: fc.constantFrom('{}', '{"id":1}', '{"q":"é"}') })
  .map(({ id, name, args }) => ({ type: 'function', index: 0, id, function: { name, arguments: args } }))
/** Instants of 2020 to 2030, whole milliseconds: `created` and `created_at` are written from them. */
const instant = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 11, 31, 23, 59, 59, 999) })

/**
 * The parts of one completion. Token counts lean to 0 and 1, reasoning and cached tokens to "all of
 * them"; built with `.map` only, so counterexamples shrink to a short reply with few tokens.
 */
function parts(finishReason?: FinishReason, streamed?: boolean): fc.Arbitrary<CompletionParts> {
  const count = fc.oneof(fc.constantFrom(0, 1), fc.integer({ min: 0, max: 200_000 }))
  return fc
    .record({
      suffix,
      provider: fc.constantFrom('OpenAI', 'Anthropic', 'Google', 'DeepInfra', 'Groq', 'Together', 'Fireworks'),
      model: fc.constantFrom('openai/gpt-4o-mini', 'anthropic/claude-sonnet-4.5', 'meta-llama/llama-3.3-70b-instruct', 'acme/model:free'),
      createdMs: instant,
      content: fc.option(text, { nil: null, freq: 8 }),
      reasoning: fc.option(text, { nil: null, freq: 2 }),
      // Each call's index is its place in the list, as the service numbers them.
      toolCalls: fc.array(toolCall, { maxLength: 2 }).map((calls) => calls.map((call, index) => ({ ...call, index }))),
      finishReason: finishReason === undefined ? fc.constantFrom(...FINISH_REASONS) : fc.constant(finishReason),
      promptTokens: count,
      completionTokens: count,
      reasoningShare: fc.oneof(fc.constantFrom(0, 1), fc.double({ min: 0, max: 1, noNaN: true })),
      cachedShare: fc.oneof(fc.constantFrom(0, 1), fc.double({ min: 0, max: 1, noNaN: true })),
      pricing: pricing({ maxOverrides: 3 }),
      streamed: streamed === undefined ? fc.boolean() : fc.constant(streamed),
      workspaceId: fc.option(fc.uuid({ version: 4 }), { nil: null, freq: 5 }),
      user: fc.option(fc.constantFrom('customer-1', 'é', ''), { nil: null }),
      latencyMs: fc.integer({ min: 0, max: 60_000 }),
      generationMs: fc.integer({ min: 0, max: 600_000 }),
    })
    .map(({ reasoningShare, cachedShare, ...rest }) => ({
      ...rest,
      reasoningTokens: Math.floor(rest.completionTokens * reasoningShare),
      cachedTokens: Math.floor(rest.promptTokens * cachedShare),
    }))
}

/**
 * Arbitrary answer of `POST /chat/completions` without `stream` the official SDK parses: an
 * assistant message (text, empty, null, with reasoning, with tool calls), any finish reason, token
 * counts that agree (`total_tokens` their sum, reasoning within completion, cached within prompt),
 * and `usage.cost` the exact cost of those tokens at an arbitrary pricing (windows, tiers, prices
 * "0") at the completion's instant, split in `cost_details` as the simulator splits it.
 *
 * @example
 * import fc from 'fast-check'
 * import { chatCompletion } from 'model-access-sim/arbitraries'
 * const samples = fc.sample(chatCompletion({ finishReason: 'length' }), { seed: 3, numRuns: 20 })
 * console.log(samples.every((c) => c.choices[0]?.finish_reason === 'length' && c.usage.total_tokens === c.usage.prompt_tokens + c.usage.completion_tokens))
 * //=> true
 */
export function chatCompletion(constraints: ChatCompletionConstraints = {}): fc.Arbitrary<ChatCompletion> {
  checkConstraints('chatCompletion', constraints, COMPLETION_CONSTRAINT_NAMES)
  if (constraints.finishReason !== undefined && !FINISH_REASONS.includes(constraints.finishReason)) {
    throw invalidConstraint('chatCompletion', 'finishReason', `finishReason must be one of ${FINISH_REASONS.join(', ')}, got ${JSON.stringify(constraints.finishReason)}`, 'pass one of them, or leave it out')
  }
  return parts(constraints.finishReason).map(completionOf)
}

/**
 * Arbitrary `data:` chunk of a streamed chat completion (`chat.completion.chunk`) the official SDK
 * parses: one of the chunks the simulator streams for an arbitrary completion (see
 * {@link chatCompletion}): a delta with `finish_reason: null`, the chunk with the finish reason, or
 * the last chunk, which repeats the finish chunk's choice and adds the usage.
 *
 * @example
 * import fc from 'fast-check'
 * import { chatChunk } from 'model-access-sim/arbitraries'
 * const [last] = fc.sample(chatChunk({ kind: 'usage' }), { seed: 1, numRuns: 1 })
 * console.log(last.object, last.choices.length, last.choices[0]?.finish_reason !== null, typeof last.usage?.cost)
 * //=> chat.completion.chunk 1 true number
 */
export function chatChunk(constraints: ChatChunkConstraints = {}): fc.Arbitrary<ChatChunk> {
  checkConstraints('chatChunk', constraints, CHUNK_CONSTRAINT_NAMES)
  const kind = constraints.kind ?? 'any'
  if (!CHUNK_KINDS.includes(kind)) throw invalidConstraint('chatChunk', 'kind', `kind must be one of ${CHUNK_KINDS.join(', ')}, got ${JSON.stringify(kind)}`, 'pass one of them, or leave it out')
  return fc.tuple(parts(), fc.nat()).map(([p, n]) => {
    const chunks = chunksOf(p)
    const deltas = chunks.slice(0, -2)
    if (kind === 'usage') return chunks.at(-1) as ChatChunk
    if (kind === 'finish') return chunks.at(-2) as ChatChunk
    if (kind === 'delta') return deltas[n % deltas.length] as ChatChunk
    return chunks[n % chunks.length] as ChatChunk
  })
}

/**
 * Arbitrary `data` of `GET /generation?id=` the official SDK parses: the record the simulator keeps
 * for an arbitrary completion (see {@link chatCompletion}), `total_cost` and `usage` its exact cost,
 * streamed or not, with one successful attempt in `provider_responses`.
 *
 * @example
 * import fc from 'fast-check'
 * import { generation } from 'model-access-sim/arbitraries'
 * const samples = fc.sample(generation({ streamed: false }), { seed: 2, numRuns: 20 })
 * console.log(samples.every((g) => g.streamed === false && g.total_cost === g.usage && /^gen-\d+-[A-Za-z0-9]{20}$/.test(g.id)))
 * //=> true
 */
export function generation(constraints: GenerationConstraints = {}): fc.Arbitrary<Generation> {
  checkConstraints('generation', constraints, GENERATION_CONSTRAINT_NAMES)
  if (constraints.streamed !== undefined && typeof constraints.streamed !== 'boolean') throw invalidConstraint('generation', 'streamed', `streamed must be a boolean, got ${JSON.stringify(constraints.streamed)}`, 'pass true or false, or leave it out')
  return parts(undefined, constraints.streamed).map(generationRecordOf)
}
