// Step 5 of the money path, when no responder answers: the reply a model would give to what the
// request asks (decisions/0048). A tool call whose arguments are valid against the tool's JSON
// Schema when the request makes or lets the model call one; JSON valid against the answer's schema;
// reasoning for the endpoints that reason; text otherwise (reply.ts). Every part is a function of
// the simulator's seed, the model, the messages and what the request asks, so the same request
// gets the same reply whatever came before it.
import { type CompiledSchema, generateValue, uint32Source } from '../schema/index.js'
import type { ReplyDemands, DeclaredTool, Effort, ReasoningAsk } from './demands.js'
import { defaultReply, fold, replyHash } from './reply.js'
import type { ChatInput } from './request.js'
import { CHARS_PER_TOKEN } from './tokens.js'

/** How default replies behave in one simulator (`createSimulator({ replies })`). */
export interface ReplyOptions {
  /**
   * With tools and `tool_choice` "auto" (or none): the model calls a tool while the conversation
   * since the last user turn holds fewer than this many assistant turns, and answers text after.
   * 1 (the default): a call, then text after the tool's result, so an agent loop ends after one
   * round. 0: never a call unless the request requires one.
   */
  toolRounds: number
  // A new option changes replies: it must join the key of the replies `composeReply` keeps.
}

export const DEFAULT_REPLY_OPTIONS: ReplyOptions = Object.freeze({ toolRounds: 1 })

/** How a model's reasoning reaches the caller: as its provider sends it (decisions/0048). */
export interface ReasoningStyle {
  /** `reasoning.text` entries, or `reasoning.summary` ones (OpenAI's models show a summary). */
  readonly kind: 'text' | 'summary'
  /** `reasoning_details[].format`. */
  readonly format: string
  /** An opaque `reasoning.encrypted` entry follows (OpenAI, Google). */
  readonly encrypted: boolean
  /** Text entries carry a `signature` (Anthropic). */
  readonly signed: boolean
  /** The reasoning's hash, for its opaque parts. */
  readonly seal: number
}

/** A reply's reasoning: the text shown (null when excluded) and the tokens billed (shown or not). */
export interface ComposedReasoning {
  text: string | null
  tokens: number
  style: ReasoningStyle
}

/** The default reply to a request. */
export interface Composed {
  content: string | null
  /** At most one call (decisions/0048); ids are the caller's. */
  toolCalls: { name: string; arguments: string }[]
  reasoning: ComposedReasoning | null
  /** What the schema generator could not satisfy; the journal lists them. */
  warnings: string[]
}

/** What the endpoint that answers can do, as its `supported_parameters` say. */
export interface EndpointAbilities {
  reasoning: boolean
}

const STX = '\u0002'

/** The seed a request's reply is made from: the simulator's, varied by the request's `seed`. */
export function requestSeed(seed: number, demands: ReplyDemands): number {
  return demands.seed === null ? seed : fold((0x811c9dc5 ^ seed) >>> 0, `${STX}seed${STX}${demands.seed}`)
}

/** Verbs tool names start with: they name what a tool does to its subject, not which subject, so they choose no tool. */
const GENERIC_WORDS: ReadonlySet<string> = new Set(['get', 'set', 'list', 'fetch', 'find', 'lookup', 'look', 'search', 'create', 'update', 'delete', 'read', 'write', 'query', 'run', 'call', 'make', 'tool', 'function', 'check', 'send', 'add', 'remove'])

/** The words of a tool's name (`get_weather`, `lookupOrder`), lowercase, without the generic verbs. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 3 && !GENERIC_WORDS.has(word))
}

/**
 * The tool the last user turn names, else the first declared. A turn names a tool by its name
 * (`get_weather`, or `get weather`; the earliest mention wins), else by the words of its name
 * (`weather`, `order`: the tool with the most of them, the first declared on a tie).
 */
function namedTool(tools: readonly DeclaredTool[], lastUser: string | null): DeclaredTool {
  if (lastUser !== null && tools.length > 1) {
    const text = lastUser.toLowerCase()
    let best: DeclaredTool | undefined
    let at = Number.POSITIVE_INFINITY
    for (const tool of tools) {
      const name = tool.name.toLowerCase()
      for (const form of [name, name.replace(/[_-]+/g, ' ')]) {
        const found = text.indexOf(form)
        if (found !== -1 && found < at) {
          at = found
          best = tool
        }
      }
    }
    if (best !== undefined) return best
    const said = new Set(text.split(/[^a-z0-9]+/))
    let most = 0
    for (const tool of tools) {
      const count = nameWords(tool.name).filter((word) => said.has(word) || said.has(`${word}s`)).length
      if (count > most) {
        most = count
        best = tool
      }
    }
    if (best !== undefined) return best
  }
  return tools[0] as DeclaredTool
}

/** The tool the reply calls, or null for a text reply. */
export function toolToCall(demands: ReplyDemands, messages: ChatInput['messages'], options: ReplyOptions): DeclaredTool | null {
  const { tools, toolChoice } = demands
  if (tools.length === 0 || toolChoice === 'none') return null
  if (typeof toolChoice === 'object' && toolChoice !== null) return tools.find((tool) => tool.name === toolChoice.name) ?? null
  let lastUser = -1
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') {
      lastUser = i
      break
    }
  }
  if (toolChoice !== 'required') {
    let rounds = 0
    for (let i = lastUser + 1; i < messages.length; i++) if (messages[i]?.role === 'assistant') rounds++
    if (rounds >= options.toolRounds) return null
  }
  return namedTool(tools, lastUser === -1 ? null : (messages[lastUser] as ChatInput['messages'][number]).text)
}

/** A value valid against `schema` (null: any object, `{}`), drawn from `h` and `salt`, as JSON text. */
export function valueText(schema: CompiledSchema | null, h: number, salt: string, warnings: string[]): string {
  if (schema === null) return '{}'
  const seed = fold(h, salt)
  let bySeed = made.get(schema)
  if (bySeed === undefined) made.set(schema, (bySeed = new Map()))
  let value = bySeed.get(seed)
  if (value === undefined) {
    // The generator checks what it made against the schema, and warns when it is not valid.
    const drawn = generateValue(schema, uint32Source(seed))
    value = { text: JSON.stringify(drawn.value), warnings: drawn.warnings }
    if (bySeed.size >= MADE_LIMIT) bySeed.clear()
    bySeed.set(seed, value)
  }
  for (const warning of value.warnings) warnings.push(warning)
  return value.text
}

/**
 * Values made, by schema and by the seed they were drawn from. A value is a function of the two
 * alone, so a repeated request (a suite sends the same one again and again) is answered without
 * drawing it again; like reply.ts's caches, this holds nothing of any simulator.
 */
const made = new WeakMap<CompiledSchema, Map<number, { text: string; warnings: readonly string[] }>>()
const MADE_LIMIT = 256

/** The arguments of a call of `tool` in the reply to this request. */
export function toolArguments(tool: DeclaredTool, h: number, warnings: string[]): string {
  return valueText(tool.schema, h, `${STX}tool${STX}${tool.name}${STX}${tool.text}`, warnings)
}

/** The content of a reply in the request's format: JSON for its schema, a JSON object, or `text`. */
export function formatted(demands: ReplyDemands, h: number, text: () => string, warnings: string[]): string {
  const format = demands.format
  if (format === null) return text()
  if (format.type === 'json_object') return JSON.stringify({ answer: text() })
  return valueText(format.schema, h, `${STX}format${STX}${format.text}`, warnings)
}

/** Reasoning tokens by effort, without a completion cap. */
const EFFORT_TOKENS: Record<Effort, number> = { none: 0, minimal: 16, low: 48, medium: 128, high: 320, xhigh: 512, max: 768 }
/** The share of the completion cap reasoning may take, by effort, as the service documents its budgets. */
const EFFORT_SHARE: Record<Effort, number> = { none: 0, minimal: 0.1, low: 0.2, medium: 0.5, high: 0.8, xhigh: 0.9, max: 0.95 }

/** Whether the model reasons when the request says nothing: every reasoning model but Anthropic's, whose thinking is asked for. */
const reasonsUnasked = (model: string): boolean => !model.startsWith('anthropic/')

/** The reasoning tokens a request gets from an endpoint that reasons: 0 for none. */
export function reasoningTokens(ask: ReasoningAsk, model: string, completionCap: number | null): number {
  if (ask.enabled === false || ask.effort === 'none') return 0
  if (ask.enabled === null && ask.effort === null && ask.maxTokens === null && !reasonsUnasked(model)) return 0
  const effort = ask.effort ?? 'medium'
  let tokens = EFFORT_TOKENS[effort]
  if (completionCap !== null) tokens = Math.min(tokens, Math.floor(completionCap * EFFORT_SHARE[effort]))
  if (ask.maxTokens !== null) tokens = Math.min(tokens, ask.maxTokens)
  return Math.max(tokens, 0)
}

/** How the model's provider shows reasoning, by the model's author. */
export function reasoningStyle(model: string, seal: number): ReasoningStyle {
  const author = model.slice(0, model.indexOf('/'))
  if (author === 'openai') return { kind: 'summary', format: 'openai-responses-v1', encrypted: true, signed: false, seal }
  if (author === 'anthropic') return { kind: 'text', format: 'anthropic-claude-v1', encrypted: false, signed: true, seal }
  if (author === 'google') return { kind: 'text', format: 'google-gemini-v1', encrypted: true, signed: false, seal }
  if (author === 'x-ai') return { kind: 'text', format: 'xai-responses-v1', encrypted: false, signed: false, seal }
  return { kind: 'text', format: 'unknown', encrypted: false, signed: false, seal }
}

/** Words reasoning is made of. */
const THOUGHT_WORDS = [
  'first', 'consider', 'what', 'the', 'user', 'asks', 'then', 'check', 'each', 'step', 'against', 'the', 'request',
  'weigh', 'options', 'and', 'their', 'costs', 'so', 'the', 'answer', 'follows', 'from', 'facts', 'given', 'here',
  'note', 'limits', 'compare', 'cases', 'verify', 'assumptions', 'before', 'replying', 'clearly', 'plan', 'next',
] as const

/** Reasoning text of exactly `tokens` estimator tokens (4 characters each), drawn from `h`. */
export function thoughtText(h: number, tokens: number): string {
  const length = tokens * CHARS_PER_TOKEN
  const next = uint32Source(h)
  let text = 'Let me think.'
  while (text.length < length) text += ` ${THOUGHT_WORDS[next() % THOUGHT_WORDS.length]}`
  return text.slice(0, length)
}

/**
 * The default reply to a request served by `model` on an endpoint with `abilities`: a tool call
 * when the request requires one or lets the model call one (toolToCall), else content in the
 * request's format; reasoning first for an endpoint that reasons. The result is the caller's to
 * read, never to change: a repeated request may be given the same object (see `composed`).
 */
export function composeReply(seed: number, model: string, input: ChatInput, abilities: EndpointAbilities, options: ReplyOptions): Composed {
  // Only a shared body's input (decisions/0063) is frozen, and only it comes again.
  if (!Object.isFrozen(input)) return compose(seed, model, input, abilities, options)
  let kept = composed.get(input)
  if (kept !== undefined) {
    for (let i = 0; i < kept.length; i++) {
      const k = kept[i] as KeptReply
      if (k.seed === seed && k.model === model && k.reasoning === abilities.reasoning && k.toolRounds === options.toolRounds) return k.reply
    }
  } else composed.set(input, (kept = []))
  const reply = compose(seed, model, input, abilities, options)
  // A reply with warnings is made again each time: the journal's entry gets its own list.
  if (reply.warnings.length > 0) return reply
  if (kept.length >= KEPT_PER_INPUT) kept.length = 0
  for (const call of reply.toolCalls) Object.freeze(call)
  Object.freeze(reply.toolCalls)
  if (reply.reasoning !== null) Object.freeze(reply.reasoning)
  kept.push({ seed, model, reasoning: abilities.reasoning, toolRounds: options.toolRounds, reply: Object.freeze(reply) })
  return reply
}

interface KeptReply {
  seed: number
  model: string
  reasoning: boolean
  toolRounds: number
  reply: Composed
}

/**
 * Replies composed, by the frozen input they answer. A reply is a function of the seed, the model,
 * the input, the endpoint's abilities and the reply options alone, so a suite's repeated request
 * (the same body text, whose input is shared) is answered without folding its messages and tools
 * again; like the caches above, this holds nothing of any simulator, and an input no request holds
 * any longer takes its replies with it.
 */
const composed = new WeakMap<ChatInput, KeptReply[]>()
/** Replies kept per input: by seed, model and abilities, which a suite varies little. */
const KEPT_PER_INPUT = 8

function compose(seed: number, model: string, input: ChatInput, abilities: EndpointAbilities, options: ReplyOptions): Composed {
  const demands = input.demands
  const textSeed = requestSeed(seed, demands)
  const text = (): string => defaultReply(textSeed, model, input)
  const warnings: string[] = []
  const tokens = abilities.reasoning ? reasoningTokens(demands.reasoning, model, input.maxTokens) : 0
  // The parts made beside the text come from the request's hash (the format's and tools' texts are folded into each part's own).
  const h = tokens > 0 || demands.tools.length > 0 || demands.format !== null ? replyHash(textSeed, model, input.messages) : 0
  const reasoning: ComposedReasoning | null = tokens === 0 ? null : {
    text: demands.reasoning.exclude ? null : thoughtText(fold(h, `${STX}reasoning`), tokens),
    tokens,
    style: reasoningStyle(model, fold(h, `${STX}seal`)),
  }
  const tool = toolToCall(demands, input.messages, options)
  if (tool !== null) return { content: null, toolCalls: [{ name: tool.name, arguments: toolArguments(tool, h, warnings) }], reasoning, warnings }
  return { content: formatted(demands, h, text, warnings), toolCalls: [], reasoning, warnings }
}

/** The content cut before the first stop sequence it holds, or null when it holds none. */
export function cutAtStop(content: string, stop: readonly string[]): string | null {
  let at = -1
  for (const sequence of stop) {
    const found = content.indexOf(sequence)
    if (found !== -1 && (at === -1 || found < at)) at = found
  }
  return at === -1 ? null : content.slice(0, at)
}
