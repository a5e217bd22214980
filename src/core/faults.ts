// Faults and latency: rules that make chosen requests fail, hang or wait. Both run on the
// simulator clock and a seeded random stream of their own, so a test that uses them replays
// exactly, and adding a fault never changes the ids the store generates. Rate limits are the
// store's (store/rate-limits.ts).
import { type CatalogNames, unknownProvider } from './store/models.js'
import { type OperationName, OPERATION_NAMES } from './protocol.js'
import { ApiError, type ErrorStatus, ERROR_MESSAGES, invalidArgument } from './errors.js'
import { Random } from './random.js'
import { describe } from './describe.js'
import { isJsonData } from './json-data.js'
import { ArgumentChecker, fieldsOf, withoutFields } from './store/check.js'
import { operationHint } from './operation-hint.js'
import type { RateLimit } from './store/state.js'


const MAX_DELAY_MS = 2 ** 31 - 1

/** What a fault answers: an error envelope with this status, a network error, or nothing ever. */
export type FaultResponse =
  | { status: number; message?: string | undefined; metadata?: Record<string, unknown> | undefined; headers?: Record<string, string> | undefined }
  | 'network-error'
  | 'never'

/** Which requests a fault rule is about. Every given criterion must hold; none given matches all. */
export interface FaultMatch {
  /** One operation or several. Requests outside the simulated operations match only rules without one. */
  operation?: OperationName | readonly OperationName[] | undefined
  /** The request path below the base URL, as sent (percent-encoded): a RegExp, or a string where `*` stands for any characters. */
  path?: string | RegExp | undefined
  /** The hash of the key whose secret the request bears. */
  keyHash?: string | undefined
  /**
   * A provider's name (`OpenAI`, any case): the rule makes that provider's attempts at inference
   * fail (a network error or silence counts as a 502), so the router falls back to the next
   * endpoint; it never answers a request itself (decisions/0024).
   */
  provider?: string | undefined
}

/** When a matching request is answered by the fault. */
export interface FaultTiming {
  /** Answer only the first matching request (same as `times: 1`). */
  once?: boolean | undefined
  /** Answer at most this many matching requests. */
  times?: number | undefined
  /** Skip matching requests before this one (1-based): `fromCall: 3` answers the third and later. */
  fromCall?: number | undefined
  /** Answer each eligible request with this probability, drawn from the simulator's seeded stream. */
  probability?: number | undefined
  /**
   * Fail mid-stream instead of up front: a streamed chat or text completion (`stream: true`) that the rule
   * matches starts, sends this many content chunks (0 or more), then an error chunk with the
   * rule's status and message and `finish_reason: "error"`, and ends; only what was sent is charged
   * (decisions/0026). Such a rule answers streamed completions only: other requests pass it by, and
   * its `respond` must be a status (not `"network-error"` or `"never"`).
   */
  afterChunks?: number | undefined
}

export interface FaultRule extends FaultMatch, FaultTiming {
  respond: FaultResponse
  /** A name for journals and `list()`; default `fault-<n>`. */
  name?: string | undefined
}

/** A mid-stream fault as the money path uses it: what the error chunk says, and after how many chunks. */
export interface StreamFault {
  name: string
  respond: Exclude<FaultResponse, string>
  afterChunks: number
}

/** A fault rule in place: how often it matched and answered, and how to take it out. */
export interface Fault {
  readonly name: string
  /** Matching requests seen so far, answered or not. */
  readonly matched: number
  /** Requests this fault answered. */
  readonly fired: number
  remove(): void
}

/**
 * `sim.faults`: rules that answer matching requests with an error, a network error or silence,
 * before the rate limiter, authentication and everything else.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator()
 * const fault = sim.faults.providerDown({ operation: 'getFileContent', fromCall: 2, once: true })
 * const download = () =>
 *   sim.handle({ method: 'GET', path: `/files/${sim.world.files.report}/content`, authorization: `Bearer ${sim.world.managementKey}` }).status
 * console.log(download(), download(), download(), fault.fired)
 * //=> 200 502 200 1
 */
export interface FaultControls {
  /** Adds a rule; rules are tried in the order added and the first that fires answers. */
  add(rule: FaultRule): Fault
  /** 502 "Provider returned error": the upstream provider is down. */
  providerDown(options?: (FaultMatch & FaultTiming) | null): Fault
  /** 503 "Service temporarily unavailable" with `Retry-After` (default 30 seconds). */
  serviceUnavailable(options?: (FaultMatch & FaultTiming & { retryAfterSeconds?: number | undefined }) | null): Fault
  /** 500 "Internal Server Error". */
  internalError(options?: (FaultMatch & FaultTiming) | null): Fault
  list(): Fault[]
  /** Removes every rule. */
  clear(): void
}

/** A delay of `ms` (or drawn uniformly from `[min, max]`), for one operation or for all. */
export interface LatencyRule {
  /** One operation or several; without it, the rule is the default for every request without a rule of its own. */
  operation?: OperationName | readonly OperationName[] | undefined
  ms: number | readonly [number, number]
  /**
   * Also wait that long in real time in the adapters (MSW, server). Without it the delay passes on
   * the simulator clock only, and nothing waits.
   */
  real?: boolean | undefined
}

/**
 * `sim.latency`: simulated delays. They pass on the simulator clock, so nothing waits unless a rule
 * says `real: true`.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator()
 * sim.latency.set({ operation: 'listVideoModels', ms: 1500 })
 * const res = sim.handle({ method: 'GET', path: '/videos/models' })
 * console.log(res.delayMs, sim.clock.now().toISOString())
 * //=> 1500 2026-03-02T10:00:01.500Z
 */
export interface LatencyControls {
  /** Sets the delay of one operation, of each of a list, or the default of all of them; the more specific rule wins. */
  set(rule: LatencyRule): void
  /** Back to no delay anywhere. */
  clear(): void
}

interface FaultState {
  rule: FaultRule
  name: string
  pathPattern: RegExp | undefined
  operations: ReadonlySet<OperationName> | undefined
  limit: number
  matched: number
  fired: number
}

/** What the router asks of the controls for one request. */
export interface RequestFacts {
  operation: OperationName | null
  path: string
  keyHash: string | null
}

function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`)
}

function checkOperations(value: unknown, operation: string): ReadonlySet<OperationName> | undefined {
  if (value === undefined) return undefined
  const list = Array.isArray(value) ? value : [value]
  if (list.length === 0) throw invalidArgument(operation, 'operation', `must name at least one of ${OPERATION_NAMES.join(', ')}; leave it out to match every request`)
  for (const name of list) {
    if (!OPERATION_NAMES.includes(name as OperationName)) {
      throw invalidArgument(operation, 'operation', `must be one of ${OPERATION_NAMES.join(', ')}, got ${describe(name)}${operationHint(name)}`)
    }
  }
  return new Set(list as OperationName[])
}

function checkCount(value: unknown, argument: string, operation: string, min: number): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw invalidArgument(operation, argument, `must be an integer of at least ${min}, got ${describe(value)}`)
  }
  return value
}

/** An HTTP header name (an RFC 9110 token) and a value a header can carry (no CR, LF or NUL). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/
const OWN_HEADERS: ReadonlySet<string> = new Set(['content-type', 'content-length', 'transfer-encoding', 'connection'])

/** The fields of each kind of rule and option: any other is refused, so a misspelt one cannot be ignored (decisions/0005). */
export const FAULT_RULE_FIELDS = fieldsOf<FaultRule>({ operation: true, path: true, keyHash: true, provider: true, once: true, times: true, fromCall: true, probability: true, afterChunks: true, respond: true, name: true })
export const PRESET_FIELDS = withoutFields<FaultRule>(FAULT_RULE_FIELDS, 'respond', 'name')
export const SERVICE_UNAVAILABLE_FIELDS: ReadonlySet<string> = new Set([...PRESET_FIELDS, 'retryAfterSeconds'])
export const RESPONSE_FIELDS = fieldsOf<Exclude<FaultResponse, string>>({ status: true, message: true, metadata: true, headers: true })
export const LATENCY_RULE_FIELDS = fieldsOf<LatencyRule>({ operation: true, ms: true, real: true })

/** Checks what a fault answers with, and returns a copy of it the caller can no longer change. */
function checkResponse(respond: unknown, operation: string): FaultResponse {
  if (respond === 'network-error' || respond === 'never') return respond
  if (typeof respond !== 'object' || respond === null || Array.isArray(respond)) {
    throw invalidArgument(operation, 'respond', `must be { status: 400..599, message?, metadata?, headers? }, "network-error" or "never", got ${describe(respond)}`)
  }
  new ArgumentChecker(operation).knownFields(respond, RESPONSE_FIELDS, 'respond', 'a fault response')
  const status = (respond as { status?: unknown }).status
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599) {
    throw invalidArgument(operation, 'respond.status', `must be an error status, an integer from 400 to 599, got ${describe(status)}`)
  }
  const { message, metadata, headers } = respond as { message?: unknown; metadata?: unknown; headers?: unknown }
  if (message !== undefined && (typeof message !== 'string' || message === '')) throw invalidArgument(operation, 'respond.message', `must be a non-empty string, got ${describe(message)}`)
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
  // The envelope's metadata is an object on the wire; anything else breaks the clients that parse it.
  if (metadata !== undefined && !(isObject(metadata) && isJsonData(metadata))) {
    throw invalidArgument(operation, 'respond.metadata', `must be an object of JSON data, got ${describe(metadata)}`)
  }
  if (headers !== undefined) {
    const names = new Set<string>()
    if (!isObject(headers) || Object.getPrototypeOf(headers) !== Object.prototype) throw invalidArgument(operation, 'respond.headers', `must be an object of header names and values, got ${describe(headers)}`)
    for (const [name, value] of Object.entries(headers)) {
      if (!HEADER_NAME.test(name)) throw invalidArgument(operation, 'respond.headers', `has a name that is not an HTTP header name: ${describe(name)}`)
      if (names.has(name.toLowerCase())) throw invalidArgument(operation, 'respond.headers', `names the header ${describe(name)} twice (header names ignore case)`)
      names.add(name.toLowerCase())
      // The envelope's own framing: a fault changes what the error says, not how its JSON is sent.
      if (OWN_HEADERS.has(name.toLowerCase())) throw invalidArgument(operation, 'respond.headers', `may not set ${describe(name)}: the answer is always a JSON error envelope`)
      if (typeof value !== 'string' || !HEADER_VALUE.test(value)) throw invalidArgument(operation, `respond.headers`, `has a value for ${describe(name)} that is not a header value (a string without CR, LF or NUL): ${describe(value)}`)
    }
  }
  return {
    status,
    ...(message !== undefined && { message }),
    ...(metadata !== undefined && { metadata: structuredClone(metadata) as Record<string, unknown> }),
    ...(headers !== undefined && { headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value as string])) }),
  }
}

/** A preset's options: none, null (the same as none) or an options object. */
function presetOptions<T extends object>(options: T | null | undefined, operation: string, known = PRESET_FIELDS): T {
  if (options === undefined || options === null) return {} as T
  if (typeof options !== 'object' || Array.isArray(options)) throw invalidArgument(operation, 'options', `must be an options object, got ${describe(options)}`)
  new ArgumentChecker(operation).knownFields(options, known, '', 'the options of a preset fault')
  return options
}

/** Faults, latency and the controls' random stream: test-harness state, outside snapshots (decisions/0010 in the repository). */
export class Controls {
  private faultStates: FaultState[] = []
  private latencyRules = new Map<OperationName | '*', { ms: number | readonly [number, number]; real: boolean }>()
  private random: Random
  private nextFault = 1

  constructor(
    private readonly seed: number,
    readonly defaultRateLimit: RateLimit | null,
    /** The store's names, so that a rule naming a provider no endpoint has is refused. */
    private readonly names?: CatalogNames,
  ) {
    this.random = new Random((seed ^ 0x5eed_f00d) >>> 0)
  }

  /** Back to no faults, no latency and the initial random stream. */
  reset(): void {
    this.faultStates = []
    this.latencyRules.clear()
    this.random = new Random((this.seed ^ 0x5eed_f00d) >>> 0)
    this.nextFault = 1
  }

  readonly faults: FaultControls = {
    add: (rule) => this.addFault(rule, 'add a fault'),
    providerDown: (options) => {
      const operation = 'add the provider-down fault'
      return this.addFault({ name: 'provider-down', ...presetOptions(options, operation), respond: { status: 502 } }, operation)
    },
    serviceUnavailable: (options) => {
      const operation = 'add the service-unavailable fault'
      const { retryAfterSeconds = 30, ...rest } = presetOptions(options, operation, SERVICE_UNAVAILABLE_FIELDS)
      checkCount(retryAfterSeconds, 'retryAfterSeconds', operation, 0)
      return this.addFault({ name: 'service-unavailable', ...rest, respond: { status: 503, headers: { 'retry-after': String(retryAfterSeconds) } } }, operation)
    },
    internalError: (options) => {
      const operation = 'add the internal-error fault'
      return this.addFault({ name: 'internal-error', ...presetOptions(options, operation), respond: { status: 500 } }, operation)
    },
    list: () => this.faultStates.map((state) => this.view(state)),
    clear: () => {
      this.faultStates = []
    },
  }

  readonly latency: LatencyControls = {
    set: (rule) => {
      const operation = 'set latency'
      if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) throw invalidArgument(operation, 'rule', `must be { operation?, ms, real? }, got ${describe(rule)}`)
      new ArgumentChecker(operation).knownFields(rule, LATENCY_RULE_FIELDS, '', 'a latency rule', 'rule')
      const operations = checkOperations(rule.operation, operation)
      const ms = rule.ms
      // The longest delay a timer can wait (setTimeout overflows past 2^31 - 1 ms, about 24.8 days).
      const valid = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_DELAY_MS
      if (Array.isArray(ms) && ms.length === 2 && valid(ms[0]) && valid(ms[1]) && ms[0] > ms[1]) {
        throw invalidArgument(operation, 'ms', `is a [min, max] range whose min (${ms[0]}) is above its max (${ms[1]}): give [${ms[1]}, ${ms[0]}]`)
      }
      if (Array.isArray(ms) ? !(ms.length === 2 && valid(ms[0]) && valid(ms[1])) : !valid(ms)) {
        const shown = Array.isArray(ms) && ms.length <= 4 ? `[${ms.map((item: unknown) => describe(item)).join(', ')}]` : describe(ms)
        throw invalidArgument(operation, 'ms', `must be a whole number of milliseconds in [0, ${MAX_DELAY_MS}] or a [min, max] range of them, got ${shown}`)
      }
      if (rule.real !== undefined && typeof rule.real !== 'boolean') throw invalidArgument(operation, 'real', 'must be a boolean')
      const delay = { ms: Array.isArray(ms) ? ([ms[0], ms[1]] as const) : (ms as number), real: rule.real ?? false }
      for (const name of operations ?? ['*' as const]) this.latencyRules.set(name, delay)
    },
    clear: () => this.latencyRules.clear(),
  }

  private addFault(rule: FaultRule, operation: string): Fault {
    if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) throw invalidArgument(operation, 'rule', `must be a fault rule object, got ${describe(rule)}`)
    new ArgumentChecker(operation).knownFields(rule, FAULT_RULE_FIELDS, '', 'a fault rule', 'rule')
    const respond = checkResponse(rule.respond, operation)
    const operations = checkOperations(rule.operation, operation)
    if (rule.path !== undefined && typeof rule.path !== 'string' && !(rule.path instanceof RegExp)) {
      throw invalidArgument(operation, 'path', 'must be a string pattern (with * for any characters) or a RegExp')
    }
    if (rule.keyHash !== undefined && typeof rule.keyHash !== 'string') throw invalidArgument(operation, 'keyHash', 'must be a key hash')
    if (rule.provider !== undefined && (typeof rule.provider !== 'string' || rule.provider === '')) throw invalidArgument(operation, 'provider', `must be a provider's name such as "OpenAI", got ${describe(rule.provider)}`)
    if (rule.provider !== undefined && this.names !== undefined && this.names.provider(rule.provider) === undefined) throw invalidArgument(operation, 'provider', unknownProvider(this.names, rule.provider))
    const times = checkCount(rule.times, 'times', operation, 1)
    checkCount(rule.fromCall, 'fromCall', operation, 1)
    if (checkCount(rule.afterChunks, 'afterChunks', operation, 0) !== undefined) {
      if (typeof respond === 'string') throw invalidArgument(operation, 'respond', `must be { status, message?, metadata? } with afterChunks: a mid-stream error is an error chunk, got ${describe(respond)}`)
      if (operations !== undefined && !operations.has('createChatCompletion') && !operations.has('createCompletion')) {
        throw invalidArgument(operation, 'afterChunks', `applies to streamed completions only; the rule's operation must include createChatCompletion or createCompletion, got ${describe(rule.operation)}`)
      }
    }
    if (rule.once !== undefined && typeof rule.once !== 'boolean') throw invalidArgument(operation, 'once', 'must be a boolean')
    if (rule.once && times !== undefined && times !== 1) throw invalidArgument(operation, 'times', 'contradicts once: true')
    const p = rule.probability
    if (p !== undefined && (typeof p !== 'number' || !(p >= 0 && p <= 1))) throw invalidArgument(operation, 'probability', `must be a number in [0, 1], got ${describe(p)}`)
    if (rule.name !== undefined && (typeof rule.name !== 'string' || rule.name === '')) throw invalidArgument(operation, 'name', 'must be a non-empty string')
    const state: FaultState = {
      rule: { ...rule, respond },
      name: rule.name ?? `fault-${this.nextFault}`,
      pathPattern: rule.path === undefined ? undefined : typeof rule.path === 'string' ? globToRegExp(rule.path) : new RegExp(rule.path.source, rule.path.flags.replace(/[gy]/g, '')),
      operations,
      limit: rule.once ? 1 : (times ?? Number.POSITIVE_INFINITY),
      matched: 0,
      fired: 0,
    }
    this.nextFault++
    this.faultStates.push(state)
    return this.view(state)
  }

  private view(state: FaultState): Fault {
    const remove = (): void => {
      this.faultStates = this.faultStates.filter((s) => s !== state)
    }
    return {
      name: state.name,
      get matched() {
        return state.matched
      },
      get fired() {
        return state.fired
      },
      remove,
    }
  }

  /**
   * The rest of a rule's match (its path, its key) for a request its operation or provider matched;
   * a request it matches is counted. Whether the rule answers it: not when another rule already
   * does (`taken`), past its `times`, before its `fromCall`, or when its probability says no.
   */
  private fires(state: FaultState, facts: { path: string; keyHash: string | null }, taken: boolean): boolean {
    const { rule } = state
    if (state.pathPattern && !state.pathPattern.test(facts.path)) return false
    if (rule.keyHash !== undefined && rule.keyHash !== facts.keyHash) return false
    state.matched++
    if (taken || state.fired >= state.limit || state.matched < (rule.fromCall ?? 1)) return false
    if (rule.probability !== undefined && !(this.random.float() < rule.probability)) return false
    state.fired++
    return true
  }

  /** The fault that answers this request, if any; counts the request against every matching rule. */
  pickFault(facts: RequestFacts): { name: string; respond: FaultResponse } | null {
    let answer: { name: string; respond: FaultResponse } | null = null
    for (const state of this.faultStates) {
      const { rule } = state
      // A provider's fault is for that provider's attempts (pickProviderFault), not for the request;
      // a mid-stream fault is for a stream once it has started (pickStreamFault).
      if (rule.provider !== undefined || rule.afterChunks !== undefined) continue
      if (state.operations && (facts.operation === null || !state.operations.has(facts.operation))) continue
      if (this.fires(state, facts, answer !== null)) answer = { name: state.name, respond: rule.respond }
    }
    return answer
  }

  /**
   * The fault that makes a provider fail one attempt at inference, if any: the rules with a
   * `provider`, tried in the order added, counted like the others.
   */
  pickProviderFault(facts: InferenceFacts): { name: string; respond: FaultResponse } | null {
    let answer: { name: string; respond: FaultResponse } | null = null
    for (const state of this.faultStates) {
      const { rule } = state
      if (rule.afterChunks !== undefined || rule.provider === undefined || rule.provider.toLowerCase() !== facts.provider.toLowerCase()) continue
      if (!takesInference(state.operations, facts.operation)) continue
      if (this.fires(state, facts, answer !== null)) answer = { name: state.name, respond: rule.respond }
    }
    return answer
  }

  /**
   * The mid-stream fault (a rule with `afterChunks`) that cuts a streamed completion answered by
   * this provider, if any: tried in the order added, counted like the others.
   */
  pickStreamFault(facts: InferenceFacts): StreamFault | null {
    let answer: StreamFault | null = null
    for (const state of this.faultStates) {
      const { rule } = state
      if (rule.afterChunks === undefined) continue
      if (rule.provider !== undefined && rule.provider.toLowerCase() !== facts.provider.toLowerCase()) continue
      if (!takesInference(state.operations, facts.operation)) continue
      if (this.fires(state, facts, answer !== null)) answer = { name: state.name, respond: rule.respond as Exclude<FaultResponse, string>, afterChunks: rule.afterChunks }
    }
    return answer
  }

  /** The delay of one request: the operation's rule, else the default rule, else none. */
  delayFor(operation: OperationName | null): { ms: number; real: boolean } {
    const rule = (operation === null ? undefined : this.latencyRules.get(operation)) ?? this.latencyRules.get('*')
    if (!rule) return NO_DELAY
    const ms = Array.isArray(rule.ms) ? rule.ms[0] + Math.floor(this.random.float() * (rule.ms[1] - rule.ms[0] + 1)) : (rule.ms as number)
    return { ms, real: rule.real }
  }
}

/** What a provider or mid-stream fault is matched on: the attempt's provider, the caller, the request. */
export interface InferenceFacts {
  provider: string
  keyHash: string
  path: string
  operation: OperationName
}

/**
 * Whether a provider or mid-stream rule's operations take an inference request of `operation`: a
 * rule without operations takes every one; one naming `createChatCompletion` also takes the
 * Responses and embeddings requests (as it always has); any other named operation takes its own
 * requests (decisions/0039).
 */
function takesInference(operations: ReadonlySet<OperationName> | undefined, operation: OperationName): boolean {
  if (operations === undefined || operations.has(operation)) return true
  return operation !== 'createCompletion' && operations.has('createChatCompletion')
}

/** No latency rule: shared, never written. */
const NO_DELAY: { ms: number; real: boolean } = Object.freeze({ ms: 0, real: false })

/** The error a fault answers with, as the router throws it. */
export function faultError(respond: Exclude<FaultResponse, 'network-error' | 'never'>): ApiError {
  const status = respond.status as ErrorStatus
  return new ApiError(status, {
    message: respond.message ?? (ERROR_MESSAGES as Record<number, string>)[status] ?? 'Error',
    ...(respond.metadata && { metadata: respond.metadata }),
    ...(respond.headers && { headers: respond.headers }),
  })
}
