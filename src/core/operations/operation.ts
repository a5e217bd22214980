// What a row of the router's table is, and the responses operations build. Each file of this
// folder exports the rows of one resource; core/router.ts assembles them into the one table and does
// everything around them (routing, authentication, faults, rate limits, latency, the journal).
import type { Principal } from '../auth.js'
import type { UnknownFields } from '../body.js'
import type { GuardrailFlag, OperationName, SimRequest, SimResponse, StreamFrame } from '../protocol.js'
import type { RateLimit } from '../store/state.js'
import type { JsonPayload } from '../json-text.js'
import type { StoreContext } from '../store/context.js'
import type { InferenceRuntime } from '../inference/chat.js'
import type { ResponderState } from '../inference/responders.js'
import type { StreamSettle } from '../inference/settle.js'

/** Everything an operation is handed for one request. */
export interface Call<Caller> {
  ctx: StoreContext
  /** The path's `{name}` segments, percent-decoded. */
  params: Record<string, string>
  query: URLSearchParams
  principal: Caller
  request: SimRequest
  /** The simulator's `rateLimit` option: what a key without a rate limit of its own is held to (null: none). */
  defaultRateLimit: RateLimit | null
  /**
   * The request body as a JSON object: read (and refused with 400/413 naming `body`) on first call,
   * then the same object. Only operations that take a body call it.
   */
  json(): Record<string, unknown>
  /**
   * The body as {@link json} reads and refuses it, but deeply frozen and shared by every request
   * that sends the same text (parsed once, decisions/0063): for operations that only read their
   * body. Call one of the two, not both.
   */
  sharedJson(): Readonly<Record<string, unknown>>
  /**
   * What an inference request's readers do with a field they do not know: list it for the journal
   * entry's `ignoredFields`, or refuse it under the simulator's `strictRequests` (decisions/0036).
   * Hand it to the body's reader (`new BodyReader(call.json(), '', call.unknownFields)`); a
   * management body's reader takes none and refuses unknown fields always.
   */
  unknownFields: UnknownFields
  /** What the money path needs of its simulator: the seed, the responders, provider faults. */
  inference: InferenceRuntime
}

/** The HTTP methods the table routes. */
export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'

interface OperationBase {
  name: OperationName
  method: Method
  /** Path template; `{name}` captures one segment. */
  template: string
}

/**
 * One row of the table. A management operation runs only for a management key, so it is handed
 * the principal itself; a `'key'` operation needs any valid key; a public one (`false`) may be
 * anonymous.
 */
export type Operation =
  | (OperationBase & { auth: 'management'; run(call: Call<Principal>): SimResponse })
  | (OperationBase & { auth: 'key'; run(call: Call<Principal>): SimResponse })
  | (OperationBase & { auth: 'public'; run(call: Call<Principal | null>): SimResponse })

export const JSON_HEADERS = { 'content-type': 'application/json' } as const

/** A JSON answer built for this request alone (a write's answer, an error). */
export function jsonAnswer(status: number, body: unknown): SimResponse {
  return { status, headers: { ...JSON_HEADERS }, type: 'json', body }
}

/** A cached response's body: the payload until `body` is read or set, then the object. */
interface BodyState {
  payload: JsonPayload | undefined
  body: unknown
}

const BODY = Symbol('body')
type WithBody = { [BODY]: BodyState }

// One accessor pair for every cached response (not a closure each: this runs on every request).
function readBody(this: WithBody): unknown {
  const state = this[BODY]
  if (state.payload !== undefined) {
    state.body = state.payload.value()
    state.payload = undefined
  }
  return state.body
}
function writeBody(this: WithBody, value: unknown): void {
  const state = this[BODY]
  state.body = value
  state.payload = undefined
}
const BODY_ACCESSOR: PropertyDescriptor = { get: readBody, set: writeBody, enumerable: true, configurable: true }

/**
 * A response whose body is made from cached JSON: the adapters send the payload's text, and
 * `body` is built from the same records on first read (so a caller that never reads it never
 * pays for it). Once `body` is read or set, the payload is withdrawn: an edited body is what gets sent.
 */
export function payloadResponse(payload: JsonPayload, status = 200): SimResponse {
  const response = { status, headers: { ...JSON_HEADERS }, type: 'json' as const }
  Object.defineProperty(response, BODY, { value: { payload, body: undefined } satisfies BodyState })
  Object.defineProperty(response, 'body', BODY_ACCESSOR)
  return response as unknown as SimResponse
}

/**
 * A fact carried on a response under a symbol of its own, not enumerable, so the response stays
 * plain data (the journal clones it): set with `mark`, read with `of` (undefined when unmarked).
 */
function responseMark<T>(description: string): { mark(response: SimResponse, value: T): SimResponse; of(response: SimResponse): T | undefined } {
  const key = Symbol(description)
  return {
    mark(response, value) {
      Object.defineProperty(response, key, { value, enumerable: false })
      return response
    },
    of: (response) => (response as unknown as Record<symbol, T | undefined>)[key],
  }
}

const rebuildMark = responseMark<() => readonly StreamFrame[]>('stream frames made again')
const settleMark = responseMark<StreamSettle>('stream settle')
const responderMark = responseMark<ResponderState>('responder rule')

/**
 * Marks a stream answer whose frames `rebuild` makes again, byte for byte: the journal keeps that,
 * not the frames (a 100-chunk stream is some 30 KB of text; a thousand of them held for the journal
 * made garbage collection half of a streamed request's cost).
 */
export const withFrameRebuild: (response: SimResponse, rebuild: () => readonly StreamFrame[]) => SimResponse = rebuildMark.mark

/** How to make a stream answer's frames again, if it was marked so; else undefined. */
export const frameRebuildOf: (response: SimResponse) => (() => readonly StreamFrame[]) | undefined = rebuildMark.of

/**
 * Marks a stream answer with the settling of a client gone early: the router makes it the
 * response's `cancel`, which also journals the cut (decisions/0026, 0044).
 */
export const withSettle: (response: SimResponse, settle: StreamSettle) => SimResponse = settleMark.mark

/** The settling of a stream answer, if it was marked so; else undefined. */
export const settleOf: (response: SimResponse) => StreamSettle | undefined = settleMark.of

/** Marks the response a responder rule made (its reply, or its error), for the journal to name the rule (decisions/0027). */
export const withResponder: (response: SimResponse, rule: ResponderState) => SimResponse = responderMark.mark

const warningsMark = responseMark<string[]>('reply warnings')

/** Marks the response whose default reply could not satisfy the request's schemas, for the journal's `warnings` (decisions/0048). */
export const withWarnings: (response: SimResponse, warnings: string[]) => SimResponse = warningsMark.mark

/** What a response's reply could not satisfy, if anything; else undefined. */
export const warningsOf: (response: SimResponse) => string[] | undefined = warningsMark.of

const flagsMark = responseMark<GuardrailFlag[]>('guardrail flags')

/** Marks the response to a request a guardrail's content filter flagged, for the journal's `guardrailFlags` (decisions/0055). */
export const withGuardrailFlags: (response: SimResponse, flags: GuardrailFlag[]) => SimResponse = flagsMark.mark

/** What guardrails flagged of a response's request, if anything; else undefined. */
export const guardrailFlagsOf: (response: SimResponse) => GuardrailFlag[] | undefined = flagsMark.of

/** The responder rule that made a response, if one did; else undefined. */
export const responderOf: (response: SimResponse) => ResponderState | undefined = responderMark.of

/** The cached payload of a response, while its body has not been read or replaced; else undefined. */
export function payloadOf(response: SimResponse): JsonPayload | undefined {
  return (response as Partial<WithBody>)[BODY]?.payload
}

export const clone = <T>(value: T): T => structuredClone(value)
