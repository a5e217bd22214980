// Misuse fuzzing: every public function and method, called from plain JavaScript with arbitrary
// values, either succeeds or throws a SimulatorError (or, in the pricing engine, a PricingError)
// whose `argument` names the bad input; a throw changes nothing; `sim.handle` never throws at all.
//
// Each property draws its arguments from three sources: hand-picked hostile values (BigInt, cyclic
// objects, NaN, symbols, functions, invalid Dates, huge strings, null-prototype objects...), objects
// whose fields hold them, fc.anything(), and, most often, real valid arguments with one field deep
// inside spoiled, so that the validation deep inside is reached and not only the first typeof check.
// Counterexamples print as labels ("createSimulator options with .world.keys[3].limit = 2n").
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  compilePricing,
  createSimulator,
  errorEnvelope,
  estimateCost,
  explainPricing,
  formatTimestamp,
  maskSecret,
  OPERATION_NAMES,
  PricingError,
  resolvePricing,
  SimulatorError,
  validatePricing,
  validateWorld,
  WORLD_FORMAT,
  type DefaultWorld,
  type SimResponse,
  type Simulator,
} from '../../src/index.js'
import { fakeApiKey, fakeEndpoint, fakeFile, fakeModel, fakePricing, fakeVideoModel, fakeWorkspace, generateWorld } from '../../src/fixtures/index.js'
import { createHandlers, toResponse } from '../../src/msw/index.js'
import { runs } from '../support/runs.js'

// One seed for every property, so that CI runs the same inputs each time; FUZZ_SEED=<n> tries others
// (fast-check prints the seed and path of any failure, which replays it).
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(process.env['FUZZ_SEED'] ?? 20260302) })

type Sim = Simulator<DefaultWorld>

// ---------------------------------------------------------------------------------------------
// The simulator every property starts from: a small generated world, one fault that matches
// nothing and one journaled request, so that faults, the journal and the store all hold something.

/** The small generated world, cut down to what its handles name (two models, one video model): quick to load. */
const SPEC = (() => {
  const full = generateWorld({ seed: 1, size: 'small' })
  const handles = full.handles as DefaultWorld
  const secrets = new Set([handles.managementKey, handles.apiKey, handles.otherTenant.managementKey])
  const hashes = new Set<unknown>(Object.values(handles.keys))
  const models = new Set([handles.models.timeWindowed, handles.models.paid])
  const files = new Set<unknown>(Object.values(handles.files))
  return {
    ...full,
    keys: (full.keys ?? []).filter((k) => secrets.has(k.secret) || hashes.has(k.hash)),
    models: (full.models ?? []).filter((m) => models.has(m.id)),
    videoModels: (full.videoModels ?? []).slice(0, 1),
    files: (full.files ?? []).filter((f) => files.has(f.id)),
  }
})()
const SEED = 7

function fresh(): Sim {
  const sim = createSimulator({ world: SPEC, seed: SEED })
  sim.faults.add({ name: 'pre-existing', path: '/__nothing__', respond: 'never' })
  sim.handle({ method: 'GET', path: '/videos/models' })
  return sim
}

const H = fresh().world
const BEARER_ADMIN = `Bearer ${H.managementKey}`
const BEARER_APP = `Bearer ${H.apiKey}`

/** Everything the contract says a refused call leaves as it was; the probes at the end move state, so it is read last. */
interface Observed {
  world: string
  clockMs: number
  journal: number
  faults: string[]
  /** The secret of the next key created without one: the store's random stream. */
  nextSecret: string
  /** The default name of the next fault: the fault counter. */
  nextFault: string
  /** The sequence number of the next request. */
  nextSeq: number | undefined
}

function observe(sim: Sim): Observed {
  const world = JSON.stringify(sim.exportWorld())
  const clockMs = sim.clock.nowMs()
  const journal = sim.journal.list().length
  const faults = sim.faults.list().map((f) => f.name)
  const nextSecret = sim.keys.create({ userId: H.userId }).key
  const nextFault = sim.faults.add({ path: '/__probe__', respond: 'never' }).name
  sim.handle({ method: 'GET', path: '/__probe__' })
  const nextSeq = sim.journal.list().at(-1)?.seq
  return { world, clockMs, journal, faults, nextSecret, nextFault, nextSeq }
}

/** What an untouched twin shows: every fresh simulator is the same, so once is enough. */
const BASELINE = observe(fresh())

/** The first place two strings differ, with some context: a readable diff of two exported worlds. */
function firstDifference(a: string, b: string): string {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  return `at character ${i}: before …${a.slice(Math.max(0, i - 80), i + 80)}… after …${b.slice(Math.max(0, i - 80), i + 80)}…`
}

function expectUnchanged(sim: Sim, before: Observed = BASELINE): void {
  const after = observe(sim)
  if (after.world !== before.world) throw new Error(`the refused call changed the store (exportWorld) ${firstDifference(before.world, after.world)}`)
  expect(after.clockMs, 'the refused call moved the clock').toBe(before.clockMs)
  expect(after.journal, 'the refused call changed the journal').toBe(before.journal)
  expect(after.faults, 'the refused call changed the faults').toEqual(before.faults)
  expect(after.nextSecret, 'the refused call drew from the random stream (the next secret differs from a twin’s)').toBe(before.nextSecret)
  expect(after.nextFault, 'the refused call moved the fault counter').toBe(before.nextFault)
  expect(after.nextSeq, 'the refused call moved the journal sequence').toBe(before.nextSeq)
}

// ---------------------------------------------------------------------------------------------
// Hostile values. A `Given` is a value made fresh for every run (a library may freeze or keep what
// it is given) that prints as its label in a counterexample.

class Given {
  constructor(
    readonly label: string,
    readonly make: () => unknown,
  ) {}

  [fc.toStringMethod](): string {
    return this.label
  }
}

/** A message cut to a readable length: a huge string in the input must not flood the report. */
const clip = (text: string): string => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text)
const str = (value: unknown): string => clip(fc.stringify(value))
const materialize = (value: unknown): unknown => (value instanceof Given ? value.make() : value)
const show = (value: unknown): string => (value instanceof Given ? value.label : str(value))

function cyclic(): Record<string, unknown> {
  const o: Record<string, unknown> = {}
  o['self'] = o
  return o
}

const LEAVES: readonly (readonly [string, () => unknown])[] = [
  ['null', () => null],
  ['undefined', () => undefined],
  ['NaN', () => Number.NaN],
  ['Infinity', () => Number.POSITIVE_INFINITY],
  ['-Infinity', () => Number.NEGATIVE_INFINITY],
  ['-0', () => -0],
  ['2n', () => 2n],
  ['5n', () => 5n],
  ['a cyclic object { self }', cyclic],
  ['[]', () => []],
  ['[1]', () => [1]],
  ['a function', () => function hostile() { return 1 }],
  ['() => NaN', () => () => Number.NaN],
  ['a symbol', () => Symbol('hostile')],
  ['new Date(NaN)', () => new Date(Number.NaN)],
  ['a huge string (100,000 x)', () => 'x'.repeat(100_000)],
  ['Object.create(null)', () => Object.create(null) as unknown],
  ['""', () => ''],
  ['"a\\r\\nb"', () => 'a\r\nb'],
  ['1e300', () => 1e300],
  ['2 ** 53', () => 2 ** 53],
  ['-1', () => -1],
  ['1.5', () => 1.5],
  ['true', () => true],
  ['/a/y', () => /a/y],
  ['new Uint8Array([1])', () => new Uint8Array([1])],
  ['new Map([["a", 1]])', () => new Map([['a', 1]])],
  ['new Error("hostile")', () => new Error('hostile')],
  ['new String("GET")', () => new String('GET')],
  ['"__proto__"', () => '__proto__'],
  ['"constructor"', () => 'constructor'],
  // Well-formed but unknown: these reach the lookups behind the type checks.
  ['"user_nobody"', () => 'user_nobody'],
  ['an unknown key hash', () => '0'.repeat(64)],
  ['an unknown UUID', () => '00000000-0000-4000-8000-000000000000'],
  ['a sparse array [1, , 3]', () => {
    const sparse = [1]
    sparse[2] = 3
    return sparse
  }],
]

/** Objects whose fields hold hostile values: the shapes that broke validation before. */
const OBJECTS: readonly (readonly [string, () => unknown])[] = [
  ['{ userId: 2n }', () => ({ userId: 2n })],
  ['{ times: 2n }', () => ({ times: 2n })],
  ['{ times: 2n, respond: "never" }', () => ({ times: 2n, respond: 'never' })],
  ['{ ms: 5n }', () => ({ ms: 5n })],
  ['{ requests: 1, intervalMs: 1e300 }', () => ({ requests: 1, intervalMs: 1e300 })],
  ['{ requests: 2n, intervalMs: 1000 }', () => ({ requests: 2n, intervalMs: 1000 })],
  ['{ respond: { status: 503, metadata: "x" } }', () => ({ respond: { status: 503, metadata: 'x' } })],
  ['{ respond: { status: 503, headers: "abc" } }', () => ({ respond: { status: 503, headers: 'abc' } })],
  ['{ respond: { status: 503, headers: { "bad name": "x" } } }', () => ({ respond: { status: 503, headers: { 'bad name': 'x' } } })],
  ['{ respond: { status: 503, headers: { "x-a": "a\\r\\nb" } } }', () => ({ respond: { status: 503, headers: { 'x-a': 'a\r\nb' } } })],
  ['{ respond: { status: 503, message: 5 } }', () => ({ respond: { status: 503, message: 5 } })],
  ['{ respond: { status: 2n } }', () => ({ respond: { status: 2n } })],
  ['{ path: /a/y, respond: "never" }', () => ({ path: /a/y, respond: 'never' })],
  ['{ path: /a/y }', () => ({ path: /a/y })],
  ['{ operation: [] }', () => ({ operation: [] })],
  ['{ operation: [], respond: "never" }', () => ({ operation: [], respond: 'never' })],
  ['{ seed: 2n }', () => ({ seed: 2n })],
  ['{ rateLimit: a cyclic object }', () => ({ rateLimit: cyclic() })],
  ['{ format: WORLD_FORMAT, handles: { f() {} } }', () => ({ format: WORLD_FORMAT, handles: { f() {} } })],
  ['{ method: 5, path: "/keys" }', () => ({ method: 5, path: '/keys' })],
  ['{ method: "GET", path: 5 }', () => ({ method: 'GET', path: 5 })],
  ['{ method: "GET", path: "/keys", authorization: 5 }', () => ({ method: 'GET', path: '/keys', authorization: 5 })],
]

/** Field names the public API reads, so that fc.anything() objects hit them too. */
const FIELDS = [
  'userId', 'id', 'name', 'slug', 'workspaceId', 'secret', 'hash', 'limit', 'limitReset', 'usage', 'byokUsage', 'rateLimit',
  'requests', 'intervalMs', 'createdAt', 'expiresAt', 'updatedAt', 'management', 'disabled', 'origin', 'bytes', 'provider',
  'filename', 'endpoints', 'pricing', 'architecture', 'keyHash', 'cost', 'at', 'byok', 'respond', 'status', 'headers', 'metadata',
  'message', 'operation', 'path', 'times', 'once', 'fromCall', 'probability', 'retryAfterSeconds', 'ms', 'real', 'seed', 'now',
  'world', 'journalLimit', 'clock', 'format', 'handles', 'users', 'keys', 'files', 'models', 'videoModels', 'clockMs', 'random',
  'method', 'query', 'authorization', 'type', 'body', 'promptTokens', 'completionTokens', 'overrides', 'prompt', 'completion',
  'size', 'baseUrl', 'text', 'base64',
] as const

const leaf: fc.Arbitrary<Given> = fc.constantFrom(...LEAVES.map(([label, make]) => new Given(label, make)))

const hostileObject: fc.Arbitrary<Given> = fc.oneof(
  fc.constantFrom(...OBJECTS.map(([label, make]) => new Given(label, make))),
  fc.tuple(fc.constantFrom(...FIELDS), leaf).map(([field, value]) => new Given(`{ ${field}: ${value.label} }`, () => ({ [field]: value.make() }))),
)

const anything: fc.Arbitrary<unknown> = fc.anything({
  maxDepth: 3,
  key: fc.oneof(fc.string(), fc.constantFrom(...FIELDS)),
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
})

const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: leaf },
  { weight: 3, arbitrary: hostileObject },
  { weight: 2, arbitrary: anything },
)

// ---------------------------------------------------------------------------------------------
// Spoiling a valid argument: one field, at any depth, replaced by a hostile value, removed, or an
// unexpected field added.

type Path = readonly (string | number)[]
const REMOVED = Symbol('removed')

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)

function pathsOf(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push([...prefix, i])
      pathsOf(item, [...prefix, i], out)
    })
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      out.push([...prefix, key])
      pathsOf(value[key], [...prefix, key], out)
    }
    out.push([...prefix, 'unexpectedField'])
  }
  return out
}

const formatPath = (path: Path): string => path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('') || '(itself)'

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value
  let node = root as Record<string | number, unknown>
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>
  const last = path[path.length - 1] as string | number
  if (value === REMOVED) delete node[last]
  else node[last] = value
  return root
}

/**
 * A deep copy of a valid input, made fresh for every run. structuredClone copies Uint8Arrays and
 * RegExps, but not a URLSearchParams: Node 20 made it `{}` (a valid query became an invalid one)
 * and Node 22 on refuses it, so it is copied as itself.
 */
function copyOf(value: unknown): unknown {
  if (value instanceof URLSearchParams) return new URLSearchParams(value)
  if (Array.isArray(value)) return value.map(copyOf)
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : {}
    for (const key of Object.keys(value)) copy[key] = copyOf(value[key])
    return copy
  }
  return structuredClone(value)
}

/** The same value, made fresh for every run. */
function valid(label: string, base: unknown): Given {
  return new Given(label, () => copyOf(base))
}

function spoiled(label: string, base: unknown): fc.Arbitrary<unknown> {
  const all = pathsOf(base)
  if (all.length === 0) return hostile
  const top = all.filter((p) => p.length === 1)
  const path = fc.oneof(fc.constantFrom(...top), fc.constantFrom(...all))
  const value = fc.oneof({ weight: 8, arbitrary: hostile }, { weight: 1, arbitrary: fc.constant(new Given('(removed)', () => REMOVED)) })
  return fc
    .tuple(path, value)
    .map(([p, v]) => {
      const shown = v instanceof Given && v.label === '(removed)' && typeof p[p.length - 1] === 'number' ? '(a hole)' : show(v)
      return new Given(`${label} with ${formatPath(p)} = ${shown}`, () => setAt(copyOf(base), p, materialize(v)))
    })
}

/** One argument: its name, a valid value, and how to spoil it. */
interface Arg {
  name: string
  valid: Given
  arbitrary: fc.Arbitrary<unknown>
}

/** An argument whose valid form is plain data: mostly spoiled, sometimes wholly hostile, now and then valid. */
function arg(name: string, base: unknown): Arg {
  const given = valid(`valid ${name}`, base)
  return {
    name,
    valid: given,
    arbitrary: fc.oneof({ weight: 1, arbitrary: fc.constant(given) }, { weight: 6, arbitrary: spoiled(name, base) }, { weight: 3, arbitrary: hostile }),
  }
}

/** An argument whose valid form is not data (a simulator): valid or hostile. */
function opaqueArg(name: string, make: () => unknown): Arg {
  const given = new Given(`valid ${name}`, make)
  return { name, valid: given, arbitrary: fc.oneof({ weight: 1, arbitrary: fc.constant(given) }, { weight: 2, arbitrary: hostile }) }
}

/** The arguments of one call: all valid but the one at `which`. */
interface Call {
  which: number
  values: unknown[]
}

function callsOf(args: readonly Arg[]): fc.Arbitrary<Call> {
  if (args.length === 0) return fc.constant({ which: -1, values: [] })
  return fc
    .tuple(fc.nat({ max: args.length - 1 }), ...args.map((a) => a.arbitrary))
    .map(([which, ...values]) => ({ which, values: values.map((v, i) => (i === which ? v : (args[i] as Arg).valid)) }))
}

// ---------------------------------------------------------------------------------------------
// The checks.

function describeThrown(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${clip(error.message)}\n${(error.stack ?? '').split('\n').slice(1, 4).join('\n')}`
  return `a non-Error value ${str(error)}`
}

type Policy =
  /** A SimulatorError or PricingError naming the argument. */
  | 'strict'
  /** Also a TypeError the library wrote ("Failed to ..."): toResponse documents one for a "never" response. */
  | 'documented-type-error'

function expectContractError(error: unknown, policy: Policy): void {
  if (error instanceof SimulatorError) {
    const argument = error.argument
    const message = clip(error.message)
    if (typeof argument !== 'string' || argument === '') throw new Error(`SimulatorError without an argument: ${message}`)
    if (!error.message.startsWith('Failed to ')) throw new Error(`a SimulatorError message does not start with "Failed to": ${message}`)
    // A world path (`world.keys[3].limit`) is mentioned piece by piece: "world.keys[3]: ... "limit" ...".
    for (const piece of argument.split(/[.[\]\s]+/).filter(Boolean)) {
      if (!error.message.toLowerCase().includes(piece.toLowerCase())) throw new Error(`the message does not mention the argument "${argument}": ${message}`)
    }
    return
  }
  if (error instanceof PricingError) {
    expect(['pricing', 'request', 'usage'], `PricingError argument: ${clip(error.message)}`).toContain(error.argument)
    return
  }
  if (policy === 'documented-type-error' && error instanceof TypeError && /^Failed to /.test(error.message)) return
  throw new Error(`threw ${describeThrown(error)}\ninstead of a SimulatorError or PricingError naming the argument`)
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const HEADER_VALUE = /^[^\r\n\0]*$/

/** A response an adapter can put on the wire: the shape SimResponse promises, valid headers, a JSON body. */
function expectWellFormed(response: unknown): asserts response is SimResponse {
  if (typeof response !== 'object' || response === null) throw new Error(`handle returned ${str(response)}, not a response`)
  const res = response as SimResponse
  expect(['json', 'bytes', 'network-error', 'never'], 'response type').toContain(res.type)
  if (!isPlainObject(res.headers)) throw new Error(`response headers are not a plain object: ${str(res.headers)}`)
  for (const [name, value] of Object.entries(res.headers)) {
    if (!HEADER_NAME.test(name) || typeof value !== 'string' || !HEADER_VALUE.test(value)) {
      throw new Error(`response header ${JSON.stringify(name)}: ${str(value)} is not a valid HTTP header`)
    }
  }
  if (res.delayMs !== undefined) expect(Number.isSafeInteger(res.delayMs) && res.delayMs >= 0, `delayMs ${res.delayMs}`).toBe(true)
  if (res.type === 'network-error' || res.type === 'never') {
    expect(res.status).toBe(0)
    expect(res.body).toBeNull()
    return
  }
  expect(Number.isInteger(res.status) && res.status >= 200 && res.status <= 599, `status ${res.status}`).toBe(true)
  if (res.type === 'bytes') {
    expect(res.body).toBeInstanceOf(Uint8Array)
  } else {
    const text = JSON.stringify(res.body)
    expect(typeof text, 'a JSON body serialises').toBe('string')
    expect(text, 'an answer never leaks a crash').not.toMatch(/is not a function|Cannot read propert|is not iterable|Do not know how to serialize/)
    if (res.status >= 400) {
      const envelope = res.body as { error?: { code?: unknown; message?: unknown; metadata?: unknown } }
      expect(envelope.error?.code, 'an error envelope carries its status as code').toBe(res.status)
      expect(typeof envelope.error?.message, 'an error envelope carries a message').toBe('string')
      if (envelope.error?.metadata !== undefined && !isPlainObject(envelope.error.metadata)) {
        throw new Error(`error metadata is not an object: ${str(envelope.error.metadata)}`)
      }
    }
  }
  // The MSW adapter turns it into a Response without a throw (header names and values, status range).
  toResponse(res)
}

const PROBES: readonly ((sim: Sim) => unknown)[] = [
  (sim) => sim.handle({ method: 'GET', path: '/keys', query: 'include_disabled=true', authorization: BEARER_ADMIN }),
  (sim) => sim.handle({ method: 'GET', path: `/keys/${H.apiKeyHash}`, authorization: BEARER_ADMIN }),
  (sim) => sim.handle({ method: 'GET', path: `/models/${H.models.timeWindowed}/endpoints`, authorization: BEARER_APP }),
  (sim) => sim.handle({ method: 'GET', path: `/files/${H.files.report}/content`, authorization: BEARER_ADMIN }),
  (sim) => sim.handle({ method: 'GET', path: '/videos/models' }),
]

/** Whatever a call accepted, the simulator still exports, snapshots and answers; `reload`: its export loads again. */
function expectUsable(sim: Sim, { reload }: { reload: boolean }): void {
  const json = JSON.stringify(sim.exportWorld())
  expect(typeof json, 'the export is JSON').toBe('string')
  if (reload) expect(validateWorld(JSON.parse(json)), 'the export of what the call accepted loads again').toEqual([])
  sim.snapshot()
  sim.keys.list()
  for (const probe of PROBES) expectWellFormed(probe(sim))
}

// ---------------------------------------------------------------------------------------------
// The table.

interface Entry {
  /** The call, as a sentence subject: `sim.keys.create`. */
  name: string
  args: readonly Arg[]
  /** Whether the call runs on a fresh simulator (and a throw must leave it as a twin). */
  onSim: boolean
  call(sim: Sim, args: unknown[]): unknown
  /** For a throw: whether `argument` names the argument that was spoiled (when that can be told). */
  names?(argument: string, call: { which: number; args: unknown[] }): boolean
  /** After a success: what must hold of the result or the simulator (beyond staying usable). */
  accepted?(result: unknown, args: unknown[], sim: Sim): void
  /** The export must load again after a success (not for restore: a snapshot is opaque). */
  reload?: boolean
  /** A read: a success, too, leaves the simulator as a twin. */
  readOnly?: boolean
  runs?: number
}

const UUID_A = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b'
const UUID_B = '7a2b3c4d-5e6f-4a70-9b8c-0d1e2f3a4b5c'
const LATER = '2026-01-15T08:30:00Z'

const timeWindowed = SPEC.models?.find((m) => m.id === H.models.timeWindowed)
if (!timeWindowed) throw new Error('the small world has no time-windowed model')
const PRICING = structuredClone(timeWindowed.endpoints?.[0]?.pricing)
const VIDEO = SPEC.videoModels?.[0]
if (!VIDEO) throw new Error('the small world has no video model')
const SNAPSHOT = fresh().snapshot()

const FAULT_MATCH = { operation: ['listKeys', 'getKey'], path: '/keys*', keyHash: H.apiKeyHash, once: false, times: 3, fromCall: 1, probability: 0.5 }
const PRESET_OPTIONS = { operation: 'listVideoModels', path: '/videos/*', keyHash: H.apiKeyHash, once: true, fromCall: 2, probability: 1 }
const REQUEST = { promptTokens: 1200, at: Date.UTC(2026, 2, 2, 17, 0) }
const USAGE = { promptTokens: 1200, completionTokens: 300, cachedTokens: 200, cacheWriteTokens: 100, reasoningTokens: 50, requests: 1 }

const isOperation = (value: unknown): boolean => (OPERATION_NAMES as readonly unknown[]).includes(value)
const isCount = (value: unknown, min: number): boolean => value === undefined || (typeof value === 'number' && Number.isSafeInteger(value) && value >= min)

/** What a fault rule (or a preset's options) must have been for it to be accepted, by the documented types. */
function expectDocumentedMatch(options: Record<string, unknown>): void {
  const { operation, path, keyHash, once, times, fromCall, probability, name } = options
  const operations = Array.isArray(operation) ? operation : operation === undefined ? [] : [operation]
  expect(operations.every(isOperation) && !(Array.isArray(operation) && operation.length === 0), `accepted operation ${str(operation)}`).toBe(true)
  expect(path === undefined || typeof path === 'string' || path instanceof RegExp, `accepted path ${str(path)}`).toBe(true)
  expect(keyHash === undefined || typeof keyHash === 'string', `accepted keyHash ${str(keyHash)}`).toBe(true)
  expect(once === undefined || typeof once === 'boolean', `accepted once ${str(once)}`).toBe(true)
  expect(isCount(times, 1) && isCount(fromCall, 1), `accepted times ${str(times)} / fromCall ${str(fromCall)}`).toBe(true)
  expect(probability === undefined || (typeof probability === 'number' && probability >= 0 && probability <= 1), `accepted probability ${str(probability)}`).toBe(true)
  expect(name === undefined || (typeof name === 'string' && name !== ''), `accepted name ${str(name)}`).toBe(true)
}

function expectDocumentedRespond(respond: unknown): void {
  if (respond === 'never' || respond === 'network-error') return
  if (!isPlainObject(respond)) throw new Error(`accepted respond ${str(respond)}`)
  const { status, message, metadata, headers } = respond
  expect(typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599, `accepted respond.status ${str(status)}`).toBe(true)
  expect(message === undefined || typeof message === 'string', `accepted respond.message ${str(message)}`).toBe(true)
  expect(metadata === undefined || isPlainObject(metadata), `accepted respond.metadata ${str(metadata)}`).toBe(true)
  expect(metadata === undefined || typeof JSON.stringify(metadata) === 'string', `accepted respond.metadata that is not JSON`).toBe(true)
  if (headers === undefined) return
  if (!isPlainObject(headers)) throw new Error(`accepted respond.headers ${str(headers)}`)
  for (const [header, value] of Object.entries(headers)) {
    expect(HEADER_NAME.test(header) && typeof value === 'string' && HEADER_VALUE.test(value), `accepted respond.headers ${str(headers)}`).toBe(true)
  }
}

/**
 * Presets take no options, null (alike for all three: see the example test) or an options object,
 * which, as everywhere in the store (ArgumentChecker.object), is any object but an array.
 */
function expectPresetOptions(options: unknown): void {
  if (options === undefined || options === null) return
  if (typeof options !== 'object' || Array.isArray(options)) throw new Error(`accepted preset options ${str(options)}`)
  expectDocumentedMatch({ ...options })
}

const sim = (name: string, args: readonly Arg[], call: Entry['call'], extra: Partial<Entry> = {}): Entry => ({ name, args, onSim: true, call, reload: true, ...extra })
const pure = (name: string, args: readonly Arg[], call: (args: unknown[]) => unknown, extra: Partial<Entry> = {}): Entry => ({
  name,
  args,
  onSim: false,
  call: (_, a) => call(a),
  ...extra,
})

/** For a function of several arguments with exactly one spoiled: the PricingError names that one. */
const namesPosition = (names: readonly string[]) => (argument: string, { which }: { which: number }): boolean =>
  which < 0 || names[which] === argument

const ENTRIES: readonly Entry[] = [
  // --- The store.
  sim('sim.users.create', [arg('options', { name: 'Fuzz Org', id: 'user_fuzz1', createdAt: LATER, defaultWorkspaceId: UUID_A, defaultWorkspaceGuardrailId: UUID_B })], (s, [o]) =>
    s.users.create(o as never),
  ),
  sim('sim.users.get', [arg('id', H.userId)], (s, [id]) => s.users.get(id as never), { readOnly: true }),
  sim(
    'sim.workspaces.create',
    [
      arg('options', {
        userId: H.userId, name: 'Fuzz Space', slug: 'fuzz-space', id: UUID_A, description: 'for fuzzing', defaultTextModel: H.models.paid,
        defaultImageModel: null, defaultProviderSort: 'price', defaultGuardrailId: UUID_B, createdAt: LATER,
      }),
    ],
    (s, [o]) => s.workspaces.create(o as never),
  ),
  sim('sim.workspaces.get', [arg('id', H.workspaces.production)], (s, [id]) => s.workspaces.get(id as never), { readOnly: true }),
  sim(
    'sim.keys.create',
    [
      arg('options', {
        userId: H.userId, management: false, name: 'Fuzz key', workspaceId: H.workspaces.production, disabled: false, limit: 10, limitReset: 'monthly',
        expiresAt: '2027-01-01T00:00:00Z', includeByokInLimit: true, createdAt: LATER, updatedAt: '2026-02-01T00:00:00Z',
        usage: { total: 5, daily: 1, weekly: 1, monthly: 3 }, byokUsage: { total: 2, daily: 0.5, weekly: 0.5, monthly: 1 },
        secret: 'sk-or-v1-fuzz-secret-0001', hash: 'f'.repeat(64), rateLimit: { requests: 5, intervalMs: 1000 },
      }),
    ],
    (s, [o]) => s.keys.create(o as never),
  ),
  sim(
    'sim.keys.update',
    [
      arg('hash', H.apiKeyHash),
      arg('changes', { name: 'Renamed', disabled: true, limit: 50, limitReset: 'daily', includeByokInLimit: true, expiresAt: '2027-01-01T00:00:00Z', rateLimit: { requests: 2, intervalMs: 500 } }),
    ],
    (s, [hash, changes]) => s.keys.update(hash as never, changes as never),
    {
      // A spoiled hash is named `hash`; spoiled changes are never blamed on the hash (unless they hold a field called hash).
      names: (argument, { which, args }) =>
        which === 0 ? argument === 'hash' : argument !== 'hash' || (typeof args[1] === 'object' && args[1] !== null && Object.hasOwn(args[1], 'hash')),
    },
  ),
  sim('sim.keys.get', [arg('hash', H.apiKeyHash)], (s, [hash]) => s.keys.get(hash as never), { readOnly: true }),
  sim(
    'sim.files.create',
    [
      arg('options', {
        userId: H.userId, id: 'file_fuzz', workspaceId: H.workspaces.staging, origin: 'server', bytes: new Uint8Array([104, 105]), filename: 'fuzz.txt',
        provider: 'openai', createdAt: LATER,
      }),
    ],
    (s, [o]) => s.files.create(o as never),
  ),
  sim('sim.models.create', [arg('options', { ...structuredClone(timeWindowed), id: 'fuzz/model-1:beta' })], (s, [o]) => s.models.create(o as never)),
  sim('sim.models.get', [arg('id', H.models.paid)], (s, [id]) => s.models.get(id as never), { readOnly: true }),
  sim('sim.videoModels.create', [arg('options', { ...structuredClone(VIDEO), id: 'fuzz/video-1' })], (s, [o]) => s.videoModels.create(o as never)),
  sim('sim.usage.record', [arg('options', { keyHash: H.apiKeyHash, cost: 1.25, byok: false, at: '2026-03-01T12:00:00Z' })], (s, [o]) => s.usage.record(o as never)),
  sim('sim.keys.delete', [arg('hash', H.apiKeyHash)], (s, [hash]) => s.keys.delete(hash as never)),
  sim('sim.credits.add', [arg('options', { userId: H.userId, amount: 12.5 })], (s, [o]) => s.credits.add(o as never)),
  sim('sim.credits.get', [arg('userId', H.userId)], (s, [id]) => s.credits.get(id as never), { readOnly: true }),
  sim(
    'sim.workspaces.update',
    [arg('workspace', H.workspaces.staging), arg('changes', { name: 'Staging 2', slug: 'staging-2', description: 'fuzzed', ioLoggingSamplingRate: 0.5 })],
    (s, [w, changes]) => s.workspaces.update(w as never, changes as never),
    {
      // A spoiled workspace is named `workspace`; spoiled changes are never blamed on it (unless they hold a field called workspace).
      names: (argument, { which, args }) =>
        which === 0 ? argument === 'workspace' || argument.startsWith('workspace.') : argument !== 'workspace' || (typeof args[1] === 'object' && args[1] !== null && Object.hasOwn(args[1], 'workspace')),
    },
  ),
  sim('sim.workspaces.delete', [arg('workspace', { userId: H.userId, slug: 'staging' }), arg('options', { confirmDefaultWorkspaceDeletion: false })], (s, [w, o]) =>
    s.workspaces.delete(w as never, o as never),
  ),
  sim(
    'sim.inference.respond',
    [arg('rule', { match: { model: H.models.paid, lastUserMessage: 'refund', tools: false }, reply: { content: 'Fuzzed.', finishReason: 'stop', usage: { promptTokens: 3, completionTokens: 2 } }, times: 2 })],
    (s, [rule]) => s.inference.respond(rule as never),
  ),

  // --- The clock.
  sim('sim.clock.set', [arg('instant', '2026-03-05T09:00:00Z')], (s, [i]) => s.clock.set(i as never), {
    accepted: (_, __, s) => expect(Number.isSafeInteger(s.clock.nowMs()) && Math.abs(s.clock.nowMs()) <= 8.64e15, `clock at ${s.clock.nowMs()}`).toBe(true),
  }),
  sim('sim.clock.advance', [arg('ms', 90_000)], (s, [ms]) => s.clock.advance(ms as never), {
    accepted: (_, __, s) => expect(Number.isSafeInteger(s.clock.nowMs()) && Math.abs(s.clock.nowMs()) <= 8.64e15, `clock at ${s.clock.nowMs()}`).toBe(true),
  }),

  // --- Faults, latency, journal.
  sim(
    'sim.faults.add',
    [arg('rule', { name: 'fuzz-fault', ...FAULT_MATCH, respond: { status: 503, message: 'Down for fuzzing', metadata: { reason: 'fuzz' }, headers: { 'retry-after': '7' } } })],
    (s, [rule]) => s.faults.add(rule as never),
    {
      accepted: (_, [rule]) => {
        if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) throw new Error(`accepted rule ${str(rule)}`)
        expectDocumentedMatch({ ...rule })
        expectDocumentedRespond((rule as Record<string, unknown>)['respond'])
      },
    },
  ),
  sim('sim.faults.add (a "never" rule)', [arg('rule', { ...FAULT_MATCH, respond: 'never' })], (s, [rule]) => s.faults.add(rule as never), {
    accepted: (_, [rule]) => {
      if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) throw new Error(`accepted rule ${str(rule)}`)
      expectDocumentedMatch({ ...rule })
      expectDocumentedRespond((rule as Record<string, unknown>)['respond'])
    },
  }),
  sim('sim.faults.providerDown', [arg('options', PRESET_OPTIONS)], (s, [o]) => s.faults.providerDown(o as never), { accepted: (_, [o]) => expectPresetOptions(o) }),
  sim('sim.faults.internalError', [arg('options', PRESET_OPTIONS)], (s, [o]) => s.faults.internalError(o as never), { accepted: (_, [o]) => expectPresetOptions(o) }),
  sim('sim.faults.serviceUnavailable', [arg('options', { ...PRESET_OPTIONS, retryAfterSeconds: 12 })], (s, [o]) => s.faults.serviceUnavailable(o as never), {
    accepted: (_, [o]) => {
      expectPresetOptions(o)
      if (isPlainObject(o)) expect(isCount(o['retryAfterSeconds'], 0), `accepted retryAfterSeconds ${str(o['retryAfterSeconds'])}`).toBe(true)
    },
  }),
  sim('sim.latency.set', [arg('rule', { operation: 'listKeys', ms: [5, 40], real: false })], (s, [rule]) => s.latency.set(rule as never), {
    accepted: (_, [rule]) => {
      if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) throw new Error(`accepted rule ${str(rule)}`)
      const { operation, ms, real } = rule as Record<string, unknown>
      expect(operation === undefined || isOperation(operation), `accepted operation ${str(operation)}`).toBe(true)
      expect(real === undefined || typeof real === 'boolean', `accepted real ${str(real)}`).toBe(true)
      const whole = (n: unknown): boolean => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0
      expect(Array.isArray(ms) ? ms.length === 2 && whole(ms[0]) && whole(ms[1]) : whole(ms), `accepted ms ${str(ms)}`).toBe(true)
    },
  }),
  sim(
    'sim.journal.list',
    [arg('filter', { operation: 'listVideoModels', status: 200, method: 'get', keyHash: H.apiKeyHash, outcome: 'response' })],
    (s, [filter]) => s.journal.list(filter as never),
    { accepted: (result) => expect(Array.isArray(result)).toBe(true), readOnly: true },
  ),

  // --- Snapshots.
  sim('sim.restore', [arg('snapshot', SNAPSHOT)], (s, [snapshot]) => s.restore(snapshot as never), { reload: false, runs: 400 }),

  // --- The root entry point.
  pure(
    'createSimulator',
    [arg('options', { seed: 3, now: '2026-03-02T10:00:00Z', world: SPEC, rateLimit: { requests: 5, intervalMs: 1000 }, journalLimit: 10, clock: 'virtual' })],
    ([options]) => createSimulator(options as never),
    { accepted: (result) => expectUsable(result as Sim, { reload: true }), runs: 400 },
  ),
  pure(
    'createSimulator (an empty world)',
    [arg('options', { seed: 3, now: 1_772_445_600_000, world: 'empty', rateLimit: null, journalLimit: 0, clock: 'real' })],
    ([options]) => createSimulator(options as never),
    { accepted: (result) => expectUsable(result as Sim, { reload: true }) },
  ),
  pure('errorEnvelope', [arg('status', 404), arg('options', { message: 'Not here', metadata: { resource: 'key' }, userId: H.userId })], ([status, options]) =>
    errorEnvelope(status as never, options as never),
  ),
  pure('formatTimestamp', [arg('ms', Date.UTC(2026, 2, 2, 10, 0, 0, 5))], ([ms]) => formatTimestamp(ms as never), {
    accepted: (result) => expect(result).toMatch(/^[+-]?\d{4,6}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/),
  }),
  pure('maskSecret', [arg('secret', H.apiKey)], ([secret]) => maskSecret(secret as never), { accepted: (result) => expect(typeof result).toBe('string') }),

  // --- Pricing.
  pure('compilePricing', [arg('pricing', PRICING)], ([p]) => compilePricing(p as never), { names: namesPosition(['pricing']) }),
  pure('resolvePricing', [arg('pricing', PRICING), arg('request', REQUEST)], ([p, r]) => resolvePricing(p as never, r as never), {
    names: namesPosition(['pricing', 'request']),
  }),
  pure('explainPricing', [arg('pricing', PRICING), arg('request', REQUEST)], ([p, r]) => explainPricing(p as never, r as never), {
    names: namesPosition(['pricing', 'request']),
  }),
  pure('estimateCost', [arg('pricing', PRICING), arg('usage', USAGE), arg('request', { at: REQUEST.at })], ([p, u, r]) => estimateCost(p as never, u as never, r as never), {
    names: namesPosition(['pricing', 'usage', 'request']),
  }),
  pure('compilePricing(…).resolve', [arg('request', REQUEST)], ([r]) => compilePricing(PRICING as never).resolve(r as never), { names: namesPosition(['request']) }),
  pure('compilePricing(…).explain', [arg('request', REQUEST)], ([r]) => compilePricing(PRICING as never).explain(r as never), { names: namesPosition(['request']) }),
  pure('compilePricing(…).cost', [arg('usage', USAGE), arg('request', { at: REQUEST.at })], ([u, r]) => compilePricing(PRICING as never).cost(u as never, r as never), {
    names: namesPosition(['usage', 'request']),
  }),

  // --- Fixtures: a bad Faker source is a SimulatorError naming faker, bad overrides one naming what is wrong in them.
  ...(
    [
      ['fakeApiKey', fakeApiKey, fakeApiKey({ seed: 2 })],
      ['fakeEndpoint', fakeEndpoint, fakeEndpoint({ seed: 2 })],
      ['fakeFile', fakeFile, fakeFile({ seed: 2 })],
      ['fakeModel', fakeModel, fakeModel({ seed: 2 })],
      ['fakePricing', fakePricing, fakePricing({ seed: 2 })],
      ['fakeVideoModel', fakeVideoModel, fakeVideoModel({ seed: 2 })],
      ['fakeWorkspace', fakeWorkspace, fakeWorkspace({ seed: 2 })],
    ] as const
  ).map(([name, generate, overrides]) =>
    pure(name, [arg('source', { seed: 1 }), arg('overrides', overrides)], ([source, o]) => (generate as (s: unknown, o: unknown) => unknown)(source, o), { runs: 200 }),
  ),
  pure('generateWorld', [arg('options', { seed: 1, size: 'small' })], ([options]) => generateWorld(options as never), {
    accepted: (result) => expect(validateWorld(result), 'a generated world loads').toEqual([]),
    runs: 60,
  }),

  // --- MSW.
  pure('createHandlers', [opaqueArg('sim', fresh), arg('options', { baseUrl: 'https://sim.example.test/api/v1' })], ([s, options]) => createHandlers(s as never, options as never), {
    accepted: (result) => expect(Array.isArray(result) && result.length > 0).toBe(true),
  }),
  pure(
    'toResponse',
    [arg('response', { status: 503, headers: { 'retry-after': '5', 'content-type': 'application/json' }, type: 'json', body: errorEnvelope(503) }), arg('method', 'HEAD')],
    ([response, method]) => toResponse(response as never, method as never),
    { accepted: (result) => expect(result).toBeInstanceOf(Response) },
  ),
  pure('toResponse (a file download)', [arg('response', { status: 200, headers: { 'content-type': 'application/octet-stream' }, type: 'bytes', body: new Uint8Array([1, 2]) })], ([response]) =>
    toResponse(response as never),
  ),
]

function check(entry: Entry, call: Call): void {
  const s = entry.onSim ? fresh() : (undefined as unknown as Sim)
  const args = call.values.map(materialize)
  let result: unknown
  try {
    result = entry.call(s, args)
  } catch (error) {
    // toResponse documents one TypeError: a "never" response has no Response.
    const never = entry.name.startsWith('toResponse') && (args[0] as { type?: unknown } | null)?.type === 'never'
    expectContractError(error, never ? 'documented-type-error' : 'strict')
    const argument = (error as { argument?: unknown }).argument
    if (entry.names && typeof argument === 'string' && !entry.names(argument, { which: call.which, args })) {
      throw new Error(`the error names "${argument}", but the argument spoiled was "${entry.args[call.which]?.name}": ${clip((error as Error).message)}`)
    }
    if (entry.onSim) expectUnchanged(s)
    return
  }
  entry.accepted?.(result, args, s)
  if (entry.onSim && entry.readOnly) expectUnchanged(s)
  else if (entry.onSim) expectUsable(s, { reload: entry.reload ?? true })
}

describe('every public function and method, called with arbitrary values', () => {
  for (const entry of ENTRIES) {
    it(`${entry.name} succeeds or throws an error naming the argument${entry.onSim ? ', and a throw changes nothing' : ''}`, () => {
      fc.assert(
        fc.property(callsOf(entry.args), (call) => check(entry, call)),
        { numRuns: runs(entry.runs ?? 300) },
      )
    })
  }

  it('the methods without arguments ignore whatever they are given and never throw', () => {
    const methods: readonly (readonly [string, (s: Sim, args: unknown[]) => unknown])[] = [
      ['users.list', (s, a) => (s.users.list as (...x: unknown[]) => unknown)(...a)],
      ['workspaces.list', (s, a) => (s.workspaces.list as (...x: unknown[]) => unknown)(...a)],
      ['keys.list', (s, a) => (s.keys.list as (...x: unknown[]) => unknown)(...a)],
      ['files.list', (s, a) => (s.files.list as (...x: unknown[]) => unknown)(...a)],
      ['models.list', (s, a) => (s.models.list as (...x: unknown[]) => unknown)(...a)],
      ['videoModels.list', (s, a) => (s.videoModels.list as (...x: unknown[]) => unknown)(...a)],
      ['clock.now', (s, a) => (s.clock.now as (...x: unknown[]) => unknown)(...a)],
      ['clock.nowMs', (s, a) => (s.clock.nowMs as (...x: unknown[]) => unknown)(...a)],
      ['faults.list', (s, a) => (s.faults.list as (...x: unknown[]) => unknown)(...a)],
      ['faults.clear', (s, a) => (s.faults.clear as (...x: unknown[]) => unknown)(...a)],
      ['fault.remove', (s, a) => (s.faults.list()[0]?.remove as (...x: unknown[]) => unknown)(...a)],
      ['latency.clear', (s, a) => (s.latency.clear as (...x: unknown[]) => unknown)(...a)],
      ['journal.clear', (s, a) => (s.journal.clear as (...x: unknown[]) => unknown)(...a)],
      ['snapshot', (s, a) => (s.snapshot as (...x: unknown[]) => unknown)(...a)],
      ['reset', (s, a) => (s.reset as (...x: unknown[]) => unknown)(...a)],
      ['exportWorld', (s, a) => (s.exportWorld as (...x: unknown[]) => unknown)(...a)],
    ]
    fc.assert(
      fc.property(fc.constantFrom(...methods), fc.array(hostile, { maxLength: 3 }), ([, method], given) => {
        const s = fresh()
        method(s, given.map(materialize))
        expectUsable(s, { reload: true })
      }),
      { numRuns: runs(150) },
    )
  })
})

describe('the three fault presets', () => {
  it('accept and refuse the same options alike', () => {
    fc.assert(
      fc.property(fc.oneof(hostile, spoiled('options', PRESET_OPTIONS)), (options) => {
        // serviceUnavailable alone reads retryAfterSeconds: options holding it may rightly differ.
        const sample = materialize(options)
        fc.pre(!(typeof sample === 'object' && sample !== null && 'retryAfterSeconds' in sample))
        const outcomes = (['providerDown', 'serviceUnavailable', 'internalError'] as const).map((preset) => {
          const s = fresh()
          try {
            s.faults[preset](materialize(options) as never)
            return `${preset}: accepted`
          } catch (error) {
            return `${preset}: ${error instanceof SimulatorError ? `SimulatorError naming ${error.argument}` : describeThrown(error).split('\n')[0]}`
          }
        })
        const [first, ...rest] = outcomes.map((o) => o.replace(/^\w+: /, ''))
        if (rest.some((o) => o !== first)) throw new Error(`the presets disagree:\n${outcomes.join('\n')}`)
      }),
      { numRuns: runs(150) },
    )
  })
})

// ---------------------------------------------------------------------------------------------
// The router.

const REQUESTS = [
  { method: 'GET', path: '/keys', query: 'include_disabled=true&offset=0', authorization: BEARER_ADMIN },
  { method: 'GET', path: `/keys/${H.apiKeyHash}`, query: new URLSearchParams(), authorization: BEARER_ADMIN },
  { method: 'get', path: `/files/${H.files.report}/content`, query: `workspace_id=${H.workspaces.default}`, authorization: BEARER_ADMIN },
  { method: 'GET', path: `/workspaces/${H.workspaces.production}`, authorization: BEARER_ADMIN },
  { method: 'GET', path: `/models/${H.models.timeWindowed}/endpoints`, authorization: BEARER_APP },
  { method: 'GET', path: '/videos/models', authorization: null },
  { method: 'POST', path: '/chat/completions', query: '?stream=true' },
]

/** The fields of a request that are not what a SimRequest holds; `query` apart, it may be read leniently. */
function badFields(request: unknown): { fields: string[]; queryOnly: boolean } {
  if (typeof request !== 'object' || request === null) return { fields: ['request'], queryOnly: false }
  const r = request as Record<string, unknown>
  const fields: string[] = Array.isArray(request) ? ['request'] : []
  if (typeof r['method'] !== 'string') fields.push('method')
  if (typeof r['path'] !== 'string') fields.push('path')
  if (r['authorization'] !== undefined && r['authorization'] !== null && typeof r['authorization'] !== 'string') fields.push('authorization')
  const query = r['query']
  const badQuery = query !== undefined && query !== null && typeof query !== 'string' && !(query instanceof URLSearchParams)
  if (badQuery) fields.push('query')
  return { fields, queryOnly: badQuery && fields.length === 1 }
}

function expectNamesBadField(response: SimResponse, fields: readonly string[]): void {
  expect(response.status, `a malformed request (${fields.join(', ')}) is answered with 400`).toBe(400)
  const metadata = (response.body as { error?: { metadata?: unknown } } | null)?.error?.metadata
  const named = isPlainObject(metadata) && Object.values(metadata).some((v) => fields.includes(v as string))
  if (!named) throw new Error(`the 400 envelope does not name ${fields.join(' or ')}: ${JSON.stringify(response.body)}`)
}

describe('sim.handle', () => {
  it('never throws: it answers anything with a well-formed response, journals it, and changes no state', () => {
    const request = fc.oneof(
      { weight: 3, arbitrary: hostile },
      { weight: 6, arbitrary: fc.constantFrom(...REQUESTS.keys()).chain((i) => spoiled(`request ${i}`, REQUESTS[i])) },
      {
        weight: 3,
        arbitrary: fc.record(
          {
            method: fc.oneof(fc.constantFrom('GET', 'HEAD', 'get', 'DELETE', ''), fc.string(), hostile),
            path: fc.oneof(fc.constantFrom('/keys', '/keys/%zz', '/files/a%2Fb/content', '//keys', 'keys', '/models/a/b/endpoints', '/workspaces/default'), fc.webPath(), fc.string(), hostile),
            query: fc.oneof(fc.string(), fc.webQueryParameters(), hostile),
            authorization: fc.oneof(fc.constantFrom(BEARER_ADMIN, BEARER_APP, 'Bearer', 'bearer  x ', `Basic ${H.managementKey}`), fc.string(), hostile),
          },
          { requiredKeys: [] },
        ),
      },
    )
    fc.assert(
      fc.property(request, (given) => {
        const s = fresh()
        const value = materialize(given)
        const { fields, queryOnly } = badFields(value)
        let response: SimResponse
        try {
          response = s.handle(value as never)
        } catch (error) {
          throw new Error(`sim.handle threw ${describeThrown(error)}`)
        }
        expectWellFormed(response)
        if (fields.length > 0 && !queryOnly) expectNamesBadField(response, fields)
        else if (queryOnly && response.status === 400) expectNamesBadField(response, ['query'])
        else expect(response.status, `an internal failure answered ${JSON.stringify(response.body)}`).not.toBe(500)
        expect(s.journal.list().length, 'every request is journaled').toBe(BASELINE.journal + 1)
        expect(s.clock.nowMs(), 'a request without latency leaves the clock').toBe(BASELINE.clockMs)
        if (JSON.stringify(s.exportWorld()) !== BASELINE.world) throw new Error('a request changed the store')
      }),
      { numRuns: runs(500) },
    )
  })
})

// ---------------------------------------------------------------------------------------------
// validateWorld and validatePricing never throw, and agree with what loads.

describe('the validators', () => {
  it('validateWorld never throws, lists problems with paths, and agrees with createSimulator', () => {
    fc.assert(
      fc.property(fc.oneof({ weight: 1, arbitrary: hostile }, { weight: 4, arbitrary: spoiled('world', SPEC) }), (given) => {
        const spec = materialize(given)
        let problems: unknown
        try {
          problems = validateWorld(spec)
        } catch (error) {
          throw new Error(`validateWorld threw ${describeThrown(error)}`)
        }
        if (!Array.isArray(problems)) throw new Error(`validateWorld returned ${str(problems)}`)
        for (const problem of problems as unknown[]) {
          const { path, code, message } = (problem ?? {}) as Record<string, unknown>
          expect(typeof path === 'string' && path.startsWith('world'), `problem path ${str(path)}`).toBe(true)
          expect(typeof code === 'string' && typeof message === 'string', `problem ${str(problem)}`).toBe(true)
        }
        // `world: undefined` is the default world, and the names of the built-in worlds are not specs.
        if (spec === undefined || spec === 'default' || spec === 'empty') return
        let thrown: unknown
        try {
          createSimulator({ world: spec as never })
        } catch (error) {
          thrown = error
        }
        const paths = (problems as { path: string }[]).map((p) => p.path)
        if (paths.length === 0) {
          if (thrown !== undefined) throw new Error(`validateWorld found no problem, but createSimulator threw ${describeThrown(thrown)}`)
          return
        }
        if (thrown === undefined) throw new Error(`createSimulator loaded a world validateWorld refuses: ${paths.join(', ')}`)
        // The form of the error (its message) is the createSimulator property's to check; here, that the two agree.
        if (!(thrown instanceof SimulatorError)) throw new Error(`createSimulator threw ${describeThrown(thrown)}, not a SimulatorError`)
        expect(paths, 'createSimulator refuses a world for a problem validateWorld reports').toContain(thrown.argument)
      }),
      { numRuns: runs(200) },
    )
  })

  it('validatePricing never throws, and finds a problem exactly when compilePricing refuses', () => {
    fc.assert(
      fc.property(fc.oneof({ weight: 1, arbitrary: hostile }, { weight: 4, arbitrary: spoiled('pricing', PRICING) }), (given) => {
        const pricing = materialize(given)
        let issues: unknown
        try {
          issues = validatePricing(pricing)
        } catch (error) {
          throw new Error(`validatePricing threw ${describeThrown(error)}`)
        }
        if (!Array.isArray(issues)) throw new Error(`validatePricing returned ${str(issues)}`)
        let thrown: unknown
        try {
          compilePricing(pricing as never)
        } catch (error) {
          thrown = error
        }
        if (issues.length === 0) {
          if (thrown !== undefined) throw new Error(`validatePricing found no issue, but compilePricing threw ${describeThrown(thrown)}`)
        } else {
          expect(thrown, `compilePricing accepts a pricing with issues ${JSON.stringify(issues)}`).toBeInstanceOf(PricingError)
          expect((thrown as PricingError).argument).toBe('pricing')
        }
      }),
      { numRuns: runs(200) },
    )
  })
})

// ---------------------------------------------------------------------------------------------
// Regressions, one example each.

function thrownBy(act: () => unknown): unknown {
  try {
    act()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw, but the call succeeded')
}

function expectSimulatorError(error: unknown, argument: string): void {
  if (!(error instanceof SimulatorError)) throw new Error(`expected a SimulatorError naming "${argument}", got ${describeThrown(error)}`)
  expect(error.argument).toBe(argument)
  expect(error.message).toMatch(/^Failed to /)
  expect(error.message).toContain(argument)
}

/**
 * The call is refused with a SimulatorError naming `argument`, and the simulator is as a twin that
 * went through the same steps but not the call: store, clock, journal, faults, random stream.
 */
function expectRefusedUnchanged(make: () => Sim, act: (sim: Sim) => unknown, argument: string): void {
  const sim = make()
  const twin = make()
  expectSimulatorError(thrownBy(() => act(sim)), argument)
  expectUnchanged(sim, observe(twin))
}

/** A simulator that moved on since the snapshot the restore tests take from another one. */
function movedOn(): Sim {
  const s = fresh()
  s.clock.advance(3_600_000)
  s.keys.create({ userId: H.userId, name: 'After the snapshot' })
  return s
}

describe('sim.restore refuses anything but a snapshot handle, and changes nothing', () => {
  const snapshot = createSimulator({ now: '2030-06-01T00:00:00Z' }).snapshot()

  it('refuses a spread copy of a snapshot, the clock included in what stays', () => {
    expectRefusedUnchanged(movedOn, (s) => s.restore({ ...snapshot }), 'snapshot')
  })

  it('refuses a structuredClone of its own earlier snapshot', () => {
    // Every fresh simulator is the same, so a twin's snapshot is the one movedOn's simulator took before moving on.
    const own = fresh().snapshot()
    expectRefusedUnchanged(movedOn, (s) => s.restore(structuredClone(own)), 'snapshot')
  })

  it('refuses a snapshot that went through JSON, and says to use exportWorld', () => {
    const error = thrownBy(() => movedOn().restore(JSON.parse(JSON.stringify(snapshot)) as never))
    expect((error as Error).message).toContain('sim.exportWorld()')
    expectRefusedUnchanged(movedOn, (s) => s.restore(JSON.parse(JSON.stringify(snapshot)) as never), 'snapshot')
  })

  for (const [label, value] of [['null', null], ['undefined', undefined], ['a number', 42], ['a string', 'snapshot'], ['an array', []], ['an empty object', {}], ['an object without a prototype', Object.create(null)]] as const) {
    it(`refuses ${label}`, () => {
      expectRefusedUnchanged(movedOn, (s) => s.restore(value as never), 'snapshot')
    })
  }

  it('gives a snapshot that cannot be changed', () => {
    expect(Object.isFrozen(snapshot)).toBe(true)
    expect(() => Object.assign(snapshot, { clockMs: 0 })).toThrow(TypeError)
  })

  it('still restores the snapshot itself', () => {
    const s = movedOn()
    s.restore(snapshot)
    expect(s.clock.now().toISOString()).toBe('2030-06-01T00:00:00.000Z')
  })
})

describe('values JSON cannot carry are refused by name, not by a TypeError from JSON.stringify', () => {
  it('refuses faults.add({ times: 2n, respond: "never" }), naming times', () => {
    expectRefusedUnchanged(fresh, (s) => s.faults.add({ times: 2n, respond: 'never' } as never), 'times')
  })

  it('refuses latency.set({ ms: 5n }), naming ms', () => {
    expectRefusedUnchanged(fresh, (s) => s.latency.set({ ms: 5n } as never), 'ms')
  })

  it('refuses keys.update(5n, {}), naming hash', () => {
    expectRefusedUnchanged(fresh, (s) => s.keys.update(5n as never, {}), 'hash')
  })

  it('refuses a cyclic rateLimit in createSimulator and in keys.create, naming where', () => {
    // The cycle runs through a field a rate limit does not have: that field is named.
    const limit = cyclic()
    expectSimulatorError(thrownBy(() => createSimulator({ rateLimit: limit as never })), 'rateLimit.self')
    const invalidCyclic = { requests: 'many', intervalMs: 1000, self: {} as unknown }
    invalidCyclic.self = invalidCyclic
    expectSimulatorError(thrownBy(() => createSimulator({ rateLimit: invalidCyclic as never })), 'rateLimit.self')
    expectRefusedUnchanged(fresh, (s) => s.keys.create({ userId: H.userId, rateLimit: limit as never }), 'rateLimit.self')
    // Through a field it has: that field is named, with what it must be.
    expectSimulatorError(thrownBy(() => createSimulator({ rateLimit: { requests: cyclic(), intervalMs: 1000 } as never })), 'rateLimit.requests')
  })
})

describe('options that are not options objects', () => {
  it('treats null alike in the three fault presets', () => {
    const outcomes = (['providerDown', 'serviceUnavailable', 'internalError'] as const).map((preset) => {
      const s = fresh()
      try {
        s.faults[preset](null as never)
        return 'accepted'
      } catch (error) {
        return error instanceof SimulatorError ? `SimulatorError naming ${error.argument}` : describeThrown(error).split('\n')[0]
      }
    })
    expect(outcomes[0], `providerDown, serviceUnavailable, internalError with null: ${outcomes.join(' / ')}`).toMatch(/^(accepted|SimulatorError naming options)$/)
    expect(new Set(outcomes).size, `providerDown, serviceUnavailable, internalError with null: ${outcomes.join(' / ')}`).toBe(1)
  })

  it('refuses createSimulator([]), naming options', () => {
    expectSimulatorError(thrownBy(() => createSimulator([] as never)), 'options')
  })

  it('refuses workspaces.create(null), naming options', () => {
    expectRefusedUnchanged(fresh, (s) => s.workspaces.create(null as never), 'options')
  })

  it('refuses a fault for an empty list of operations, which would match nothing, naming operation', () => {
    expectRefusedUnchanged(fresh, (s) => s.faults.add({ operation: [], respond: 'never' }), 'operation')
  })
})

describe('fault paths', () => {
  it('match every request with a sticky RegExp, not every other one', () => {
    const s = fresh()
    const fault = s.faults.add({ path: /^\/videos\/models$/y, respond: { status: 503 } })
    const statuses = Array.from({ length: 4 }, () => s.handle({ method: 'GET', path: '/videos/models' }).status)
    expect(statuses).toEqual([503, 503, 503, 503])
    expect(fault.fired).toBe(4)
  })

  it('match every request with a global RegExp too', () => {
    const s = fresh()
    s.faults.add({ path: /videos/g, respond: { status: 502 } })
    expect(Array.from({ length: 3 }, () => s.handle({ method: 'GET', path: '/videos/models' }).status)).toEqual([502, 502, 502])
  })
})

describe('sim.handle with a malformed request', () => {
  const cases: readonly (readonly [string, unknown, string])[] = [
    ['null', null, 'request'],
    ['undefined', undefined, 'request'],
    ['a numeric method', { method: 5, path: '/keys' }, 'method'],
    ['a numeric path', { method: 'GET', path: 5 }, 'path'],
    ['a numeric authorization', { method: 'GET', path: '/keys', authorization: 5 }, 'authorization'],
  ]
  for (const [label, request, field] of cases) {
    it(`answers ${label} with a 400 envelope naming ${field}`, () => {
      const s = fresh()
      const response = s.handle(request as never)
      expectWellFormed(response)
      expectNamesBadField(response, [field])
      expect(JSON.stringify(response.body)).not.toContain('is not a function')
    })
  }
})

describe('generateWorld', () => {
  const cases: readonly (readonly [string, unknown, string])[] = [
    ['null options', null, 'options'],
    ['no options', undefined, 'options'],
    ['a string seed', { seed: 'one' }, 'seed'],
    ['a BigInt seed', { seed: 2n }, 'seed'],
    ['an unknown size', { seed: 1, size: 'huge' }, 'size'],
  ]
  for (const [label, options, argument] of cases) {
    it(`refuses ${label} with a SimulatorError naming ${argument}`, () => {
      expectSimulatorError(thrownBy(() => generateWorld(options as never)), argument)
    })
  }
})

describe('world handles', () => {
  const holdingAFunction = [
    { format: WORLD_FORMAT, handles: { callback: () => 1 } },
    { format: WORLD_FORMAT, handles: { nested: { deeper: [function named() {}] } } },
    { format: WORLD_FORMAT, handles: { id: Symbol('x') } },
  ]

  it('that hold a function or a symbol are refused by createSimulator as world.handles', () => {
    for (const spec of holdingAFunction) expectSimulatorError(thrownBy(() => createSimulator({ world: spec as never })), 'world.handles')
  })

  it('that hold a function or a symbol are reported by validateWorld, which does not throw', () => {
    for (const spec of holdingAFunction) expect(validateWorld(spec).map((p) => p.path)).toEqual(['world.handles'])
  })
})

// ---------------------------------------------------------------------------------------------
// Minimal reproductions of what the properties above found, one example each.

/** Refused with a SimulatorError naming `argument`, or (where the documentation allows it) a TypeError the library wrote. */
function expectRefusedOrAccepted(act: () => unknown, argument: RegExp, accepted: (result: unknown) => void): void {
  let result: unknown
  try {
    result = act()
  } catch (error) {
    if (!(error instanceof SimulatorError || error instanceof PricingError)) throw new Error(`expected a refusal naming ${argument}, got ${describeThrown(error)}`)
    expect(error.argument).toMatch(argument)
    return
  }
  accepted(result)
}

/** An array with a hole at `index`, as `[a, , b]` writes it. */
function withHole<T>(items: readonly T[], index: number): T[] {
  const sparse = [...items]
  delete sparse[index]
  return sparse
}

describe('inputs the fuzzing found mishandled', () => {
  it('sim.workspaces.get answers a non-string id with undefined, as users.get and keys.get do, or refuses it naming id', () => {
    expectRefusedOrAccepted(() => fresh().workspaces.get({} as never), /^id$/, (result) => expect(result).toBeUndefined())
  })

  it('sim.clock.advance refuses a null-prototype object naming ms, instead of failing to print it', () => {
    expectRefusedUnchanged(fresh, (s) => s.clock.advance(Object.create(null) as never), 'ms')
  })

  it('createSimulator refuses a null-prototype seed naming seed, instead of failing to print it', () => {
    expectSimulatorError(thrownBy(() => createSimulator({ seed: Object.create(null) as never })), 'seed')
  })

  it('errorEnvelope reads null options as none, as the presets do, instead of a TypeError reading message', () => {
    expect(errorEnvelope(404, null)).toEqual(errorEnvelope(404))
    expectSimulatorError(thrownBy(() => errorEnvelope(404, 'x' as never)), 'options')
    expectSimulatorError(thrownBy(() => errorEnvelope(42.5)), 'status')
  })

  it('a wall-time function that answers NaN is refused naming clock, or leaves a clock the simulator can export', () => {
    expectRefusedOrAccepted(() => createSimulator({ world: 'empty', clock: () => Number.NaN }), /^clock$/, (result) => {
      expect(() => JSON.stringify((result as Sim).exportWorld())).not.toThrow()
    })
  })

  it('formatTimestamp refuses NaN naming ms, instead of a RangeError from Date', () => {
    expectSimulatorError(thrownBy(() => formatTimestamp(Number.NaN)), 'ms')
  })

  it('maskSecret refuses null naming secret, instead of a TypeError from startsWith', () => {
    expectSimulatorError(thrownBy(() => maskSecret(null as never)), 'secret')
  })

  it('estimateCost and compiled cost refuse a BigInt token count as a PricingError about usage', () => {
    const usage = { promptTokens: 5n, completionTokens: 1 }
    for (const act of [() => estimateCost({ prompt: '0.000001', completion: '0.000002' }, usage as never, { at: 0 }), () => compilePricing(PRICING as never).cost(usage as never, { at: 0 })]) {
      const error = thrownBy(act)
      if (!(error instanceof PricingError)) throw new Error(`expected a PricingError about usage, got ${describeThrown(error)}`)
      expect(error.argument).toBe('usage')
    }
  })

  it('validatePricing reports overrides with a hole, which compilePricing then refuses as a PricingError', () => {
    const pricing = { prompt: '0.000001', completion: '0.000002', overrides: withHole([{ min_prompt_tokens: 10, prompt: '0.000002' }, { min_prompt_tokens: 20, prompt: '0.000003' }], 0) }
    expect(validatePricing(pricing).length, 'validatePricing reports the hole').toBeGreaterThan(0)
    const error = thrownBy(() => compilePricing(pricing as never))
    if (!(error instanceof PricingError)) throw new Error(`expected a PricingError about pricing, got ${describeThrown(error)}`)
    expect(error.argument).toBe('pricing')
  })

  it('a list with a hole is refused by name, or stored so that the export loads again', () => {
    const reloads = (s: Sim) => () => expect(validateWorld(JSON.parse(JSON.stringify(s.exportWorld())))).toEqual([])
    const videos = fresh()
    expectRefusedOrAccepted(() => videos.videoModels.create({ id: 'fuzz/video', supported_frame_images: withHole(['first_frame', 'last_frame', 'first_frame'], 1) }), /^supported_frame_images/, reloads(videos))
    const models = fresh()
    expectRefusedOrAccepted(
      () => models.models.create({ id: 'fuzz/model', endpoints: [{ supported_parameters: withHole(['max_tokens', 'temperature', 'top_p'], 1) }] }),
      /^endpoints\[0\]\.supported_parameters/,
      reloads(models),
    )
  })


  it('sim.keys.update names a change it does not know by a non-empty argument, even when its name is empty', () => {
    const error = thrownBy(() => fresh().keys.update(H.apiKeyHash, { '': 'x' } as never))
    if (!(error instanceof SimulatorError)) throw new Error(`expected a SimulatorError, got ${describeThrown(error)}`)
    expect(error.argument, error.message).toBeTruthy()
  })

  it('the unknown-user error names the userId argument in its message', () => {
    const error = thrownBy(() => fresh().keys.create({ userId: 'user_nobody' }))
    expectSimulatorError(error, 'userId')
  })

  it('toResponse refuses a value that is not a response naming response, instead of calling it a "never" fault', () => {
    for (const value of [{}, [], null]) expectSimulatorError(thrownBy(() => toResponse(value as never)), 'response')
  })

  it('toResponse refuses a null method naming method, instead of a TypeError from toUpperCase', () => {
    const response = { status: 200, headers: {}, type: 'json', body: {} } as const
    expectSimulatorError(thrownBy(() => toResponse(response, null as never)), 'method')
  })

  it('createHandlers refuses a BigInt baseUrl naming baseUrl, instead of failing to print it', () => {
    expectSimulatorError(thrownBy(() => createHandlers(fresh(), { baseUrl: 2n as never })), 'baseUrl')
  })

  it('the fixture generators refuse what they cannot use with a SimulatorError, never a crash', () => {
    const attempts: readonly (readonly [string, () => unknown])[] = [
      ['fakeApiKey({ seed() {} })', () => fakeApiKey({ seed() {} } as never)],
      ['fakeModel({ seed: 1 }, 2n)', () => fakeModel({ seed: 1 }, 2n as never)],
      ['fakeEndpoint({ seed: 1 }, { model_name: null })', () => fakeEndpoint({ seed: 1 }, { model_name: null } as never)],
      ['fakeWorkspace({ seed: 1 }, { name: {} })', () => fakeWorkspace({ seed: 1 }, { name: {} } as never)],
      ['fakeFile({ seed: 1 }, { filename: {} })', () => fakeFile({ seed: 1 }, { filename: {} } as never)],
      ['fakeModel({ seed: 1 }, { id: {} })', () => fakeModel({ seed: 1 }, { id: {} } as never)],
      ['fakeApiKey({ seed: 1 }, { usage_weekly: Object.create(null) })', () => fakeApiKey({ seed: 1 }, { usage_weekly: Object.create(null) } as never)],
    ]
    const crashes: string[] = []
    for (const [label, act] of attempts) {
      try {
        act()
      } catch (error) {
        if (!(error instanceof SimulatorError && error.argument)) crashes.push(`${label}: ${describeThrown(error).split('\n')[0]}`)
      }
    }
    expect(crashes).toEqual([])
  })
})
