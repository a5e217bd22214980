// Model-based test (fast-check `fc.commands` + `fc.modelRun`): random sequences of key creation,
// disabling, usage records and clock moves, with every read checked against a plain model.
//
// The model below is written independently of src/: keys with their usage records, disabled flags,
// limits and creation instants, plus the clock in epoch milliseconds. Its window arithmetic (UTC
// day, ISO week from Monday, calendar month) is its own; nothing is imported from src/core/usage.ts.
// Amounts are compared in integer units of 1e-10 USD, so no float tolerance hides an off-by-one.
//
// Replaying a failure: fast-check prints `{ seed: ..., path: "...", endOnFailure: true }` and a
// counterexample `[<simulator seed>, Command(...), ... /*replayPath="..."*/]`. To run only that case,
// add the printed values to the options of fc.assert below:
//   { numRuns: 60, verbose: true, seed: <seed>, path: '<path>', endOnFailure: true }
// and, to replay the shrunk command sequence directly, also pass `replayPath: '<replayPath>'` next to
// `maxCommands` in the fc.commands(...) constraints. Commands print what they were generated with;
// instants that depend on the clock at run time (`at justBefore week start`, `AdvanceClock(toMonday
// ...)`) are derived from the model's clock when they run, so the printed sequence is deterministic.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  type ApiKey,
  type CreateKeyOptions,
  type EmptyWorld,
  type ModelWithEndpoints,
  type SimResponse,
  type Simulator,
  type VideoModel,
  type Workspace,
  createSimulator,
} from '../src/index.js'
import { runs } from './support/runs.js'

// ---------------------------------------------------------------------------------------------
// Calendar arithmetic of the model (UTC, epoch milliseconds).

const HOUR = 3_600_000
const DAY = 24 * HOUR
const MAX_ADVANCE = 9 * DAY

const utcDayStart = (t: number): number => Math.floor(t / DAY) * DAY
/** Monday 00:00 UTC of the ISO week holding `t`. */
const isoWeekStart = (t: number): number => {
  const day = utcDayStart(t)
  const weekday = new Date(day).getUTCDay() // 0 = Sunday
  return day - ((weekday + 6) % 7) * DAY
}
const monthStart = (t: number): number => {
  const d = new Date(t)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
}
const nextMonthStart = (t: number): number => {
  const d = new Date(t)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
}
const iso = (t: number): string => new Date(t).toISOString()
/** The service's timestamp format: microseconds and an explicit offset. */
const wireTimestamp = (t: number): string => `${iso(t).slice(0, -1)}000+00:00`
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/

/** USD on the wire to integer units of 1e-10 USD. */
const UNITS_PER_USD = 1e10
const toUnits = (usd: number | null): number | null => (usd === null ? null : Math.round(usd * UNITS_PER_USD))

// ---------------------------------------------------------------------------------------------
// The model.

type Reset = 'daily' | 'weekly' | 'monthly'

interface UsageEntry {
  at: number
  units: number
  byok: boolean
}

interface KeyModel {
  hash: string
  secret: string
  name: string
  createdAt: number
  disabled: boolean
  /** In units of 1e-10 USD; null: no limit. */
  limit: number | null
  limitReset: Reset | null
  includeByok: boolean
  records: UsageEntry[]
  /** Updated or charged at least once: `updated_at` is set. */
  touched: boolean
}

interface Model {
  now: number
  /** In creation order. */
  keys: KeyModel[]
}

/** The system under test and the fixed things created at setup. */
interface Real {
  sim: Simulator<EmptyWorld>
  userId: string
  workspaceId: string
  admin: { secret: string; hash: string }
  model: ModelWithEndpoints
  video: VideoModel
  workspace: Workspace
  file: { id: string; bytes: Uint8Array; filename: string }
}

const MODEL_ID = 'acme/fast-1'
const FILE_BYTES = new Uint8Array([0, 1, 2, 127, 128, 250, 255, 10, 13])

function pickKey(model: Model, pick: number): KeyModel {
  const key = model.keys[pick % model.keys.length]
  if (key === undefined) throw new Error('pickKey called without keys (check() should have prevented it)')
  return key
}

/** A key's wire record reduced to what the model predicts; amounts in 1e-10 USD units. */
interface KeyView {
  hash: string
  name: string
  label: string
  disabled: boolean
  limit: number | null
  limit_remaining: number | null
  limit_reset: Reset | null
  include_byok_in_limit: boolean
  usage: number | null
  usage_daily: number | null
  usage_weekly: number | null
  usage_monthly: number | null
  byok_usage: number | null
  byok_usage_daily: number | null
  byok_usage_weekly: number | null
  byok_usage_monthly: number | null
  created_at: string
  updated_at: 'a timestamp' | null | string
  expires_at: string | null
  creator_user_id: string | null
  workspace_id: string
}

function viewOf(k: ApiKey): KeyView {
  return {
    hash: k.hash,
    name: k.name,
    label: k.label,
    disabled: k.disabled,
    limit: toUnits(k.limit),
    limit_remaining: toUnits(k.limit_remaining),
    limit_reset: k.limit_reset,
    include_byok_in_limit: k.include_byok_in_limit,
    usage: toUnits(k.usage),
    usage_daily: toUnits(k.usage_daily),
    usage_weekly: toUnits(k.usage_weekly),
    usage_monthly: toUnits(k.usage_monthly),
    byok_usage: toUnits(k.byok_usage),
    byok_usage_daily: toUnits(k.byok_usage_daily),
    byok_usage_weekly: toUnits(k.byok_usage_weekly),
    byok_usage_monthly: toUnits(k.byok_usage_monthly),
    created_at: k.created_at,
    updated_at: k.updated_at === null ? null : TIMESTAMP.test(k.updated_at) ? 'a timestamp' : k.updated_at,
    expires_at: k.expires_at,
    creator_user_id: k.creator_user_id,
    workspace_id: k.workspace_id,
  }
}

const masked = (secret: string): string => `sk-or-v1-${secret.slice(9, 12)}...${secret.slice(-4)}`

interface Sums {
  total: number
  daily: number
  weekly: number
  monthly: number
}

/** What the model says a key's wire record is at the model's now. */
function expectedView(key: KeyModel, model: Model, real: Real): KeyView {
  const now = model.now
  const day = utcDayStart(now)
  const week = isoWeekStart(now)
  const month = monthStart(now)
  const regular: Sums = { total: 0, daily: 0, weekly: 0, monthly: 0 }
  const byok: Sums = { total: 0, daily: 0, weekly: 0, monthly: 0 }
  for (const r of key.records) {
    if (r.at > now) continue // has not happened yet
    const s = r.byok ? byok : regular
    s.total += r.units
    if (r.at >= day) s.daily += r.units
    if (r.at >= week) s.weekly += r.units
    if (r.at >= month) s.monthly += r.units
  }
  let remaining: number | null = null
  if (key.limit !== null) {
    const period: keyof Sums = key.limitReset === 'daily' ? 'daily' : key.limitReset === 'weekly' ? 'weekly' : key.limitReset === 'monthly' ? 'monthly' : 'total'
    const used = regular[period] + (key.includeByok ? byok[period] : 0)
    remaining = Math.max(0, key.limit - used)
  }
  return {
    hash: key.hash,
    name: key.name,
    label: masked(key.secret),
    disabled: key.disabled,
    limit: key.limit,
    limit_remaining: remaining,
    limit_reset: key.limitReset,
    include_byok_in_limit: key.includeByok,
    usage: regular.total,
    usage_daily: regular.daily,
    usage_weekly: regular.weekly,
    usage_monthly: regular.monthly,
    byok_usage: byok.total,
    byok_usage_daily: byok.daily,
    byok_usage_weekly: byok.weekly,
    byok_usage_monthly: byok.monthly,
    created_at: wireTimestamp(key.createdAt),
    updated_at: key.touched ? 'a timestamp' : null,
    expires_at: null,
    creator_user_id: real.userId,
    workspace_id: real.workspaceId,
  }
}

/** GET /keys order: newest created first, then hash ascending. */
function listingOrder(a: KeyModel, b: KeyModel): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt
  return a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0
}

// ---------------------------------------------------------------------------------------------
// Requests.

function get(real: Real, path: string, options: { query?: string; secret?: string | null } = {}): SimResponse {
  return real.sim.handle({
    method: 'GET',
    path,
    query: options.query ?? '',
    authorization: options.secret === undefined || options.secret === null ? null : `Bearer ${options.secret}`,
  })
}

function jsonBody(response: SimResponse): Record<string, unknown> {
  expect(response.type, 'response type').toBe('json')
  expect(response.headers['content-type']).toBe('application/json')
  return response.body as Record<string, unknown>
}

/** The error envelope of DESIGN.md section 3; `userId` undefined means no `user_id` (401). */
function expectError(response: SimResponse, status: number, message: string, userId: string | undefined): void {
  expect(response.status).toBe(status)
  const body = jsonBody(response)
  expect((body['error'] as Record<string, unknown>)['code']).toBe(status)
  expect((body['error'] as Record<string, unknown>)['message']).toBe(message)
  expect(body['user_id']).toBe(userId)
}

/** Who calls a public operation: nobody, the management key, or one of the model's regular keys. */
type Caller = { kind: 'anonymous' } | { kind: 'management' } | { kind: 'regular'; pick: number }

const callerArb: fc.Arbitrary<Caller> = fc.oneof(
  fc.constant<Caller>({ kind: 'anonymous' }),
  fc.constant<Caller>({ kind: 'management' }),
  fc.nat().map((pick): Caller => ({ kind: 'regular', pick })),
)

const callerText = (c: Caller): string => (c.kind === 'regular' ? `regular#${c.pick}` : c.kind)

/** The caller's secret, and whether a disabled key makes every operation 401. */
function resolveCaller(model: Model, real: Real, caller: Caller): { secret: string | null; disabled: boolean; authenticated: boolean } {
  if (caller.kind === 'anonymous') return { secret: null, disabled: false, authenticated: false }
  if (caller.kind === 'management') return { secret: real.admin.secret, disabled: false, authenticated: true }
  const key = pickKey(model, caller.pick)
  return { secret: key.secret, disabled: key.disabled, authenticated: true }
}

// ---------------------------------------------------------------------------------------------
// Commands that change state.

interface CreateKeySpec {
  name: string
  /** undefined: not given; null: explicitly no limit. */
  limitCents: number | null | undefined
  limitReset: Reset | null | undefined
  includeByok: boolean | undefined
  /** Usually one key; sometimes a batch, so that offset=100 has something to skip. */
  count: number
}

class CreateKey implements fc.Command<Model, Real> {
  constructor(readonly spec: CreateKeySpec) {}
  check = (): boolean => true
  run(model: Model, real: Real): void {
    for (let i = 0; i < this.spec.count; i++) {
      const name = this.spec.count === 1 ? this.spec.name : `${this.spec.name} #${i}`
      const options: CreateKeyOptions = { userId: real.userId, name }
      if (this.spec.limitCents !== undefined) options.limit = this.spec.limitCents === null ? null : this.spec.limitCents / 100
      if (this.spec.limitReset !== undefined) options.limitReset = this.spec.limitReset
      if (this.spec.includeByok !== undefined) options.includeByokInLimit = this.spec.includeByok
      const created = real.sim.keys.create(options)
      const key: KeyModel = {
        hash: created.record.hash,
        secret: created.key,
        name,
        createdAt: model.now,
        disabled: false,
        limit: this.spec.limitCents === undefined || this.spec.limitCents === null ? null : this.spec.limitCents * 1e8,
        limitReset: this.spec.limitReset ?? null,
        includeByok: this.spec.includeByok ?? false,
        records: [],
        touched: false,
      }
      expect(model.keys.some((k) => k.hash === key.hash), 'a fresh hash').toBe(false)
      model.keys.push(key)
      expect(viewOf(created.record), 'record returned by keys.create').toEqual(expectedView(key, model, real))
    }
  }
  toString = (): string => `CreateKey(${JSON.stringify(this.spec)})`
}

class SetDisabled implements fc.Command<Model, Real> {
  constructor(
    readonly pick: number,
    readonly disabled: boolean,
  ) {}
  check = (model: Readonly<Model>): boolean => model.keys.length > 0
  run(model: Model, real: Real): void {
    const key = pickKey(model, this.pick)
    const returned = real.sim.keys.update(key.hash, { disabled: this.disabled })
    key.disabled = this.disabled
    key.touched = true
    expect(viewOf(returned), 'record returned by keys.update').toEqual(expectedView(key, model, real))
  }
  toString = (): string => `SetDisabled(key#${this.pick}, ${this.disabled})`
}

/** When a usage record is dated, relative to the model's now at the time it runs. */
type AtSpec =
  | { kind: 'omitted' }
  | { kind: 'now' }
  | { kind: 'ago'; ms: number }
  | { kind: 'ahead'; ms: number }
  | { kind: 'boundary'; window: 'day' | 'week' | 'month'; side: 'at' | 'justBefore' }

type InstantForm = 'date' | 'ms' | 'iso'

function atOf(spec: AtSpec, now: number): number | undefined {
  switch (spec.kind) {
    case 'omitted':
      return undefined
    case 'now':
      return now
    case 'ago':
      return now - spec.ms
    case 'ahead':
      return now + spec.ms
    case 'boundary': {
      const start = spec.window === 'day' ? utcDayStart(now) : spec.window === 'week' ? isoWeekStart(now) : monthStart(now)
      return spec.side === 'at' ? start : start - 1
    }
  }
}

function asInstant(ms: number, form: InstantForm): Date | number | string {
  return form === 'date' ? new Date(ms) : form === 'ms' ? ms : iso(ms)
}

interface RecordUsageSpec {
  pick: number
  /** cost = amount / scale USD. */
  amount: number
  scale: 100 | 10_000
  byok: boolean
  at: AtSpec
  form: InstantForm
}

class RecordUsage implements fc.Command<Model, Real> {
  constructor(readonly spec: RecordUsageSpec) {}
  check = (model: Readonly<Model>): boolean => model.keys.length > 0
  run(model: Model, real: Real): void {
    const key = pickKey(model, this.spec.pick)
    const cost = this.spec.amount / this.spec.scale
    const at = atOf(this.spec.at, model.now)
    const returned = real.sim.usage.record(
      at === undefined
        ? { keyHash: key.hash, cost, byok: this.spec.byok }
        : { keyHash: key.hash, cost, byok: this.spec.byok, at: asInstant(at, this.spec.form) },
    )
    key.records.push({ at: at ?? model.now, units: this.spec.amount * (UNITS_PER_USD / this.spec.scale), byok: this.spec.byok })
    key.touched = true
    expect(viewOf(returned), 'record returned by usage.record').toEqual(expectedView(key, model, real))
  }
  toString = (): string => {
    const { pick, amount, scale, byok, at, form } = this.spec
    const when = at.kind === 'boundary' ? `${at.side} ${at.window} start` : at.kind === 'ago' || at.kind === 'ahead' ? `${at.kind} ${at.ms}ms` : at.kind
    return `RecordUsage(key#${pick}, cost ${amount}/${scale}${byok ? ', byok' : ''}, at ${when}${at.kind === 'omitted' ? '' : ` as ${form}`})`
  }
}

type AdvanceSpec = { kind: 'by'; ms: number } | { kind: 'toMidnight' | 'toMonday' | 'toMonthStart'; extraDays: number; jitter: -1 | 0 | 1 }

class AdvanceClock implements fc.Command<Model, Real> {
  constructor(readonly spec: AdvanceSpec) {}
  check = (): boolean => true
  run(model: Model, real: Real): void {
    const now = model.now
    let ms: number
    if (this.spec.kind === 'by') ms = this.spec.ms
    else {
      const boundary =
        this.spec.kind === 'toMidnight' ? utcDayStart(now) + DAY : this.spec.kind === 'toMonday' ? isoWeekStart(now) + 7 * DAY : nextMonthStart(now)
      ms = Math.min(MAX_ADVANCE, Math.max(0, boundary + this.spec.extraDays * DAY + this.spec.jitter - now))
    }
    real.sim.clock.advance(ms)
    model.now += ms
    expect(real.sim.clock.nowMs(), 'clock after advance').toBe(model.now)
  }
  toString = (): string =>
    this.spec.kind === 'by'
      ? `AdvanceClock(${this.spec.ms}ms)`
      : `AdvanceClock(${this.spec.kind} +${this.spec.extraDays}d ${this.spec.jitter >= 0 ? '+' : ''}${this.spec.jitter}ms, at most 9 days)`
}

type BoundaryKind = 'dayStart' | 'dayEnd' | 'mondayStart' | 'sundayEnd' | 'monthStart' | 'monthEnd' | 'midday'
const SET_CLOCK_ORIGIN = Date.UTC(2025, 10, 1) // 2025-11-01; 900 days reach past 2028-02-29

function boundaryInstant(dayIndex: number, kind: BoundaryKind): number {
  const base = SET_CLOCK_ORIGIN + dayIndex * DAY
  const mondayOnOrAfter = base + ((8 - new Date(base).getUTCDay()) % 7) * DAY
  switch (kind) {
    case 'dayStart':
      return base
    case 'dayEnd':
      return base + DAY - 1
    case 'mondayStart':
      return mondayOnOrAfter
    case 'sundayEnd':
      return mondayOnOrAfter - 1
    case 'monthStart':
      return monthStart(base)
    case 'monthEnd':
      return nextMonthStart(base) - 1
    case 'midday':
      return base + 12 * HOUR
  }
}

class SetClock implements fc.Command<Model, Real> {
  readonly instant: number
  constructor(
    dayIndex: number,
    readonly kind: BoundaryKind,
    readonly form: InstantForm,
  ) {
    this.instant = boundaryInstant(dayIndex, kind)
  }
  check = (): boolean => true
  run(model: Model, real: Real): void {
    real.sim.clock.set(asInstant(this.instant, this.form))
    model.now = this.instant
    expect(real.sim.clock.nowMs(), 'clock after set').toBe(model.now)
  }
  toString = (): string => `SetClock(${iso(this.instant)} ${this.kind}, as ${this.form})`
}

// ---------------------------------------------------------------------------------------------
// Reads.

class ListKeys implements fc.Command<Model, Real> {
  constructor(
    readonly includeDisabled: boolean | undefined,
    readonly offset: 0 | 100 | undefined,
  ) {}
  check = (): boolean => true
  run(model: Model, real: Real): void {
    const params = new URLSearchParams()
    if (this.includeDisabled !== undefined) params.set('include_disabled', String(this.includeDisabled))
    if (this.offset !== undefined) params.set('offset', String(this.offset))
    const response = get(real, '/keys', { query: params.toString(), secret: real.admin.secret })
    expect(response.status).toBe(200)
    const data = jsonBody(response)['data'] as ApiKey[]
    const offset = this.offset ?? 0
    const page = model.keys
      .filter((k) => this.includeDisabled === true || !k.disabled)
      .sort(listingOrder)
      .slice(offset, offset + 100)
    expect(
      data.map((k) => k.hash),
      'hashes on the page, in order',
    ).toEqual(page.map((k) => k.hash))
    expect(data.map(viewOf)).toEqual(page.map((k) => expectedView(k, model, real)))
  }
  toString = (): string => `ListKeys(include_disabled=${String(this.includeDisabled)}, offset=${String(this.offset)})`
}

type KeyTarget = { kind: 'key'; pick: number } | { kind: 'management' } | { kind: 'unknown' }

class GetKey implements fc.Command<Model, Real> {
  constructor(readonly target: KeyTarget) {}
  check = (model: Readonly<Model>): boolean => this.target.kind !== 'key' || model.keys.length > 0
  run(model: Model, real: Real): void {
    if (this.target.kind === 'unknown') {
      const response = get(real, `/keys/${'0'.repeat(64)}`, { secret: real.admin.secret })
      expectError(response, 404, 'Resource not found', real.userId)
      return
    }
    const hash = this.target.kind === 'management' ? real.admin.hash : pickKey(model, this.target.pick).hash
    const response = get(real, `/keys/${hash}`, { secret: real.admin.secret })
    expect(response.status).toBe(200)
    const data = jsonBody(response)['data'] as ApiKey
    if (this.target.kind === 'management') {
      // Never charged nor updated: all figures zero, no limit.
      expect(viewOf(data)).toMatchObject({ hash, disabled: false, limit: null, limit_remaining: null, usage: 0, byok_usage: 0, usage_daily: 0, updated_at: null })
    } else {
      expect(viewOf(data)).toEqual(expectedView(pickKey(model, this.target.pick), model, real))
    }
  }
  toString = (): string => `GetKey(${this.target.kind === 'key' ? `key#${this.target.pick}` : this.target.kind})`
}

/** GET /keys with a regular key: 403, or 401 once that key is disabled. */
class ListKeysAsRegular implements fc.Command<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>): boolean => model.keys.length > 0
  run(model: Model, real: Real): void {
    const key = pickKey(model, this.pick)
    const response = get(real, '/keys', { secret: key.secret })
    if (key.disabled) expectError(response, 401, 'API key is disabled', undefined)
    else expectError(response, 403, 'Only management keys can perform this operation', real.userId)
  }
  toString = (): string => `ListKeysAsRegular(key#${this.pick})`
}

class GetWorkspace implements fc.Command<Model, Real> {
  constructor(readonly by: 'id' | 'slug') {}
  check = (): boolean => true
  run(_model: Model, real: Real): void {
    const response = get(real, `/workspaces/${this.by === 'id' ? real.workspaceId : 'default'}`, { secret: real.admin.secret })
    expect(response.status).toBe(200)
    const data = jsonBody(response)['data'] as Workspace
    expect(data.id).toBe(real.workspaceId)
    expect(data.slug).toBe('default')
    expect(data).toEqual(real.workspace)
  }
  toString = (): string => `GetWorkspace(by ${this.by})`
}

class ListVideoModels implements fc.Command<Model, Real> {
  constructor(readonly caller: Caller) {}
  check = (model: Readonly<Model>): boolean => this.caller.kind !== 'regular' || model.keys.length > 0
  run(model: Model, real: Real): void {
    const caller = resolveCaller(model, real, this.caller)
    const response = get(real, '/videos/models', { secret: caller.secret })
    if (caller.disabled) return expectError(response, 401, 'API key is disabled', undefined)
    expect(response.status).toBe(200)
    expect(jsonBody(response)['data']).toEqual([real.video])
  }
  toString = (): string => `ListVideoModels(${callerText(this.caller)})`
}

class GetEndpoints implements fc.Command<Model, Real> {
  constructor(readonly caller: Caller) {}
  check = (model: Readonly<Model>): boolean => this.caller.kind !== 'regular' || model.keys.length > 0
  run(model: Model, real: Real): void {
    const caller = resolveCaller(model, real, this.caller)
    const response = get(real, `/models/${MODEL_ID}/endpoints`, { secret: caller.secret })
    if (caller.disabled) return expectError(response, 401, 'API key is disabled', undefined)
    expect(response.status).toBe(200)
    const data = jsonBody(response)['data'] as ModelWithEndpoints
    if (caller.authenticated) {
      expect(data).toEqual(real.model)
    } else {
      // Anonymous: no performance figures.
      const expected = {
        ...real.model,
        endpoints: real.model.endpoints.map(({ perf_last_30m_by_workload: _perf, ...endpoint }) => ({
          ...endpoint,
          latency_last_30m: null,
          throughput_last_30m: null,
        })),
      }
      expect(data).toEqual(expected)
      for (const endpoint of data.endpoints) expect(endpoint).not.toHaveProperty('perf_last_30m_by_workload')
    }
  }
  toString = (): string => `GetEndpoints(${callerText(this.caller)})`
}

class GetFileContent implements fc.Command<Model, Real> {
  check = (): boolean => true
  run(_model: Model, real: Real): void {
    const response = get(real, `/files/${real.file.id}/content`, { secret: real.admin.secret })
    expect(response.status).toBe(200)
    expect(response.type).toBe('bytes')
    expect(response.headers['content-type']).toBe('application/octet-stream')
    expect(response.headers['content-length']).toBe(String(real.file.bytes.byteLength))
    expect(response.headers['content-disposition']).toContain(real.file.filename)
    expect(Array.from(response.body as Uint8Array)).toEqual(Array.from(real.file.bytes))
  }
  toString = (): string => 'GetFileContent()'
}

// ---------------------------------------------------------------------------------------------
// Arbitraries of commands.

const resetArb = fc.constantFrom<Reset | null>('daily', 'weekly', 'monthly', null)

const createKeyArb = fc
  .record({
    name: fc.string({ minLength: 1, maxLength: 12 }),
    limitCents: fc.option(fc.option(fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.constantFrom(0, 100, 500)), { nil: null }), { nil: undefined }),
    limitReset: fc.option(resetArb, { nil: undefined }),
    includeByok: fc.option(fc.boolean(), { nil: undefined }),
    count: fc.oneof(
      { arbitrary: fc.constant(1), weight: 8 },
      { arbitrary: fc.integer({ min: 2, max: 4 }), weight: 2 },
      { arbitrary: fc.integer({ min: 40, max: 110 }), weight: 2 },
    ),
  })
  .map((spec) => new CreateKey(spec))

const setDisabledArb = fc.tuple(fc.nat(), fc.boolean()).map(([pick, disabled]) => new SetDisabled(pick, disabled))

const atArb: fc.Arbitrary<AtSpec> = fc.oneof(
  { arbitrary: fc.constant<AtSpec>({ kind: 'omitted' }), weight: 4 },
  { arbitrary: fc.constant<AtSpec>({ kind: 'now' }), weight: 1 },
  {
    arbitrary: fc.oneof(fc.integer({ min: 1, max: 40 * DAY }), fc.constantFrom(1, HOUR, DAY, 7 * DAY, 31 * DAY)).map((ms): AtSpec => ({ kind: 'ago', ms })),
    weight: 3,
  },
  { arbitrary: fc.integer({ min: 1, max: 3 * DAY }).map((ms): AtSpec => ({ kind: 'ahead', ms })), weight: 1 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom('day' as const, 'week' as const, 'month' as const), fc.constantFrom('at' as const, 'justBefore' as const))
      .map(([window, side]): AtSpec => ({ kind: 'boundary', window, side })),
    weight: 3,
  },
)

const formArb = fc.constantFrom<InstantForm>('date', 'ms', 'iso')

const recordUsageArb = fc
  .record({
    pick: fc.nat(),
    amount: fc.integer({ min: 0, max: 500 }),
    scale: fc.constantFrom<100 | 10_000>(100, 10_000),
    byok: fc.boolean(),
    at: atArb,
    form: formArb,
  })
  .map((spec) => new RecordUsage(spec))

const advanceArb = fc
  .oneof(
    fc.oneof(fc.integer({ min: 0, max: MAX_ADVANCE }), fc.integer({ min: 0, max: 2 * HOUR }), fc.constantFrom(0, 1, DAY, 7 * DAY, MAX_ADVANCE)).map(
      (ms): AdvanceSpec => ({ kind: 'by', ms }),
    ),
    fc
      .record({
        kind: fc.constantFrom('toMidnight' as const, 'toMonday' as const, 'toMonthStart' as const),
        extraDays: fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.integer({ min: 1, max: 2 }), weight: 1 }),
        jitter: fc.constantFrom<-1 | 0 | 1>(-1, 0, 1),
      })
      .map((spec): AdvanceSpec => spec),
  )
  .map((spec) => new AdvanceClock(spec))

const setClockArb = fc
  .tuple(
    fc.integer({ min: 0, max: 900 }),
    fc.constantFrom<BoundaryKind>('dayStart', 'dayEnd', 'mondayStart', 'sundayEnd', 'monthStart', 'monthEnd', 'midday'),
    formArb,
  )
  .map(([dayIndex, kind, form]) => new SetClock(dayIndex, kind, form))

const listKeysArb = fc
  .tuple(fc.constantFrom(true, false, undefined), fc.constantFrom<0 | 100 | undefined>(0, 100, undefined))
  .map(([includeDisabled, offset]) => new ListKeys(includeDisabled, offset))

const getKeyArb = fc
  .oneof(
    { arbitrary: fc.nat().map((pick): KeyTarget => ({ kind: 'key', pick })), weight: 4 },
    { arbitrary: fc.constant<KeyTarget>({ kind: 'management' }), weight: 1 },
    { arbitrary: fc.constant<KeyTarget>({ kind: 'unknown' }), weight: 1 },
  )
  .map((target) => new GetKey(target))

const commandArbs = [
  // State changes (listed twice where they should come up more often than a single read).
  createKeyArb,
  createKeyArb,
  setDisabledArb,
  setDisabledArb,
  recordUsageArb,
  recordUsageArb,
  recordUsageArb,
  advanceArb,
  advanceArb,
  setClockArb,
  // Reads.
  listKeysArb,
  listKeysArb,
  getKeyArb,
  getKeyArb,
  fc.nat().map((pick) => new ListKeysAsRegular(pick)),
  fc.constantFrom<'id' | 'slug'>('id', 'slug').map((by) => new GetWorkspace(by)),
  callerArb.map((caller) => new ListVideoModels(caller)),
  callerArb.map((caller) => new GetEndpoints(caller)),
  fc.constant(new GetFileContent()),
]

// ---------------------------------------------------------------------------------------------
// Setup: one organisation, one management key, one model, one video model, one server file.

function setup(seed: number): { model: Model; real: Real } {
  const sim = createSimulator({ world: 'empty', seed })
  const org = sim.users.create({ name: 'Model Based Co' })
  const admin = sim.keys.create({ userId: org.id, management: true })
  const created = sim.models.create({
    id: MODEL_ID,
    endpoints: [{ provider_name: 'Together', pricing: { prompt: '0.000001', completion: '0.000002' } }, { provider_name: 'Fireworks' }],
  })
  const video = sim.videoModels.create({ id: 'acme/video-1' })
  const file = { id: 'file_model_based', bytes: FILE_BYTES, filename: 'usage report.csv' }
  sim.files.create({ userId: org.id, id: file.id, origin: 'server', bytes: FILE_BYTES.slice(), filename: file.filename })
  const workspace = sim.workspaces.get(org.defaultWorkspaceId)
  if (workspace === undefined) throw new Error('the default workspace is missing')
  const real: Real = {
    sim,
    userId: org.id,
    workspaceId: org.defaultWorkspaceId as string,
    admin: { secret: admin.key, hash: admin.record.hash },
    model: structuredClone(created),
    video: structuredClone(video),
    workspace: structuredClone(workspace),
    file,
  }
  return { model: { now: sim.clock.nowMs(), keys: [] }, real }
}

describe('model-based: keys, usage and the clock', () => {
  it('every read agrees with a plain model of keys, usage and the clock, whatever the sequence of commands', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.commands(commandArbs, { maxCommands: 80, size: 'max' }), (seed, cmds) => {
        fc.modelRun(() => setup(seed), cmds)
      }),
      { numRuns: runs(60), verbose: true },
    )
  }, 60_000)
})
