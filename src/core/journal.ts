import { type OperationName, type SimResponse, type StreamFrame, OPERATION_NAMES } from './protocol.js'
import { frameRebuildOf, payloadOf } from './operations/operation.js'
import type { JsonPayload } from './json-text.js'
import type { Principal } from './auth.js'
import { ArgumentChecker, fieldsOf } from './store/check.js'
import { describe } from './describe.js'

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
  /** The request body as text (bytes read as UTF-8), or null when it had none. */
  requestBody: string | null
  /** The operation the path names, or null for anything else (answered by the catch-all 404). */
  operation: OperationName | null
  /** The HTTP status; 0 for a network error or a request never answered. */
  status: number
  outcome: 'response' | 'network-error' | 'never'
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
   * The response `handle()` returned, as it was returned: a success body is rebuilt from the
   * simulator's cached records on `list()`. An error body is shared with the response until `list()`
   * copies it, so a caller that edits an error body it got edits the journal's too (copying every
   * response would double the cost of a request; decisions/0010 in the repository).
   */
  response: SimResponse
}

/**
 * What an entry keeps of a response: a cached body as its payload (shared records, not a copy), a
 * stream's frames as the means to make them again.
 */
type KeptResponse =
  | { response: SimResponse; payload: undefined; frames?: undefined }
  | { response: Omit<SimResponse, 'body'>; payload: JsonPayload; frames?: undefined }
  | { response: Omit<SimResponse, 'body'>; payload: undefined; frames: () => readonly StreamFrame[] }

/** An entry as the journal keeps it: the instant unformatted and a cached body unbuilt until `list()`. */
export type KeptEntry = Omit<JournalEntry, 'at' | 'response'> & { arrivedMs: number; kept: KeptResponse }

/** An entry as the router hands it over. */
export type NewJournalEntry = Omit<JournalEntry, 'seq' | 'at'> & { arrivedMs: number }

/** Entries to keep: every given criterion must hold. */
export interface JournalFilter {
  operation?: OperationName | null
  status?: number
  method?: string
  /** The hash of the calling key. */
  keyHash?: string
  outcome?: JournalEntry['outcome']
  /** The name of the responder rule that answered (`JournalEntry.responder`). */
  responder?: string
  /** Whether the request had fields that were accepted and ignored (`JournalEntry.ignoredFields` not empty), or had none. */
  hasIgnoredFields?: boolean
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
}

const OUTCOMES: readonly JournalEntry['outcome'][] = ['response', 'network-error', 'never']

/** A misspelt criterion (`opertion`) is refused: ignored, it would make the filter match everything. */
export const JOURNAL_FILTER_FIELDS = fieldsOf<JournalFilter>({ operation: true, status: true, method: true, keyHash: true, outcome: true, responder: true, hasIgnoredFields: true })

function checkFilter(filter: unknown): void {
  const check: ArgumentChecker = new ArgumentChecker('list the journal')
  const given = check.object(filter, 'filter')
  check.knownFields(given, JOURNAL_FILTER_FIELDS, 'filter', 'a journal filter')
  if (given['operation'] !== undefined && given['operation'] !== null) check.oneOf(given['operation'], OPERATION_NAMES, 'filter.operation')
  if (given['status'] !== undefined && (typeof given['status'] !== 'number' || !Number.isInteger(given['status']))) {
    check.fail('filter.status', `must be an HTTP status (an integer), got ${describe(given['status'])}`)
  }
  if (given['method'] !== undefined) check.string(given['method'], 'filter.method')
  if (given['keyHash'] !== undefined) check.string(given['keyHash'], 'filter.keyHash')
  if (given['outcome'] !== undefined) check.oneOf(given['outcome'], OUTCOMES, 'filter.outcome')
  if (given['responder'] !== undefined) check.string(given['responder'], 'filter.responder')
  if (given['hasIgnoredFields'] !== undefined && typeof given['hasIgnoredFields'] !== 'boolean') {
    check.fail('filter.hasIgnoredFields', `must be true or false, got ${describe(given['hasIgnoredFields'])}`)
  }
}

/** What an entry without ignored fields keeps: one shared empty list, not one per request (`list()` copies it). */
const NONE_IGNORED: string[] = Object.freeze([]) as unknown as string[]

/**
 * The journal's storage: harness state, outside snapshots like faults and latency (decisions/0010 in the repository).
 * A ring of at most `limit` entries: the oldest is overwritten, so it never holds more, and adding
 * costs the same at any size. A file download's entry shares the store's bytes, not a copy.
 */
export class JournalStore {
  private ring: KeptEntry[] = []
  /** Index of the oldest entry once the ring is full. */
  private oldest = 0
  private nextSeq = 1

  /** `limit`: entries kept, the oldest dropped first; 0 keeps none. */
  constructor(private readonly limit: number) {}

  add(entry: NewJournalEntry): void {
    const seq = this.nextSeq++
    if (this.limit === 0) return
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
    // Field by field, not `{ seq, ...rest, kept }`: a rest and a spread copy each field the slow,
    // generic way, a cost per field on every request. The order is the one `list()` shows.
    const full: KeptEntry = {
      seq,
      arrivedMs: entry.arrivedMs,
      method: entry.method,
      path: entry.path,
      query: entry.query,
      requestBody: entry.requestBody,
      operation: entry.operation,
      status: entry.status,
      outcome: entry.outcome,
      principal: entry.principal,
      fault: entry.fault,
      responder: entry.responder,
      responderRemaining: entry.responderRemaining,
      rateLimited: entry.rateLimited,
      delayMs: entry.delayMs,
      ignoredFields: entry.ignoredFields.length === 0 ? NONE_IGNORED : entry.ignoredFields,
      kept,
    }
    if (this.ring.length < this.limit) {
      this.ring.push(full)
      return
    }
    this.ring[this.oldest] = full
    this.oldest = (this.oldest + 1) % this.limit
  }

  reset(): void {
    this.ring = []
    this.oldest = 0
    this.nextSeq = 1
  }

  /** The entries in arrival order. */
  private inOrder(): KeptEntry[] {
    return this.oldest === 0 ? this.ring : [...this.ring.slice(this.oldest), ...this.ring.slice(0, this.oldest)]
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
        (filter.hasIgnoredFields === undefined || e.ignoredFields.length > 0 === filter.hasIgnoredFields),
    )
  }

  /**
   * One kept entry as `list()` shows it. `bodies: 'shared'` leaves a download's bytes the store's
   * own, uncopied (for a reader that encodes them at once); `'none'` leaves every body out.
   */
  entry({ seq, arrivedMs, kept, ...e }: KeptEntry, bodies: 'copied' | 'shared' | 'none' = 'copied'): JournalEntry {
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
    clear: () => {
      this.ring = []
      this.oldest = 0
    },
  }
}
