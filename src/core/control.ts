// The control API: everything a JavaScript test sets up through the programmatic API, over HTTP, so
// that a test in any language can do the same (decisions/0013). Each route is a call of that API
// with the request body as its options, through the same validation; a SimulatorError becomes a 400
// envelope whose metadata names the argument as the programmatic API does. Control requests are
// not the service's: they are not journaled, take no rate-limit token and trigger no fault.
import { toBase64 } from './base64.js'
import { OPERATION_NAMES } from './controls.js'
import { SimulatorError, SimulatorErrorCode, errorEnvelope } from './errors.js'
import { type AnsweredResponse, jsonResponse } from './http.js'
import { type JournalEntry, type JournalFilter, JOURNAL_FILTER_FIELDS } from './journal.js'
import type { Simulator } from './simulator.js'
import type { SimulatorSnapshot } from './snapshot.js'
import type { StoredFile } from './store/files.js'
import { type WorldFile, type WorldModel, type WorldVideoModel, fileOptions, modelOptions, videoModelOptions } from './worlds/spec.js'

/** A request to the control API: the path below the control base (`/clock`), and the body's text. */
export interface ControlRequest {
  method: string
  path: string
  query: URLSearchParams
  /** The request body as text; null or empty when there is none. */
  body: string | null
}

/** The control API of one simulator; it keeps the snapshots taken through it. */
export interface ControlApi {
  handle(request: ControlRequest): AnsweredResponse
}

/** Where the control API lives on a server's origin. */
export const CONTROL_BASE_PATH = '/__sim'

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
  run(call: Call): AnsweredResponse
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

/** A journal entry as JSON: a download's bytes as base64. */
function entryToJson(entry: JournalEntry): unknown {
  const { response } = entry
  return response.type === 'bytes' ? { ...entry, response: { ...response, body: toBase64(response.body) } } : entry
}

function journalFilter(query: URLSearchParams): JournalFilter {
  for (const name of query.keys()) {
    if (!JOURNAL_FILTER_FIELDS.has(name)) {
      throw badRequest(name, `${JSON.stringify(name)} is not a filter of the journal (known filters: ${[...JOURNAL_FILTER_FIELDS].join(', ')})`)
    }
  }
  const filter: JournalFilter = {}
  const operation = query.get('operation')
  if (operation) {
    if (operation === 'none') filter.operation = null
    else if ((OPERATION_NAMES as readonly string[]).includes(operation)) filter.operation = operation as JournalFilter['operation'] & string
    else throw badRequest('operation', `"operation" must be one of ${OPERATION_NAMES.join(', ')} or none, got ${JSON.stringify(operation)}`)
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
    if (!['response', 'network-error', 'never'].includes(outcome)) {
      throw badRequest('outcome', `"outcome" must be one of response, network-error, never, got ${JSON.stringify(outcome)}`)
    }
    filter.outcome = outcome as JournalEntry['outcome']
  }
  return filter
}

function routes(sim: Simulator<unknown>): Route[] {
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
    { method: 'GET', path: '/world/export', run: () => jsonResponse(200, sim.exportWorld()) },
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
      run: ({ body }) => {
        const { now } = fields(body, ['now'])
        renamed('instant', 'now', () => sim.clock.set(now as string))
        return clock()
      },
    },
    {
      method: 'POST',
      path: '/clock/advance',
      run: ({ body }) => {
        sim.clock.advance(fields(body, ['ms'])['ms'] as number)
        return clock()
      },
    },
    { method: 'POST', path: '/users', run: ({ body }) => jsonResponse(201, sim.users.create(body === undefined ? {} : options(body))) },
    { method: 'POST', path: '/workspaces', run: ({ body }) => jsonResponse(201, sim.workspaces.create(options(body))) },
    { method: 'POST', path: '/keys', run: ({ body }) => jsonResponse(201, sim.keys.create(options(body))) },
    {
      method: 'PATCH',
      path: '/keys/{hash}',
      run: ({ params, body }) => {
        const hash = params['hash'] as string
        if (sim.keys.get(hash) === undefined) throw notFound('key', hash)
        return jsonResponse(200, sim.keys.update(hash, options(body)))
      },
    },
    { method: 'POST', path: '/usage', run: ({ body }) => jsonResponse(200, sim.usage.record(options(body))) },
    {
      method: 'POST',
      path: '/models',
      run: ({ body }) => jsonResponse(201, sim.models.create(modelOptions(options<WorldModel>(body), '', 0, 'create model'))),
    },
    {
      method: 'POST',
      path: '/video-models',
      run: ({ body }) => jsonResponse(201, sim.videoModels.create(videoModelOptions(options<WorldVideoModel>(body), '', 0, 'create video model'))),
    },
    {
      method: 'POST',
      path: '/files',
      run: ({ body }) => jsonResponse(201, fileMetadata(sim.files.create(fileOptions(options<WorldFile>(body), '', 0, 'create file')))),
    },
    {
      method: 'GET',
      path: '/faults',
      run: () => jsonResponse(200, { data: sim.faults.list().map(({ name, matched, fired }) => ({ name, matched, fired })) }),
    },
    { method: 'POST', path: '/faults', run: ({ body }) => jsonResponse(201, { name: sim.faults.add(options(body)).name }) },
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
    { method: 'GET', path: '/journal', run: ({ query }) => jsonResponse(200, { data: sim.journal.list(journalFilter(query)).map(entryToJson) }) },
    {
      method: 'DELETE',
      path: '/journal',
      run: () => {
        sim.journal.clear()
        return NO_CONTENT
      },
    },
    { method: 'POST', path: '/credits', run: ({ body }) => jsonResponse(200, sim.credits.add(options(body))) },
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
export function createControlApi(sim: Simulator<unknown>): ControlApi {
  const table = routes(sim)
  const listing = table.map((route) => `${route.method} ${CONTROL_BASE_PATH}${route.path}`)
  return {
    handle(request) {
      const method = request.method.toUpperCase()
      const segments = (request.path.startsWith('/') ? request.path : `/${request.path}`).split('/').slice(1)
      try {
        for (const route of table) {
          if (route.method !== method) continue
          const params = match(route, segments)
          if (params !== undefined) return route.run({ params, query: request.query, body: parseBody(request.body) })
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
