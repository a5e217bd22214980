import { type GuardrailFlag, type OperationName, type SimResponse, type StreamFrame, OPERATION_NAMES } from './protocol.js'
import { frameRebuildOf, payloadOf } from './operations/operation.js'
import type { Principal } from './auth.js'
import { ArgumentChecker, fieldsOf } from './store/check.js'
import { describe } from './describe.js'
import { operationHint } from './operation-hint.js'
import { type JsonPayload, utf8Length } from './json-text.js'

/** One request the simulator answered, and how. */
export interface JournalEntry {
  /** 1, 2, 3... in the order the requests arrived. */
  seq: number
  /** The simulator clock when the request arrived, ISO 8601. */
  at: string
  method: string
  /** Path below the base URL, as sent (percent-encoded). */
  path: string
  /** The query string, without the `?`. */
  query: string
  /**
   * The request body as text (bytes read as UTF-8, a bad sequence as U+FFFD), or null when it had
   * none. Kept whole when the request was answered below 400 for a caller whose key was valid; the
   * body of a refused request (any 4xx or 5xx answer) or of an unauthenticated one (no key, or
   * credentials that name none) is kept only up to its first 4 KiB (4,096 bytes, cut before a
   * character that does not fit whole): `requestBodyTruncated` says so, and `requestBodyBytes`
   * gives the whole length (decisions/0043 in the repository).
   */
  requestBody: string | null
  /** The request body's whole length in bytes (UTF-8 for a body given as a string), or null when it had none. Through the HTTP server, a body over the 16 MiB limit counts 16 MiB + 1 (the server keeps no more). */
  requestBodyBytes: number | null
  /** Whether `requestBody` holds only the first bytes of the body (a refused or unauthenticated request's, over 4 KiB). */
  requestBodyTruncated: boolean
  /** The operation the path names, or null for anything else (answered by the catch-all 404). */
  operation: OperationName | null
  /**
   * The HTTP status; 0 for a network error or a request never answered. A `'cut-short'` or
   * `'client-left'` entry keeps the status the simulator answered (200), which the client got
   * in full, in part, or not at all.
   */
  status: number
  /**
   * How the request ended (decisions/0044 in the repository); filter on it with `list({ outcome })`:
   * - `'response'`: the answer was made and, as far as the simulator knows, sent whole;
   * - `'network-error'`, `'never'`: a fault dropped the connection, or never answered;
   * - `'cut-short'`: a streamed answer the client left before its last frame (a `reader.cancel()`,
   *   an aborted fetch, a closed socket, or a socket closed during a `real` latency wait before
   *   the stream, with 0 frames sent): `cutShort` says what was sent and charged, and
   *   `response.body` holds only the frames sent;
   * - `'client-left'`: a non-streamed answer the client left during a `real` latency wait, before
   *   it was sent. It is charged whole, as the service charges a completion it generated.
   *
   * A client leaving is known only when an adapter reports it (the response's `cancel`), so an
   * entry turns `'cut-short'` or `'client-left'` after the request was journaled.
   */
  outcome: JournalOutcome
  /**
   * What a stream cut short (`outcome: 'cut-short'`) sent and was charged; null for every other
   * entry. `charged` equals its generation's `total_cost` (and what the key's usage grew by).
   */
  cutShort: CutShort | null
  /** The caller, when the bearer named a valid key (whatever the answer); null for anonymous or bad credentials. */
  principal: Principal | null
  /** The name of the fault that answered, if one did. */
  fault: string | null
  /**
   * The name of the responder rule (`sim.inference.respond`, `POST /__sim/responders`, a world
   * file's `responders`) whose answer this was: its reply, or its `error` when that error is what
   * the request got. Null when no rule answered: the default reply, a request refused before a
   * reply was made (authentication, validation, the key's limit, credits), a fault, the rate
   * limiter, and every operation other than chat and text completions, Responses and embeddings. A rule is
   * named as `sim.inference.responders.list()` names it (`responder-<n>` unless it was given a
   * `name`); filter on it with `list({ responder })`.
   */
  responder: string | null
  /**
   * The uses that rule had left once it answered this request (`remaining` of
   * `sim.inference.responders.list()` at that moment): 0 on the entry of its last use. Null when
   * the rule has no `times` limit, or when no rule answered.
   */
  responderRemaining: number | null
  /** Whether the rate limiter answered (429). */
  rateLimited: boolean
  /** Simulated latency, in milliseconds. */
  delayMs: number
  /**
   * The paths of the fields of an inference request's body (`/chat/completions`, `/responses`,
   * `/embeddings`) that are neither in the official SDK's request schema nor among the fields
   * real clients send (decisions/0036): accepted and without effect, as the real service does,
   * and listed here so that a test can catch a typo (`temprature`, `messages[1].nmae`,
   * `provider.ordr`), in the order the body was read. Empty when there were none, for every
   * other operation, and under `strictRequests` (which refuses them with a 400 instead). Filter
   * on it with `list({ hasIgnoredFields: true })`.
   */
  ignoredFields: string[]
  /**
   * What a default reply could not satisfy of the request's JSON Schemas (a tool's parameters, a
   * structured-output schema): a contradictory `allOf`, a pattern feature the generator does not
   * support, ... The reply is then a best effort (decisions/0046, 0048 in the repository). Empty for
   * every reply that satisfied them, and for every other request. Filter on it with
   * `list({ hasWarnings: true })`.
   */
  warnings: string[]
  /**
   * What the content filters of the guardrails that govern the request flagged (`action: "flag"`):
   * one entry per filter and message with a match, naming the guardrail, the rule and how many
   * matches (decisions/0055 in the repository). Flags change nothing the model sees. Empty for
   * every request nothing flagged. Filter on it with `list({ flagged: true })`.
   */
  guardrailFlags: GuardrailFlag[]
  /**
   * The response `handle()` returned, as it was returned: a success body is rebuilt from the
   * simulator's cached records on `list()`. A stream cut short (`outcome: 'cut-short'`) shows
   * only the frames the client was sent. An error body is shared with the response until `list()`
   * copies it, so a caller that edits an error body it got edits the journal's too (copying every
   * response would double the cost of a request; decisions/0010 in the repository).
   */
  response: SimResponse
}

/** How a request ended: `JournalEntry.outcome` (decisions/0044 in the repository). */
export type JournalOutcome = 'response' | 'network-error' | 'never' | 'cut-short' | 'client-left'

/** What a stream cut short sent and was charged (`JournalEntry.cutShort`, decisions/0044 in the repository). */
export interface CutShort {
  /**
   * The frames the client was given before it left, as the response's `cancel(framesSent)` counts
   * them: the `: OPENROUTER PROCESSING` comment is the first, each `data:` event one more.
   */
  framesSent: number
  /** The UTF-8 bytes of those frames. */
  bytesSent: number
  /**
   * What the request was charged, in USD: the prompt and the content chunks sent, or the whole
   * reply when the chunk with the finish reason had been sent (decisions/0026). Equal to the
   * generation's `total_cost`.
   */
  charged: number
  /** The generation's id (`gen-...`), for `GET /generation`. */
  generationId: string
}

/**
 * What an entry keeps of a response: a cached body as its payload (shared records, not a copy), a
 * stream's frames as the means to make them again.
 */
type KeptResponse =
  | { response: SimResponse; payload: undefined; frames?: undefined }
  | { response: Omit<SimResponse, 'body'>; payload: JsonPayload; frames?: undefined }
  | { response: Omit<SimResponse, 'body'>; payload: undefined; frames: () => readonly StreamFrame[] }

/**
 * An entry as the journal keeps it: the instant unformatted and a cached body unbuilt until
 * `list()`; `size`, what it counts against the byte budget.
 */
export type KeptEntry = Omit<JournalEntry, 'at' | 'response'> & { arrivedMs: number; kept: KeptResponse; size: number }

/**
 * An entry as the router hands it over: the request body as it came (the journal decides how much
 * of it to keep), and, when the router decoded it already, its text.
 */
export type NewJournalEntry = Omit<JournalEntry, 'seq' | 'at' | 'requestBody' | 'requestBodyBytes' | 'requestBodyTruncated' | 'cutShort'> & {
  arrivedMs: number
  body: string | Uint8Array | null
  /** The body's text when the router read it as strict UTF-8 already; undefined otherwise. */
  decoded: string | undefined
}

/** The bytes of a refused or unauthenticated request's body the journal keeps: 4 KiB (decisions/0043 in the repository). */
export const JOURNAL_REFUSED_BODY_CAP = 4096

/** The journal's default byte budget: 64 MiB (decisions/0043 in the repository). */
export const DEFAULT_JOURNAL_BYTES = 64 * 1024 * 1024

/**
 * What an entry counts besides its bodies and its path and query: its other fields, the principal
 * and the headers of its response, an estimate (decisions/0043 in the repository).
 */
export const JOURNAL_ENTRY_OVERHEAD = 256

/** Entries to keep: every given criterion must hold. */
export interface JournalFilter {
  operation?: OperationName | null | undefined
  status?: number | undefined
  method?: string | undefined
  /** The hash of the calling key. */
  keyHash?: string | undefined
  /** How the request ended: `'response'`, `'network-error'`, `'never'`, `'cut-short'` or `'client-left'` (`JournalEntry.outcome`). */
  outcome?: JournalOutcome | undefined
  /** The name of the responder rule that answered (`JournalEntry.responder`). */
  responder?: string | undefined
  /** Whether the request had fields that were accepted and ignored (`JournalEntry.ignoredFields` not empty), or had none. */
  hasIgnoredFields?: boolean | undefined
  /** Whether the reply could not satisfy all the request's schemas (`JournalEntry.warnings` not empty), or could. */
  hasWarnings?: boolean | undefined
  /** Whether a guardrail's content filter flagged the request (`JournalEntry.guardrailFlags` not empty), or none did. */
  flagged?: boolean | undefined
}

/**
 * `sim.journal`: what the code under test called, and what it got.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator()
 * sim.handle({ method: 'GET', path: '/videos/models' })
 * sim.handle({ method: 'GET', path: '/keys' })
 * console.log(sim.journal.list().map((e) => `${e.operation} ${e.status}`))
 * console.log(sim.journal.list({ status: 401 }).length)
 * //=> ["listVideoModels 200","listKeys 401"]
 * //=> 1
 */
export interface Journal {
  /** Entries in arrival order, those matching `filter` when given. Copies: editing them changes nothing. */
  list(filter?: JournalFilter): JournalEntry[]
  /** Forgets every entry; sequence numbers go on from where they were. */
  clear(): void
  /**
   * What the kept entries count against `createSimulator({ journalBytes })`: the request bodies
   * they keep, a download's bytes, and 256 plus the path and query for each entry's other fields
   * (decisions/0043 in the repository).
   */
  bytes(): number
}

/** Every `JournalEntry.outcome`, in the order the documentation lists them. */
export const JOURNAL_OUTCOMES: readonly JournalOutcome[] = ['response', 'network-error', 'never', 'cut-short', 'client-left']

/** A misspelt criterion (`opertion`) is refused: ignored, it would make the filter match everything. */
export const JOURNAL_FILTER_FIELDS = fieldsOf<JournalFilter>({ operation: true, status: true, method: true, keyHash: true, outcome: true, responder: true, hasIgnoredFields: true, hasWarnings: true, flagged: true })

function checkFilter(filter: unknown): void {
  const check: ArgumentChecker = new ArgumentChecker('list the journal')
  const given = check.object(filter, 'filter')
  check.knownFields(given, JOURNAL_FILTER_FIELDS, 'filter', 'a journal filter')
  if (given['operation'] !== undefined && given['operation'] !== null) check.oneOf(given['operation'], OPERATION_NAMES, 'filter.operation', operationHint)
  if (given['status'] !== undefined && (typeof given['status'] !== 'number' || !Number.isInteger(given['status']))) {
    check.fail('filter.status', `must be an HTTP status (an integer), got ${describe(given['status'])}`)
  }
  if (given['method'] !== undefined) check.string(given['method'], 'filter.method')
  if (given['keyHash'] !== undefined) check.string(given['keyHash'], 'filter.keyHash')
  if (given['outcome'] !== undefined) check.oneOf(given['outcome'], JOURNAL_OUTCOMES, 'filter.outcome')
  if (given['responder'] !== undefined) check.string(given['responder'], 'filter.responder')
  if (given['hasIgnoredFields'] !== undefined && typeof given['hasIgnoredFields'] !== 'boolean') {
    check.fail('filter.hasIgnoredFields', `must be true or false, got ${describe(given['hasIgnoredFields'])}`)
  }
  if (given['hasWarnings'] !== undefined && typeof given['hasWarnings'] !== 'boolean') {
    check.fail('filter.hasWarnings', `must be true or false, got ${describe(given['hasWarnings'])}`)
  }
  if (given['flagged'] !== undefined && typeof given['flagged'] !== 'boolean') {
    check.fail('filter.flagged', `must be true or false, got ${describe(given['flagged'])}`)
  }
}

/** What an entry without ignored fields keeps: one shared empty list, not one per request (`list()` copies it). */
const NONE_IGNORED: string[] = Object.freeze([]) as unknown as string[]

const lenient = new TextDecoder()
const encoder = new TextEncoder()

/** What an entry keeps of its request body, and what that counts. */
interface KeptBody {
  text: string | null
  bytes: number | null
  truncated: boolean
  /** UTF-8 bytes of `text`: what it counts against the byte budget. */
  size: number
}

const NO_BODY: KeptBody = Object.freeze({ text: null, bytes: null, truncated: false, size: 0 })

/**
 * The first `cap` bytes of UTF-8 `bytes` as text, cut before a character that does not fit whole:
 * a fresh string, never a slice of a larger one that would keep the whole body alive.
 */
function head(bytes: Uint8Array, cap: number): { text: string; size: number } {
  let cut = Math.min(cap, bytes.byteLength)
  // A continuation byte (10xxxxxx) at the cut means a character goes on past it: cut before it.
  if (cut < bytes.byteLength) while (cut > 0 && ((bytes[cut] as number) & 0xc0) === 0x80) cut--
  return { text: lenient.decode(bytes.subarray(0, cut)), size: cut }
}

/**
 * What the journal keeps of a request body: all of it, or, for a refused or unauthenticated
 * request, its first {@link JOURNAL_REFUSED_BODY_CAP} bytes (decisions/0043 in the repository).
 * `decoded` is the text the router read already, if it did.
 */
export function keptBody(body: string | Uint8Array | null, decoded: string | undefined, refused: boolean): KeptBody {
  if (body === null) return NO_BODY
  const bytes = typeof body === 'string' ? utf8Length(body) : body.byteLength
  if (!refused || bytes <= JOURNAL_REFUSED_BODY_CAP) {
    const text = decoded ?? (typeof body === 'string' ? body : lenient.decode(body))
    return { text, bytes, truncated: false, size: bytes }
  }
  // A string's first characters as bytes: enough of them for the cap (each is 1 to 3 bytes), a
  // pair of surrogates never split.
  let chars = JOURNAL_REFUSED_BODY_CAP
  if (typeof body === 'string' && (body.charCodeAt(chars - 1) & 0xfc00) === 0xd800) chars--
  const { text, size } = head(typeof body === 'string' ? encoder.encode(body.slice(0, chars)) : body, JOURNAL_REFUSED_BODY_CAP)
  return { text, bytes, truncated: true, size }
}

/**
 * The journal's storage: harness state, outside snapshots like faults and latency (decisions/0010 in the repository).
 * A queue of at most `limit` entries counting at most `budget` bytes (decisions/0043 in the
 * repository): the oldest are dropped first until both hold, so it never holds more, and adding
 * costs the same at any size. The newest entry is always kept whole, even alone over the budget.
 * A file download's entry shares the store's bytes, not a copy.
 */
export class JournalStore {
  /** Kept entries from `head` on, oldest first; the slots before `head` are dropped ones. */
  private queue: (KeptEntry | undefined)[] = []
  private head = 0
  private nextSeq = 1
  /** What the kept entries count against `budget`. */
  private bytes = 0

  /** `limit`: entries kept, the oldest dropped first; 0 keeps none. `budget`: the bytes they may count; 0 keeps none. */
  constructor(
    private readonly limit: number,
    private readonly budget: number = DEFAULT_JOURNAL_BYTES,
  ) {}

  /** Keeps `entry`, and returns what it keeps, for a later `cutShort` or `clientLeft`; undefined when it keeps nothing. */
  add(entry: NewJournalEntry): KeptEntry | undefined {
    const seq = this.nextSeq++
    if (this.limit === 0 || this.budget === 0) return undefined
    const response = entry.response
    const payload = payloadOf(response)
    const frames = payload === undefined && response.type === 'stream' ? frameRebuildOf(response) : undefined
    let kept: KeptResponse
    if (payload === undefined && frames === undefined) kept = { response, payload }
    else {
      // Everything but the body (an accessor that would build it, or frames made again on `list()`).
      const { status, headers, type, delayMs, realDelay } = response
      const bare = { status, headers, type } as Omit<SimResponse, 'body'>
      if (delayMs !== undefined) bare.delayMs = delayMs
      if (realDelay) bare.realDelay = realDelay
      kept = frames === undefined ? { response: bare, payload: payload as JsonPayload } : { response: bare, payload: undefined, frames }
    }
    // A refused answer, or a caller without a valid key: anyone can send those, so their bodies are capped.
    const body = keptBody(entry.body, entry.decoded, response.status >= 400 || entry.principal === null)
    // A download counts its bytes (it may outlive its file); a cached or rebuilt body counts
    // nothing of its own: it shares the simulator's records, or keeps the values it is made of.
    const responseBytes = kept.payload === undefined && response.type === 'bytes' && response.body instanceof Uint8Array ? response.body.byteLength : 0
    // Field by field, not `{ seq, ...rest, kept }`: a rest and a spread copy each field the slow,
    // generic way, a cost per field on every request. The order is the one `list()` shows.
    const full: KeptEntry = {
      seq,
      arrivedMs: entry.arrivedMs,
      method: entry.method,
      path: entry.path,
      query: entry.query,
      requestBody: body.text,
      requestBodyBytes: body.bytes,
      requestBodyTruncated: body.truncated,
      operation: entry.operation,
      status: entry.status,
      outcome: entry.outcome,
      cutShort: null,
      principal: entry.principal,
      fault: entry.fault,
      responder: entry.responder,
      responderRemaining: entry.responderRemaining,
      rateLimited: entry.rateLimited,
      delayMs: entry.delayMs,
      ignoredFields: entry.ignoredFields.length === 0 ? NONE_IGNORED : entry.ignoredFields,
      warnings: entry.warnings.length === 0 ? NONE_IGNORED : entry.warnings,
      guardrailFlags: entry.guardrailFlags.length === 0 ? (NONE_IGNORED as unknown as GuardrailFlag[]) : entry.guardrailFlags,
      kept,
      size: JOURNAL_ENTRY_OVERHEAD + entry.path.length + entry.query.length + body.size + responseBytes,
    }
    // The oldest go first, until the newest fits both bounds (or is alone).
    while (this.queue.length > this.head && (this.queue.length - this.head >= this.limit || this.bytes + full.size > this.budget)) this.dropOldest()
    this.queue.push(full)
    this.bytes += full.size
    return full
  }

  /**
   * The client left the stream of `kept` after `frames` of its frames: the entry says so, and
   * keeps only those frames (decisions/0044 in the repository). An entry dropped since changes
   * nothing anyone sees. What it counts is unchanged: a stream counts nothing of its own.
   */
  cutShort(kept: KeptEntry, frames: readonly StreamFrame[], cut: Omit<CutShort, 'bytesSent'>): void {
    let bytesSent = 0
    for (let i = 0; i < cut.framesSent; i++) bytesSent += utf8Length((frames[i] as StreamFrame).data)
    kept.outcome = 'cut-short'
    kept.cutShort = { framesSent: cut.framesSent, bytesSent, charged: cut.charged, generationId: cut.generationId }
    const was = kept.kept
    const sent = (all: readonly StreamFrame[]): StreamFrame[] => all.slice(0, cut.framesSent)
    if (was.frames !== undefined) kept.kept = { response: was.response, payload: undefined, frames: () => sent(was.frames()) }
    else if (was.payload === undefined && was.response.type === 'stream') kept.kept = { response: { ...was.response, body: sent(was.response.body) }, payload: undefined }
  }

  /** The client of `kept` left before its answer was sent (decisions/0044 in the repository). */
  clientLeft(kept: KeptEntry): void {
    kept.outcome = 'client-left'
  }

  private dropOldest(): void {
    const oldest = this.queue[this.head] as KeptEntry
    this.queue[this.head] = undefined
    this.head++
    this.bytes -= oldest.size
    // Drop the dead slots once they are half the queue: each entry is moved at most once per halving.
    if (this.head >= 64 && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head)
      this.head = 0
    }
  }

  reset(): void {
    this.clear()
    this.nextSeq = 1
  }

  private clear(): void {
    this.queue = []
    this.head = 0
    this.bytes = 0
  }

  /** The entries in arrival order. */
  private inOrder(): KeptEntry[] {
    return (this.head === 0 ? this.queue : this.queue.slice(this.head)) as KeptEntry[]
  }

  /** The kept entries that match `filter`, in arrival order, those after sequence number `after` only. Cheap: nothing is copied. */
  matching(filter: JournalFilter, after = 0): readonly KeptEntry[] {
    return this.inOrder().filter(
      (e) =>
        e.seq > after &&
        (filter.operation === undefined || e.operation === filter.operation) &&
        (filter.status === undefined || e.status === filter.status) &&
        (filter.method === undefined || e.method === filter.method.toUpperCase()) &&
        (filter.keyHash === undefined || e.principal?.keyHash === filter.keyHash) &&
        (filter.outcome === undefined || e.outcome === filter.outcome) &&
        (filter.responder === undefined || e.responder === filter.responder) &&
        (filter.hasIgnoredFields === undefined || e.ignoredFields.length > 0 === filter.hasIgnoredFields) &&
        (filter.hasWarnings === undefined || e.warnings.length > 0 === filter.hasWarnings) &&
        (filter.flagged === undefined || e.guardrailFlags.length > 0 === filter.flagged),
    )
  }

  /**
   * One kept entry as `list()` shows it. `bodies: 'shared'` leaves a download's bytes the store's
   * own, uncopied (for a reader that encodes them at once); `'none'` leaves every body out.
   */
  entry({ seq, arrivedMs, kept, size: _size, ...e }: KeptEntry, bodies: 'copied' | 'shared' | 'none' = 'copied'): JournalEntry {
    const { body, ...rest } = kept.response as SimResponse
    const response = bodies === 'copied' || kept.payload !== undefined || body === null ? kept.response : rest
    const copy = structuredClone({ seq, at: new Date(arrivedMs).toISOString(), ...e, response }) as JournalEntry
    if (bodies === 'none') delete (copy.response as { body?: unknown }).body
    // A cached body is built afresh, which is a copy already.
    else if (kept.payload !== undefined) (copy.response as { body: unknown }).body = kept.payload.value()
    // Made again, which is a copy already.
    else if (kept.frames !== undefined) (copy.response as { body: unknown }).body = kept.frames()
    else if (bodies === 'shared' && body !== undefined) (copy.response as { body: unknown }).body = body
    return copy
  }

  readonly view: Journal = {
    list: (filter = {}) => {
      checkFilter(filter)
      return this.matching(filter).map((kept) => this.entry(kept))
    },
    clear: () => this.clear(),
    bytes: () => this.bytes,
  }
}
