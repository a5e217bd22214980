// checkService: the simulator's wire rules run against a live service, reporting drift; read-only
// unless `allowWrites` lets it make, change and delete one throwaway key with a zero limit.
// Every rule is one observation made the same way on two sides: a fresh simulator of the default
// world (through `sim.handle`) and the live service (through `fetch`). The observation is
// a short summary that does not depend on the data (`200 json, fits { data: ApiKey[] }`,
// `404`); equal summaries are "same", different ones "drift". Shapes come from src/core/wire-shapes.ts,
// the description the simulator's own responses are tested against (test/wire/shapes.test.ts).
//
// The keys are sent only as a bearer header to the base URL, redirects are not followed, and the
// report never holds them: a key appears, if at all, as `maskSecret` shows it, and every string of
// the report is scrubbed of both secrets before it is returned.
import type { SimRequest } from '../core/protocol.js'
import { ArgumentChecker, fieldsOf } from '../core/store/check.js'
import { describe } from '../core/describe.js'
import { invalidArgument } from '../core/errors.js'
import { type Simulator, createSimulator } from '../core/simulator.js'
import { maskSecret } from '../core/store/mask.js'
import { parseInstant } from '../core/time.js'
import { type JsonOperationName, RESPONSE_SHAPES, errorEnvelopeProblems, fileContentProblems, mediaType, shown, validateShape } from '../core/wire-shapes.js'

/**
 * What {@link checkService} needs: where the service is, and the credentials to read it with.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * import { checkService } from 'model-access-sim/live'
 * import { startServer } from 'model-access-sim/server'
 *
 * const sim = createSimulator()
 * sim.presets.create({ userId: sim.world.userId, slug: 'support', config: { model: sim.world.models.paid } })
 * const server = await startServer(sim, { port: 0 })
 * // A `fetch` of your own sees every request: here it renames a field of the key list, as a
 * // service that had changed its wire format would.
 * const renaming: typeof fetch = async (input, init) => {
 *   const res = await fetch(input, init)
 *   if (!String(input).endsWith('/keys?include_disabled=true')) return res
 *   const text = (await res.text()).replaceAll('"limit_remaining"', '"limitRemaining"')
 *   return new Response(text, { status: res.status, headers: { 'content-type': 'application/json' } })
 * }
 * const report = await checkService({ baseUrl: server.url, managementKey: sim.world.managementKey, fetch: renaming, timeoutMs: 5000 })
 * const drift = report.results.filter((r) => r.verdict === 'drift')
 * console.log(drift.map((r) => r.rule))
 * //=> ["shape GET /keys"]
 * console.log(drift[0]?.details)
 * //=> ["data[0].limit_remaining: missing, expected number or null (and 15 more like it)","data[0].limitRemaining: unexpected field (ApiKey has no such field) (and 15 more like it)"]
 * await server.close()
 */
export interface CheckServiceOptions {
  /** The service's base URL, as the SDK's `serverURL`: `https://openrouter.ai/api/v1`. */
  baseUrl: string
  /** A management key of the account to read. Sent only as `Authorization: Bearer` to `baseUrl`. */
  managementKey: string
  /** A regular (non-management) key of the same account, for the 403 rule; without it that rule is skipped. */
  regularKey?: string | undefined
  /** Model ids (`author/slug`, `author/slug:variant`) whose endpoints to check. */
  models?: string[] | undefined
  /** Ids of server-created files to download; there is no list-files operation to find them. */
  files?: string[] | undefined
  /** The fetch to use; default `globalThis.fetch`. */
  fetch?: typeof fetch | undefined
  /** Milliseconds each request may take before it counts as failed. Default 30,000. */
  timeoutMs?: number | undefined
  /** Accept fields the simulator's wire types do not declare. Default false: each is a shape problem. */
  allowExtraFields?: boolean | undefined
  /**
   * Also check the writes on a throwaway key: create it (`POST /keys`, named `model-access-sim check`,
   * limit 0, so it can spend nothing), rename and disable it (`PATCH`), delete it (`DELETE`), then
   * read it (404). Default false: only GETs are sent. The key is deleted even when a step drifts.
   */
  allowWrites?: boolean | undefined
}

/**
 * `same`: the live service did what the simulator does; `drift`: it did not; `skipped`: the rule
 * could not run (an option it needs was not given, or the service had nothing for it to look at).
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * import { checkService } from 'model-access-sim/live'
 * import { startServer } from 'model-access-sim/server'
 *
 * const sim = createSimulator()
 * sim.presets.create({ userId: sim.world.userId, slug: 'support', config: { model: sim.world.models.paid } })
 * const server = await startServer(sim, { port: 0 })
 * const report = await checkService({ baseUrl: server.url, managementKey: sim.world.managementKey, models: [sim.world.models.free] })
 * const verdicts = new Set(report.results.map((r) => r.verdict))
 * console.log([...verdicts])
 * //=> ["same","skipped"]
 * await server.close()
 */
export type CheckVerdict = 'same' | 'drift' | 'skipped'

/**
 * One rule's outcome. A rule skipped on both sides for the same reason shows `-` as the simulator's.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * import { checkService } from 'model-access-sim/live'
 * import { startServer } from 'model-access-sim/server'
 *
 * const sim = createSimulator()
 * sim.presets.create({ userId: sim.world.userId, slug: 'support', config: { model: sim.world.models.paid } })
 * const server = await startServer(sim, { port: 0 })
 * const report = await checkService({ baseUrl: server.url, managementKey: sim.world.managementKey })
 * console.log(report.results.find((r) => r.rule === '404 unknown key hash'))
 * //=> {"rule":"404 unknown key hash","simulator":"404","live":"404","verdict":"same"}
 * console.log(report.results.find((r) => r.rule === '403 regular key on GET /keys'))
 * //=> {"rule":"403 regular key on GET /keys","simulator":"-","live":"skipped: no regular key given (--regular-key)","verdict":"skipped"}
 * await server.close()
 */
export interface CheckResult {
  /** The rule's name: `shape GET /keys`, `404 unknown key hash`, ... */
  rule: string
  /** What the simulator does (its own observation, made on a fresh default world). */
  simulator: string
  /** What the live service did, or why the rule was skipped. */
  live: string
  verdict: CheckVerdict
  /** The live service's problems (JSON paths), grouped: present on drift when there is more to say. */
  details?: string[]
}

/**
 * The outcome of {@link checkService}: plain JSON, for `--json`. The keys appear only masked.
 *
 * @example
 * import { createSimulator, maskSecret } from 'model-access-sim'
 * import { checkService } from 'model-access-sim/live'
 * import { startServer } from 'model-access-sim/server'
 *
 * const sim = createSimulator()
 * sim.presets.create({ userId: sim.world.userId, slug: 'support', config: { model: sim.world.models.paid } })
 * const server = await startServer(sim, { port: 0 })
 * const report = await checkService({ baseUrl: server.url, managementKey: sim.world.managementKey })
 * console.log(report.keys.management === maskSecret(sim.world.managementKey), report.keys.regular)
 * //=> true null
 * console.log(report.requests.slice(0, 2))
 * //=> ["GET /keys?include_disabled=true (management key)","GET /keys/26e3184c238a2d76a4105e052e8fb176587da6ade593ecdb79558cd0aae5105f (management key)"]
 * console.log(report.requests.every((r) => r.startsWith('GET ')))
 * //=> true
 * await server.close()
 */
export interface CheckReport {
  /** The base URL checked. */
  baseUrl: string
  /** The keys used, masked as the service labels them (`sk-or-v1-0e6...1c96`); null when not given. */
  keys: { management: string; regular: string | null }
  /** Every request sent to the live service (all GETs, unless `allowWrites`), with the credential it carried. */
  requests: string[]
  results: CheckResult[]
  /** How many rules are the same, drifted, were skipped. */
  same: number
  drift: number
  skipped: number
}

type Auth = 'management' | 'regular' | 'anonymous'

/** One response, as both sides report it. */
interface Observed {
  status: number
  /** The header's value, by lower-case name; null when absent. */
  header(name: string): string | null
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown
  byteLength: number
  /** Why there is no response (a network failure, a timeout); the other fields are then empty. */
  failure?: string
}

/** What a rule sees of one side: its GETs (and, with `allowWrites`, its writes), and the ids it stands in with. */
interface Side {
  get(path: string, query: string, auth: Auth): Promise<Observed>
  /** A write with a JSON body (or none); never remembered, each one is sent. */
  send(method: 'POST' | 'PATCH' | 'DELETE', path: string, body: unknown, auth: Auth): Promise<Observed>
  /** The throwaway key of the write rules, once created on this side. */
  throwaway?: { hash: string; deleted: boolean; secret: string | undefined }
  /** The i-th model (live: the one given; simulator: a model of its world). */
  model(i: number): string
  file(i: number): string
  hasRegularKey: boolean
  /** Which credential the keyed endpoint listing uses. */
  endpointsAuth: Auth
}

type Observation = { summary: string; details?: string[] } | { skip: string }

interface Rule {
  name: string
  observe(side: Side): Promise<Observation>
}

const OPERATION = 'check the service'
const UNKNOWN_HASH = '0'.repeat(64)
const UNKNOWN_WORKSPACE = '00000000-0000-4000-8000-000000000000'
const UNKNOWN_MODEL = 'model-access-sim/no-such-model-0'
const UNKNOWN_FILE = 'file_model_access_sim_check_0'
/** A slug in the service's form that no account is likely to have. */
const UNKNOWN_PRESET = 'model-access-sim-check-0'
/** The preset the simulator's side has, so that `GET /presets/{slug}` has one to read there (decisions/0050). */
const CHECK_PRESET_SLUG = 'model-access-sim-check'
/** The name of the governance records the simulator's side adds. */
const CHECK_NAME = 'model-access-sim-check'
const MODEL_ID = /^[^/\s]+\/[^/\s]+$/
const MAX_DETAIL_GROUPS = 20

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A model id (`author/slug`, checked by MODEL_ID) as the path carries it: each segment percent-encoded (`:` as `%3A`, as the SDK sends it). */
function modelPath(id: string): string {
  const [author, slug] = id.split('/') as [string, string]
  return `/models/${encodeURIComponent(author)}/${encodeURIComponent(slug)}/endpoints`
}


/**
 * Problems grouped by where they are, array indices folded (`data[].usage`), each group shown by its
 * first problem and a count: a renamed field in a list of 100 keys is two lines, not 200.
 */
function grouped(problems: string[]): string[] {
  const groups = new Map<string, { first: string; count: number }>()
  for (const problem of problems) {
    const key = problem.replace(/\[\d+\]/g, '[]').replace(/, got .*$/, '')
    const group = groups.get(key)
    if (group) group.count++
    else groups.set(key, { first: problem, count: 1 })
  }
  const lines = [...groups.values()].map(({ first, count }) => (count > 1 ? `${first} (and ${count - 1} more like it)` : first))
  return lines.length > MAX_DETAIL_GROUPS ? [...lines.slice(0, MAX_DETAIL_GROUPS), `... and ${lines.length - MAX_DETAIL_GROUPS} more kinds of problem`] : lines
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`

/** The status and media type, short: `200 json`, `200 octet-stream`, `404 text/html`. */
function head(r: Observed): string {
  const type = r.header('content-type')
  return `${r.status} ${type === null ? '(no content-type)' : mediaType(type).replace(/^application\//, '')}`
}

/** What a shape rule asks: a GET, or (with `method`) a write with a JSON body. */
type Target = { path: string; query: string; auth: Auth; method?: 'POST' | 'PATCH' | 'DELETE'; body?: unknown }

function shapeRule(
  name: string,
  operation: JsonOperationName,
  request: (side: Side) => Promise<Target | { skip: string }>,
  extraFields: 'report' | 'ignore',
  success = 200,
  after?: (side: Side, r: Observed) => void,
): Rule {
  return {
    name,
    async observe(side) {
      const target = await request(side)
      if ('skip' in target) return target
      const r = target.method === undefined ? await side.get(target.path, target.query, target.auth) : await side.send(target.method, target.path, target.body, target.auth)
      after?.(side, r)
      if (r.failure !== undefined) return { summary: r.failure }
      if (r.status !== success) return { summary: head(r) }
      if (r.json === undefined) return { summary: `${head(r)}, the body is not JSON` }
      const problems = validateShape(RESPONSE_SHAPES[operation], r.json, { extraFields })
      if (problems.length === 0) return { summary: `${head(r)}, fits ${RESPONSE_SHAPES[operation].name}` }
      return { summary: `${head(r)}, ${plural(problems.length, 'shape problem')}`, details: grouped(problems) }
    },
  }
}

/** The first page of the caller's keys (disabled ones too), as the shape, order and read rules share it. */
const KEY_LIST = { path: '/keys', query: 'include_disabled=true', auth: 'management' } as const

/** A field of the first listed key (its hash, its workspace), or why there is none. */
async function firstKeyField(side: Side, field: 'hash' | 'workspace_id'): Promise<string | { skip: string }> {
  const r = await side.get(KEY_LIST.path, KEY_LIST.query, KEY_LIST.auth)
  const data = isRecord(r.json) ? r.json['data'] : undefined
  const first: unknown = Array.isArray(data) ? data[0] : undefined
  const value = isRecord(first) ? first[field] : undefined
  if (typeof value === 'string' && value !== '') return value
  return { skip: `GET /keys listed no key with a ${field} to read` }
}

/** A field of the first item a management list (`GET /presets`, `GET /guardrails`) has, or why there is none. */
async function firstListed(side: Side, path: string, field: string, what: string): Promise<string | { skip: string }> {
  const r = await side.get(path, '', 'management')
  const data = isRecord(r.json) ? r.json['data'] : undefined
  const first: unknown = Array.isArray(data) ? data[0] : undefined
  const value = isRecord(first) ? first[field] : undefined
  if (typeof value === 'string' && value !== '') return value
  return { skip: `GET ${path} listed no ${what} to read` }
}

/** A read of the item `firstListed` found at `${prefix}/{value}`, as the management key. */
async function readOfFirst(side: Side, list: string, field: string, what: string): Promise<Target | { skip: string }> {
  const value = await firstListed(side, list, field, what)
  return typeof value === 'string' ? { path: `${list}/${encodeURIComponent(value)}`, query: '', auth: 'management' } : value
}

/** A GET of a fixed path. */
const fixed =
  (path: string, auth: Auth = 'management') =>
  async (): Promise<Target> => ({ path, query: '', auth })

/** A request whose status is the rule (an error), for the status rules and the envelope rule. */
interface ErrorProbe {
  name: string
  path: string
  query: string
  auth: Auth
  /** Why the probe cannot run on this side, if it cannot. */
  unavailable?(side: Side): string | undefined
}

const ERROR_PROBES: readonly ErrorProbe[] = [
  { name: '401 no Authorization on GET /keys', path: '/keys', query: '', auth: 'anonymous' },
  {
    name: '403 regular key on GET /keys',
    path: '/keys',
    query: '',
    auth: 'regular',
    unavailable: (side) => (side.hasRegularKey ? undefined : 'no regular key given (--regular-key)'),
  },
  { name: '404 unknown key hash', path: `/keys/${UNKNOWN_HASH}`, query: '', auth: 'management' },
  { name: '404 unknown workspace', path: `/workspaces/${UNKNOWN_WORKSPACE}`, query: '', auth: 'management' },
  { name: '404 unknown model', path: modelPath(UNKNOWN_MODEL), query: '', auth: 'anonymous' },
  { name: '404 unknown file', path: `/files/${UNKNOWN_FILE}/content`, query: '', auth: 'management' },
  { name: '400 offset=-1 on GET /keys', path: '/keys', query: 'offset=-1', auth: 'management' },
  { name: '400 offset=abc on GET /keys', path: '/keys', query: 'offset=abc', auth: 'management' },
  { name: '401 no Authorization on GET /key', path: '/key', query: '', auth: 'anonymous' },
  { name: '401 no Authorization on GET /credits', path: '/credits', query: '', auth: 'anonymous' },
  {
    name: '403 regular key on GET /credits',
    path: '/credits',
    query: '',
    auth: 'regular',
    unavailable: (side) => (side.hasRegularKey ? undefined : 'no regular key given (--regular-key)'),
  },
  { name: '404 unknown model on GET /model/{author}/{slug}', path: `/model/${UNKNOWN_MODEL}`, query: '', auth: 'anonymous' },
  { name: '404 unknown preset', path: `/presets/${UNKNOWN_PRESET}`, query: '', auth: 'management' },
  { name: '404 unknown guardrail', path: `/guardrails/${UNKNOWN_WORKSPACE}`, query: '', auth: 'management' },
]

function statusRule(probe: ErrorProbe): Rule {
  return {
    name: probe.name,
    async observe(side) {
      const reason = probe.unavailable?.(side)
      if (reason !== undefined) return { skip: reason }
      const r = await side.get(probe.path, probe.query, probe.auth)
      return { summary: r.failure ?? String(r.status) }
    },
  }
}

const AUTH_SHOWN: Record<Auth, string> = { management: 'management key', regular: 'regular key', anonymous: 'no Authorization' }

function envelopeRule(): Rule {
  return {
    name: 'error envelope, code = status',
    async observe(side) {
      const problems: string[] = []
      let inspected = false
      for (const probe of ERROR_PROBES) {
        if (probe.unavailable?.(side) !== undefined) continue
        const r = await side.get(probe.path, probe.query, probe.auth)
        if (r.failure !== undefined || r.status < 400) continue
        inspected = true
        const at = `GET ${probe.path}${probe.query ? `?${probe.query}` : ''} (${AUTH_SHOWN[probe.auth]}) -> ${r.status}`
        const type = r.header('content-type')
        if (type === null || mediaType(type) !== 'application/json') problems.push(`${at}: content-type ${type === null ? 'missing' : JSON.stringify(type)}, expected application/json`)
        if (r.json === undefined) problems.push(`${at}: the body is not JSON`)
        else for (const problem of errorEnvelopeProblems(r.status, r.json)) problems.push(`${at}: ${problem}`)
      }
      if (!inspected) return { skip: 'no error response to inspect' }
      if (problems.length === 0) return { summary: 'every error body fits, code = status' }
      return { summary: `${plural(problems.length, 'problem')} in error bodies`, details: problems }
    },
  }
}

/** An instant as a number to compare, to the nanosecond (Date.parse stops at the millisecond). */
function instantKey(text: unknown): bigint | undefined {
  if (typeof text !== 'string') return undefined
  const ms = parseInstant(text)
  if (ms === undefined) return undefined
  // parseInstant reads at most nine digits of a fraction, so the nanoseconds are all of them.
  const fraction = /:\d{2}\.(\d+)/.exec(text)?.[1] ?? ''
  const seconds = BigInt(Math.floor(ms / 1000))
  return seconds * 1_000_000_000n + BigInt(fraction.padEnd(9, '0'))
}

function orderRule(): Rule {
  return {
    name: 'order of GET /keys: newest first',
    async observe(side) {
      const r = await side.get(KEY_LIST.path, KEY_LIST.query, KEY_LIST.auth)
      if (r.failure !== undefined) return { summary: r.failure }
      const data = isRecord(r.json) ? r.json['data'] : undefined
      if (r.status !== 200 || !Array.isArray(data)) return { summary: `${head(r)}, no key list` }
      const keys = data.map((key: unknown, i) => ({ i, at: isRecord(key) ? instantKey(key['created_at']) : undefined, hash: isRecord(key) ? key['hash'] : undefined }))
      const dated = keys.filter((k): k is { i: number; at: bigint; hash: unknown } => k.at !== undefined)
      if (dated.length < 2) return { skip: `${plural(dated.length, 'key')} with a readable created_at listed: no order to see` }
      const problems: string[] = []
      for (let n = 1; n < dated.length; n++) {
        const before = dated[n - 1] as (typeof dated)[number]
        const after = dated[n] as (typeof dated)[number]
        const created = (k: { i: number }): string => JSON.stringify((data[k.i] as Record<string, unknown>)['created_at'])
        if (after.at > before.at) problems.push(`data[${after.i}] (created_at ${created(after)}) is newer than data[${before.i}] (created_at ${created(before)}) before it`)
        else if (after.at === before.at && typeof before.hash === 'string' && typeof after.hash === 'string' && after.hash < before.hash) {
          problems.push(`data[${after.i}] and data[${before.i}] share created_at ${created(after)}, but their hashes are not in ascending order`)
        }
      }
      if (problems.length === 0) return { summary: 'newest first' }
      return { summary: `not newest first: ${plural(problems.length, 'pair')} out of order`, details: grouped(problems) }
    },
  }
}

function anonymousRule(i: number, id: string): Rule {
  return {
    name: `anonymous hides performance: ${id}`,
    async observe(side) {
      const r = await side.get(modelPath(side.model(i)), '', 'anonymous')
      if (r.failure !== undefined) return { summary: r.failure }
      const data = isRecord(r.json) ? r.json['data'] : undefined
      const endpoints = isRecord(data) ? data['endpoints'] : undefined
      if (r.status !== 200 || !Array.isArray(endpoints)) return { summary: `${head(r)}, no endpoint list` }
      if (endpoints.length === 0) return { skip: 'the model lists no endpoint' }
      const problems: string[] = []
      endpoints.forEach((endpoint: unknown, n) => {
        if (!isRecord(endpoint)) return
        for (const field of ['latency_last_30m', 'throughput_last_30m']) {
          if (Object.hasOwn(endpoint, field) && endpoint[field] !== null) problems.push(`data.endpoints[${n}].${field}: expected null without a key, got ${shown(endpoint[field])}`)
        }
        if (Object.hasOwn(endpoint, 'perf_last_30m_by_workload')) problems.push(`data.endpoints[${n}].perf_last_30m_by_workload: expected absent without a key, but it is there`)
      })
      if (problems.length === 0) return { summary: 'latency, throughput null; no per-workload' }
      return { summary: `shows performance without a key: ${plural(problems.length, 'field')}`, details: grouped(problems) }
    },
  }
}

function fileRule(i: number, id: string): Rule {
  return {
    name: `shape GET /files/${id}/content`,
    async observe(side) {
      const r = await side.get(`/files/${encodeURIComponent(side.file(i))}/content`, '', 'management')
      if (r.failure !== undefined) return { summary: r.failure }
      if (r.status !== 200) return { summary: head(r) }
      const problems = fileContentProblems(r.status, (name) => r.header(name), r.byteLength)
      if (problems.length === 0) return { summary: `${head(r)}, length and attachment headers` }
      return { summary: `${head(r)}, ${plural(problems.length, 'problem')}`, details: problems }
    },
  }
}

const skipped = (name: string, reason: string): Rule => ({ name, observe: async () => ({ skip: reason }) })

/** The name of the throwaway key the write rules make: plain to see in the account's key list. */
export const THROWAWAY_KEY_NAME = 'model-access-sim check'

const WRITES_OFF = 'writes not allowed (--allow-writes)'

/** The throwaway key's hash on this side, or why a rule that needs it cannot run. */
function throwawayHash(side: Side): string | { skip: string } {
  if (side.throwaway === undefined) return { skip: 'POST /keys made no throwaway key' }
  return side.throwaway.hash
}

/** Create, update, delete and read back a throwaway key with a zero limit. */
function writeRules(allowWrites: boolean, extraFields: 'report' | 'ignore'): Rule[] {
  if (!allowWrites) {
    return ['shape POST /keys (throwaway key)', 'shape PATCH /keys/{hash} (throwaway key)', 'shape DELETE /keys/{hash} (throwaway key)', '404 GET /keys/{hash} after DELETE'].map((name) => skipped(name, WRITES_OFF))
  }
  return [
    shapeRule(
      'shape POST /keys (throwaway key)',
      'createKey',
      async () => ({ method: 'POST', path: '/keys', query: '', auth: 'management', body: { name: THROWAWAY_KEY_NAME, limit: 0 } }),
      extraFields,
      201,
      (side, r) => {
        const data = isRecord(r.json) ? r.json['data'] : undefined
        const hash = isRecord(data) ? data['hash'] : undefined
        const secret = isRecord(r.json) && typeof r.json['key'] === 'string' ? r.json['key'] : undefined
        if (r.status === 201 && typeof hash === 'string' && /^[0-9a-f]{64}$/.test(hash)) side.throwaway = { hash, deleted: false, secret }
      },
    ),
    shapeRule(
      'shape PATCH /keys/{hash} (throwaway key)',
      'updateKey',
      async (side) => {
        const hash = throwawayHash(side)
        return typeof hash === 'string' ? { method: 'PATCH', path: `/keys/${hash}`, query: '', auth: 'management', body: { name: `${THROWAWAY_KEY_NAME} (disabled)`, disabled: true } } : hash
      },
      extraFields,
    ),
    shapeRule(
      'shape DELETE /keys/{hash} (throwaway key)',
      'deleteKey',
      async (side) => {
        const hash = throwawayHash(side)
        return typeof hash === 'string' ? { method: 'DELETE', path: `/keys/${hash}`, query: '', auth: 'management' } : hash
      },
      extraFields,
      200,
      (side, r) => {
        if (side.throwaway !== undefined && r.status === 200) side.throwaway.deleted = true
      },
    ),
    {
      name: '404 GET /keys/{hash} after DELETE',
      async observe(side) {
        const hash = throwawayHash(side)
        if (typeof hash !== 'string') return hash
        if (side.throwaway?.deleted !== true) return { skip: 'the throwaway key was not deleted' }
        const r = await side.get(`/keys/${hash}`, '', 'management')
        return { summary: r.failure ?? String(r.status) }
      },
    },
  ]
}

/** The rules, in the order the report lists them. */
function rules(models: readonly string[], files: readonly string[], extraFields: 'report' | 'ignore', allowWrites: boolean): Rule[] {
  const list: Rule[] = [
    shapeRule('shape GET /keys', 'listKeys', async () => KEY_LIST, extraFields),
    shapeRule(
      'shape GET /keys/{hash}',
      'getKey',
      async (side) => {
        const hash = await firstKeyField(side, 'hash')
        return typeof hash === 'string' ? { path: `/keys/${encodeURIComponent(hash)}`, query: '', auth: 'management' } : hash
      },
      extraFields,
    ),
  ]
  if (models.length === 0) {
    list.push(skipped('shape GET /models/{author}/{slug}/endpoints', 'no model given (--models)'))
  }
  models.forEach((id, i) => {
    list.push(shapeRule(`shape GET /models/${id}/endpoints`, 'listEndpoints', async (side) => ({ path: modelPath(side.model(i)), query: '', auth: side.endpointsAuth }), extraFields))
    list.push(shapeRule(`shape anonymous GET /models/${id}/endpoints`, 'listEndpoints', async (side) => ({ path: modelPath(side.model(i)), query: '', auth: 'anonymous' }), extraFields))
  })
  if (files.length === 0) list.push(skipped('shape GET /files/{id}/content', 'no file given (--files): there is no list-files operation to pick one from'))
  files.forEach((id, i) => list.push(fileRule(i, id)))
  list.push(
    shapeRule(
      'shape GET /workspaces/{id}',
      'getWorkspace',
      async (side) => {
        const id = await firstKeyField(side, 'workspace_id')
        return typeof id === 'string' ? { path: `/workspaces/${encodeURIComponent(id)}`, query: '', auth: 'management' } : id
      },
      extraFields,
    ),
    shapeRule('shape GET /workspaces', 'listWorkspaces', async () => ({ path: '/workspaces', query: '', auth: 'management' }), extraFields),
    shapeRule('shape GET /videos/models', 'listVideoModels', async () => ({ path: '/videos/models', query: '', auth: 'anonymous' }), extraFields),
    shapeRule('shape GET /key', 'getCurrentKey', async () => ({ path: '/key', query: '', auth: 'management' }), extraFields),
    shapeRule('shape GET /credits', 'getCredits', async () => ({ path: '/credits', query: '', auth: 'management' }), extraFields),
    shapeRule('shape GET /models', 'listModels', async () => ({ path: '/models', query: '', auth: 'anonymous' }), extraFields),
    shapeRule('shape GET /providers', 'listProviders', async () => ({ path: '/providers', query: '', auth: 'anonymous' }), extraFields),
    shapeRule('shape GET /presets', 'listPresets', async () => ({ path: '/presets', query: '', auth: 'management' }), extraFields),
    shapeRule('shape GET /presets/{slug}', 'getPreset', (side) => readOfFirst(side, '/presets', 'slug', 'preset'), extraFields),
    shapeRule('shape GET /oauth/jwks', 'listOauthJwks', async () => ({ path: '/oauth/jwks', query: '', auth: 'anonymous' }), extraFields),
    // Governance (decisions/0051, 0052, 0054) and the account's reads: each a GET, as the management
    // key unless the operation takes another.
    shapeRule('shape GET /guardrails', 'listGuardrails', fixed('/guardrails'), extraFields),
    // Every workspace has a default guardrail, so an account always lists one to read.
    shapeRule('shape GET /guardrails/{id}', 'getGuardrail', (side) => readOfFirst(side, '/guardrails', 'id', 'guardrail'), extraFields),
    shapeRule('shape GET /guardrails/assignments/keys', 'listKeyAssignments', fixed('/guardrails/assignments/keys'), extraFields),
    shapeRule('shape GET /guardrails/assignments/members', 'listMemberAssignments', fixed('/guardrails/assignments/members'), extraFields),
    shapeRule(
      'shape GET /workspaces/{id}/budgets',
      'listWorkspaceBudgets',
      async (side) => {
        const id = await firstKeyField(side, 'workspace_id')
        return typeof id === 'string' ? { path: `/workspaces/${encodeURIComponent(id)}/budgets`, query: '', auth: 'management' } : id
      },
      extraFields,
    ),
    shapeRule('shape GET /byok', 'listBYOKKeys', fixed('/byok'), extraFields),
    shapeRule('shape GET /organization/members', 'listOrganizationMembers', fixed('/organization/members'), extraFields),
    shapeRule('shape GET /activity', 'getUserActivity', fixed('/activity'), extraFields),
    shapeRule('shape GET /models/user', 'listModelsUser', async (side) => ({ path: '/models/user', query: '', auth: side.endpointsAuth }), extraFields),
    shapeRule('shape GET /endpoints/zdr', 'listEndpointsZdr', fixed('/endpoints/zdr', 'anonymous'), extraFields),
    ...writeRules(allowWrites, extraFields),
    ...ERROR_PROBES.map(statusRule),
    envelopeRule(),
    orderRule(),
  )
  if (models.length === 0) list.push(skipped('anonymous hides performance: {author}/{slug}', 'no model given (--models)'))
  models.forEach((id, i) => list.push(anonymousRule(i, id)))
  return list
}

/** Remembers each response, so rules that read the same request send it once. */
function memoised(get: Side['get']): Side['get'] {
  const seen = new Map<string, Promise<Observed>>()
  return (path, query, auth) => {
    const key = `${auth} ${path}?${query}`
    let found = seen.get(key)
    if (found === undefined) {
      found = get(path, query, auth)
      seen.set(key, found)
    }
    return found
  }
}

/** The body parsed as JSON, or undefined when it is not JSON (an empty body is not). */
function parsedJson(bytes: Uint8Array, clean: (text: string) => string = (text) => text): unknown {
  try {
    return JSON.parse(clean(new TextDecoder().decode(bytes))) as unknown
  } catch {
    return undefined
  }
}

/**
 * A function that replaces each secret (and its part after `sk-or-v1-`) in a text by its mask. The
 * live side runs every body and header through it before any rule reads them, so a service that
 * echoes a key cannot get it into a problem line, where a long value is cut short (and so could not
 * be recognised afterwards).
 */
function secretScrubber(secrets: readonly string[]): (text: string) => string {
  const pairs = secrets.flatMap((secret) => {
    const body = secret.startsWith('sk-or-v1-') ? secret.slice('sk-or-v1-'.length) : secret
    // JSON escapes none of a key's characters, so the text of a body holds a key as it is. A secret
    // too short to tell from ordinary text is left alone: no rule echoes what it sent anyway.
    return body.length >= 8 ? [[secret, maskSecret(secret)] as const, [body, maskSecret(secret)] as const] : []
  })
  return (text) => pairs.reduce((t, [secret, mask]) => t.split(secret).join(mask), text)
}

/**
 * One record of each governance kind in the default world, so the simulator's side answers lists
 * with an item to compare: a guardrail with a key (the disabled one, which sends no request) and a
 * member assigned, a monthly budget on each workspace, a BYOK credential and a member.
 */
function addGovernance(sim: Simulator): void {
  const { userId } = sim.world
  const guardrail = sim.guardrails.create({ userId, rules: { name: CHECK_NAME, allowed_models: [sim.world.models.paid], limit_usd: 25, reset_interval: 'monthly' } })
  const member = sim.members.add({ userId, email: 'check@model-access-sim.example', firstName: 'Check', lastName: null })
  sim.guardrails.assignKeys(guardrail.id, [sim.world.keys.disabled])
  sim.guardrails.assignMembers(guardrail.id, [member.id])
  for (const workspace of Object.values(sim.world.workspaces)) sim.budgets.set({ workspace, interval: 'monthly', limitUsd: 100 })
  sim.byok.create({ userId, provider: 'openai', key: 'sk-proj-model-access-sim-check-0000', name: CHECK_NAME })
}

/** The simulator's side: a fresh default world, asked through `sim.handle`. */
function simulatorSide(hasRegularKey: boolean): Side {
  const sim = createSimulator()
  // The default world has no presets; one gives `GET /presets/{slug}` something to read.
  sim.presets.create({ userId: sim.world.userId, slug: CHECK_PRESET_SLUG, config: { model: sim.world.models.paid, temperature: 0.2 }, systemPrompt: 'Answer in one sentence.' })
  addGovernance(sim)
  const secrets: Record<Auth, string | null> = { management: sim.world.managementKey, regular: sim.world.apiKey, anonymous: null }
  const handle = (method: string, path: string, query: string, auth: Auth, body: unknown): Observed => {
    const secret = secrets[auth]
    // A body without headers is read as JSON (SimRequest.headers); JSON.stringify(undefined) is
    // undefined, so a GET has none.
    const request: SimRequest = { method, path, query, authorization: secret === null ? null : `Bearer ${secret}`, body: JSON.stringify(body) }
    const response = sim.handle(request)
    const header = (name: string): string | null => response.headers[name] ?? null
    if (response.type === 'network-error' || response.type === 'never') return { status: 0, header, json: undefined, byteLength: 0, failure: `request failed: ${response.type}` }
    if (response.type === 'bytes') return { status: response.status, header, json: parsedJson(response.body), byteLength: response.body.byteLength }
    const text = JSON.stringify(response.body)
    return { status: response.status, header, json: JSON.parse(text) as unknown, byteLength: new TextEncoder().encode(text).byteLength }
  }
  return {
    get: memoised(async (path, query, auth) => handle('GET', path, query, auth, undefined)),
    send: async (method, path, body, auth) => handle(method, path, '', auth, body),
    model: () => sim.world.models.paid,
    file: () => sim.world.files.report,
    hasRegularKey,
    endpointsAuth: hasRegularKey ? 'regular' : 'management',
  }
}

/** Why a fetch failed, in a few words: `fetch failed (ECONNREFUSED)`, `timed out after 30000 ms`. */
function failureOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `request failed: timed out after ${timeoutMs} ms`
  const message = error instanceof Error ? error.message : String(error)
  const cause = error instanceof Error && isRecord(error.cause) && typeof error.cause['code'] === 'string' ? ` (${error.cause['code']})` : ''
  return `request failed: ${message}${cause}`
}

interface LiveSettings {
  baseUrl: string
  managementKey: string
  regularKey: string | undefined
  models: readonly string[]
  files: readonly string[]
  fetch: typeof fetch
  timeoutMs: number
}

/** The live side: GETs to the base URL, with the key of the rule, redirects not followed. */
function liveSide(settings: LiveSettings, requests: string[], clean: (text: string) => string): Side {
  const secrets: Record<Auth, string | undefined> = { management: settings.managementKey, regular: settings.regularKey, anonymous: undefined }
  const exchange = async (method: string, path: string, query: string, auth: Auth, body: unknown): Promise<Observed> => {
    const target = `${path}${query ? `?${query}` : ''}`
    requests.push(`${method} ${target} (${AUTH_SHOWN[auth]})`)
    const headers: Record<string, string> = { accept: 'application/json, */*' }
    const secret = secrets[auth]
    if (secret !== undefined) headers['authorization'] = `Bearer ${secret}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    try {
      const res = await settings.fetch(`${settings.baseUrl}${target}`, {
        method,
        headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(settings.timeoutMs),
        ...(body !== undefined && { body: JSON.stringify(body) }),
      })
      const bytes = new Uint8Array(await res.arrayBuffer())
      const header = (name: string): string | null => {
        const value = res.headers.get(name)
        return value === null ? null : clean(value)
      }
      return { status: res.status, header, json: parsedJson(bytes, clean), byteLength: bytes.byteLength }
    } catch (error) {
      return { status: 0, header: () => null, json: undefined, byteLength: 0, failure: clean(failureOf(error, settings.timeoutMs)) }
    }
  }
  return {
    get: memoised(async (path, query, auth) => exchange('GET', path, query, auth, undefined)),
    send: async (method, path, body, auth) => exchange(method, path, '', auth, body),
    model: (i) => settings.models[i] as string,
    file: (i) => settings.files[i] as string,
    hasRegularKey: settings.regularKey !== undefined,
    endpointsAuth: settings.regularKey !== undefined ? 'regular' : 'management',
  }
}

const CHECK_OPTION_FIELDS = fieldsOf<CheckServiceOptions>({
  baseUrl: true,
  managementKey: true,
  regularKey: true,
  models: true,
  files: true,
  fetch: true,
  timeoutMs: true,
  allowExtraFields: true,
  allowWrites: true,
})

function checkedOptions(options: CheckServiceOptions): LiveSettings & { extraFields: 'report' | 'ignore'; allowWrites: boolean } {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalidArgument(OPERATION, 'options', `must be an options object, got ${describe(options)}`)
  // Only the field's name is shown, never a value: a misplaced one may be a secret.
  new ArgumentChecker(OPERATION).knownFields(options, CHECK_OPTION_FIELDS, '', 'the options of checkService')
  const { baseUrl, managementKey, regularKey, models = [], files = [], timeoutMs = 30_000, allowExtraFields = false, allowWrites = false } = options
  // A value echoed in a message never shows a key: not one given, nor one passed in the wrong place.
  const keys = [managementKey, regularKey].filter((k): k is string => typeof k === 'string')
  const safe = (value: unknown): string =>
    typeof value === 'string' && (/sk-or-/i.test(value) || keys.some((k) => k.length >= 8 && value.includes(k))) ? 'a string that holds an API key' : describe(value)
  let url: URL | undefined
  try {
    url = typeof baseUrl === 'string' ? new URL(baseUrl) : undefined
  } catch {
    url = undefined
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw invalidArgument(OPERATION, 'baseUrl', `must be an http(s) URL such as "https://openrouter.ai/api/v1", got ${safe(baseUrl)}`)
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    // Said without the value: a URL with credentials in it is not echoed.
    throw invalidArgument(OPERATION, 'baseUrl', 'must not carry credentials, a query or a fragment')
  }
  // Neither secret is ever put in a message: only what kind of value it was.
  const secretProblem = (value: unknown): string | undefined =>
    typeof value !== 'string' ? `must be a string, got ${typeof value}` : value.trim() === '' || /\s/.test(value) ? 'must be an API key: non-empty, without spaces' : undefined
  const managementProblem = secretProblem(managementKey)
  if (managementProblem !== undefined) throw invalidArgument(OPERATION, 'managementKey', managementProblem)
  const regularProblem = regularKey === undefined ? undefined : secretProblem(regularKey)
  if (regularProblem !== undefined) throw invalidArgument(OPERATION, 'regularKey', regularProblem)
  if (!Array.isArray(models) || !models.every((m) => typeof m === 'string' && MODEL_ID.test(m))) {
    throw invalidArgument(OPERATION, 'models', `must be an array of model ids such as "openai/gpt-4o", got ${Array.isArray(models) ? safe(models.find((m) => typeof m !== 'string' || !MODEL_ID.test(m))) : safe(models)}`)
  }
  if (!Array.isArray(files) || !files.every((f) => typeof f === 'string' && f !== '' && !f.includes('/'))) {
    throw invalidArgument(OPERATION, 'files', `must be an array of file ids, got ${Array.isArray(files) ? safe(files.find((f) => typeof f !== 'string' || f === '' || f.includes('/'))) : safe(files)}`)
  }
  const fetchFn = options.fetch ?? globalThis.fetch
  if (typeof fetchFn !== 'function') throw invalidArgument(OPERATION, 'fetch', 'must be a function such as globalThis.fetch')
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) throw invalidArgument(OPERATION, 'timeoutMs', `must be a positive number of milliseconds, got ${describe(timeoutMs)}`)
  if (typeof allowExtraFields !== 'boolean') throw invalidArgument(OPERATION, 'allowExtraFields', `must be a boolean, got ${describe(allowExtraFields)}`)
  if (typeof allowWrites !== 'boolean') throw invalidArgument(OPERATION, 'allowWrites', `must be a boolean, got ${describe(allowWrites)}`)
  return {
    baseUrl: url.href.replace(/\/+$/, ''),
    managementKey,
    regularKey,
    // A model or file given twice is checked once.
    models: [...new Set(models)],
    files: [...new Set(files)],
    fetch: fetchFn,
    timeoutMs,
    extraFields: allowExtraFields ? 'ignore' : 'report',
    allowWrites,
  }
}

/** A JSON value with every string run through `clean`. */
function scrubbed<T>(value: T, clean: (text: string) => string): T {
  return JSON.parse(JSON.stringify(value), (_, v: unknown) => (typeof v === 'string' ? clean(v) : v)) as T
}

/**
 * Runs the simulator's wire rules against a live service and reports where it differs: each
 * response's shape (every field and type of the wire types, nullability and enumerations included),
 * the 401/403/404/400 statuses and their error envelope, key order, and what an anonymous caller
 * sees of a model's endpoints. Each rule is observed on a fresh default-world simulator (with one
 * preset added, `model-access-sim-check`, and one record of each governance kind: a guardrail with
 * a key and a member assigned, budgets, a BYOK credential, a member) and on the service, the same
 * way; a rule that cannot run (no regular key, no model given, no preset on the account to read)
 * is skipped.
 *
 * Read-only unless `allowWrites`: it sends GET requests only, to `baseUrl` only (redirects are not
 * followed); with `allowWrites` it also creates, updates and deletes one throwaway key. The keys go
 * only into the `Authorization` header; the report shows them masked (`maskSecret`) and nowhere else.
 * It never throws for what the service answers (a failed request is an observation); it throws a
 * `SimulatorError` naming the option for bad options, before sending anything.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * import { checkService } from 'model-access-sim/live'
 * import { startServer } from 'model-access-sim/server'
 *
 * // The simulator's own server stands in for the live service here: nothing drifts.
 * const sim = createSimulator()
 * sim.presets.create({ userId: sim.world.userId, slug: 'support', config: { model: sim.world.models.paid } })
 * const server = await startServer(sim, { port: 0 })
 * const report = await checkService({
 *   baseUrl: server.url,
 *   managementKey: sim.world.managementKey,
 *   regularKey: sim.world.apiKey,
 *   models: [sim.world.models.paid],
 *   files: [sim.world.files.report],
 *   allowWrites: true, // a throwaway key is made, changed and deleted
 * })
 * console.log(report.drift, report.skipped, report.same === report.results.length)
 * //=> 0 0 true
 * console.log(report.results[0])
 * //=> {"rule":"shape GET /keys","simulator":"200 json, fits { data: ApiKey[] }","live":"200 json, fits { data: ApiKey[] }","verdict":"same"}
 * console.log(JSON.stringify(report).includes(sim.world.managementKey))
 * //=> false
 * await server.close()
 */
export async function checkService(options: CheckServiceOptions): Promise<CheckReport> {
  const settings = checkedOptions(options)
  const requests: string[] = []
  const clean = secretScrubber(settings.regularKey === undefined ? [settings.managementKey] : [settings.managementKey, settings.regularKey])
  const live = liveSide(settings, requests, clean)
  const simulator = simulatorSide(live.hasRegularKey)
  const results: CheckResult[] = []
  // One rule after another: the live service sees one request at a time.
  for (const rule of rules(settings.models, settings.files, settings.extraFields, settings.allowWrites)) {
    const expected = await rule.observe(simulator)
    const seen = await rule.observe(live)
    if ('skip' in seen || 'skip' in expected) {
      // A rule skipped for want of an option is skipped on both sides; the reason is said once.
      const simulatorText = 'skip' in expected ? ('skip' in seen && seen.skip === expected.skip ? '-' : `skipped: ${expected.skip}`) : expected.summary
      results.push({ rule: rule.name, simulator: simulatorText, live: 'skip' in seen ? `skipped: ${seen.skip}` : seen.summary, verdict: 'skipped' })
      continue
    }
    const simulatorText = expected.summary
    const verdict: CheckVerdict = seen.summary === expected.summary ? 'same' : 'drift'
    const result: CheckResult = { rule: rule.name, simulator: simulatorText, live: seen.summary, verdict }
    if (verdict === 'drift' && seen.details !== undefined && seen.details.length > 0) result.details = seen.details
    results.push(result)
  }
  // A throwaway key that a drifting step left behind is deleted all the same.
  if (live.throwaway !== undefined && !live.throwaway.deleted) await live.send('DELETE', `/keys/${live.throwaway.hash}`, undefined, 'management')
  const count = (verdict: CheckVerdict): number => results.filter((r) => r.verdict === verdict).length
  const report: CheckReport = {
    baseUrl: settings.baseUrl,
    keys: { management: maskSecret(settings.managementKey), regular: settings.regularKey === undefined ? null : maskSecret(settings.regularKey) },
    requests,
    results,
    same: count('same'),
    drift: count('drift'),
    skipped: count('skipped'),
  }
  // Once more over the whole report: an id given in the options could hold a key, too, and the
  // throwaway key's secret (shown once, in POST's answer) is masked like the others.
  const throwawaySecret = live.throwaway?.secret
  return scrubbed(report, throwawaySecret === undefined ? clean : (text) => secretScrubber([throwawaySecret])(clean(text)))
}

const COLUMN_WIDTH = 46

function cell(text: string, width: number): string {
  const one = text.replace(/\s+/g, ' ')
  return (one.length > width ? `${one.slice(0, width - 3)}...` : one).padEnd(width)
}

/**
 * The report as plain text: a table (rule, simulator, live, verdict), then each drifting rule's
 * problems with their JSON paths, then a summary line. Long cells are shortened in the table; the
 * report itself (`JSON.stringify(report)`, the `--json` output) has them whole.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * import { checkService, formatReport } from 'model-access-sim/live'
 * import { startServer } from 'model-access-sim/server'
 *
 * const sim = createSimulator()
 * sim.presets.create({ userId: sim.world.userId, slug: 'support', config: { model: sim.world.models.paid } })
 * const server = await startServer(sim, { port: 0 })
 * const report = await checkService({ baseUrl: server.url, managementKey: sim.world.managementKey })
 * const text = formatReport(report)
 * console.log(text.split('\n').at(-1))
 * //=> 45 rules: 36 same, 0 drift, 9 skipped
 * console.log(text.split('\n').some((line) => /^403 regular key .* skipped$/.test(line)))
 * //=> true
 * console.log(text.includes(sim.world.managementKey))
 * //=> false
 * await server.close()
 */
export function formatReport(report: CheckReport): string {
  const results = report.results
  const ruleWidth = Math.min(72, Math.max(4, ...results.map((r) => r.rule.length)))
  const simWidth = Math.min(COLUMN_WIDTH, Math.max(9, ...results.map((r) => r.simulator.length)))
  const liveWidth = Math.min(COLUMN_WIDTH, Math.max(4, ...results.map((r) => r.live.length)))
  const row = (rule: string, simulator: string, live: string, verdict: string): string =>
    `${cell(rule, ruleWidth)}  ${cell(simulator, simWidth)}  ${cell(live, liveWidth)}  ${verdict}`
  const lines = [
    `${report.baseUrl} (management key ${report.keys.management}${report.keys.regular === null ? '' : `, regular key ${report.keys.regular}`})`,
    '',
    row('rule', 'simulator', 'live', 'verdict'),
    row('-'.repeat(ruleWidth), '-'.repeat(simWidth), '-'.repeat(liveWidth), '-------'),
    ...results.map((r) => row(r.rule, r.simulator, r.live, r.verdict)),
  ]
  for (const r of results) {
    if (r.verdict !== 'drift') continue
    lines.push('', `drift: ${r.rule}`, `  simulator: ${r.simulator}`, `  live:      ${r.live}`, ...(r.details ?? []).map((d) => `  ${d}`))
  }
  const skips = results.filter((r) => r.verdict === 'skipped')
  if (skips.length > 0) lines.push('', ...skips.map((r) => `skipped: ${r.rule}: ${r.live.replace(/^skipped: /, '')}`))
  lines.push('', `${plural(results.length, 'rule')}: ${report.same} same, ${report.drift} drift, ${report.skipped} skipped`)
  return lines.join('\n')
}
