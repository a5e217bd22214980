// Fuzz campaigns through sim.handle: random worlds (some with hostile additions), rate limits,
// faults and latency, and hostile requests from requests.ts, every answer held to checkResponse.
// Shared by wire-fuzz.test.ts (20,000 requests in CI, a quarter locally) and run.ts (`npm run fuzz`, 200,000 and more).
// Everything is derived from (seed, kind, world index), so a violation replays from its line.
import fc from 'fast-check'
import { world } from '../../src/arbitraries/index.js'
import { generateWorld } from '../../src/fixtures/index.js'
import {
  createSimulator,
  OPERATION_NAMES,
  SimulatorError,
  type FaultRule,
  type LatencyRule,
  type RateLimit,
  type Simulator,
  type WorldKey,
  type WorldSpec,
} from '../../src/index.js'
import {
  type CheckContext,
  type SentRequest,
  type WorldView,
  checkResponse,
  operationOf,
  WRITES,
  describeRequest,
  hostileRequest,
  isFuzzRequest,
  malformedSimRequest,
  materialise,
  observeSim,
  render,
  summarise,
  toSimRequest,
  viewOf,
} from './requests.js'
import { prng } from '../../benchmarks/support.js'

/**
 * - plain: no controls; the world must not change.
 * - rate-limited: a default rate limit (sane or extreme), keys with their own, the clock moving.
 * - faulted: random fault rules (hostile responses included), no rate limit; the world must not change.
 * - chaos: faults, a rate limit, latency moving the clock by up to 24 days a request.
 * - malformed: request objects that break the SimRequest type (null, proxies, numbers...).
 */
export const WORLD_KINDS = ['plain', 'rate-limited', 'faulted', 'chaos', 'malformed'] as const
export type WorldKind = (typeof WORLD_KINDS)[number]

/** The seed of the default run: fixed, so that CI is deterministic; FUZZ_SEED overrides it. */
export const DEFAULT_SEED = 20_260_302

/** The seed to run with: FUZZ_SEED when set (a failure prints it), else `fallback`. */
export function seedFromEnv(fallback: number): number {
  const raw = process.env['FUZZ_SEED']
  if (raw === undefined || raw === '') return fallback
  const seed = Number(raw)
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, got ${JSON.stringify(raw)}`)
  return seed
}

/** A 32-bit seed of its own for each (seed, kind, world, purpose). */
export function mix(...parts: number[]): number {
  let h = 0x811c9dc5
  for (const part of parts) {
    for (const byte of String(part)) {
      h ^= byte.charCodeAt(0)
      h = Math.imul(h, 0x01000193) >>> 0
    }
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0
  }
  return h | 0
}

/** A small seeded stream (mulberry32) for clock steps. */
const stream = prng

// ---------------------------------------------------------------------------------------------
// Worlds and their controls
// ---------------------------------------------------------------------------------------------

/** The secret of the key added with a secret so short that a label of 3 + 4 characters shows it whole. */
export const SHORT_SECRET = 'sk-or-v1-Qz'
/** A management key whose secret holds characters that mean something in URLs and headers. */
export const HOSTILE_SECRET = 'QZ/%zz?#é&=;x'
/** The message of the oracle fault: a rule with no timing, so it must answer every request it matches. */
export const ORACLE_MESSAGE = 'fuzz oracle fault'
const ORACLE_STATUS = 418

/** File names that need care in content-disposition: quotes, backslashes, `'()*`, non-ASCII. */
const HOSTILE_FILENAMES = [
  "report (final)'s*.txt",
  "résumé (v2)'s*.pdf",
  '"quoted".txt',
  'back\\slash.txt',
  '日本語 データ.csv',
  'emoji 🎉 party.json',
  'semi;colon=equals,comma.txt',
  '%41%zz.txt',
  '\t tab lead.txt',
  'ascii-only_name-1.bin',
]

export interface WorldSetup {
  seed: number
  kind: WorldKind
  index: number
  /** How the base world was made, as code. */
  source: string
  spec: WorldSpec<object>
  /** What was added to the base world. */
  extras: string[]
  rateLimit: RateLimit | null
  /** Fault rules to add, in order (the oracle first when there is one). */
  faults: FaultRule[]
  latency: LatencyRule[]
  /** Move the clock by a random step before each request. */
  clockSteps: boolean
  /** Compare `exportWorld()` before and after each batch of requests. */
  stateCheck: boolean
}

const RATE_LIMITS: readonly RateLimit[] = [
  { requests: 5, intervalMs: 1_000 },
  { requests: 20, intervalMs: 60_000 },
  { requests: 1, intervalMs: 3_600_000 },
  { requests: 3, intervalMs: 0.5 },
  // Extreme ones: Retry-After past 1e21 seconds prints in exponent notation, and requests/intervalMs
  // overflows to Infinity (0 * Infinity is NaN). A simulator may refuse them; if it takes them, its
  // answers must still be right.
  { requests: 1, intervalMs: 1e300 },
  { requests: 1, intervalMs: Number.MAX_VALUE },
  { requests: 2 ** 53 - 1, intervalMs: 1e-300 },
  { requests: 1, intervalMs: Number.MIN_VALUE },
]

const MESSAGES: readonly (string | undefined)[] = [undefined, undefined, 'Upstream exploded', '', ' ', 'é🎉 unicode', 'x'.repeat(10_000), 'line\nbreak']
/** Factories, so that no two rules share (and no rule mutates) one object. */
const METADATA: readonly (() => unknown)[] = [
  () => undefined,
  () => undefined,
  () => ({ provider: 'openai', attempt: 2 }),
  () => ({ nested: { deep: [1, 'x', null, { a: true }] } }),
  () => [],
  () => ['a'],
  () => 'text',
  () => 42,
  () => null,
  () => ({ n: Number.NaN, inf: Number.POSITIVE_INFINITY }),
  () => ({ big: 10n }),
  () => ({ when: new Date(0) }),
  () => ({ fn: () => 1 }),
  () => {
    const cyclic: Record<string, unknown> = { a: 1 }
    cyclic['self'] = cyclic
    return cyclic
  },
  () => ({ toJSON: () => { throw new Error('toJSON throws') } }),
  () => Object.assign(Object.create(null) as object, { plain: 'no prototype' }),
]
const HEADERS: readonly (() => unknown)[] = [
  () => undefined,
  () => undefined,
  () => ({ 'retry-after': '5' }),
  () => ({ 'x-fuzz': 'ok' }),
  () => ({ 'content-type': 'text/plain' }),
  () => ({ 'Content-Type': 'text/html' }),
  () => ({ 'content-length': '1' }),
  () => ({ 'bad header': 'x' }),
  () => ({ '': 'empty name' }),
  () => ({ 'x-crlf': 'a\r\nSet-Cookie: injected=1' }),
  () => ({ 'x-nul': 'a\u0000b' }),
  () => ({ 'x-number': 5 }),
  () => ({ 'x-null': null }),
  () => ({ 'x-unicode': '🎉' }),
  () => ({ 'x-latin1': 'café' }),
  () => [['x-array', 'value']],
  () => 'x-string: value',
  () => ({ 'retry-after': '30', 'Retry-After': '60' }),
]

const weighted = <T>(weight: number, arbitrary: fc.Arbitrary<T>): fc.WeightedArbitrary<T> => ({ weight, arbitrary })

function faultRules(view: WorldView, wire: boolean): fc.Arbitrary<FaultRule[]> {
  // Mostly one hostile part a rule: a rule refused for its metadata would hide what its headers do.
  const status = fc.oneof(fc.constantFrom(400, 401, 403, 404, 429, 500, 502, 503, 599), fc.integer({ min: 400, max: 599 }))
  const pick = <T>(factories: readonly (() => T)[]): fc.Arbitrary<() => T> => fc.constantFrom(...factories)
  const respond = fc.oneof(
    weighted(
      8,
      fc
        .tuple(status, fc.constantFrom('message', 'metadata', 'headers', 'all', 'none'), fc.constantFrom(...MESSAGES), pick(METADATA), pick(HEADERS))
        .map(([code, hostile, message, metadata, headers]) => {
          const r: Record<string, unknown> = { status: code }
          if ((hostile === 'message' || hostile === 'all') && message !== undefined) r['message'] = message
          const m = hostile === 'metadata' || hostile === 'all' ? metadata() : undefined
          if (m !== undefined) r['metadata'] = m
          const h = hostile === 'headers' || hostile === 'all' ? headers() : undefined
          if (h !== undefined) r['headers'] = h
          return r as FaultRule['respond']
        }),
    ),
    weighted(1, fc.constant<FaultRule['respond']>('network-error')),
    weighted(wire ? 0 : 1, fc.constant<FaultRule['respond']>('never')),
  )
  const hashes = view.keys.map((k) => k.hash).filter((hash) => hash !== '')
  const operation = fc.oneof(fc.constantFrom(...OPERATION_NAMES), fc.subarray([...OPERATION_NAMES], { minLength: 1 }))
  const path = fc.oneof(
    fc.constantFrom<string | RegExp>('*', '/keys*', '*content', '/models/*', '/keys/*', '*%zz*', '(', '[', '*.*', '/workspaces/?*'),
    fc.constantFrom('keys', '^/files/.*/content$', 'KEYS', '.', '(?:)', '^/workspaces').chain((source) => fc.constantFrom('', 'i', 'g', 'y', 'gy', 'u', 'm').map((flags) => new RegExp(source, flags))),
  )
  const keyHash = hashes.length === 0 ? fc.constant('0'.repeat(64)) : fc.constantFrom(...hashes, 'f'.repeat(64))
  // Mostly one criterion, so that rules match often enough for their answers to be seen.
  const match = fc.oneof(
    weighted(4, fc.constant({})),
    weighted(3, operation.map((operation) => ({ operation }))),
    weighted(3, path.map((path) => ({ path }))),
    weighted(1, keyHash.map((keyHash) => ({ keyHash }))),
    weighted(1, fc.record({ operation, path, keyHash })),
  )
  const probability = fc.constantFrom(0.02, 0.1, 0.2, 0.3)
  // A rule that fires on every request it matches would hide the rest of the API: most get only a chance.
  const timing = fc.oneof(
    weighted(6, probability.map((p) => ({ probability: p }))),
    weighted(2, fc.record({ times: fc.integer({ min: 1, max: 100 }), probability })),
    weighted(1, fc.record({ fromCall: fc.integer({ min: 1, max: 30 }), probability })),
    weighted(1, fc.record({ fromCall: fc.integer({ min: 1, max: 30 }), once: fc.constant(true) })),
    weighted(1, fc.constantFrom<Partial<FaultRule>>({ probability: 1.5 }, { probability: -1 }, { probability: Number.NaN }, { times: 0 }, { times: 1.5 }, { once: true, times: 3 }, { fromCall: 0 })),
  )
  const rule = fc.tuple(respond, match, timing).map(([r, m, t]): FaultRule => ({ ...m, ...t, respond: r }))
  return fc.array(rule, { minLength: 1, maxLength: 4 })
}

/**
 * One rule for each hostile message, metadata and headers value on its own, each firing on a
 * request in 250: every world with faults meets every one of them, whatever the random rules are.
 */
function probes(seed: number): FaultRule[] {
  const statuses = [400, 401, 403, 404, 418, 429, 500, 502, 503, 599]
  const status = (i: number): number => statuses[((seed >>> 0) + i) % statuses.length] as number
  const rules: FaultRule[] = []
  const add = (part: Record<string, unknown>): void => {
    rules.push({ name: `probe-${rules.length + 1}`, probability: 0.004, respond: { status: status(rules.length), ...part } as FaultRule['respond'] })
  }
  for (const message of MESSAGES) if (message !== undefined) add({ message })
  for (const metadata of METADATA) {
    const m = metadata()
    if (m !== undefined) add({ metadata: m })
  }
  for (const headers of HEADERS) {
    const h = headers()
    if (h !== undefined) add({ headers: h })
  }
  return rules
}

/** A world spec with the hostile additions: short and URL-hostile secrets, hostile file names, key rate limits. */
function withExtras(spec: WorldSpec<object>, flags: { shortSecret: boolean; hostileSecret: boolean; files: boolean; keyRateLimits: boolean }): { spec: WorldSpec<object>; extras: string[] } {
  const owner = (spec.users ?? [])[0]?.id
  if (owner === undefined) return { spec, extras: [] }
  const keys: WorldKey[] = structuredClone(spec.keys ?? [])
  const files = structuredClone(spec.files ?? [])
  const extras: string[] = []
  if (flags.shortSecret) {
    keys.push({ secret: SHORT_SECRET, userId: owner, name: 'Short secret' })
    extras.push(`a regular key of ${owner} with secret ${JSON.stringify(SHORT_SECRET)}`)
  }
  if (flags.hostileSecret) {
    keys.push({ secret: HOSTILE_SECRET, userId: owner, management: true, name: 'Hostile secret' })
    extras.push(`a management key of ${owner} with secret ${JSON.stringify(HOSTILE_SECRET)}`)
  }
  if (flags.files) {
    HOSTILE_FILENAMES.forEach((filename, i) => files.push({ id: `fuzz_name_${i}`, userId: owner, origin: 'server', filename, text: `fuzz file ${i}` }))
    files.push({ id: 'fuzz_upload', userId: owner, origin: 'upload', filename: 'uploaded.txt', text: 'uploaded' })
    extras.push(`server files fuzz_name_0..${HOSTILE_FILENAMES.length - 1} of ${owner} named ${JSON.stringify(HOSTILE_FILENAMES)}, and an upload`)
  }
  if (flags.keyRateLimits) {
    // Every limit, sane and extreme, on some key (a third keep the default), so each is hit by its callers.
    keys.forEach((key, i) => {
      if (i % 3 !== 2) key.rateLimit = { ...(RATE_LIMITS[i % RATE_LIMITS.length] as RateLimit) }
    })
    extras.push(`own rate limits on two keys in three, in turn: ${render(RATE_LIMITS)}`)
  }
  return { spec: { ...spec, keys, files }, extras }
}

/** The setup of world `index` of `kind` in the campaign of `seed`: everything but the requests. */
export function worldSetup(seed: number, kind: WorldKind, index: number, options: { wire?: boolean } = {}): WorldSetup {
  const kindNo = WORLD_KINDS.indexOf(kind)
  const own = mix(seed, kindNo, index)
  const [choice] = fc.sample(
    fc.record({
      generated: fc.boolean(),
      worldSeed: fc.integer({ min: 0, max: 1_000_000 }),
      shortSecret: fc.boolean(),
      hostileSecret: fc.boolean(),
      files: fc.boolean(),
      keyRateLimits: fc.boolean(),
      rateLimit: fc.constantFrom(...RATE_LIMITS),
      oracle: fc.option(fc.constantFrom('', 'y', 'g', 'gy', 'i', 'iy', 'u', 'm', 'd'), { nil: undefined }),
    }),
    { seed: own, numRuns: 1 },
  )
  if (choice === undefined) throw new Error('fc.sample gave nothing')
  let base: WorldSpec<object>
  let source: string
  if (choice.generated) {
    base = generateWorld({ seed: choice.worldSeed, size: 'small' })
    source = `generateWorld({ seed: ${choice.worldSeed}, size: 'small' })`
  } else {
    // The richest of ten: the first samples of an arbitrary are its smallest.
    const worlds = fc.sample(world({ maxUsers: 3, maxKeys: 8, maxFiles: 4 }), { seed: choice.worldSeed, numRuns: 10 })
    let best = 0
    worlds.forEach((w, i) => {
      if ((w.keys ?? []).length > ((worlds[best] as WorldSpec<object>).keys ?? []).length) best = i
    })
    base = worlds[best] as WorldSpec<object>
    source = `fc.sample(world({ maxUsers: 3, maxKeys: 8, maxFiles: 4 }), { seed: ${choice.worldSeed}, numRuns: 10 })[${best}]`
  }
  const limited = kind === 'rate-limited' || kind === 'chaos'
  const faulted = kind === 'faulted' || kind === 'chaos'
  const { spec, extras } = withExtras(base, {
    shortSecret: choice.shortSecret,
    hostileSecret: choice.hostileSecret,
    files: choice.files || kind === 'plain',
    keyRateLimits: kind === 'rate-limited' || (kind === 'chaos' && choice.keyRateLimits),
  })
  const faults: FaultRule[] = []
  if (faulted) {
    if (choice.oracle !== undefined) faults.push({ name: 'oracle', path: new RegExp('^/videos', choice.oracle), respond: { status: ORACLE_STATUS, message: ORACLE_MESSAGE } })
    const view = viewOf(spec)
    const [rules] = fc.sample(faultRules(view, options.wire === true), { seed: mix(own, 1), numRuns: 1 })
    faults.push(...(rules ?? []), ...probes(own))
  }
  return {
    seed,
    kind,
    index,
    source,
    spec,
    extras,
    rateLimit: limited ? choice.rateLimit : null,
    faults,
    latency: kind === 'chaos' ? [{ ms: [0, 3_000] }, { operation: 'listKeys', ms: 2 ** 31 - 1 }] : [],
    clockSteps: limited,
    stateCheck: kind === 'plain' || kind === 'faulted',
  }
}

/** Readable lines of a setup, for a failure report. */
export function describeSetup(setup: WorldSetup): string {
  const lines = [`world ${setup.kind}#${setup.index} of seed ${setup.seed}: ${setup.source}`]
  for (const extra of setup.extras) lines.push(`  + ${extra}`)
  if (setup.rateLimit) lines.push(`  rateLimit: ${render(setup.rateLimit)}`)
  for (const rule of setup.faults) lines.push(`  sim.faults.add(${render(rule).slice(0, 400)})`)
  for (const rule of setup.latency) lines.push(`  sim.latency.set(${render(rule)})`)
  if (setup.clockSteps) lines.push('  the clock moves 0 ms to 60 s before each request')
  return lines.join('\n')
}

/** A simulator set up as `setup` says, with what it refused (a refusal is fine; a crash is not). */
export interface Armed {
  sim: Simulator<object>
  view: WorldView
  notes: string[]
  /** Problems of the setup itself: a control that threw something other than a SimulatorError. */
  problems: string[]
  faultStatuses: Set<number>
  dropsAllowed: boolean
  oracle: RegExp | null
}

export function arm(setup: WorldSetup): Armed {
  const notes: string[] = []
  const problems: string[] = []
  // A simulator may refuse extreme rate limits (a refusal is fine); the world runs with the ones it takes.
  const takes = (limit: RateLimit): boolean => {
    try {
      createSimulator({ world: 'empty', rateLimit: limit })
      return true
    } catch (error) {
      if (!(error instanceof SimulatorError)) throw error
      notes.push(`refused rateLimit ${render(limit)}: ${error.message.slice(0, 160)}`)
      return false
    }
  }
  const keys = (setup.spec.keys ?? []).map(({ rateLimit, ...key }) => (rateLimit === undefined || rateLimit === null || !takes(rateLimit) ? key : { ...key, rateLimit }))
  const rateLimit = setup.rateLimit === null || takes(setup.rateLimit) ? setup.rateLimit : { requests: 5, intervalMs: 1_000 }
  const sim = createSimulator({ world: { ...setup.spec, keys }, rateLimit, journalLimit: 16 }) as unknown as Simulator<object>
  const faultStatuses = new Set<number>()
  let dropsAllowed = false
  let oracle: RegExp | null = null
  for (const rule of setup.faults) {
    try {
      sim.faults.add(rule)
      if (rule.respond === 'network-error' || rule.respond === 'never') dropsAllowed = true
      else faultStatuses.add(rule.respond.status)
      if (rule.name === 'oracle' && rule.path instanceof RegExp) oracle = rule.path
    } catch (error) {
      if (error instanceof SimulatorError) notes.push(`refused ${render(rule).slice(0, 200)}: ${error.message.slice(0, 200)}`)
      else problems.push(`faults.add threw something other than a SimulatorError: ${String(error)} for ${render(rule).slice(0, 200)}`)
    }
  }
  for (const rule of setup.latency) sim.latency.set(rule)
  // The view reads the world back with every generated id written out.
  return { sim, view: viewOf(sim.exportWorld()), notes, problems, faultStatuses, dropsAllowed, oracle }
}

/** The requests of one world: prefix-stable, so a shorter run replays the start of a longer one. */
export function requestsOf(setup: WorldSetup, view: WorldView, count: number): unknown[] {
  const seed = mix(setup.seed, WORLD_KINDS.indexOf(setup.kind), setup.index, 2)
  if (setup.kind === 'malformed') return fc.sample(malformedSimRequest(view), { seed, numRuns: count }).map(materialise)
  return fc.sample(hostileRequest(view), { seed, numRuns: count })
}

// ---------------------------------------------------------------------------------------------
// Running and reporting
// ---------------------------------------------------------------------------------------------

export interface Violation {
  kind: WorldKind
  world: number
  request: number
  requestText: string
  response: string
  problems: string[]
}

/** Violations by kind of problem: counts, and the first few of each, so a long run stays readable. */
export class ViolationLog {
  readonly byKind = new Map<string, { count: number; examples: Violation[] }>()
  total = 0
  requests = 0

  constructor(private readonly examplesPerKind = 3) {}

  add(violation: Violation): void {
    this.total++
    for (const problem of violation.problems) {
      const kind = problemKind(problem)
      const entry = this.byKind.get(kind) ?? { count: 0, examples: [] }
      entry.count++
      if (entry.examples.length < this.examplesPerKind) entry.examples.push(violation)
      this.byKind.set(kind, entry)
    }
  }

  /** The report: every kind of problem with its count, examples and the line that replays each; then the worlds they ran in. */
  format(seed: number, setups: ReadonlyMap<string, WorldSetup>, replay: (e: Violation) => string = (e) => `FUZZ_SEED=${seed} FUZZ_REPLAY=${e.kind}:${e.world}:${e.request} npx tsx test/fuzz/run.ts`): string {
    const lines = [`${this.total} of ${this.requests} requests broke the wire contract (seed ${seed}; FUZZ_SEED=${seed} replays the run).`]
    const worlds = new Set<string>()
    for (const [kind, { count, examples }] of [...this.byKind].sort((a, b) => b[1].count - a[1].count)) {
      lines.push('', `[${count}x] ${kind}`)
      for (const e of examples) {
        worlds.add(`${e.kind}:${e.world}`)
        lines.push(`  - in world ${e.kind}#${e.world}, request #${e.request}: ${e.requestText.length > 600 ? `${e.requestText.slice(0, 600)}...` : e.requestText}`)
        lines.push(`    answer: ${e.response}`)
        lines.push(`    problems: ${e.problems.filter((p) => problemKind(p) === kind).join(' | ').slice(0, 600)}`)
        lines.push(`    replay: ${replay(e)}`)
      }
    }
    if (worlds.size > 0) lines.push('', 'Worlds:')
    for (const id of worlds) {
      const setup = setups.get(id)
      if (setup) lines.push(describeSetup(setup))
    }
    return lines.join('\n')
  }
}

/** A problem's kind: its text before the first `: `. */
export function problemKind(problem: string): string {
  const colon = problem.indexOf(': ')
  return colon === -1 ? problem : problem.slice(0, colon)
}

/** The request as it reached the router, strings only (a malformed request's fields coerced as far as they go). */
export function sentOf(request: unknown): SentRequest {
  if (isFuzzRequest(request)) return { method: request.method, path: request.path, query: request.query, authorization: request.authorization }
  const field = (name: string): unknown => {
    try {
      return (request as Record<string, unknown>)[name]
    } catch {
      return undefined
    }
  }
  const text = (value: unknown): string => {
    try {
      return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value)
    } catch {
      return ''
    }
  }
  const authorization = field('authorization')
  return {
    method: text(field('method')),
    path: text(field('path')),
    query: text(field('query')).replace(/^\?/, ''),
    authorization: typeof authorization === 'string' ? authorization : undefined,
  }
}

const STATE_BATCH = 10

/** The first of `requests[from, to)` after which `exportWorld()` differs, replayed on a fresh simulator. */
function locateChange(setup: WorldSetup, requests: readonly unknown[], from: number, to: number): { index: number; diff: string } | null {
  const { sim } = arm(setup)
  const step = stream(mix(setup.seed, setup.index, 3))
  for (let i = 0; i < from; i++) {
    if (setup.clockSteps) sim.clock.advance(clockStep(step))
    safeHandle(sim, requests[i])
  }
  let before = JSON.stringify(sim.exportWorld())
  for (let i = from; i < to; i++) {
    if (setup.clockSteps) sim.clock.advance(clockStep(step))
    safeHandle(sim, requests[i])
    const after = JSON.stringify(sim.exportWorld())
    if (after !== before) {
      let at = 0
      while (at < before.length && before[at] === after[at]) at++
      return { index: i, diff: `before ...${before.slice(Math.max(0, at - 60), at + 60)}... after ...${after.slice(Math.max(0, at - 60), at + 60)}...` }
    }
    before = after
  }
  return null
}

function safeHandle(sim: Simulator<object>, request: unknown): unknown {
  try {
    return sim.handle((isFuzzRequest(request) ? toSimRequest(request) : request) as never)
  } catch (error) {
    return error
  }
}

function clockStep(next: () => number): number {
  const r = next()
  return r < 0.6 ? 0 : r < 0.9 ? Math.floor(next() * 1_000) : 60_000
}

/**
 * Runs `count` requests of one world through `sim.handle` and checks each answer; violations go to
 * `log`. With `verbose`, the last request is printed whole with its answer (a replay). Returns the
 * problems of the last request.
 */
export function runWorld(setup: WorldSetup, count: number, log: ViolationLog, verbose?: (line: string) => void): string[] {
  const armed = arm(setup)
  const { sim, view } = armed
  for (const problem of armed.problems) log.add({ kind: setup.kind, world: setup.index, request: -1, requestText: '(setting up the world)', response: '', problems: [problem] })
  const requests = requestsOf(setup, view, count)
  const step = stream(mix(setup.seed, setup.index, 3))
  const ctx: CheckContext = {
    view,
    nowMs: 0,
    faultStatuses: armed.faultStatuses,
    dropsAllowed: armed.dropsAllowed,
    ...(setup.kind === 'malformed' && { extraStatuses: new Set([500]) }),
  }
  let baseline = setup.stateCheck ? JSON.stringify(sim.exportWorld()) : ''
  // The first request of the stretch the next state check covers.
  let batchStart = 0
  /** Reports a change of the world made by one of requests[batchStart, end), and starts a new stretch at `end`. */
  const checkState = (end: number): void => {
    const now = JSON.stringify(sim.exportWorld())
    if (now !== baseline) {
      const found = locateChange(setup, requests, batchStart, end)
      const at = found?.index ?? end - 1
      log.add({
        kind: setup.kind,
        world: setup.index,
        request: at,
        requestText: describeRequest(requests[at]),
        response: found?.diff ?? '(the change did not replay)',
        problems: [`world changed by a request: exportWorld() differs after request #${at}`],
      })
      baseline = now
    }
    batchStart = end
  }
  let last: string[] = []
  for (let i = 0; i < requests.length; i++) {
    const request = requests[i]
    if (setup.clockSteps) sim.clock.advance(clockStep(step))
    ctx.nowMs = sim.clock.now().getTime()
    const sent = sentOf(request)
    // A documented write may change the world: the requests before it are checked first, and its own change becomes the baseline.
    const writes = setup.stateCheck && isFuzzRequest(request) && WRITES.has(operationOf(sent.method, sent.path)?.name as never)
    if (writes && i > batchStart) checkState(i)
    let problems: string[]
    let response: string
    let answer: unknown
    let threw = false
    try {
      answer = sim.handle((isFuzzRequest(request) ? toSimRequest(request) : request) as never)
    } catch (error) {
      threw = true
      answer = error
    }
    if (threw) {
      problems = [`handle threw: ${answer instanceof Error ? `${answer.name}: ${answer.message}` : render(answer)}`]
      response = '(threw)'
    } else {
      const observed = observeSim(answer)
      problems = checkResponse(ctx, sent, observed)
      response = summarise(observed)
      if (armed.oracle !== null && isFuzzRequest(request)) {
        const path = request.path.startsWith('/') ? request.path : `/${request.path}`
        // A rule with no timing answers every request it matches: matching is a fresh test of the pattern each time.
        const expected = new RegExp(armed.oracle.source, armed.oracle.flags).test(path)
        const body = observed.body.kind === 'json' ? (observed.body.value as { error?: { message?: unknown } } | null) : null
        const fired = observed.status === ORACLE_STATUS && body?.error?.message === ORACLE_MESSAGE
        if (expected && !fired) problems.push(`fault did not fire on a request it matches: /${armed.oracle.source}/${armed.oracle.flags} matches ${JSON.stringify(path.slice(0, 80))}`)
        if (!expected && fired) problems.push(`fault fired on a request it does not match: /${armed.oracle.source}/${armed.oracle.flags} and ${JSON.stringify(path.slice(0, 80))}`)
      }
    }
    if (writes && !threw && ((answer as { status?: number }).status === 200 || (answer as { status?: number }).status === 201)) {
      baseline = JSON.stringify(sim.exportWorld())
      batchStart = i + 1
    } else if (setup.stateCheck && (i + 1 - batchStart >= STATE_BATCH || i === requests.length - 1)) checkState(i + 1)
    log.requests++
    last = problems
    if (problems.length > 0) log.add({ kind: setup.kind, world: setup.index, request: i, requestText: describeRequest(request), response, problems })
    if (verbose && i === requests.length - 1) {
      verbose(describeSetup(setup))
      for (const note of armed.notes) verbose(`  (${note})`)
      verbose(`request #${i}: ${describeRequest(request)}`)
      verbose(`answer: ${threw ? `threw ${String(answer)}` : summarise(observeSim(answer))}`)
      verbose(problems.length === 0 ? 'no violation' : `violations:\n  ${problems.join('\n  ')}`)
    }
  }
  return last
}
