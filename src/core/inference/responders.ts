// Responders: rules a test sets to decide what the simulated model says (or which error a provider
// answers with). The first matching rule, newest first, answers; without one the pipeline makes a
// default reply. Test-harness state like faults: outside snapshots, cleared by `sim.reset()`.
import { type CatalogNames, unknownProvider } from '../store/models.js'
import { describe } from '../describe.js'
import { ApiError, type ErrorStatus, invalidArgument } from '../errors.js'
import { isJsonData } from '../json-data.js'
import { ArgumentChecker, fieldsOf } from '../store/check.js'
import { operationHint } from '../operation-hint.js'
import type { FinishReason } from './wire.js'

/** Which attempts a responder answers. Every given criterion must hold; none given matches all. */
export interface ResponderMatch {
  /** The model id being tried (`openai/gpt-4o`, or one of `models`' fallbacks). */
  model?: string | undefined
  /** The endpoint's provider name (`OpenAI`), compared without regard to case. */
  provider?: string | undefined
  /** The hash of the calling key. */
  keyHash?: string | undefined
  /** The last user message's text: a RegExp, or a string it must contain. */
  lastUserMessage?: string | RegExp | undefined
  /** `true`: the request declares tools; `false`: it declares none. */
  tools?: boolean | undefined
  /**
   * The operation the rule answers: `createChatCompletion`, `createResponses`, `createCompletion`
   * or `createEmbeddings`. A rule without it answers chat completions, Responses requests and text
   * completions alike (all are text replies; a text completion takes the reply's text and reasoning,
   * never its tool calls: decisions/0039), and never an embeddings request (decisions/0030), so
   * rules written for chat replies are not spent on vectors.
   */
  operation?: ResponderOperation | undefined
  /** An embeddings request's inputs: a RegExp one of them matches, or a string one of them contains. Needs `operation: 'createEmbeddings'`. */
  input?: string | RegExp | undefined
}

/** The operations a responder rule may name in `match.operation`. */
export type ResponderOperation = 'createChatCompletion' | 'createResponses' | 'createCompletion' | 'createEmbeddings'
const RESPONDER_OPERATIONS: readonly ResponderOperation[] = ['createChatCompletion', 'createResponses', 'createCompletion', 'createEmbeddings']

/** A tool call the reply makes. */
export interface ResponderToolCall {
  name: string
  /**
   * The arguments as the JSON text the model would write. Omitted: arguments valid against the
   * JSON Schema of the tool of that name the request declares, as a default reply's call has
   * (`{}` and a journal warning when the request declares no such tool).
   */
  arguments?: string | undefined
  /** Default: a `call_` id derived from the generation. */
  id?: string | undefined
}

/** What the simulated model answers. */
export interface ResponderReply {
  /** The assistant's text. Default: "" with tool calls, else the default reply's text. */
  content?: string | null | undefined
  /**
   * `true`: the content is JSON valid against the request's `response_format` schema (Responses:
   * `text.format`), a JSON object for `json_object`, or the default text without a format, as the
   * default reply makes it. Not with `content`.
   */
  structured?: boolean | undefined
  toolCalls?: readonly ResponderToolCall[] | undefined
  /** Reasoning text; its tokens count as completion tokens priced at `internal_reasoning`. */
  reasoning?: string | undefined
  /** Default: `tool_calls` when there are tool calls, else `stop` (`length` when `max_tokens` cuts the reply). */
  finishReason?: FinishReason | undefined
  /** Token counts that replace the estimator's (decisions/0024). */
  usage?: { promptTokens?: number | undefined; completionTokens?: number | undefined; reasoningTokens?: number | undefined; cachedTokens?: number | undefined } | undefined
  /**
   * Time to first token in milliseconds (a non-negative integer). Default: the endpoint's p50
   * `latency_last_30m`. It is the generation's `latency`, the stream's first offset, and the sample
   * the endpoint's latency statistics get (decisions/0025).
   */
  latencyMs?: number | undefined
  /** Tokens per second (a positive number). Default: the endpoint's p50 `throughput_last_30m`. Paces the stream and feeds the statistics. */
  tokensPerSecond?: number | undefined
}

/** An error the attempt answers with instead of a reply: the provider fails, and the router falls back. */
export interface ResponderError {
  /** An error status, 400 to 599. */
  status: number
  /** Default: the status's canonical message ("Provider returned error" for 502). */
  message?: string | undefined
  metadata?: Record<string, unknown> | undefined
}

/** A responder rule: `reply` or `error`, for the attempts `match` selects. */
export interface ResponderRule {
  match?: ResponderMatch | undefined
  reply?: ResponderReply | undefined
  error?: ResponderError | undefined
  /** Answer at most this many attempts, then step aside. Default: every one. */
  times?: number | undefined
  /** A name for `list()`, `remove()` and the journal's `responder`; default `responder-<n>`. */
  name?: string | undefined
}

/** A responder as `list()` shows it. */
export interface ResponderInfo {
  name: string
  /** Attempts it has answered. */
  used: number
  /** Attempts it may still answer; null without `times`. */
  remaining: number | null
}

/**
 * `sim.inference`: what the simulated models answer.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator()
 * const rule = sim.inference.respond({ match: { lastUserMessage: /refund/i }, reply: { content: 'Refunds take 5 days.' }, times: 1 })
 * const ask = (text: string) =>
 *   sim.handle({
 *     method: 'POST',
 *     path: '/chat/completions',
 *     authorization: `Bearer ${sim.world.apiKey}`,
 *     body: JSON.stringify({ model: 'openai/gpt-4.1-mini', messages: [{ role: 'user', content: text }] }),
 *   }).body as { choices: { message: { content: string } }[] }
 * console.log(rule.name, ask('Where is my REFUND?').choices[0]?.message.content)
 * console.log(sim.inference.responders.list())
 * // The journal names the rule that answered each request (null: the default reply).
 * ask('Hello')
 * console.log(sim.journal.list().map((e) => [e.responder, e.responderRemaining]))
 * //=> responder-1 Refunds take 5 days.
 * //=> [{"name":"responder-1","used":1,"remaining":0}]
 * //=> [["responder-1",0],[null,null]]
 */
export interface InferenceControls {
  /** Adds a rule; the newest matching rule answers first. Returns its name. */
  respond(rule: ResponderRule): { name: string }
  readonly responders: {
    list(): ResponderInfo[]
    /** Removes the rules of that name; an unknown name changes nothing. */
    remove(name: string): void
    clear(): void
  }
}

/** What an attempt is, as responders match it. */
export interface AttemptFacts {
  model: string
  provider: string
  keyHash: string
  lastUserMessage: string | null
  hasTools: boolean
  /** The operation; absent: `createChatCompletion`. */
  operation?: ResponderOperation
  /** An embeddings request's input texts. */
  inputs?: readonly string[]
}

/** A rule as the simulator keeps it: what `pick` returns, and what the journal names (the rule a response carries, operations/operation.ts). */
export interface ResponderState {
  readonly name: string
  readonly rule: ResponderRule
  readonly pattern: RegExp | undefined
  readonly inputPattern: RegExp | undefined
  /** `times`, or Infinity. */
  readonly limit: number
  used: number
}

/** Attempts the rule may still answer; null when it has no `times`. */
export function remainingUses(state: ResponderState): number | null {
  return state.limit === Number.POSITIVE_INFINITY ? null : state.limit - state.used
}

export const RULE_FIELDS = fieldsOf<ResponderRule>({ match: true, reply: true, error: true, times: true, name: true })
export const MATCH_FIELDS = fieldsOf<ResponderMatch>({ model: true, provider: true, keyHash: true, lastUserMessage: true, tools: true, operation: true, input: true })
export const REPLY_FIELDS = fieldsOf<ResponderReply>({ content: true, structured: true, toolCalls: true, reasoning: true, finishReason: true, usage: true, latencyMs: true, tokensPerSecond: true })
export const ERROR_FIELDS = fieldsOf<ResponderError>({ status: true, message: true, metadata: true })
export const TOOL_CALL_FIELDS = fieldsOf<ResponderToolCall>({ name: true, arguments: true, id: true })
export const USAGE_FIELDS: ReadonlySet<string> = new Set(['promptTokens', 'completionTokens', 'reasoningTokens', 'cachedTokens'])
const FINISH_REASONS: readonly FinishReason[] = ['stop', 'length', 'tool_calls', 'content_filter', 'error']

const OPERATION = 'add a responder'

/**
 * A rule checked as `sim.inference.respond` checks it; throws a SimulatorError naming the field
 * (`match.model`). With `names`, a model or provider the store does not have is refused too.
 */
export function checkRule(rule: unknown, names?: CatalogNames): ResponderRule {
  const check: ArgumentChecker = new ArgumentChecker(OPERATION)
  const given = check.object(rule, 'rule') as ResponderRule
  check.knownFields(given, RULE_FIELDS, '', 'a responder rule', 'rule')
  if ((given.reply === undefined) === (given.error === undefined)) check.fail('rule', 'must have exactly one of `reply` and `error`')
  if (given.match !== undefined) {
    const match = check.object(given.match, 'match') as ResponderMatch
    check.knownFields(match, MATCH_FIELDS, 'match', 'a responder match')
    for (const name of ['model', 'provider', 'keyHash'] as const) if (match[name] !== undefined) check.string(match[name], `match.${name}`)
    if (names !== undefined && match.model !== undefined && !names.hasModel(match.model)) {
      check.fail('match.model', `names no model of this simulator, got ${JSON.stringify(match.model)}: a rule matches the model a request is served by (a variant such as ":nitro" is served by its base model); create the model first`)
    }
    if (names !== undefined && match.provider !== undefined && names.provider(match.provider) === undefined) check.fail('match.provider', unknownProvider(names, match.provider))
    const last = match.lastUserMessage
    if (last !== undefined && typeof last !== 'string' && !(last instanceof RegExp)) check.fail('match.lastUserMessage', `must be a string or a RegExp, got ${describe(last)}`)
    if (match.tools !== undefined) check.boolean(match.tools, 'match.tools')
    if (match.operation !== undefined) check.oneOf(match.operation, RESPONDER_OPERATIONS, 'match.operation', (given) => operationHint(given, RESPONDER_OPERATIONS))
    const embeddings = match.operation === 'createEmbeddings'
    if (match.input !== undefined) {
      if (typeof match.input !== 'string' && !(match.input instanceof RegExp)) check.fail('match.input', `must be a string or a RegExp, got ${describe(match.input)}`)
      if (!embeddings) check.fail('match.input', "matches embeddings inputs only: give match.operation 'createEmbeddings' too")
    }
    // Criteria an embeddings request has no value for could never match it.
    if (embeddings && last !== undefined) check.fail('match.lastUserMessage', 'never matches an embeddings request, which has no messages')
    if (embeddings && match.tools !== undefined) check.fail('match.tools', 'never matches an embeddings request, which has no tools')
  }
  if (given.match?.operation === 'createEmbeddings' && given.reply !== undefined && typeof given.reply === 'object' && given.reply !== null) {
    // An embedding's only stated figure is its prompt tokens; text, tools and reasoning have no meaning there.
    for (const name of ['content', 'structured', 'toolCalls', 'reasoning', 'finishReason'] as const) {
      if (given.reply[name] !== undefined) check.fail(`reply.${name}`, 'has no meaning for an embeddings request: its reply may only state usage.promptTokens')
    }
    const usage = given.reply.usage
    if (typeof usage === 'object' && usage !== null) {
      for (const [name, value] of Object.entries(usage)) if (name !== 'promptTokens' && value !== undefined) check.fail(`reply.usage.${name}`, 'has no meaning for an embeddings request: its reply may only state usage.promptTokens')
    }
  }
  if (given.reply !== undefined) {
    const reply = check.object(given.reply, 'reply') as ResponderReply
    check.knownFields(reply, REPLY_FIELDS, 'reply', 'a responder reply')
    if (reply.content !== undefined && reply.content !== null && typeof reply.content !== 'string') check.fail('reply.content', `must be a string or null, got ${describe(reply.content)}`)
    if (reply.structured !== undefined) {
      check.boolean(reply.structured, 'reply.structured')
      if (reply.structured && reply.content !== undefined) check.fail('reply.structured', 'cannot go with `content`: the content is either given, or made valid for the request\'s format')
    }
    if (reply.reasoning !== undefined && typeof reply.reasoning !== 'string') check.fail('reply.reasoning', `must be a string, got ${describe(reply.reasoning)}`)
    if (reply.finishReason !== undefined) check.oneOf(reply.finishReason, FINISH_REASONS, 'reply.finishReason')
    if (reply.latencyMs !== undefined && (typeof reply.latencyMs !== 'number' || !Number.isSafeInteger(reply.latencyMs) || reply.latencyMs < 0)) {
      check.fail('reply.latencyMs', `must be a non-negative integer of milliseconds, got ${describe(reply.latencyMs)}`)
    }
    if (reply.tokensPerSecond !== undefined && (typeof reply.tokensPerSecond !== 'number' || !Number.isFinite(reply.tokensPerSecond) || reply.tokensPerSecond <= 0)) {
      check.fail('reply.tokensPerSecond', `must be a positive finite number, got ${describe(reply.tokensPerSecond)}`)
    }
    if (reply.toolCalls !== undefined) {
      if (!Array.isArray(reply.toolCalls)) check.fail('reply.toolCalls', `must be an array of { name, arguments?, id? }, got ${describe(reply.toolCalls)}`)
      reply.toolCalls.forEach((call, i) => {
        const at = `reply.toolCalls[${i}]`
        check.knownFields(check.object(call, at), TOOL_CALL_FIELDS, at, 'a tool call')
        check.string(call.name, `${at}.name`)
        if (call.arguments !== undefined && typeof call.arguments !== 'string') check.fail(`${at}.arguments`, `must be a string (the arguments as JSON text), or absent for arguments valid against the declared tool's schema, got ${describe(call.arguments)}`)
        if (call.id !== undefined) check.string(call.id, `${at}.id`)
      })
    }
    if (reply.usage !== undefined) {
      const usage = check.object(reply.usage, 'reply.usage')
      check.knownFields(usage, USAGE_FIELDS, 'reply.usage', 'a reply usage')
      for (const [name, value] of Object.entries(usage)) {
        // A count given as undefined is left out, as an absent one is: the estimate stands.
        if (value === undefined) continue
        if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) check.fail(`reply.usage.${name}`, `must be a non-negative integer, got ${describe(value)}`)
      }
      const { completionTokens, reasoningTokens, promptTokens, cachedTokens } = reply.usage
      if (completionTokens !== undefined && reasoningTokens !== undefined && reasoningTokens > completionTokens) check.fail('reply.usage.reasoningTokens', 'must not exceed completionTokens, which include them')
      if (promptTokens !== undefined && cachedTokens !== undefined && cachedTokens > promptTokens) check.fail('reply.usage.cachedTokens', 'must not exceed promptTokens, which include them')
    }
  }
  if (given.error !== undefined) {
    const error = check.object(given.error, 'error') as unknown as ResponderError
    check.knownFields(error, ERROR_FIELDS, 'error', 'a responder error')
    if (typeof error.status !== 'number' || !Number.isInteger(error.status) || error.status < 400 || error.status > 599) {
      check.fail('error.status', `must be an error status, an integer from 400 to 599, got ${describe(error.status)}`)
    }
    if (error.message !== undefined) check.string(error.message, 'error.message')
    if (error.metadata !== undefined && !(typeof error.metadata === 'object' && error.metadata !== null && !Array.isArray(error.metadata) && isJsonData(error.metadata))) {
      check.fail('error.metadata', `must be an object of JSON data, got ${describe(error.metadata)}`)
    }
  }
  if (given.times !== undefined) check.positiveInteger(given.times, 'times')
  if (given.name !== undefined) check.string(given.name, 'name')
  return given
}

/**
 * The error a responder rule's `error` made, when it is the request's answer: the same status,
 * message, metadata and headers, and the rule (`by`), which the journal names (decisions/0027).
 */
export class ResponderFailure extends ApiError {
  constructor(
    error: ApiError,
    readonly by: ResponderState,
  ) {
    super(error.status as ErrorStatus, { message: error.message, ...(error.metadata !== undefined && { metadata: error.metadata }), headers: error.headers })
  }
}

/** The responders of one simulator. */
export class Responders {
  /** `names`: the store's, so that a rule naming a model or provider it does not have is refused. */
  constructor(private readonly names?: CatalogNames) {}

  private states: ResponderState[] = []
  private next = 1
  reset(): void {
    this.states = []
    this.next = 1
  }

  readonly controls: InferenceControls = {
    respond: (rule) => {
      const checked = checkRule(rule, this.names)
      // A copy (RegExps included), so a later change to the caller's object changes nothing here.
      const copy = structuredClone(checked)
      const last = copy.match?.lastUserMessage
      const input = copy.match?.input
      const state: ResponderState = {
        name: checked.name ?? `responder-${this.next}`,
        rule: copy,
        pattern: last instanceof RegExp ? new RegExp(last.source, last.flags.replace(/[gy]/g, '')) : undefined,
        inputPattern: input instanceof RegExp ? new RegExp(input.source, input.flags.replace(/[gy]/g, '')) : undefined,
        limit: checked.times ?? Number.POSITIVE_INFINITY,
        used: 0,
      }
      this.next++
      this.states.unshift(state)
      return { name: state.name }
    },
    responders: {
      list: () => this.states.map((s) => ({ name: s.name, used: s.used, remaining: remainingUses(s) })),
      remove: (name) => {
        if (typeof name !== 'string') throw invalidArgument('remove a responder', 'name', `must be a responder's name, got ${describe(name)}`)
        this.states = this.states.filter((s) => s.name !== name)
      },
      clear: () => {
        this.states = []
      },
    },
  }

  /** Whether any responder has a rule of that name. */
  has(name: string): boolean {
    return this.states.some((s) => s.name === name)
  }

  /** The rule that answers this attempt, newest first, counting it as used; undefined when none does. */
  pick(facts: AttemptFacts): ResponderState | undefined {
    for (const state of this.states) {
      if (state.used >= state.limit) continue
      const match = state.rule.match
      // A rule that names an operation answers it alone; one that names none, chat and Responses (text replies).
      const operation = facts.operation ?? 'createChatCompletion'
      if (match?.operation === undefined ? operation === 'createEmbeddings' : match.operation !== operation) continue
      if (match !== undefined) {
        if (match.model !== undefined && match.model !== facts.model) continue
        if (match.provider !== undefined && match.provider.toLowerCase() !== facts.provider.toLowerCase()) continue
        if (match.keyHash !== undefined && match.keyHash !== facts.keyHash) continue
        if (match.tools !== undefined && match.tools !== facts.hasTools) continue
        const last = match.lastUserMessage
        if (last !== undefined) {
          if (facts.lastUserMessage === null) continue
          if (state.pattern !== undefined ? !state.pattern.test(facts.lastUserMessage) : !facts.lastUserMessage.includes(last as string)) continue
        }
        const input = match.input
        if (input !== undefined) {
          const pattern = state.inputPattern
          if (!(facts.inputs ?? []).some((text) => (pattern !== undefined ? pattern.test(text) : text.includes(input as string)))) continue
        }
      }
      state.used++
      return state
    }
    return undefined
  }
}

/** A responder rule from JSON (the control API, world files): `lastUserMessage` may be `{ regex, flags? }`. */
export function responderFromJson(value: unknown): ResponderRule {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value as ResponderRule
  let rule = value as ResponderRule & { match?: Record<string, unknown> }
  // `lastUserMessage` and `input` take the same JSON form of a RegExp.
  for (const field of ['lastUserMessage', 'input'] as const) {
    const given = rule.match?.[field]
    if (typeof given !== 'object' || given === null || Array.isArray(given)) continue
    const check: ArgumentChecker = new ArgumentChecker(OPERATION)
    check.knownFields(given, new Set(['regex', 'flags']), `match.${field}`, 'a regular expression')
    const { regex, flags } = given as { regex?: unknown; flags?: unknown }
    if (typeof regex !== 'string') check.fail(`match.${field}.regex`, `must be the pattern as a string, got ${describe(regex)}`)
    if (flags !== undefined && (typeof flags !== 'string' || !/^[dimsuv]*$/.test(flags))) check.fail(`match.${field}.flags`, `must be regular expression flags such as "i", got ${describe(flags)}`)
    let pattern: RegExp
    try {
      pattern = new RegExp(regex, (flags as string | undefined) ?? '')
    } catch (error) {
      check.fail(`match.${field}.regex`, `is not a valid regular expression (${error instanceof Error ? error.message : String(error)})`)
    }
    rule = { ...rule, match: { ...rule.match, [field]: pattern } }
  }
  return rule
}
