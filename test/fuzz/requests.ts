// Hostile requests over a world, and the wire contract every answer must keep, for the fuzz suite
// (wire-fuzz.test.ts) and the long run (run.ts). Nothing here knows how src/ implements a rule: the
// checks read the world spec and the README's "Wire behaviour" section, not the router.
import { Buffer } from 'node:buffer'
import fc from 'fast-check'
import type { SimRequest, SimResponse, WorldSpec } from '../../src/index.js'

// ---------------------------------------------------------------------------------------------
// The world as the checks see it
// ---------------------------------------------------------------------------------------------

export interface KeyInfo {
  hash: string
  secret: string
  userId: string
  management: boolean
  disabled: boolean
  expiresAtMs: number | null
}

export interface FileInfo {
  id: string
  userId: string
  origin: string
  filename: string
  bytes: Uint8Array
}

export interface WorkspaceInfo {
  id: string
  userId: string
  slug: string | undefined
}

/** What the checks and the generators need to know of a world: who owns what, and every secret. */
export interface WorldView {
  keys: KeyInfo[]
  keyByHash: ReadonlyMap<string, KeyInfo>
  keyBySecret: ReadonlyMap<string, KeyInfo>
  /** Every key's bearer secret. */
  secrets: readonly string[]
  workspaces: WorkspaceInfo[]
  /** Lower-case workspace id to owning organisation. */
  workspaceOwner: ReadonlyMap<string, string>
  files: FileInfo[]
  modelIds: string[]
  userIds: string[]
}

/** Every key secret of a world spec. */
export function secretsOf(spec: WorldSpec<object>): string[] {
  return (spec.keys ?? []).map((key) => key.secret).filter((secret): secret is string => typeof secret === 'string' && secret !== '')
}

const instantMs = (value: unknown): number | null => (typeof value === 'string' ? Date.parse(value) : null)

function fileBytes(file: { text?: string | undefined; base64?: string | undefined }): Uint8Array {
  if (typeof file.text === 'string') return new TextEncoder().encode(file.text)
  return new Uint8Array(Buffer.from(file.base64 ?? '', 'base64'))
}

/**
 * The view of a world spec. Give it a spec with every id written out (`sim.exportWorld()` right
 * after loading): a spec that leaves a default workspace's id to the simulator cannot say who owns it.
 */
export function viewOf(spec: WorldSpec<object>): WorldView {
  const keys: KeyInfo[] = (spec.keys ?? []).map((key) => ({
    hash: key.hash ?? '',
    secret: key.secret,
    userId: key.userId,
    management: key.management === true,
    disabled: key.disabled === true,
    expiresAtMs: instantMs(key.expiresAt),
  }))
  const workspaces: WorkspaceInfo[] = []
  for (const user of spec.users ?? []) {
    if (user.defaultWorkspaceId !== undefined && user.defaultWorkspaceId !== null) workspaces.push({ id: user.defaultWorkspaceId.toLowerCase(), userId: user.id, slug: 'default' })
  }
  for (const workspace of spec.workspaces ?? []) workspaces.push({ id: workspace.id.toLowerCase(), userId: workspace.userId, slug: workspace.slug })
  const files: FileInfo[] = (spec.files ?? []).map((file) => ({
    id: String(file.id),
    userId: file.userId,
    origin: String(file.origin ?? 'upload'),
    filename: file.filename ?? String(file.id),
    bytes: fileBytes(file),
  }))
  return {
    keys,
    keyByHash: new Map(keys.map((key) => [key.hash, key])),
    keyBySecret: new Map(keys.map((key) => [key.secret, key])),
    secrets: secretsOf(spec),
    workspaces,
    workspaceOwner: new Map(workspaces.map((w) => [w.id, w.userId])),
    files,
    modelIds: (spec.models ?? []).map((model) => String(model.id)),
    userIds: (spec.users ?? []).map((user) => user.id),
  }
}

// ---------------------------------------------------------------------------------------------
// Hostile requests
// ---------------------------------------------------------------------------------------------

/** One request relative to the base URL, as a hostile client writes it. */
export interface FuzzRequest {
  method: string
  /** Below the base URL, as written: it may lack the leading `/`, hold `%zz`, `..`, raw unicode... */
  path: string
  /** The query text without `?`; '' for none. */
  query: string
  /** The Authorization header; null or undefined (left out of the SimRequest) for none. */
  authorization: string | null | undefined
  /** How `sim.handle` is given the query. */
  queryForm: 'string' | 'question-mark' | 'params' | 'absent'
}

const LONG = 10_000
const HUGE = 100_000

const HOSTILE_SEGMENTS: readonly string[] = [
  '%zz', '%', '%2', '%G0', '%2F', '%2f', 'a%2Fb', '..%2F..', '..', '.', '%2e%2e', '%2E', 'é', '%C3%A9', '%E9', '%C3', '%00', '%FF',
  '🎉', '%F0%9F%8E%89', '\uD800', ' ', '%20', '+', '\u0000', '\u2028', '\t', ';', ',', '\\', '~', '*', ':', '%3A', '@', '$', '!', "'()",
  'null', 'undefined', 'constructor', '__proto__', 'hasOwnProperty', 'toString', 'default', 'DEFAULT',
  'a'.repeat(LONG), '%41'.repeat(LONG / 3), 'é'.repeat(LONG / 2), '%zz'.repeat(LONG / 3), '0'.repeat(64), 'f'.repeat(65),
]

const HEX = [...'0123456789abcdef']
const hex64 = fc.string({ unit: fc.constantFrom(...HEX), minLength: 64, maxLength: 64 })
const ID_UNITS = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-']
const fakeFileId = fc.string({ unit: fc.constantFrom(...ID_UNITS), minLength: 1, maxLength: 30 })

/** Every UTF-8 byte of `text` as `%XX`, upper or lower case. */
export function percentEncodeAll(text: string, lower = false): string {
  const hex = Buffer.from(text, 'utf8').toString('hex')
  const out = hex.replace(/(..)/g, '%$1')
  return lower ? out : out.toUpperCase()
}

/** encodeURIComponent, or the text as it is when it holds a lone surrogate (then it goes raw). */
const encode = (text: string): string => {
  try {
    return encodeURIComponent(text)
  } catch {
    return text
  }
}

const weighted = <T>(weight: number, arbitrary: fc.Arbitrary<T>): fc.WeightedArbitrary<T> => ({ weight, arbitrary })

/** A real id as written in a path: verbatim mostly, else re-encoded, re-cased or damaged. */
function realSegment(ids: readonly string[]): fc.Arbitrary<string> | undefined {
  if (ids.length === 0) return undefined
  const id = fc.constantFrom(...ids)
  return fc.oneof(
    weighted(8, id),
    weighted(1, id.map((v) => encode(v))),
    weighted(1, id.map((v) => percentEncodeAll(v))),
    weighted(1, id.map((v) => percentEncodeAll(v, true))),
    weighted(1, id.map((v) => v.toUpperCase())),
    weighted(1, id.map((v) => `${v}%00`)),
    weighted(1, id.map((v) => `${v} `)),
    weighted(1, id.map((v) => v.slice(0, -1))),
    weighted(1, id.map((v) => `${v}/`)),
  )
}

/** An id position of a path: this world's ids (the caller's own more often), fakes, or something hostile. */
function idSegment(own: readonly string[], all: readonly string[], fake: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const options: fc.WeightedArbitrary<string>[] = [weighted(2, fake), weighted(2, fc.constantFrom(...HOSTILE_SEGMENTS)), weighted(1, fc.string({ unit: 'grapheme', maxLength: 12 }))]
  const ownSegment = realSegment(own)
  const anySegment = realSegment(all)
  if (ownSegment) options.push(weighted(8, ownSegment))
  if (anySegment) options.push(weighted(4, anySegment))
  return fc.oneof(...options)
}

/** What a request is about when it is made by one caller: that caller's organisation. */
interface Focus {
  caller: KeyInfo | undefined
}

function ownedBy<T extends { userId: string }>(items: readonly T[], focus: Focus): T[] {
  return focus.caller === undefined ? [...items] : items.filter((item) => item.userId === focus.caller?.userId)
}

function pathArbitrary(view: WorldView, focus: Focus): fc.Arbitrary<string> {
  const hashes = view.keys.map((k) => k.hash)
  const hashSeg = idSegment(
    ownedBy(view.keys, focus).map((k) => k.hash),
    [...hashes, ...view.secrets],
    fc.oneof(hex64, fc.constantFrom('', 'sk-or-v1-', '0'.repeat(64))),
  )
  const ids = view.workspaces.map((w) => w.id)
  const slugs = view.workspaces.flatMap((w) => (w.slug === undefined ? [] : [w.slug]))
  const ownSpaces = ownedBy(view.workspaces, focus)
  const workspaceSeg = idSegment(
    [...ownSpaces.map((w) => w.id), ...ownSpaces.flatMap((w) => (w.slug === undefined ? [] : [w.slug]))],
    [...ids, ...slugs],
    fc.oneof(fc.uuid(), fc.constantFrom('00000000-0000-0000-0000-000000000000', 'production', 'staging')),
  )
  const fileSeg = idSegment(
    ownedBy(view.files, focus).map((f) => f.id),
    view.files.map((f) => f.id),
    fc.oneof(fakeFileId, fakeFileId.map((id) => `file_${id}`)),
  )
  const models = view.modelIds.map((id) => {
    const slash = id.indexOf('/')
    return [id.slice(0, slash), id.slice(slash + 1)] as const
  })
  const author = idSegment([], models.map(([a]) => a), fc.constantFrom('openai', 'anthropic', 'x'))
  const slug = idSegment([], models.map(([, s]) => s), fc.constantFrom('gpt-4o', 'gpt-4o:free', 'gpt-4o%3Afree'))
  const realModel: fc.Arbitrary<string> | undefined =
    models.length === 0
      ? undefined
      : fc.tuple(fc.constantFrom(...models), fc.constantFrom('raw', 'encoded', 'all')).map(([[a, s], how]) =>
          how === 'raw' ? `/models/${a}/${s}/endpoints` : how === 'encoded' ? `/models/${encode(a)}/${encode(s)}/endpoints` : `/models/${percentEncodeAll(a)}/${percentEncodeAll(s)}/endpoints`,
        )
  const anySegment = fc.oneof(
    weighted(3, fc.constantFrom('keys', 'models', 'files', 'workspaces', 'videos', 'endpoints', 'content', 'api', 'v1', '__sim', 'KEYS', 'Keys')),
    weighted(2, fc.constantFrom(...HOSTILE_SEGMENTS)),
    weighted(1, fc.string({ unit: 'grapheme', maxLength: 8 })),
  )
  const bases: fc.WeightedArbitrary<string>[] = [
    weighted(3, fc.constant('/keys')),
    weighted(5, hashSeg.map((h) => `/keys/${h}`)),
    weighted(3, fc.tuple(author, slug).map(([a, s]) => `/models/${a}/${s}/endpoints`)),
    weighted(4, fileSeg.map((f) => `/files/${f}/content`)),
    weighted(4, workspaceSeg.map((w) => `/workspaces/${w}`)),
    weighted(2, fc.constant('/videos/models')),
    weighted(3, fc.constantFrom('/models', '/models/count', '/providers', '/embeddings/models')),
    weighted(2, fc.tuple(author, slug).map(([a, s]) => `/model/${a}/${s}`)),
    weighted(2, fc.constantFrom('/chat/completions', '/generation', '/chat/completions/', '/generation/gen-1')),
    weighted(2, fc.array(anySegment, { maxLength: 6 }).map((segments) => `/${segments.join('/')}`)),
  ]
  if (realModel) bases.push(weighted(3, realModel))
  const mutate = fc.oneof(
    weighted(48, fc.constant((p: string) => p)),
    weighted(1, fc.constant((p: string) => `${p}/`)),
    weighted(1, fc.constant((p: string) => p.replace('/', '//'))),
    weighted(1, fc.constant((p: string) => `${p}//`)),
    weighted(1, fc.constant((p: string) => p.replace(/^\/([^/]*)/, '/$1/..//$1'))),
    weighted(1, fc.constant((p: string) => `/.${p}`)),
    weighted(1, fc.constant((p: string) => `/..${p}`)),
    weighted(1, fc.constant((p: string) => p.slice(1))),
    weighted(1, fc.constant((_: string) => '')),
    weighted(1, fc.constant((_: string) => '/')),
    weighted(1, fc.constant((p: string) => p.toUpperCase())),
    weighted(1, fc.constant((p: string) => `${p}?inline=1`)),
    weighted(1, fc.constant((p: string) => `${p}#fragment`)),
    weighted(1, fc.constant((p: string) => `/api/v1${p}`)),
    weighted(1, fc.constant((p: string) => p.replace(/\/([^/]*)$/, '%2F$1'))),
    weighted(1, fc.constant((p: string) => p.replace(/\//g, '\\'))),
    weighted(1, fc.constant((p: string) => `${p}/${'x'.repeat(LONG)}`)),
  )
  return fc.tuple(fc.oneof(...bases), mutate).map(([p, m]) => m(p))
}

const NUMBERS = [
  '', '0', '1', '100', '-1', '-0', '1e3', '1E3', '1e+3', '0x10', '0X10', '0b1', '0o7', '1.5', '.5', '1.', '+1', ' 1', '1 ', '1_000', '١',
  '１', '99999999999999999999', '9007199254740991', '9007199254740992', '1e309', 'Infinity', '-Infinity', 'NaN', '00000000000000000001',
]
const BOOLEANS = ['true', 'false', 'TRUE', 'True', 'FALSE', '1', '0', 'yes', 'on', '', 'true ', 'nul']
const PROVIDERS = ['openai', 'anthropic', 'OpenAI', 'ANTHROPIC', 'google', '', 'openai ', 'openai,anthropic']
/** Values of the catalog's filters: good ones, and the near misses a filter must refuse. */
const CATALOG_VALUES = ['gen-1772445600-AAAAAAAAAAAAAAAAAAAA', 'gen-', 'text', 'all', 'embeddings', 'image,text', 'text,all', 'tools', 'tools,seed', 'Tools', 'tools,', ',', 'programming', 'marketing/seo', 'smell', '1000', '1001', '500']
const HOSTILE_VALUES = ['%zz', '%', '%E9', 'é', '🎉', '\u0000', '\uD800', 'a'.repeat(LONG), '9'.repeat(LONG), '&', '=', '#', '?', '+', ' ', '[]', '{}', 'null', '__proto__']

function queryArbitrary(view: WorldView, focus: Focus): fc.Arbitrary<string> {
  const spaces = ownedBy(view.workspaces, focus)
  const name = fc.oneof(
    weighted(12, fc.constantFrom('offset', 'include_disabled', 'workspace_id', 'provider')),
    weighted(6, fc.constantFrom('output_modalities', 'supported_parameters', 'category', 'limit', 'id')),
    weighted(1, fc.constantFrom('', 'OFFSET', 'offset[]', 'x', 'é', '__proto__', 'constructor', 'a'.repeat(LONG), '%zz', 'offset%00', 'work%73pace_id', 'include_disabled ')),
  )
  const workspaceValue = fc.oneof(
    weighted(3, spaces.length === 0 ? fc.uuid() : fc.constantFrom(...spaces.map((w) => w.id))),
    weighted(2, view.workspaces.length === 0 ? fc.uuid() : fc.constantFrom(...view.workspaces.map((w) => w.id))),
    weighted(1, view.workspaces.length === 0 ? fc.uuid() : fc.constantFrom(...view.workspaces.map((w) => w.id.toUpperCase()))),
    weighted(1, fc.uuid()),
    weighted(1, fc.constantFrom('default', 'production', '00000000-0000-0000-0000-000000000000', '{00000000-0000-0000-0000-000000000000}', 'not-a-uuid')),
  )
  const value = fc.oneof(
    weighted(4, fc.constantFrom(...NUMBERS)),
    weighted(2, fc.constantFrom(...BOOLEANS)),
    weighted(2, fc.constantFrom(...PROVIDERS)),
    weighted(2, fc.constantFrom(...CATALOG_VALUES)),
    weighted(4, workspaceValue),
    weighted(1, fc.constantFrom(...HOSTILE_VALUES)),
    weighted(1, fc.string({ unit: 'grapheme', maxLength: 10 })),
  )
  const param = fc.tuple(name, value, fc.constantFrom('raw', 'raw', 'encoded', 'bare', 'all')).map(([n, v, how]) =>
    how === 'raw' ? `${n}=${v}` : how === 'encoded' ? `${encode(n)}=${encode(v)}` : how === 'all' ? `${n}=${percentEncodeAll(v)}` : n,
  )
  return fc.oneof(
    weighted(6, fc.constant('')),
    weighted(8, fc.array(param, { minLength: 1, maxLength: 5 }).map((params) => params.join('&'))),
    weighted(1, param.map((p) => `${p}&${p}`)),
    weighted(1, fc.tuple(param, param).map(([a, b]) => `${a}&&${b}&`)),
    weighted(1, fc.constantFrom('&', '&&', '=', '==', '?', '?offset=1', '%', '%zz', 'offset', 'offset=', 'offset=1&offset=', 'offset=0&offset=0', 'a'.repeat(LONG), `offset=${'9'.repeat(LONG)}`, `${'&'.repeat(LONG)}`)),
  )
}

const AUTH_CONSTANTS: readonly string[] = [
  '', ' ', '\t', '   \t ', 'Bearer', 'Bearer ', 'Bearer  ', 'bearer', 'Bearer\t', 'Basic dXNlcjpwYXNz', 'Basic', 'Digest username="x"', 'Token abc',
  'null', 'undefined', 'Bearer null', 'Bearer undefined', 'Bearer \u0000', 'Bearer é', 'Bearer 🎉', 'Bearer sk-or-v1-', `Bearer sk-or-v1-${'0'.repeat(64)}`,
  `Bearer ${'a'.repeat(HUGE)}`, 'a'.repeat(HUGE), `Bearer ${'é'.repeat(LONG)}`, 'Bearer a b', 'Bearer\u00a0abc', 'Bearer\nabc', 'Bearer abc\r\n',
]

/** Ways to write one secret into an Authorization header, the right one first. */
const SECRET_FORMS: readonly ((secret: string) => string)[] = [
  (s) => `bearer ${s}`,
  (s) => `BEARER ${s}`,
  (s) => `bEaReR ${s}`,
  (s) => `Bearer  ${s}`,
  (s) => `Bearer   ${s}   `,
  (s) => `Bearer\t${s}`,
  (s) => `\tBearer ${s}\t`,
  (s) => ` Bearer ${s} `,
  (s) => `Bearer ${s}\t`,
  (s) => `Bearer ${s} extra`,
  (s) => `Bearer ${s},Bearer ${s}`,
  (s) => `Bearer ${s.toUpperCase()}`,
  (s) => `Bearer ${s}\u200b`,
  (s) => `Bearer ${s}\n`,
  (s) => `Bearer ${s.slice(0, -1)}`,
  (s) => `Bearer ${s}${s}`,
  (s) => `Bearer "${s}"`,
  (s) => `Basic ${Buffer.from(`${s}:`).toString('base64')}`,
  (s) => `Token ${s}`,
  (s) => s,
  (s) => `Bearer${s}`,
  (s) => `Bearer ${encode(s)}`,
]

function authorizationArbitrary(view: WorldView, focus: Focus): fc.Arbitrary<string | null | undefined> {
  const management = view.keys.filter((k) => k.management).map((k) => k.secret)
  const all = view.secrets
  const options: fc.WeightedArbitrary<string | null | undefined>[] = [
    weighted(6, fc.constantFrom<string | null | undefined>(undefined, null)),
    weighted(4, fc.constantFrom(...AUTH_CONSTANTS)),
  ]
  const secrets: fc.WeightedArbitrary<string>[] = []
  if (focus.caller !== undefined) secrets.push(weighted(6, fc.constant(focus.caller.secret)))
  if (management.length > 0) secrets.push(weighted(3, fc.constantFrom(...management)))
  if (all.length > 0) secrets.push(weighted(2, fc.constantFrom(...all)))
  if (secrets.length > 0) {
    const secret = fc.oneof(...secrets)
    options.push(weighted(40, secret.map((s) => `Bearer ${s}`)))
    options.push(weighted(8, fc.tuple(secret, fc.constantFrom(...SECRET_FORMS)).map(([s, form]) => form(s))))
  }
  return fc.oneof(...options)
}

export const METHODS = fc.oneof(
  weighted(70, fc.constant('GET')),
  weighted(8, fc.constant('HEAD')),
  weighted(4, fc.constant('POST')),
  weighted(4, fc.constant('DELETE')),
  weighted(5, fc.constantFrom('get', 'Get', 'gEt', 'head', 'post')),
  weighted(3, fc.constantFrom('PUT', 'PATCH', 'OPTIONS', 'TRACE', 'CONNECT', 'PROPFIND', 'QUERY')),
  weighted(3, fc.constantFrom('', ' ', 'GET ', ' GET', 'G ET', 'GET\n', 'GET\u0000', 'ＧＥＴ', 'ǵet', '💥', 'X-CUSTOM', 'M'.repeat(LONG), 'get\t', 'GET/1.1')),
)

function requestParts(view: WorldView, focus: Focus): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: METHODS,
      path: pathArbitrary(view, focus),
      query: queryArbitrary(view, focus),
      authorization: authorizationArbitrary(view, focus),
      queryForm: fc.constantFrom<FuzzRequest['queryForm']>('string', 'string', 'question-mark', 'params', 'absent'),
    })
    .map((r) => (r.queryForm === 'absent' && r.query !== '' ? { ...r, queryForm: 'string' as const } : r))
}

/**
 * Hostile requests over a world: half of them made by one of its management keys about that
 * key's own organisation (so authenticated paths are exercised), half with parts drawn apart.
 */
export function hostileRequest(view: WorldView): fc.Arbitrary<FuzzRequest> {
  const free = requestParts(view, { caller: undefined })
  const callers = view.keys.filter((k) => k.management)
  if (callers.length === 0) return free
  const focused = callers.map((caller) => requestParts(view, { caller }))
  const coherent = fc.nat({ max: focused.length - 1 }).chain((i) => focused[i] as fc.Arbitrary<FuzzRequest>)
  return fc.oneof(free, coherent)
}

/** The SimRequest of a fuzz request, as `sim.handle` takes it. */
export function toSimRequest(request: FuzzRequest): SimRequest {
  const base: SimRequest = { method: request.method, path: request.path }
  if (request.authorization !== undefined) base.authorization = request.authorization
  switch (request.queryForm) {
    case 'absent':
      return base
    case 'string':
      return { ...base, query: request.query }
    case 'question-mark':
      return { ...base, query: `?${request.query}` }
    case 'params':
      return { ...base, query: new URLSearchParams(request.query) }
  }
}

// ---------------------------------------------------------------------------------------------
// Request objects that break the SimRequest type: what JavaScript callers can hand sim.handle
// ---------------------------------------------------------------------------------------------

/** Replay text of values that print badly (proxies, objects whose toString throws). */
const REPLAY_TEXT = new WeakMap<object, string>()
function labelled<T extends object>(value: T, text: string): T {
  REPLAY_TEXT.set(value, text)
  return value
}

const throwingToString = (): object => labelled({ toString: () => { throw new Error('toString throws') } }, "{ toString() { throw new Error('toString throws') } }")
const trap = (): object => labelled(new Proxy({}, { get: () => { throw new Error('trap') }, has: () => { throw new Error('trap') }, ownKeys: () => { throw new Error('trap') } }), "new Proxy({}, { get() { throw new Error('trap') } })")

/**
 * Values of the wrong type for a field of a SimRequest, or for the whole request, as factories:
 * fast-check never holds the values themselves (it would probe a throwing proxy), only their index.
 */
const WEIRD: readonly (() => unknown)[] = [
  () => null,
  () => undefined,
  () => 0,
  () => 42,
  () => Number.NaN,
  () => true,
  () => '',
  () => [],
  () => 10n,
  () => ['GET', '/keys'],
  () => ({}),
  () => Symbol('fuzz'),
  () => labelled(() => 'GET', "() => 'GET'"),
  () => new Date(0),
  () => labelled(Object.create(null) as object, 'Object.create(null)'),
  throwingToString,
  () => labelled({ toString: () => 'GET' }, "{ toString: () => 'GET' }"),
  () => labelled(new String('/keys'), "new String('/keys')"),
  () => /keys/,
  () => new URLSearchParams('offset=1'),
  trap,
]

/** A malformed request as fast-check draws it: which weird value goes where. Turn it into the request with {@link materialise}. */
export type MalformedDraft = { whole: number } | { fields: Partial<Record<'method' | 'path' | 'query' | 'authorization', { good: string | null | undefined } | { weird: number }>> }

/** The request object a draft stands for. */
export function materialise(draft: MalformedDraft): unknown {
  if ('whole' in draft) return (WEIRD[draft.whole] as () => unknown)()
  const request: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(draft.fields)) request[name] = 'weird' in value ? (WEIRD[value.weird] as () => unknown)() : value.good
  return request
}

/**
 * `sim.handle` arguments a JavaScript caller can pass despite the types: null, a string, a proxy
 * that throws, or a request whose fields have the wrong types. The router must answer each with a
 * response, never a throw. Draws drafts; {@link materialise} makes the request.
 */
export function malformedSimRequest(view: WorldView): fc.Arbitrary<MalformedDraft> {
  const parts = requestParts(view, { caller: undefined })
  const weird = fc.nat({ max: WEIRD.length - 1 }).map((i) => ({ weird: i }))
  const field = (good: string | null | undefined) => fc.oneof(weighted(2, fc.constant({ good })), weighted(1, weird))
  return fc.oneof(
    weighted(1, fc.nat({ max: WEIRD.length - 1 }).map((i): MalformedDraft => ({ whole: i }))),
    weighted(
      8,
      parts.chain((p) =>
        fc
          .record({ method: field(p.method), path: field(p.path), query: field(p.query), authorization: field(p.authorization) }, { requiredKeys: [] })
          .map((fields): MalformedDraft => ({ fields })),
      ),
    ),
  )
}

// ---------------------------------------------------------------------------------------------
// Replay text
// ---------------------------------------------------------------------------------------------

/** A JavaScript literal of a string, long runs of one character written as `.repeat(n)`. */
export function stringLiteral(text: string): string {
  const parts: string[] = []
  let plain = ''
  for (let i = 0; i < text.length; ) {
    const ch = String.fromCodePoint(text.codePointAt(i) as number)
    let n = 1
    while (text.startsWith(ch, i + n * ch.length)) n++
    if (n >= 40) {
      if (plain) parts.push(JSON.stringify(plain))
      plain = ''
      parts.push(`${JSON.stringify(ch)}.repeat(${n})`)
    } else plain += ch.repeat(n)
    i += n * ch.length
  }
  if (plain || parts.length === 0) parts.push(JSON.stringify(plain))
  return parts.join(' + ')
}

/** Replayable JavaScript text of any value a request can hold. */
export function render(value: unknown, depth = 0): string {
  if (typeof value === 'object' && value !== null && REPLAY_TEXT.has(value)) return REPLAY_TEXT.get(value) as string
  if (typeof value === 'function' && REPLAY_TEXT.has(value)) return REPLAY_TEXT.get(value) as string
  if (typeof value === 'string') return stringLiteral(value)
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'symbol') return `Symbol(${JSON.stringify(value.description ?? '')})`
  if (typeof value === 'function') return String(value)
  if (value === undefined) return 'undefined'
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value)
  if (value === null || typeof value === 'boolean') return String(value)
  try {
    if (value instanceof URLSearchParams) return `new URLSearchParams(${stringLiteral(value.toString())})`
    if (value instanceof Date) return `new Date(${value.getTime()})`
    if (value instanceof RegExp) return String(value)
    if (value instanceof Uint8Array) return `new Uint8Array([${[...value.slice(0, 64)].join(', ')}${value.length > 64 ? ', ...' : ''}])`
    if (depth > 4) return '{...}'
    if (Array.isArray(value)) return `[${value.map((v) => render(v, depth + 1)).join(', ')}]`
    const entries = Object.entries(value as object).map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${render(v, depth + 1)}`)
    return `{ ${entries.join(', ')} }`
  } catch {
    return '<an object whose properties throw>'
  }
}

/** `sim.handle({...})` text that replays one request. */
export function describeRequest(request: FuzzRequest | unknown): string {
  const sim = isFuzzRequest(request) ? toSimRequest(request) : request
  return `sim.handle(${render(sim)})`
}

export function isFuzzRequest(value: unknown): value is FuzzRequest {
  return typeof value === 'object' && value !== null && !REPLAY_TEXT.has(value) && 'queryForm' in value
}

// ---------------------------------------------------------------------------------------------
// Responses as observed, in process or on the wire
// ---------------------------------------------------------------------------------------------

/** One answer, whichever way it came: the object `sim.handle` returned, or a Response off the wire. */
export interface Observed {
  via: 'sim' | 'wire'
  status: number
  headers: [string, unknown][]
  body: { kind: 'json'; value: unknown } | { kind: 'bytes'; bytes: Uint8Array } | { kind: 'none' }
  /** The request was dropped or held by a fault: a network error (the wire: fetch failed) or never answered. */
  dropped?: 'network-error' | 'never'
  /** What was wrong with the shape of the answer itself. */
  problems: string[]
}

/** The answer `sim.handle` returned, checked for the SimResponse shape. */
export function observeSim(response: unknown): Observed {
  const problems: string[] = []
  if (typeof response !== 'object' || response === null) {
    return { via: 'sim', status: Number.NaN, headers: [], body: { kind: 'none' }, problems: [`not a SimResponse: handle returned ${render(response)}`] }
  }
  const r = response as Partial<SimResponse> & Record<string, unknown>
  const status = typeof r.status === 'number' ? r.status : Number.NaN
  const rawHeaders = r.headers
  let headers: [string, unknown][] = []
  if (typeof rawHeaders !== 'object' || rawHeaders === null || Array.isArray(rawHeaders)) problems.push(`not a SimResponse: headers is ${render(rawHeaders)}`)
  else headers = Object.entries(rawHeaders)
  if (r.type === 'network-error' || r.type === 'never') {
    if (status !== 0) problems.push(`not a SimResponse: a ${r.type} answer has status ${status}, not 0`)
    return { via: 'sim', status, headers, body: { kind: 'none' }, dropped: r.type, problems }
  }
  if (r.type === 'bytes') {
    if (!(r.body instanceof Uint8Array)) problems.push(`not a SimResponse: a bytes answer has body ${render(r.body)}`)
    return { via: 'sim', status, headers, body: r.body instanceof Uint8Array ? { kind: 'bytes', bytes: r.body } : { kind: 'none' }, problems }
  }
  if (r.type === 'stream') {
    // A streamed completion: its frames, written one after the other, are the bytes on the wire.
    const frames = Array.isArray(r.body) ? (r.body as { data?: unknown }[]) : []
    if (!Array.isArray(r.body) || frames.some((f) => typeof f?.data !== 'string')) problems.push(`not a SimResponse: a stream answer has body ${render(r.body)}`)
    return { via: 'sim', status, headers, body: { kind: 'bytes', bytes: new TextEncoder().encode(frames.map((f) => String(f?.data)).join('')) }, problems }
  }
  if (r.type !== 'json') problems.push(`not a SimResponse: type is ${render(r.type)}`)
  return { via: 'sim', status, headers, body: { kind: 'json', value: r.body }, problems }
}

/** A Response off the wire, its body read whole. */
export async function observeFetch(response: Response): Promise<Observed> {
  const headers: [string, unknown][] = []
  response.headers.forEach((value, name) => headers.push([name, value]))
  const bytes = new Uint8Array(await response.arrayBuffer())
  return { via: 'wire', status: response.status, headers, body: { kind: 'bytes', bytes }, problems: [] }
}

/** A fetch that failed (the connection was dropped). */
export function observeDropped(via: 'sim' | 'wire'): Observed {
  return { via, status: 0, headers: [], body: { kind: 'none' }, dropped: 'network-error', problems: [] }
}

/** A short text of an answer for a failure message. */
export function summarise(observed: Observed): string {
  if (observed.dropped) return `${observed.dropped} (status ${observed.status})`
  const headers = observed.headers.map(([k, v]) => `${k}: ${typeof v === 'string' ? v.slice(0, 80) : render(v)}`).join('; ')
  let body: string
  if (observed.body.kind === 'json') {
    try {
      body = JSON.stringify(observed.body.value) ?? 'undefined'
    } catch (error) {
      body = `<unserialisable: ${String(error)}>`
    }
  } else if (observed.body.kind === 'bytes') {
    const text = Buffer.from(observed.body.bytes).toString('utf8')
    body = /^[\x09\x0a\x0d\x20-\x7e\u00a0-\uffff]*$/.test(text) ? text : `<${observed.body.bytes.length} bytes>`
  } else body = '<no body>'
  return `${observed.status} {${headers}} ${body.length > 300 ? `${body.slice(0, 300)}...(${body.length} chars)` : body}`
}

// ---------------------------------------------------------------------------------------------
// The contract
// ---------------------------------------------------------------------------------------------

/** The request as it reached the service: the method, the path below the base URL and the query as sent. */
export interface SentRequest {
  method: string
  path: string
  query: string
  authorization: string | null | undefined
  /** The answer is to a HEAD on the wire: no body may come with it. */
  head?: boolean
}

export interface CheckContext {
  view: WorldView
  /** The simulator clock when the request arrived (expiry is decided at that instant). */
  nowMs: number
  /** Statuses the faults configured on the simulator may answer with. */
  faultStatuses?: ReadonlySet<number>
  /** A fault that drops (`network-error`) or holds (`never`) requests is configured. */
  dropsAllowed?: boolean
  /** Statuses allowed besides the documented ones and the faults' (a 500 for a request object that is not one). */
  extraStatuses?: ReadonlySet<number>
  /** Paths outside the base path get the adapter's 404 (node:http server): no operation is named. */
  outsideBase?: boolean
}

export type OperationName =
  | 'listKeys'
  | 'getKey'
  | 'listEndpoints'
  | 'getFileContent'
  | 'getWorkspace'
  | 'listVideoModels'
  | 'createKey'
  | 'updateKey'
  | 'deleteKey'
  | 'getCurrentKey'
  | 'getCredits'
  | 'listModels'
  | 'countModels'
  | 'getModel'
  | 'listProviders'
  | 'listEmbeddingsModels'
  | 'listWorkspaces'
  | 'createWorkspace'
  | 'updateWorkspace'
  | 'deleteWorkspace'
  | 'createChatCompletion'
  | 'getGeneration'

const TEMPLATES: readonly [OperationName, readonly string[], method?: string][] = [
  ['listKeys', ['keys']],
  ['getKey', ['keys', '{hash}']],
  ['listEndpoints', ['models', '{author}', '{slug}', 'endpoints']],
  ['getFileContent', ['files', '{file_id}', 'content']],
  ['getWorkspace', ['workspaces', '{id}']],
  ['listVideoModels', ['videos', 'models']],
  // Keys and credits: the writes take their own methods.
  ['createKey', ['keys'], 'POST'],
  ['updateKey', ['keys', '{hash}'], 'PATCH'],
  ['deleteKey', ['keys', '{hash}'], 'DELETE'],
  ['getCurrentKey', ['key']],
  ['getCredits', ['credits']],
  ['listModels', ['models']],
  ['countModels', ['models', 'count']],
  ['getModel', ['model', '{author}', '{slug}']],
  ['listProviders', ['providers']],
  ['listEmbeddingsModels', ['embeddings', 'models']],
  ['listWorkspaces', ['workspaces']],
  ['createWorkspace', ['workspaces'], 'POST'],
  ['updateWorkspace', ['workspaces', '{id}'], 'PATCH'],
  ['deleteWorkspace', ['workspaces', '{id}'], 'DELETE'],
  // Inference (decisions/0024): any valid key; chat completions a regular one only.
  ['createChatCompletion', ['chat', 'completions'], 'POST'],
  ['getGeneration', ['generation']],
]
const MANAGEMENT: ReadonlySet<OperationName> = new Set([
  'listKeys',
  'getKey',
  'getFileContent',
  'getWorkspace',
  'createKey',
  'updateKey',
  'deleteKey',
  'getCredits',
  'listWorkspaces',
  'createWorkspace',
  'updateWorkspace',
  'deleteWorkspace',
])
/** Operations any valid key may call, and nobody without one. */
const ANY_KEY: ReadonlySet<OperationName> = new Set(['getCurrentKey', 'getGeneration'])
/** Operations only a valid regular key may call: a management key is 403 (decisions/0024). */
const REGULAR_KEY: ReadonlySet<OperationName> = new Set(['createChatCompletion'])
/** The operations that change the world when they succeed (decisions/0021, decisions/0022; a completion charges its key, decisions/0024). */
export const WRITES: ReadonlySet<OperationName> = new Set(['createKey', 'updateKey', 'deleteKey', 'createWorkspace', 'updateWorkspace', 'deleteWorkspace', 'createChatCompletion'])

/** The operation a request names (README "Wire behaviour": templates whose `{name}` is one segment), and its raw params. */
export function operationOf(method: string, path: string): { name: OperationName; params: Record<string, string> } | null {
  const wanted = method.toUpperCase()
  const segments = (path.startsWith('/') ? path : `/${path}`).split('/').slice(1)
  for (const [name, template, templateMethod = 'GET'] of TEMPLATES) {
    if (templateMethod !== wanted || template.length !== segments.length) continue
    const params: Record<string, string> = {}
    if (template.every((part, i) => (part.startsWith('{') ? ((params[part.slice(1, -1)] = segments[i] as string), true) : part === segments[i]))) return { name, params }
  }
  return null
}

const DOCUMENTED = new Set([200, 201, 400, 401, 403, 404, 413, 429])
/** What only a real HTTP server answers, before the simulator sees the request: a header block over node's limit. */
const SERVER_ONLY = new Set([431])
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const ATTR_CHARS = /^(?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-Fa-f]{2})*$/

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function decodeLoosely(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** The key whose secret the header bears (`Bearer <secret>`, the scheme in any case), whatever its state. */
export function bearerKey(view: WorldView, authorization: string | null | undefined): KeyInfo | undefined {
  if (typeof authorization !== 'string') return undefined
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization.trim())
  return match ? view.keyBySecret.get(match[1] as string) : undefined
}

const usable = (key: KeyInfo | undefined, nowMs: number): key is KeyInfo => key !== undefined && !key.disabled && (key.expiresAtMs === null || key.expiresAtMs > nowMs)

const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((byte, i) => byte === b[i])

/**
 * Every way one answer breaks the wire contract: the status is 200 or an error status the request
 * can get; headers are writable and name the right content type; a success has the documented
 * shape and only the caller's organisation's keys, workspaces and files; an error is the envelope,
 * its `code` the status, its `message` a non-empty string, its `user_id` the caller's; no secret of
 * the world is in a header or the body (one the request itself carried in its path or query may
 * be echoed back); a HEAD answer on the wire has no body; a Retry-After is whole seconds.
 */
export function checkResponse(ctx: CheckContext, sent: SentRequest, observed: Observed): string[] {
  const v: string[] = [...observed.problems]
  const { view } = ctx
  if (observed.dropped !== undefined) {
    if (!ctx.dropsAllowed) v.push(`dropped without a fault: the request got ${observed.dropped} though no fault drops or holds requests`)
    return v
  }
  const { status } = observed
  const bare = observed.via === 'wire' && observed.body.kind === 'bytes' && observed.body.bytes.length === 0 && !observed.headers.some(([k]) => k.toLowerCase() === 'content-type')
  if (!Number.isInteger(status) || !(status === 200 || (status >= 400 && status <= 599))) v.push(`status neither 200 nor an error: ${status}`)
  else if (!DOCUMENTED.has(status) && !(observed.via === 'wire' && SERVER_ONLY.has(status)) && !ctx.faultStatuses?.has(status) && !ctx.extraStatuses?.has(status) && !bare) v.push(`status no request can get here: ${status}`)

  // Headers: writable on the wire, each once, and free of secrets.
  const headers = new Map<string, string>()
  for (const [name, value] of observed.headers) {
    const lower = name.toLowerCase()
    if (!TOKEN.test(name)) v.push(`header name not an HTTP token: ${JSON.stringify(name)}`)
    if (typeof value !== 'string') v.push(`header value not a string: ${name} is ${render(value)}`)
    else if (/[\r\n\0]/.test(value) || /[^\x00-\xff]/.test(value)) v.push(`header value not writable (CR, LF, NUL or beyond Latin-1): ${name}: ${JSON.stringify(value.slice(0, 80))}`)
    if (headers.has(lower)) v.push(`header given twice: ${lower}`)
    headers.set(lower, typeof value === 'string' ? value : String(value))
  }

  // What the request carried may come back in an error message; nothing else secret may.
  const carried = `${sent.path}\n${sent.query}\n${decodeLoosely(sent.path)}\n${decodeLoosely(sent.query)}\n${decodeLoosely(sent.query.replace(/\+/g, ' '))}`
  const secrets = view.secrets.filter((secret) => !carried.includes(secret))
  const leaks = (text: string): string[] => secrets.filter((secret) => text.includes(secret))
  for (const [name, value] of headers) for (const secret of leaks(`${name}: ${value}`)) v.push(`secret in a header: ${name} carries the secret of key ${view.keyBySecret.get(secret)?.hash}`)

  // An empty answer with no content type is not the simulator's: an HTTP layer refused the request on its own.
  if (observed.via === 'wire' && (sent.head || (observed.body.kind === 'bytes' && observed.body.bytes.length === 0)) && !headers.has('content-type')) {
    v.push(`bare answer without an envelope (no content type, no body): ${status} ${[...headers].map(([k, x]) => `${k}: ${x}`).join('; ')}`)
    return [...new Set(v)]
  }

  const operation = ctx.outsideBase ? null : operationOf(sent.method, sent.path)
  const caller = bearerKey(view, sent.authorization)
  const anonymous = sent.authorization === null || sent.authorization === undefined || sent.authorization.trim() === ''
  const contentType = headers.get('content-type')
  const bytesExpected = status === 200 && operation?.name === 'getFileContent'
  const streamed = status === 200 && operation?.name === 'createChatCompletion' && contentType === 'text/event-stream'
  if (streamed) {
    // A streamed completion: its frames are checked by checkStream, not as JSON.
    if (observed.body.kind === 'bytes') checkStream(v, Buffer.from(observed.body.bytes).toString('utf8'))
    return [...new Set(v)]
  }
  if (bytesExpected) {
    if (contentType !== 'application/octet-stream') v.push(`wrong content-type for a download: ${render(contentType)}`)
  } else if (contentType === undefined || !/^application\/json(?:;\s*charset=utf-8)?$/i.test(contentType)) {
    v.push(`wrong content-type for a JSON answer: ${render(contentType)} on a ${status}`)
  }

  const retryAfter = headers.get('retry-after')
  if (retryAfter !== undefined && !/^\d{1,15}$/.test(retryAfter) && !/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(retryAfter)) {
    v.push(`Retry-After neither whole seconds nor an HTTP-date: ${JSON.stringify(retryAfter.slice(0, 80))}`)
  }
  if (status === 429 && retryAfter === undefined && !ctx.faultStatuses?.has(429)) v.push('429 without Retry-After')

  if (status === 201 && operation?.name !== 'createWorkspace' && operation?.name !== 'createKey') v.push(`201 for another operation than createWorkspace or createKey: ${sent.method.slice(0, 40)} ${JSON.stringify(sent.path.slice(0, 120))}`)
  if (status === 200 || status === 201) {
    if (operation === null && sent.method.toUpperCase() !== 'GET') v.push(`${status} for a method no operation of the path takes: ${JSON.stringify(sent.method.slice(0, 40))}`)
    else if (operation === null) v.push(`200 for a path that names no operation: ${JSON.stringify(sent.path.slice(0, 120))}`)
    if (operation !== null) {
      if (ANY_KEY.has(operation.name) && !usable(caller, ctx.nowMs)) v.push(`200 for ${operation.name} without a usable key in Authorization`)
      else if (REGULAR_KEY.has(operation.name)) {
        if (!usable(caller, ctx.nowMs) || caller.management) v.push(`200 for ${operation.name} without a usable regular key in Authorization`)
      } else if (MANAGEMENT.has(operation.name)) {
        if (!usable(caller, ctx.nowMs) || !caller.management) v.push(`200 for ${operation.name} without a usable management key in Authorization`)
      } else if (!anonymous && !usable(caller, ctx.nowMs)) {
        v.push(`200 for ${operation.name} with a bad credential (malformed, unknown, disabled or expired), which is 401 on every operation`)
      }
    }
  }

  // The body: none for HEAD on the wire; the download's bytes; else JSON.
  let text: string | undefined
  let json: unknown
  let bytes: Uint8Array | undefined
  const body = observed.body
  if (sent.head && observed.via === 'wire') {
    if (body.kind === 'bytes' && body.bytes.length > 0) v.push(`HEAD answered with a body: ${body.bytes.length} bytes`)
  } else if (bytesExpected) {
    if (body.kind !== 'bytes') v.push(`download body not bytes: ${body.kind}`)
    else bytes = body.bytes
  } else if (body.kind === 'json') {
    try {
      text = JSON.stringify(body.value)
      json = text === undefined ? undefined : JSON.parse(text)
      if (text === undefined) v.push('JSON body not serialisable: JSON.stringify gives undefined')
      const length = headers.get('content-length')
      if (text !== undefined && length !== undefined && length !== String(Buffer.byteLength(text))) v.push(`content-length not the JSON body's length: ${length} for ${Buffer.byteLength(text)} bytes`)
    } catch (error) {
      v.push(`JSON body not serialisable: ${String(error)}`)
    }
  } else if (body.kind === 'bytes') {
    bytes = body.bytes
    text = Buffer.from(body.bytes).toString('utf8')
    try {
      json = JSON.parse(text)
    } catch {
      v.push(`body not JSON: ${JSON.stringify(text.slice(0, 120))}`)
    }
  } else v.push('answer without a body')

  if (bytes !== undefined) {
    const length = headers.get('content-length')
    if (length !== undefined && length !== String(bytes.length)) v.push(`content-length not the body's length: ${length} for ${bytes.length} bytes`)
    const latin1 = Buffer.from(bytes).toString('latin1')
    for (const secret of leaks(latin1)) v.push(`secret in the body bytes: key ${view.keyBySecret.get(secret)?.hash}`)
    if (text === undefined) for (const secret of leaks(Buffer.from(bytes).toString('utf8'))) v.push(`secret in the body bytes: key ${view.keyBySecret.get(secret)?.hash}`)
  } else if (text !== undefined) {
    for (const secret of leaks(text)) v.push(`secret in the body: key ${view.keyBySecret.get(secret)?.hash} (a label or field shows it whole)`)
  }

  if (json !== undefined && status !== 200 && status !== 201) checkEnvelope(v, ctx, status, json, caller)
  if ((status === 200 || status === 201) && operation !== null) {
    if (bytesExpected && bytes !== undefined) checkDownload(v, ctx, operation.params, bytes, headers, caller)
    else if (json !== undefined) checkSuccess(v, ctx, operation, json, caller)
  }
  return [...new Set(v)]
}

function checkEnvelope(v: string[], ctx: CheckContext, status: number, json: unknown, caller: KeyInfo | undefined): void {
  if (!isPlainObject(json) || !isPlainObject(json['error'])) {
    v.push(`error body not an envelope: ${JSON.stringify(json)?.slice(0, 200)}`)
    return
  }
  const extra = Object.keys(json).filter((k) => k !== 'error' && k !== 'user_id')
  if (extra.length > 0) v.push(`error envelope with fields of its own: ${extra.join(', ')}`)
  const error = json['error']
  const extraError = Object.keys(error).filter((k) => k !== 'code' && k !== 'message' && k !== 'metadata')
  if (extraError.length > 0) v.push(`error object with fields of its own: ${extraError.join(', ')}`)
  if (error['code'] !== status) v.push(`error.code is not the status: ${render(error['code'])} in a ${status}`)
  if (typeof error['message'] !== 'string' || error['message'] === '') v.push(`error.message not a non-empty string: ${render(error['message'])}`)
  if (error['metadata'] !== undefined && !isPlainObject(error['metadata'])) v.push(`error.metadata not an object: ${JSON.stringify(error['metadata'])?.slice(0, 80)}`)
  if (status === 500 && !ctx.faultStatuses?.has(500) && !ctx.extraStatuses?.has(500)) {
    const reason = isPlainObject(error['metadata']) ? error['metadata']['reason'] : undefined
    v.push(`500 without a fault (an internal failure): ${String(reason ?? error['message'])}`)
  }
  const userId = json['user_id']
  if (userId !== undefined) {
    if (!usable(caller, ctx.nowMs)) v.push(`user_id in an answer to a request no valid key made: ${render(userId)}`)
    else if (userId !== caller.userId) v.push(`user_id names another organisation than the caller's: ${render(userId)}`)
  }
}

/** The events of a streamed completion: the processing comment, `data:` chunks of JSON, and `[DONE]` last. */
export function checkStream(v: string[], text: string): void {
  if (!text.endsWith('\n\n')) v.push('stream does not end with a blank line')
  const events = text.slice(0, -2).split('\n\n')
  if (events.at(-1) !== 'data: [DONE]') v.push(`stream does not end with data: [DONE]: ${JSON.stringify(events.at(-1)?.slice(0, 80))}`)
  events.forEach((event, i) => {
    if (event.startsWith(':') || (event === 'data: [DONE]' && i === events.length - 1)) return
    if (!event.startsWith('data: ')) return void v.push(`stream event neither a comment nor data: ${JSON.stringify(event.slice(0, 80))}`)
    let chunk: unknown
    try {
      chunk = JSON.parse(event.slice(6))
    } catch {
      return void v.push(`stream event not JSON: ${JSON.stringify(event.slice(0, 80))}`)
    }
    if (!isPlainObject(chunk) || chunk['object'] !== 'chat.completion.chunk' || !Array.isArray(chunk['choices'])) v.push(`stream event not a chat.completion.chunk: ${JSON.stringify(chunk)?.slice(0, 120)}`)
  })
}

function checkSuccess(v: string[], ctx: CheckContext, operation: { name: OperationName; params: Record<string, string> }, json: unknown, caller: KeyInfo | undefined): void {
  if (operation.name === 'createChatCompletion') {
    if (!isPlainObject(json) || json['object'] !== 'chat.completion' || !Array.isArray(json['choices']) || !isPlainObject(json['usage'])) v.push(`createChatCompletion answered other than a chat.completion with usage: ${JSON.stringify(json)?.slice(0, 200)}`)
    else if (typeof json['usage']['cost'] !== 'number' || json['usage']['cost'] < 0) v.push(`createChatCompletion usage.cost not a cost: ${render(json['usage']['cost'])}`)
    return
  }
  if (operation.name === 'deleteWorkspace') {
    if (!isPlainObject(json) || json['deleted'] !== true || Object.keys(json).length !== 1) v.push(`deleteWorkspace answers other than { deleted: true }: ${JSON.stringify(json)?.slice(0, 200)}`)
    return
  }
  if (operation.name === 'deleteKey') {
    if (JSON.stringify(json) !== '{"deleted":true}') v.push(`deleteKey answered ${JSON.stringify(json)?.slice(0, 200)}, not {"deleted":true}`)
    const key = ctx.view.keyByHash.get(decodeLoosely(operation.params['hash'] ?? ''))
    if (key === undefined) v.push(`deleteKey deleted a key the world does not have: ${JSON.stringify(operation.params['hash']?.slice(0, 80))}`)
    else if (key.userId !== caller?.userId) v.push(`tenancy: deleteKey deleted a key of another organisation (${key.hash})`)
    return
  }
  if (!isPlainObject(json) || !('data' in json)) {
    v.push(`200 body without data: ${JSON.stringify(json)?.slice(0, 200)}`)
    return
  }
  const data = json['data']
  const owner = caller?.userId
  switch (operation.name) {
    case 'listKeys': {
      if (!Array.isArray(data)) return void v.push('listKeys data not an array')
      for (const item of data) {
        const hash = isPlainObject(item) ? item['hash'] : undefined
        const key = typeof hash === 'string' ? ctx.view.keyByHash.get(hash) : undefined
        if (key === undefined) v.push(`listKeys lists a key the world does not have: ${render(hash)}`)
        else if (key.userId !== owner) v.push(`tenancy: listKeys shows a key of another organisation (${key.hash})`)
        else if (key.management) v.push(`listKeys lists a management key: ${key.hash}`)
      }
      return
    }
    case 'getKey': {
      const hash = isPlainObject(data) ? data['hash'] : undefined
      const key = typeof hash === 'string' ? ctx.view.keyByHash.get(hash) : undefined
      if (key === undefined) v.push(`getKey shows a key the world does not have: ${render(hash)}`)
      else if (key.userId !== owner) v.push(`tenancy: getKey shows a key of another organisation (${key.hash})`)
      return
    }
    case 'listWorkspaces': {
      if (!Array.isArray(data)) return void v.push('listWorkspaces data not an array')
      const total = isPlainObject(json) ? json['total_count'] : undefined
      if (typeof total !== 'number' || !Number.isInteger(total) || total < data.length) v.push(`listWorkspaces total_count not a count of at least the page: ${render(total)}`)
      for (const item of data) {
        const id = isPlainObject(item) ? item['id'] : undefined
        const workspaceOwner = typeof id === 'string' ? ctx.view.workspaceOwner.get(id.toLowerCase()) : undefined
        // A workspace made by a request after the world was viewed has no entry; one of another organisation does.
        if (workspaceOwner !== undefined && workspaceOwner !== owner) v.push(`tenancy: listWorkspaces shows a workspace of another organisation (${String(id)})`)
      }
      return
    }
    case 'createWorkspace':
    case 'updateWorkspace':
    case 'getWorkspace': {
      const id = isPlainObject(data) ? data['id'] : undefined
      const workspaceOwner = typeof id === 'string' ? ctx.view.workspaceOwner.get(id.toLowerCase()) : undefined
      if (workspaceOwner === undefined) {
        if (operation.name !== 'createWorkspace') v.push(`${operation.name} shows a workspace the world does not have: ${render(id)}`)
      } else if (workspaceOwner !== owner) v.push(`tenancy: ${operation.name} shows a workspace of another organisation (${String(id)})`)
      return
    }
    case 'listEndpoints': {
      const id = isPlainObject(data) ? data['id'] : undefined
      const wanted = `${decodeLoosely(operation.params['author'] ?? '')}/${decodeLoosely(operation.params['slug'] ?? '')}`
      if (id !== wanted) v.push(`listEndpoints answers with another model: asked ${JSON.stringify(wanted.slice(0, 80))}, got ${render(id)}`)
      return
    }
    case 'listVideoModels':
      if (!Array.isArray(data)) v.push('listVideoModels data not an array')
      return
    case 'listModels':
    case 'listEmbeddingsModels': {
      if (!Array.isArray(data)) return void v.push(`${operation.name} data not an array`)
      const models = new Set(ctx.view.modelIds)
      for (const item of data) {
        const id = isPlainObject(item) ? item['id'] : undefined
        if (typeof id !== 'string' || !models.has(id)) v.push(`${operation.name} lists a model the world does not have: ${render(id)}`)
      }
      const total = json['total_count']
      if (!Number.isInteger(total) || (total as number) < data.length || (total as number) > models.size) v.push(`${operation.name} total_count out of range: ${render(total)}`)
      const links = json['links']
      if (!isPlainObject(links) || !(links['next'] === null || typeof links['next'] === 'string')) v.push(`${operation.name} links.next neither a path nor null`)
      return
    }
    case 'countModels': {
      const count = isPlainObject(data) ? data['count'] : undefined
      if (!Number.isInteger(count) || (count as number) < 0 || (count as number) > ctx.view.modelIds.length) v.push(`countModels count out of range: ${render(count)}`)
      return
    }
    case 'getModel': {
      const id = isPlainObject(data) ? data['id'] : undefined
      const wanted = `${decodeLoosely(operation.params['author'] ?? '')}/${decodeLoosely(operation.params['slug'] ?? '')}`
      if (id !== wanted) v.push(`getModel answers with another model: asked ${JSON.stringify(wanted.slice(0, 80))}, got ${render(id)}`)
      return
    }
    case 'listProviders':
      if (!Array.isArray(data) || !data.every((p) => isPlainObject(p) && typeof p['name'] === 'string' && typeof p['slug'] === 'string')) v.push('listProviders data not a list of providers')
      return
    case 'getCurrentKey':
      if (!isPlainObject(data) || data['is_management_key'] !== caller?.management) v.push(`getCurrentKey does not describe the calling key: ${JSON.stringify(data)?.slice(0, 200)}`)
      return
    case 'getCredits':
      if (!isPlainObject(data) || typeof data['total_credits'] !== 'number' || typeof data['total_usage'] !== 'number') v.push(`getCredits data not { total_credits, total_usage }: ${JSON.stringify(data)?.slice(0, 200)}`)
      return
    case 'getGeneration': {
      const id = isPlainObject(data) ? data['id'] : undefined
      if (typeof id !== 'string' || !id.startsWith('gen-')) v.push(`getGeneration data without a generation id: ${render(id)}`)
      return
    }
    case 'createKey':
    case 'updateKey':
      return
    case 'getFileContent':
      v.push('a download answered with JSON')
  }
}

function checkDownload(v: string[], ctx: CheckContext, params: Record<string, string>, bytes: Uint8Array, headers: Map<string, string>, caller: KeyInfo | undefined): void {
  const id = decodeLoosely(params['file_id'] ?? '')
  const candidates = ctx.view.files.filter((f) => f.id === id && f.origin === 'server' && equalBytes(f.bytes, bytes))
  const own = candidates.filter((f) => f.userId === caller?.userId)
  if (own.length === 0) {
    const foreign = candidates.length > 0 || ctx.view.files.some((f) => equalBytes(f.bytes, bytes) && f.userId !== caller?.userId)
    v.push(foreign ? `tenancy: a download returns the bytes of another organisation's file (${JSON.stringify(id.slice(0, 40))})` : `download bytes of no server file of the caller: ${JSON.stringify(id.slice(0, 40))}`)
    return
  }
  const disposition = headers.get('content-disposition')
  if (disposition === undefined) return void v.push('download without content-disposition')
  const match = /^attachment; filename="([^"\\]*)"(?:; filename\*=UTF-8''(.*))?$/.exec(disposition)
  if (!match) return void v.push(`content-disposition malformed: ${JSON.stringify(disposition.slice(0, 120))}`)
  const [, quoted = '', extended] = match
  if (!/^[\x20-\x7e]*$/.test(quoted)) v.push(`content-disposition filename="..." not printable ASCII: ${JSON.stringify(quoted.slice(0, 80))}`)
  const names = own.map((f) => f.filename)
  if (extended === undefined) {
    if (!names.includes(quoted)) v.push(`content-disposition filename not the file's name: ${JSON.stringify(quoted.slice(0, 80))} for ${JSON.stringify(names[0])}`)
    return
  }
  if (!ATTR_CHARS.test(extended)) {
    const bad = [...new Set(extended.replace(/%[0-9A-Fa-f]{2}/g, '').replace(/[A-Za-z0-9!#$&+\-.^_`|~]/g, ''))].join('')
    v.push(`content-disposition filename* has characters RFC 8187 requires percent-encoded: ${JSON.stringify(bad)} in ${JSON.stringify(extended.slice(0, 80))}`)
  }
  if (!names.includes(decodeLoosely(extended))) v.push(`content-disposition filename* not the file's name: decodes to ${JSON.stringify(decodeLoosely(extended).slice(0, 80))}, not ${JSON.stringify(names[0])}`)
}
