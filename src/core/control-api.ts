// The control API: everything a JavaScript test sets up through the programmatic API, over HTTP, so
// that a test in any language can do the same (decisions/0013). Each route is a call of that API
// with the request body as its options, through the same validation; a SimulatorError becomes a 400
// envelope whose metadata names the argument as the programmatic API does. Control requests are
// not the service's: they are not journaled, take no rate-limit token and trigger no fault.
import type { BudgetInterval } from './store/state.js'
import { base64Slices, toBase64 } from './base64.js'
import { type Fault, type FaultRule } from './faults.js'
import { operationHint } from './operation-hint.js'
import { OPERATION_NAMES } from './protocol.js'
import { SimulatorError, SimulatorErrorCode, errorEnvelope } from './errors.js'
import { type AnsweredResponse, jsonResponse } from './http.js'
import { internalsOf } from './internals.js'
import { type JournalEntry, type JournalFilter, JOURNAL_FILTER_FIELDS, JOURNAL_OUTCOMES } from './journal.js'
import type { Simulator } from './simulator.js'
import type { SimulatorSnapshot } from './snapshot.js'
import type { StoredFile } from './store/files.js'
import { responderFromJson } from './inference/responders.js'
import { type WorldFile, type WorldModel, type WorldVideoModel, fileOptions, modelOptions, videoModelOptions } from './worlds/spec.js'
import { CONTROL_BASE_PATH } from './control-path.js'

/** A request to the control API: the path below the control base (`/clock`), and the body's text. */
export interface ControlRequest {
  method: string
  path: string
  query: URLSearchParams
  /** The request body as text; null or empty when there is none. */
  body: string | null
}

/**
 * An answer written in parts (the journal, the export): each part is built as it is written, so a large answer
 * does not hold the server's other requests up while it is made, nor sit in memory whole.
 */
export interface PartsResponse {
  status: number
  headers: Record<string, string>
  type: 'parts'
  parts: Iterable<string>
}

/** What the control API answers. */
export type ControlAnswer = AnsweredResponse | PartsResponse

/** The control API of one simulator; it keeps the snapshots taken through it. */
export interface ControlApi {
  handle(request: ControlRequest): ControlAnswer
}

/** How the control API is built. */
export interface ControlApiOptions {
  /** Base64 of a file's bytes in the journal and the export: the server passes Buffer's, native. */
  toBase64?: ((bytes: Uint8Array) => string) | undefined
}

/** A failure that answers with an envelope of its own status (404 for an unknown route or id). */
class ControlError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
    readonly metadata: Record<string, unknown>,
  ) {
    super(message)
  }
}

interface Call {
  params: Record<string, string>
  query: URLSearchParams
  /** The parsed JSON body; undefined when there is none. */
  body: unknown
}

interface Route {
  method: string
  path: string
  /**
   * What of the request the route reads: a body or query parameters given to a route that reads
   * none is a 400, before the route acts (`DELETE /faults` with `{"name":"a"}` deleted every fault).
   */
  reads?: readonly ('body' | 'query')[]
  run(call: Call): ControlAnswer
}

/** A 400 for what `route` does not read, if the request gives it; an empty object is no body. */
function unread(route: Route, method: string, query: URLSearchParams, body: unknown): ControlError | undefined {
  const reads = route.reads ?? []
  const where = `${method} ${CONTROL_BASE_PATH}${route.path}`
  if (!reads.includes('query')) {
    for (const name of query.keys()) return badRequest(name, `${JSON.stringify(name)} is not a parameter of ${where}, which takes none`)
  }
  const empty = typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0
  if (!reads.includes('body') && body !== undefined && !empty) return badRequest('body', `${where} takes no body`)
  return undefined
}

const NO_CONTENT: AnsweredResponse = { status: 204, headers: {}, type: 'bytes', body: new Uint8Array(0) }

function notFound(what: string, id: string): ControlError {
  return new ControlError(404, `Unknown ${what} ${JSON.stringify(id)}`, { reason: `unknown_${what.replace(/ /g, '_')}`, id })
}

/** A 400 about the request itself (its body, the journal's query), worded as the programmatic API's errors are. */
function badRequest(argument: string, problem: string): ControlError {
  return new ControlError(400, `Failed to read the request: ${problem}.`, { argument, code: SimulatorErrorCode.InvalidArgument })
}

/** The body as an object, or a 400 naming `body`. */
function object(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('body', 'the body must be a JSON object')
  return body as Record<string, unknown>
}

/** The body as an object with no field but `known` (a misspelt one is a 400 naming it, not ignored). */
function fields(body: unknown, known: readonly string[]): Record<string, unknown> {
  const given = object(body)
  for (const name of Object.keys(given)) {
    if (!known.includes(name)) throw badRequest(name, `${JSON.stringify(name)} is not a field of the body (known fields: ${known.join(', ')})`)
  }
  return given
}

/** The body as the options object of a programmatic call, which validates every field itself. */
const options = <T>(body: unknown): T => object(body) as T

/** Runs `act`, naming `to` instead of `from` in a SimulatorError (the body's field, not the parameter's name). */
function renamed<T>(from: string, to: string, act: () => T): T {
  try {
    return act()
  } catch (error) {
    if (error instanceof SimulatorError && error.argument === from) {
      throw new SimulatorError(error.code, error.message.replace(`"${from}"`, `"${to}"`), { argument: to, details: error.details })
    }
    throw error
  }
}

/** A file as the control API describes it: what `sim.files.list()` gives, without the bytes. */
function fileMetadata({ bytes: _bytes, ...file }: StoredFile): Omit<StoredFile, 'bytes'> {
  return file
}

/** The journal query's parameters besides the filters: paging, and whether bodies come along. */
const JOURNAL_PAGING = ['after', 'limit', 'bodies'] as const

/** The most entries one page of the journal holds (the journal keeps 1,000 by default). */
const MAX_JOURNAL_PAGE = 10_000

interface JournalQuery {
  filter: JournalFilter
  /** Entries after this sequence number; 0 for all. */
  after: number
  limit: number
  bodies: boolean
}

/** A 400 naming `name` when the query gives it more than once: each parameter takes one value, and a second was silently dropped. */
function onlyOnce(query: URLSearchParams, name: string): void {
  const given = query.getAll(name).length
  if (given > 1) throw badRequest(name, `${JSON.stringify(name)} is given ${given} times; give it once`)
}

/** A whole number from `min` to `max`, from a query parameter, or a 400 naming it. */
function queryInteger(query: URLSearchParams, name: string, min: number, max: number, fallback: number): number {
  const text = query.get(name)
  if (text === null) return fallback
  const n = /^\d{1,16}$/.test(text) ? Number(text) : Number.NaN
  if (!(n >= min && n <= max)) throw badRequest(name, `"${name}" must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`)
  return n
}

/** `true` or `false` from a query parameter, or a 400 naming it. */
function queryBoolean(query: URLSearchParams, name: string, fallback: boolean): boolean {
  const text = query.get(name)
  if (text === null) return fallback
  if (text !== 'true' && text !== 'false') throw badRequest(name, `"${name}" must be true or false, got ${JSON.stringify(text)}`)
  return text === 'true'
}

function journalQuery(query: URLSearchParams): JournalQuery {
  for (const name of query.keys()) {
    if (!JOURNAL_FILTER_FIELDS.has(name) && !(JOURNAL_PAGING as readonly string[]).includes(name)) {
      throw badRequest(name, `${JSON.stringify(name)} is not a parameter of the journal (known parameters: ${[...JOURNAL_FILTER_FIELDS, ...JOURNAL_PAGING].join(', ')})`)
    }
    onlyOnce(query, name)
  }
  const filter: JournalFilter = {}
  const operation = query.get('operation')
  if (operation) {
    if (operation === 'none') filter.operation = null
    else if ((OPERATION_NAMES as readonly string[]).includes(operation)) filter.operation = operation as JournalFilter['operation'] & string
    else throw badRequest('operation', `"operation" must be one of ${OPERATION_NAMES.join(', ')} or none, got ${JSON.stringify(operation)}${operationHint(operation)}`)
  }
  const status = query.get('status')
  if (status) {
    if (!/^\d{1,3}$/.test(status)) throw badRequest('status', `"status" must be an HTTP status such as 404, got ${JSON.stringify(status)}`)
    filter.status = Number(status)
  }
  const method = query.get('method')
  if (method) filter.method = method
  const keyHash = query.get('keyHash')
  if (keyHash) filter.keyHash = keyHash
  const outcome = query.get('outcome')
  if (outcome) {
    if (!(JOURNAL_OUTCOMES as readonly string[]).includes(outcome)) {
      throw badRequest('outcome', `"outcome" must be one of ${JOURNAL_OUTCOMES.join(', ')}, got ${JSON.stringify(outcome)}`)
    }
    filter.outcome = outcome as JournalEntry['outcome']
  }
  const responder = query.get('responder')
  if (responder) filter.responder = responder
  if (query.has('hasIgnoredFields')) filter.hasIgnoredFields = queryBoolean(query, 'hasIgnoredFields', false)
  if (query.has('hasWarnings')) filter.hasWarnings = queryBoolean(query, 'hasWarnings', false)
  if (query.has('flagged')) filter.flagged = queryBoolean(query, 'flagged', false)
  return {
    filter,
    after: queryInteger(query, 'after', 0, Number.MAX_SAFE_INTEGER, 0),
    limit: queryInteger(query, 'limit', 1, MAX_JOURNAL_PAGE, MAX_JOURNAL_PAGE),
    bodies: queryBoolean(query, 'bodies', true),
  }
}

/**
 * One journal entry as JSON text, in parts. A download's bytes go in as base64 without passing
 * through JSON.stringify (base64 needs no escaping), a slice at a time, so that no step of writing
 * a 10 MiB body holds the server up for more than a moment.
 */
function* entryParts(entry: JournalEntry, encode: (bytes: Uint8Array) => string): Generator<string> {
  const { response } = entry
  if (response.type !== 'bytes' || response.body === undefined) {
    yield JSON.stringify(entry)
    return
  }
  const { body, ...rest } = response
  const text = JSON.stringify({ ...entry, response: rest })
  // The entry's last field is `response`, an object that is never empty (it has a status).
  yield `${text.slice(0, -2)},"body":"`
  yield* base64Slices(body, encode)
  yield '"}}'
}

/** The journal page, built an entry at a time as it is written. */
function journalAnswer(sim: Simulator<unknown>, query: JournalQuery, encode: (bytes: Uint8Array) => string): PartsResponse {
  const store = internalsOf(sim)?.journal
  // Each entry is made only when its turn to be written comes: from the journal's storage, without
  // copying a download's bytes; or, for an object that is not createSimulator's, from its public list.
  let matching: (() => JournalEntry)[]
  if (store !== undefined) {
    matching = store.matching(query.filter, query.after).map((kept) => () => store.entry(kept, query.bodies ? 'shared' : 'none'))
  } else {
    matching = sim.journal
      .list(query.filter)
      .filter((entry) => entry.seq > query.after)
      .map((entry) => () => (query.bodies ? entry : ({ ...entry, response: { ...entry.response, body: undefined } } as JournalEntry)))
  }
  const page = matching.slice(0, query.limit)
  function* parts(): Generator<string> {
    yield '{"data":['
    let last: number | null = null
    for (const [i, make] of page.entries()) {
      const entry = make()
      last = entry.seq
      if (i > 0) yield ','
      yield* entryParts(entry, encode)
    }
    // Where the next page starts, only when this one was cut short by the limit.
    yield page.length < matching.length ? `],"nextAfter":${last}}` : ']}'
  }
  return { status: 200, headers: { 'content-type': 'application/json' }, type: 'parts', parts: parts() }
}

/** The fault presets of `sim.faults`, by the name `POST /__sim/faults` takes in `preset`. */
const FAULT_PRESETS = ['providerDown', 'serviceUnavailable', 'internalError'] as const

/**
 * A fault rule (`sim.faults.add`), or with `preset`, that preset with the rest of the body as its
 * options (`{ "preset": "serviceUnavailable", "operation": "listKeys", "retryAfterSeconds": 5 }`).
 */
function addFault(sim: Simulator<unknown>, body: Record<string, unknown>): Fault {
  if (!('preset' in body)) return sim.faults.add(body as unknown as FaultRule)
  const { preset, ...rest } = body
  if (typeof preset !== 'string' || !(FAULT_PRESETS as readonly string[]).includes(preset)) {
    throw badRequest('preset', `"preset" must be one of ${FAULT_PRESETS.join(', ')}, got ${JSON.stringify(preset)}`)
  }
  return sim.faults[preset as (typeof FAULT_PRESETS)[number]](rest)
}

function routes(sim: Simulator<unknown>, encode: (bytes: Uint8Array) => string): Route[] {
  // Entities are answered as a world spec holds them: camelCase, instants as ISO strings, the form
  // the bodies take (decisions/0019). Only an object that is not createSimulator's lacks these.
  const internals = internalsOf(sim)
  const entries = internals?.worldEntry
  const snapshots = new Map<string, SimulatorSnapshot>()
  let nextSnapshot = 1
  const snapshotFor = (id: string): SimulatorSnapshot => {
    const saved = snapshots.get(id)
    if (saved === undefined) throw notFound('snapshot', id)
    return saved
  }
  const clock = (): AnsweredResponse => jsonResponse(200, { now: sim.clock.now().toISOString() })
  return [
    { method: 'GET', path: '/health', run: () => jsonResponse(200, { status: 'ok' }) },
    { method: 'GET', path: '/world', run: () => jsonResponse(200, sim.world) },
    {
      method: 'GET',
      path: '/world/export',
      reads: ['query'],
      run: ({ query }) => {
        for (const name of query.keys()) {
          if (name !== 'bodies') throw badRequest(name, `${JSON.stringify(name)} is not a parameter of the export (known parameters: bodies)`)
          onlyOnce(query, name)
        }
        const bodies = queryBoolean(query, 'bodies', true)
        const internals = internalsOf(sim)
        // In parts, as the journal: the export of a large world is written without holding the server up.
        if (internals !== undefined) return { status: 200, headers: { 'content-type': 'application/json' }, type: 'parts', parts: internals.exportWorldParts({ encode, bodies }) }
        const spec = sim.exportWorld()
        return jsonResponse(200, bodies ? spec : { ...spec, files: spec.files?.map(({ base64: _base64, text: _text, ...file }) => file) })
      },
    },
    {
      method: 'POST',
      path: '/reset',
      run: () => {
        sim.reset()
        return NO_CONTENT
      },
    },
    {
      method: 'POST',
      path: '/snapshots',
      run: () => {
        const id = `snap-${nextSnapshot++}`
        snapshots.set(id, sim.snapshot())
        return jsonResponse(201, { id })
      },
    },
    {
      method: 'POST',
      path: '/snapshots/{id}/restore',
      run: ({ params }) => {
        sim.restore(snapshotFor(params['id'] as string))
        return NO_CONTENT
      },
    },
    {
      method: 'DELETE',
      path: '/snapshots/{id}',
      run: ({ params }) => {
        snapshotFor(params['id'] as string)
        snapshots.delete(params['id'] as string)
        return NO_CONTENT
      },
    },
    { method: 'GET', path: '/clock', run: clock },
    {
      method: 'PUT',
      path: '/clock',
      reads: ['body'],
      run: ({ body }) => {
        const { now } = fields(body, ['now'])
        renamed('instant', 'now', () => sim.clock.set(now as string))
        return clock()
      },
    },
    {
      method: 'POST',
      path: '/clock/advance',
      reads: ['body'],
      run: ({ body }) => {
        const ms = fields(body, ['ms'])['ms']
        // As PUT /latency takes its ms: sim.clock.advance drops a fraction, which over the wire was time silently lost.
        if (typeof ms === 'number' && !Number.isInteger(ms)) throw badRequest('ms', `"ms" must be a whole number of milliseconds, got ${ms}`)
        sim.clock.advance(ms as number)
        return clock()
      },
    },
    {
      method: 'POST',
      path: '/users',
      reads: ['body'],
      run: ({ body }) => {
        const user = sim.users.create(body === undefined ? {} : options(body))
        return jsonResponse(201, entries?.user(user.id) ?? user)
      },
    },
    {
      method: 'POST',
      path: '/workspaces',
      reads: ['body'],
      run: ({ body }) => {
        const workspace = sim.workspaces.create(options(body))
        return jsonResponse(201, entries?.workspace(workspace.id) ?? workspace)
      },
    },
    {
      method: 'POST',
      path: '/keys',
      reads: ['body'],
      run: ({ body }) => {
        const given = object(body)
        // Usage as records is a key as a world spec (and this API's answers) hold it: the world loader reads it.
        if (internals !== undefined && Array.isArray(given['usage'])) return jsonResponse(201, internals.worldEntry.key(internals.loadKey(given)))
        const created = sim.keys.create(given as never)
        return jsonResponse(201, entries?.key(created.record.hash) ?? created)
      },
    },
    {
      method: 'PATCH',
      path: '/keys/{hash}',
      reads: ['body'],
      run: ({ params, body }) => {
        const hash = params['hash'] as string
        if (sim.keys.get(hash) === undefined) throw notFound('key', hash)
        const record = sim.keys.update(hash, options(body))
        return jsonResponse(200, entries?.key(hash) ?? record)
      },
    },
    {
      method: 'POST',
      path: '/usage',
      reads: ['body'],
      run: ({ body }) => {
        const record = sim.usage.record(options(body))
        return jsonResponse(200, entries?.key(record.hash) ?? record)
      },
    },
    {
      method: 'POST',
      path: '/models',
      reads: ['body'],
      run: ({ body }) => {
        const model = sim.models.create(modelOptions(options<WorldModel>(body), '', 0, 'create model'))
        return jsonResponse(201, entries?.model(model.id) ?? model)
      },
    },
    {
      method: 'POST',
      path: '/video-models',
      reads: ['body'],
      run: ({ body }) => {
        const model = sim.videoModels.create(videoModelOptions(options<WorldVideoModel>(body), '', 0, 'create video model'))
        return jsonResponse(201, entries?.videoModel(model.id) ?? model)
      },
    },
    {
      method: 'POST',
      path: '/files',
      reads: ['body'],
      run: ({ body }) => {
        const file = sim.files.create(fileOptions(options<WorldFile>(body), '', 0, 'create file'))
        return jsonResponse(201, internals?.worldFile(file) ?? fileMetadata(file))
      },
    },
    {
      method: 'GET',
      path: '/faults',
      run: () => jsonResponse(200, { data: sim.faults.list().map(({ name, matched, fired }) => ({ name, matched, fired })) }),
    },
    { method: 'POST', path: '/faults', reads: ['body'], run: ({ body }) => jsonResponse(201, { name: addFault(sim, object(body)).name }) },
    {
      method: 'DELETE',
      path: '/faults',
      run: () => {
        sim.faults.clear()
        return NO_CONTENT
      },
    },
    {
      method: 'DELETE',
      path: '/faults/{name}',
      run: ({ params }) => {
        const name = params['name'] as string
        const named = sim.faults.list().filter((fault) => fault.name === name)
        if (named.length === 0) throw notFound('fault', name)
        for (const fault of named) fault.remove()
        return NO_CONTENT
      },
    },
    {
      method: 'PUT',
      path: '/latency',
      reads: ['body'],
      run: ({ body }) => {
        sim.latency.set(options(body))
        return NO_CONTENT
      },
    },
    {
      method: 'DELETE',
      path: '/latency',
      run: () => {
        sim.latency.clear()
        return NO_CONTENT
      },
    },
    { method: 'GET', path: '/journal', reads: ['query'], run: ({ query }) => journalAnswer(sim, journalQuery(query), encode) },
    {
      method: 'DELETE',
      path: '/journal',
      run: () => {
        sim.journal.clear()
        return NO_CONTENT
      },
    },
    // Responders (decisions/0024): a RegExp travels as { "regex": "refund", "flags": "i" }.
    { method: 'GET', path: '/responders', run: () => jsonResponse(200, { data: sim.inference.responders.list() }) },
    { method: 'POST', path: '/responders', reads: ['body'], run: ({ body }) => jsonResponse(201, sim.inference.respond(responderFromJson(object(body)))) },
    {
      method: 'DELETE',
      path: '/responders',
      run: () => {
        sim.inference.responders.clear()
        return NO_CONTENT
      },
    },
    {
      method: 'DELETE',
      path: '/responders/{name}',
      run: ({ params }) => {
        const name = params['name'] as string
        if (!sim.inference.responders.list().some((responder) => responder.name === name)) throw notFound('responder', name)
        sim.inference.responders.remove(name)
        return NO_CONTENT
      },
    },
    // Presets (decisions/0050): created and changed as sim.presets does, answered as a world spec holds them.
    {
      method: 'POST',
      path: '/presets',
      reads: ['body'],
      run: ({ body }) => {
        const preset = sim.presets.create(options(body))
        return jsonResponse(201, entries?.preset(preset.id) ?? preset)
      },
    },
    {
      method: 'PATCH',
      path: '/presets/{id}',
      reads: ['body'],
      run: ({ params, body }) => {
        const id = params['id'] as string
        if (sim.presets.get(id) === undefined) throw notFound('preset', id)
        const preset = sim.presets.update(id, options(body))
        return jsonResponse(200, entries?.preset(preset.id) ?? preset)
      },
    },
    {
      method: 'DELETE',
      path: '/presets/{id}',
      run: ({ params }) => {
        const id = params['id'] as string
        if (sim.presets.get(id) === undefined) throw notFound('preset', id)
        sim.presets.delete(id)
        return NO_CONTENT
      },
    },
    // OAuth codes (decisions/0049): made as if a user had approved an app, so a test in any language
    // can exchange one with POST /auth/keys; read back with their use.
    { method: 'GET', path: '/oauth/codes', run: () => jsonResponse(200, { data: sim.oauth.codes.list() }) },
    { method: 'POST', path: '/oauth/codes', reads: ['body'], run: ({ body }) => jsonResponse(201, sim.oauth.codes.create(options(body))) },
    {
      method: 'GET',
      path: '/oauth/codes/{code}',
      run: ({ params }) => {
        const code = params['code'] as string
        const found = sim.oauth.codes.get(code)
        if (found === undefined) throw new ControlError(404, `Unknown OAuth code ${JSON.stringify(code)}`, { reason: 'unknown_oauth_code', id: code })
        return jsonResponse(200, found)
      },
    },
    // Workspace budgets (decisions/0052): set as sim.budgets.set does, answered as the wire answers them.
    {
      method: 'POST',
      path: '/budgets',
      reads: ['body'],
      run: ({ body }) => jsonResponse(200, sim.budgets.set(options(body))),
    },
    {
      method: 'DELETE',
      path: '/budgets/{workspace}/{interval}',
      run: ({ params }) => {
        const workspace = params['workspace'] as string
        const interval = params['interval'] as BudgetInterval
        if (!sim.budgets.delete(workspace, interval)) throw notFound('budget', `${workspace}/${interval}`)
        return NO_CONTENT
      },
    },
    // Activity (decisions/0053): history recorded as sim.activity.record does, answered as the row GET /activity?group_by=workspace would list alone.
    {
      method: 'POST',
      path: '/activity',
      reads: ['body'],
      run: ({ body }) => jsonResponse(200, sim.activity.record(options(body))),
    },
    // Guardrails (decisions/0051): created, changed and deleted as sim.guardrails does, answered as GET /guardrails/{id} shows one.
    {
      method: 'POST',
      path: '/guardrails',
      reads: ['body'],
      run: ({ body }) => jsonResponse(201, sim.guardrails.create(options(body))),
    },
    {
      method: 'PATCH',
      path: '/guardrails/{id}',
      reads: ['body'],
      run: ({ params, body }) => {
        const id = params['id'] as string
        if (sim.guardrails.get(id) === undefined) throw notFound('guardrail', id)
        return jsonResponse(200, sim.guardrails.update(id, options(body)))
      },
    },
    {
      method: 'DELETE',
      path: '/guardrails/{id}',
      run: ({ params }) => {
        const id = params['id'] as string
        if (sim.guardrails.get(id) === undefined) throw notFound('guardrail', id)
        sim.guardrails.delete(id)
        return NO_CONTENT
      },
    },
    // Members (decisions/0051): added and removed as sim.members does, answered as GET /organization/members lists one.
    {
      method: 'POST',
      path: '/members',
      reads: ['body'],
      run: ({ body }) => jsonResponse(201, sim.members.add(options(body))),
    },
    {
      method: 'DELETE',
      path: '/members/{userId}/{memberId}',
      run: ({ params }) => {
        const userId = params['userId'] as string
        const memberId = params['memberId'] as string
        if (sim.members.get(userId, memberId) === undefined) throw notFound('member', memberId)
        sim.members.remove(userId, memberId)
        return NO_CONTENT
      },
    },
    // BYOK credentials (decisions/0054): made and deleted as sim.byok does, answered as the wire answers them.
    {
      method: 'POST',
      path: '/byok',
      reads: ['body'],
      run: ({ body }) => jsonResponse(201, sim.byok.create(options(body))),
    },
    {
      method: 'GET',
      path: '/byok',
      run: () => jsonResponse(200, { data: sim.byok.list() }),
    },
    {
      method: 'DELETE',
      path: '/byok/{id}',
      run: ({ params }) => {
        const id = params['id'] as string
        if (!sim.byok.delete(id)) throw notFound('byok credential', id)
        return NO_CONTENT
      },
    },
    {
      method: 'POST',
      path: '/credits',
      reads: ['body'],
      run: ({ body }) => {
        const given = options<{ userId: string; amount: number }>(body)
        const credits = sim.credits.add(given)
        // The organisation as a world spec holds it (its `credits` included), like the other entity routes.
        return jsonResponse(200, entries?.user(given.userId) ?? credits)
      },
    },
  ]
}

function match(route: Route, segments: readonly string[]): Record<string, string> | undefined {
  const template = route.path.split('/').slice(1)
  if (template.length !== segments.length) return undefined
  const params: Record<string, string> = {}
  for (const [i, part] of template.entries()) {
    const segment = segments[i] as string
    if (part.startsWith('{')) {
      try {
        params[part.slice(1, -1)] = decodeURIComponent(segment)
      } catch {
        return undefined
      }
    } else if (part !== segment) return undefined
  }
  return params
}

function parseBody(text: string | null): unknown {
  if (text === null || text.trim() === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw badRequest('body', `the body is not valid JSON (${error instanceof Error ? error.message : String(error)})`)
  }
}

function errorAnswer(status: number, message: string, metadata: Record<string, unknown>): AnsweredResponse {
  return jsonResponse(status, errorEnvelope(status, { message, metadata }))
}

/**
 * The control API of a simulator, as the server mounts it under `/__sim`. Pure: it takes the
 * request's text and answers with a response value, like `sim.handle`.
 */
export function createControlApi(sim: Simulator<unknown>, options: ControlApiOptions = {}): ControlApi {
  const table = routes(sim, options.toBase64 ?? toBase64)
  const listing = table.map((route) => `${route.method} ${CONTROL_BASE_PATH}${route.path}`)
  return {
    handle(request) {
      const method = request.method.toUpperCase()
      const segments = (request.path.startsWith('/') ? request.path : `/${request.path}`).split('/').slice(1)
      try {
        for (const route of table) {
          if (route.method !== method) continue
          const params = match(route, segments)
          if (params === undefined) continue
          const body = parseBody(request.body)
          const refused = unread(route, method, request.query, body)
          if (refused !== undefined) throw refused
          return route.run({ params, query: request.query, body })
        }
        throw new ControlError(404, `${method} ${CONTROL_BASE_PATH}${request.path} is not a control route; the control API has ${listing.join(', ')}`, {
          reason: 'unknown_control_route',
          method,
          path: `${CONTROL_BASE_PATH}${request.path}`,
        })
      } catch (error) {
        if (error instanceof ControlError) return errorAnswer(error.status, error.message, error.metadata)
        if (error instanceof SimulatorError) {
          return errorAnswer(400, error.message, {
            argument: error.argument ?? 'body',
            code: error.code,
            ...(error.details !== undefined && { details: error.details }),
          })
        }
        return errorAnswer(500, 'Internal Server Error', { reason: error instanceof Error ? error.message : String(error) })
      }
    },
  }
}
