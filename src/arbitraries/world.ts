import { toBase64 } from '../core/base64.js'
import { fieldsOf } from '../core/store/check.js'
import fc from 'fast-check'
import { KEY_NAMES } from '../core/store/defaults.js'
import type { LimitReset } from '../core/types.js'
import { UNITS_PER_USD, windowsAt } from '../core/usage.js'
import { type WorldFile, type WorldKey, type WorldModel, type WorldSpec, type WorldUsageRecord, type WorldUser, type WorldVideoModel, type WorldWorkspace } from '../core/worlds/spec.js'
import { WORLD_FORMAT } from '../core/worlds/format.js'
import { invalidConstraint, checkConstraints } from './internal/constraints.js'
import { fakerText, slugify } from './internal/faker.js'
import { hex64, userId, uuid } from './internal/ids.js'
import { instantMs, instantRange, laterBy } from './internal/instant.js'
import { textModelRef } from './internal/model-ids.js'
import { modelWithEndpoints } from './model-with-endpoints.js'
import { videoModel } from './video-model.js'

/** The constraints this arbitrary takes; any other is refused. */
export const WORLD_CONSTRAINT_NAMES = fieldsOf<WorldConstraints>({ maxUsers: true, maxWorkspacesPerUser: true, maxKeys: true, maxUsageRecords: true, maxModels: true, maxVideoModels: true, maxFiles: true })

/** Options of {@link world}: upper bounds, whose defaults keep a property of 100 runs to a second or so on two cores. */
export interface WorldConstraints {
  /** Most organisations; at least 1, default 3. Each has a management key. */
  maxUsers?: number | undefined
  /** Most workspaces of each organisation besides its default one; default 2. */
  maxWorkspacesPerUser?: number | undefined
  /** Most regular (non-management) keys, of all organisations together; default 8. */
  maxKeys?: number | undefined
  /** Most usage records of each key; default 4. */
  maxUsageRecords?: number | undefined
  /** Most models; default 3. */
  maxModels?: number | undefined
  /** Most video models; default 2. */
  maxVideoModels?: number | undefined
  /** Most files, of all organisations together; default 3. */
  maxFiles?: number | undefined
}

/** What `sim.world` holds for a world from {@link world}: the first organisation and the secret of its management key. */
export interface ArbitraryWorldHandles {
  userId: string
  managementKey: string
}

/** Each of the constraints, given: a whole number. */
type Counts = { readonly [K in keyof WorldConstraints]-?: number }

const DEFAULTS: Counts = {
  maxUsers: 3,
  maxWorkspacesPerUser: 2,
  maxKeys: 8,
  maxUsageRecords: 4,
  maxModels: 3,
  maxVideoModels: 2,
  maxFiles: 3,
}

/**
 * Clock instants where window code breaks: Monday 00:00 and the millisecond before it (Sunday
 * 23:59:59.999), the first of a month that is a Sunday, the last millisecond of February, New Year.
 */
const EDGE_NOWS = [
  Date.UTC(2026, 2, 2),
  Date.UTC(2026, 2, 1, 23, 59, 59, 999),
  Date.UTC(2026, 2, 1),
  Date.UTC(2026, 1, 28, 23, 59, 59, 999),
  Date.UTC(2026, 0, 1),
  Date.UTC(2025, 11, 31, 23, 59, 59, 999),
] as const

/** Where a usage record falls: on the key's creation, on now, or either side of the start of now's day, ISO week or month. */
const RECORD_EDGES = ['created', 'now', 'dayStart', 'beforeDay', 'weekStart', 'beforeWeek', 'monthStart', 'beforeMonth'] as const
type RecordEdge = (typeof RECORD_EDGES)[number]
/** A place between two instants, in millionths of the way from the first. */
const FRACTION = 1_000_000
const DAY_MS = 86_400_000

/** How long ago an organisation was created: often just now, a millisecond or a day ago, else up to two years. */
const age: fc.Arbitrary<number> = fc.oneof(
  { withCrossShrink: true },
  { weight: 1, arbitrary: fc.constantFrom(0, 1, DAY_MS) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 730 * DAY_MS }) },
)

/** Where between two instants something falls: often on either one. */
const within: fc.Arbitrary<number> = fc.oneof(
  { withCrossShrink: true },
  { weight: 1, arbitrary: fc.constantFrom(0, FRACTION) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: FRACTION }) },
)

const between = (from: number, to: number, fraction: number): number => from + Math.floor(((to - from) * fraction) / FRACTION)

/** A flag that is mostly false, and false when shrunk. */
const seldom: fc.Arbitrary<boolean> = fc.oneof({ withCrossShrink: true }, { weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) })

const TEAM_NAMES = ['Production', 'Staging', 'Research', 'Default'] as const
const PROVIDER_SORTS = ['price', 'throughput', 'latency'] as const
const ALPHANUMERIC = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz']
const FILE_ID_UNITS = [...ALPHANUMERIC, '_', '-']

const iso = (ms: number): string => new Date(ms).toISOString()

function maxCount(name: keyof WorldConstraints, value: number | undefined, least = 0): number {
  if (value === undefined) return DEFAULTS[name]
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < least) {
    const why = least === 0 ? 'a non-negative integer' : `an integer of at least ${least} (every world has an organisation with a management key)`
    throw invalidConstraint('world', name, `${name} must be ${why}, got ${String(value)}`, `pass a whole number such as ${Math.max(least, 1)} or 3`)
  }
  return value
}

/** `wanted`, or the first of its variants not yet taken within `scope`; marks it taken. */
function distinct(taken: Set<string>, wanted: string, variant: (value: string, n: number) => string, scope = ''): string {
  let value = wanted
  for (let n = 2; taken.has(`${scope}\u0000${value}`); n++) value = variant(wanted, n)
  taken.add(`${scope}\u0000${value}`)
  return value
}

/** A hex string (or a UUID) with its tail replaced by `n` in hex: same length, same format. */
const hexVariant = (value: string, n: number): string => {
  const tail = n.toString(16)
  return value.slice(0, value.length - tail.length) + tail
}
const suffixVariant = (value: string, n: number): string => `${value}-${n}`

/** A limit: null, none at all, a round or tiny amount, or exactly what the key has spent. */
type LimitDraft = number | null | 'spent'
/** An expiry that many ms after now or after the key's creation. */
type ExpiryDraft = null | { from: 'now' | 'created'; by: number }

/** The parts of a world as drawn, before {@link build} makes them consistent. */
function drafts(c: Counts) {
  const workspaceDraft = fc.record(
    {
      id: uuid,
      name: fc.oneof(fc.constantFrom<string>(...TEAM_NAMES), fakerText((f) => `${f.commerce.department()} ${f.helpers.arrayElement(['Team', 'Lab', 'Apps'])}`)),
      at: within,
      description: fc.oneof(fc.constant(null), fakerText((f) => f.company.catchPhrase())),
      defaultTextModel: fc.oneof(fc.constant(null), textModelRef().map((ref) => ref.id)),
      defaultProviderSort: fc.constantFrom(null, ...PROVIDER_SORTS),
    },
    { requiredKeys: ['id', 'name', 'at'] },
  )
  const userDraft = fc.record(
    {
      id: userId,
      name: fakerText((f) => f.company.name()),
      ago: age,
      defaultWorkspaceId: uuid,
      workspaces: fc.array(workspaceDraft, { maxLength: c.maxWorkspacesPerUser }),
      management: fc.record({ hash: hex64, secret: hex64 }),
    },
    { requiredKeys: ['id', 'ago', 'workspaces', 'management'] },
  )
  const record = fc.record({
    at: fc.oneof(fc.constantFrom<RecordEdge>(...RECORD_EDGES), within),
    // 10^-10 USD units: nothing, the least the simulator keeps, a micro-dollar, or up to 1000 USD.
    units: fc.oneof(fc.constantFrom(0, 1, 10_000), fc.integer({ min: 0, max: 1_000 * UNITS_PER_USD })),
    byok: seldom,
  })
  const limit: fc.Arbitrary<LimitDraft> = fc.oneof(
    fc.constantFrom<LimitDraft>(null, 0, 1 / UNITS_PER_USD, 'spent'),
    fc.integer({ min: 0, max: 1_000_000 }).map((cents) => cents / 100),
  )
  const expiry: fc.Arbitrary<ExpiryDraft> = fc.oneof(
    fc.constant(null),
    fc.constantFrom(-1, 0, 1).map((by) => ({ from: 'now' as const, by })),
    laterBy.map((by) => ({ from: 'now' as const, by })),
    laterBy.map((by) => ({ from: 'created' as const, by })),
  )
  const keyDraft = fc.record(
    {
      owner: fc.nat({ max: Math.max(0, c.maxUsers - 1) }),
      workspace: fc.nat({ max: c.maxWorkspacesPerUser }),
      hash: hex64,
      secret: hex64,
      at: within,
      disabled: seldom,
      usage: fc.array(record, { maxLength: c.maxUsageRecords }),
      name: fc.oneof(fc.constantFrom(...KEY_NAMES), fakerText((f) => `${f.commerce.department()} ${f.helpers.arrayElement(['backend', 'worker', 'bot'])}`)),
      limit,
      limitReset: fc.constantFrom<LimitReset | null>(null, 'daily', 'weekly', 'monthly'),
      includeByokInLimit: fc.boolean(),
      updated: fc.option(laterBy, { nil: null }),
      expires: expiry,
    },
    { requiredKeys: ['owner', 'workspace', 'hash', 'secret', 'at', 'disabled', 'usage'] },
  )
  const content = fc.oneof(
    fc.oneof(fc.constant(''), fc.string({ unit: 'grapheme', maxLength: 24 }), fakerText((f) => f.lorem.lines(2))).map((text) => ({ text })),
    fc.uint8Array({ maxLength: 48 }).map((bytes) => ({ base64: toBase64(bytes) })),
  )
  const fileDraft = fc.record(
    {
      owner: fc.nat({ max: Math.max(0, c.maxUsers - 1) }),
      workspace: fc.nat({ max: c.maxWorkspacesPerUser }),
      id: fc.oneof(
        fc.string({ unit: fc.constantFrom(...ALPHANUMERIC), minLength: 24, maxLength: 24 }).map((body) => `file_${body}`),
        fc.string({ unit: fc.constantFrom(...FILE_ID_UNITS), minLength: 1, maxLength: 12 }),
      ),
      origin: fc.constantFrom('server' as const, 'upload' as const),
      at: within,
      content,
      provider: fc.constantFrom('openai' as const, 'anthropic' as const),
      filename: fakerText((f) => f.system.fileName()),
    },
    { requiredKeys: ['owner', 'workspace', 'id', 'origin', 'at', 'content'] },
  )
  return fc.record({
    now: fc.oneof(instantMs(instantRange('world', ['now', 'now'], undefined, undefined)), fc.constantFrom(...EDGE_NOWS)),
    users: fc.uniqueArray(userDraft, { minLength: 1, maxLength: c.maxUsers, selector: (u) => u.id }),
    keys: fc.array(keyDraft, { maxLength: c.maxKeys }),
    files: fc.array(fileDraft, { maxLength: c.maxFiles }),
    models: fc.uniqueArray(modelWithEndpoints({ maxEndpoints: 2 }), { maxLength: c.maxModels, selector: (m) => m.id }),
    videoModels: fc.uniqueArray(videoModel(), { maxLength: c.maxVideoModels, selector: (m) => m.id }),
  })
}

type WorldDraft = ReturnType<typeof drafts> extends fc.Arbitrary<infer T> ? T : never
type KeyDraft = WorldDraft['keys'][number]

/** A workspace a key or file can be in; the default one's id is undefined unless the spec gives it, and then keys and files leave it out. */
interface Space {
  id: string | undefined
  createdAt: number
}

function expiresAt(draft: ExpiryDraft | undefined, createdAt: number, now: number): number | null | undefined {
  if (draft === undefined || draft === null) return draft
  return Math.max(createdAt, (draft.from === 'now' ? now : createdAt) + draft.by)
}

function usageRecord(draft: KeyDraft['usage'][number], createdAt: number, end: number, now: number): WorldUsageRecord {
  const windows = windowsAt(now)
  const at =
    typeof draft.at === 'number'
      ? between(createdAt, end, draft.at)
      : {
          created: createdAt,
          now: end,
          dayStart: windows.day,
          beforeDay: windows.day - 1,
          weekStart: windows.week,
          beforeWeek: windows.week - 1,
          monthStart: windows.month,
          beforeMonth: windows.month - 1,
        }[draft.at]
  return { at: iso(Math.min(end, Math.max(createdAt, at))), cost: draft.units / UNITS_PER_USD, ...(draft.byok ? { byok: true } : {}) }
}

function build(d: WorldDraft): WorldSpec<ArbitraryWorldHandles> {
  const { now } = d
  const uuids = new Set<string>()
  const hashes = new Set<string>()
  const secrets = new Set<string>()
  const users: WorldUser[] = []
  const workspaces: WorldWorkspace[] = []
  const keys: WorldKey[] = []
  const owners: { id: string; spaces: Space[] }[] = []

  for (const u of d.users) {
    const createdAt = now - u.ago
    const user: WorldUser = { id: u.id, createdAt: iso(createdAt) }
    if (u.name !== undefined) user.name = u.name
    if (u.defaultWorkspaceId !== undefined) user.defaultWorkspaceId = distinct(uuids, u.defaultWorkspaceId, hexVariant)
    users.push(user)
    const spaces: Space[] = [{ id: user.defaultWorkspaceId ?? undefined, createdAt }]
    const slugs = new Set<string>()
    distinct(slugs, 'default', suffixVariant)
    for (const w of u.workspaces) {
      const workspaceCreatedAt = between(createdAt, now, w.at)
      const workspace: WorldWorkspace = {
        id: distinct(uuids, w.id, hexVariant),
        userId: u.id,
        name: w.name,
        slug: distinct(slugs, slugify(w.name) || 'workspace', suffixVariant),
        createdAt: iso(workspaceCreatedAt),
      }
      if (w.description !== undefined) workspace.description = w.description
      if (w.defaultTextModel !== undefined) workspace.defaultTextModel = w.defaultTextModel
      if (w.defaultProviderSort !== undefined) workspace.defaultProviderSort = w.defaultProviderSort
      workspaces.push(workspace)
      spaces.push({ id: workspace.id, createdAt: workspaceCreatedAt })
    }
    owners.push({ id: u.id, spaces })
    keys.push({
      hash: distinct(hashes, u.management.hash, hexVariant),
      secret: `sk-or-v1-${distinct(secrets, u.management.secret, hexVariant)}`,
      userId: u.id,
      management: true,
      createdAt: iso(createdAt),
    })
  }

  const place = (owner: number, workspace: number): { userId: string; space: Space } => {
    const { id, spaces } = owners[owner % owners.length] as { id: string; spaces: Space[] }
    return { userId: id, space: spaces[workspace % spaces.length] as Space }
  }

  for (const k of d.keys) {
    const { userId: owner, space } = place(k.owner, k.workspace)
    const createdAt = between(space.createdAt, now, k.at)
    const expires = expiresAt(k.expires, createdAt, now)
    const end = Math.min(now, expires ?? now)
    const usage = k.usage.map((r) => usageRecord(r, createdAt, end, now))
    const key: WorldKey = {
      hash: distinct(hashes, k.hash, hexVariant),
      secret: `sk-or-v1-${distinct(secrets, k.secret, hexVariant)}`,
      userId: owner,
      createdAt: iso(createdAt),
    }
    if (space.id !== undefined) key.workspaceId = space.id
    if (k.name !== undefined) key.name = k.name
    if (k.disabled) key.disabled = true
    if (k.limit !== undefined) {
      const spent = k.usage.reduce((sum, r) => sum + (r.byok ? 0 : r.units), 0)
      key.limit = k.limit === 'spent' ? spent / UNITS_PER_USD : k.limit
    }
    if (k.limitReset !== undefined) key.limitReset = k.limitReset
    if (k.includeByokInLimit !== undefined) key.includeByokInLimit = k.includeByokInLimit
    if (k.updated !== undefined) key.updatedAt = k.updated === null ? null : iso(Math.min(now, createdAt + k.updated))
    if (expires !== undefined) key.expiresAt = expires === null ? null : iso(expires)
    if (usage.length > 0) key.usage = usage
    keys.push(key)
  }

  const fileIds = new Set<string>()
  const files = d.files.map((f): WorldFile => {
    const { userId: owner, space } = place(f.owner, f.workspace)
    const scope = `${space.id ?? `default of ${owner}`} ${f.provider ?? 'service'}`
    const file: WorldFile = {
      id: distinct(fileIds, f.id, suffixVariant, scope),
      userId: owner,
      origin: f.origin,
      createdAt: iso(between(space.createdAt, now, f.at)),
      ...f.content,
    }
    if (space.id !== undefined) file.workspaceId = space.id
    if (f.provider !== undefined) file.provider = f.provider
    if (f.filename !== undefined) file.filename = f.filename
    return file
  })

  // Models are drawn apart from now; one created later is moved back onto now's whole second.
  const created = (seconds: number): string => iso(Math.min(seconds * 1000, Math.floor(now / 1000) * 1000))
  const models = d.models.map(({ created: seconds, ...model }): WorldModel => ({ ...model, created: created(seconds) }))
  const videoModels = d.videoModels.map((model): WorldVideoModel => ({ ...model, created: created(model.created) }))
  const first = keys[0] as WorldKey
  return {
    format: WORLD_FORMAT,
    now: iso(now),
    users,
    workspaces,
    keys,
    files,
    models,
    videoModels,
    handles: { userId: first.userId, managementKey: first.secret },
  }
}

/**
 * Arbitrary world spec, as `createSimulator({ world })` loads it: organisations (each with a
 * management key, the first one's in the handles), workspaces, regular keys with usage records,
 * files (as UTF-8 `text` or `base64`), models and video models from {@link modelWithEndpoints} and
 * {@link videoModel}. Every world loads: ids, UUIDs, hashes and secrets are distinct, slugs are
 * distinct within an organisation (never `default`), file ids within a workspace and provider, and
 * keys and files are in their own organisation's workspaces. Instants are ISO strings no later
 * than `now` (expiries aside), which is always given.
 * No presets, as `generateWorld` has none: a property about them adds `preset` values.
 *
 * Biased toward usage records on the key's creation, on `now`, either side of UTC midnight, of
 * Monday 00:00 and of the first of the month; costs of 0 and 10^-10 USD; limits of 0, null and
 * exactly what was spent; keys that expire just before, at or just after `now`; disabled keys;
 * `now` on a midnight; and empty lists. Lists shrink toward empty, so a counterexample holds only
 * what its failure needs.
 *
 * @example
 * import fc from 'fast-check'
 * import { createSimulator } from 'model-access-sim'
 * import { world } from 'model-access-sim/arbitraries'
 * const worlds = fc.sample(world({ maxUsers: 2, maxKeys: 3 }), { seed: 1, numRuns: 20 })
 * const statuses = worlds.map((spec) => {
 *   const sim = createSimulator({ world: spec })
 *   return sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}` }).status
 * })
 * console.log(statuses.every((status) => status === 200), worlds.every((w) => (w.users ?? []).length <= 2))
 * //=> true true
 */
export function world(constraints: WorldConstraints = {}): fc.Arbitrary<WorldSpec<ArbitraryWorldHandles>> {
  checkConstraints('world', constraints, WORLD_CONSTRAINT_NAMES)
  const c: Counts = {
    maxUsers: maxCount('maxUsers', constraints.maxUsers, 1),
    maxWorkspacesPerUser: maxCount('maxWorkspacesPerUser', constraints.maxWorkspacesPerUser),
    maxKeys: maxCount('maxKeys', constraints.maxKeys),
    maxUsageRecords: maxCount('maxUsageRecords', constraints.maxUsageRecords),
    maxModels: maxCount('maxModels', constraints.maxModels),
    maxVideoModels: maxCount('maxVideoModels', constraints.maxVideoModels),
    maxFiles: maxCount('maxFiles', constraints.maxFiles),
  }
  return drafts(c).map(build)
}
