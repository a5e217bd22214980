// The store written back as a world spec: every value the creators would otherwise draw at random
// (ids, secrets, names, guardrails, endpoint figures) is written out, so that loading the spec
// rebuilds a store that answers every request as this one does (decisions/0013).
import { base64Slices, toBase64 } from '../base64.js'
import type { ExportOptions } from '../internals.js'
import { DEFAULT_WORKSPACE } from '../store/defaults.js'
import { maskSecret } from '../store/mask.js'
import { givenCanonicalSlug } from '../store/models.js'
import type { DefaultWorkspaceOptions } from '../store/workspaces.js'
import type { Workspace } from '../types.js'
import { activityDefaults, dayText } from '../store/activity.js'
import type { ActivityState, BudgetState, ByokState, FileState, GuardrailState, KeyState, MemberState, PresetState, StoreData, UserState, WorkspaceMemberState } from '../store/state.js'
import { untouchedDefault } from '../store/guardrail-rows.js'
import { UNITS_PER_USD, type UsageRecord, bigUnitsToUsd, toUsd } from '../usage.js'
import { type WorldActivity, type WorldBudget, type WorldByok, type WorldFile, type WorldGuardrail, type WorldKey, type WorldMember, type WorldModel, type WorldPreset, type WorldSpec, type WorldUsageRecord, type WorldUser, type WorldVideoModel, type WorldWorkspace } from './spec.js'
import { WORLD_FORMAT } from './format.js'

const iso = (ms: number): string => new Date(ms).toISOString()

/** The wire's `created_at` (`...000+00:00`, microseconds) as the ISO instant a spec carries. */
const fromWireTimestamp = (timestamp: string): string => iso(Date.parse(timestamp))

/** The most units one exported record carries: up to 2^52 units, every count reads back exactly from its USD double. */
const MAX_RECORD_UNITS = 2 ** 52

/** A usage record as spec records; one larger than a double can carry to the unit is written in parts. */
function exportRecord(record: UsageRecord): WorldUsageRecord[] {
  const parts: WorldUsageRecord[] = []
  const at = iso(record.at)
  let units = record.units
  do {
    const part = Math.min(units, MAX_RECORD_UNITS)
    parts.push({ at, cost: part / UNITS_PER_USD, ...(record.byok && { byok: true }) })
    units -= part
  } while (units > 0)
  return parts
}

/** The fields of a workspace that differ from what its creator would make by default. */
function workspaceExtras(record: Workspace, userId: string): Omit<DefaultWorkspaceOptions, 'createdAt' | 'updatedAt'> & { updatedAt?: string } {
  return {
    ...(record.updated_at !== null && { updatedAt: fromWireTimestamp(record.updated_at) }),
    ...(record.created_by !== userId && { createdBy: record.created_by }),
    ...(record.include_byok_in_budgets && { includeByokInBudgets: true }),
    ...(record.io_logging_api_key_ids !== null && { ioLoggingApiKeyIds: [...record.io_logging_api_key_ids] }),
    ...(record.io_logging_sampling_rate !== 1 && { ioLoggingSamplingRate: record.io_logging_sampling_rate }),
    ...(!record.is_data_discount_logging_enabled && { isDataDiscountLoggingEnabled: false }),
    ...(record.is_observability_broadcast_enabled && { isObservabilityBroadcastEnabled: true }),
    ...(record.is_observability_io_logging_enabled && { isObservabilityIoLoggingEnabled: true }),
  }
}

/** A default workspace's fields that differ from what `users.create` makes: none for most. */
function defaultWorkspaceOf(record: Workspace, userId: string, userCreatedAt: number): WorldUser['defaultWorkspace'] | undefined {
  const fields = {
    ...(record.name !== DEFAULT_WORKSPACE.name && { name: record.name }),
    ...(record.slug !== DEFAULT_WORKSPACE.slug && { slug: record.slug }),
    ...(record.description !== null && { description: record.description }),
    ...(record.default_text_model !== null && { defaultTextModel: record.default_text_model }),
    ...(record.default_image_model !== null && { defaultImageModel: record.default_image_model }),
    ...(record.default_provider_sort !== null && { defaultProviderSort: record.default_provider_sort }),
    ...(Date.parse(record.created_at) !== userCreatedAt && { createdAt: fromWireTimestamp(record.created_at) }),
    ...workspaceExtras(record, userId),
  }
  return Object.keys(fields).length === 0 ? undefined : fields
}

/** A user as a world spec holds it: its default workspace's fields only where they differ from what `users.create` makes. */
export function worldUser(data: StoreData, user: UserState): WorldUser {
  return userEntry(user, defaultWorkspaceRow(data, user))
}

const defaultWorkspaceRow = (data: StoreData, user: UserState): { record: Workspace } | undefined =>
  user.defaultWorkspaceId === null ? undefined : data.workspaces.get(user.defaultWorkspaceId)

/** {@link worldUser} from the user's row and its default workspace's. */
function userEntry(user: UserState, workspace: { record: Workspace } | undefined): WorldUser {
  const entry: WorldUser = {
    id: user.id,
    name: user.name,
    createdAt: iso(user.createdAt),
    defaultWorkspaceId: user.defaultWorkspaceId,
    ...(workspace && { defaultWorkspaceGuardrailId: workspace.record.default_guardrail_id }),
    credits: { total: bigUnitsToUsd(user.creditUnits), ...(user.retiredUnits > 0n && { retiredUsage: bigUnitsToUsd(user.retiredUnits) }) },
  }
  const own = workspace && defaultWorkspaceOf(workspace.record, user.id, user.createdAt)
  if (own) entry.defaultWorkspace = own
  return entry
}

/** A workspace (not a default one) as a world spec holds it. */
export function worldWorkspace(userId: string, record: Workspace): WorldWorkspace {
  return {
    id: record.id,
    userId,
    name: record.name,
    slug: record.slug,
    description: record.description,
    defaultTextModel: record.default_text_model,
    defaultImageModel: record.default_image_model,
    defaultProviderSort: record.default_provider_sort,
    defaultGuardrailId: record.default_guardrail_id,
    createdAt: fromWireTimestamp(record.created_at),
    ...workspaceExtras(record, userId),
  }
}

/** A key as a world spec holds it: its secret, and its usage as records. */
export function worldKey(key: KeyState): WorldKey {
  return {
    hash: key.hash,
    secret: key.secret,
    userId: key.userId,
    workspaceId: key.workspaceId,
    management: key.management,
    name: key.name,
    disabled: key.disabled,
    limit: key.limit,
    limitReset: key.limitReset,
    includeByokInLimit: key.includeByokInLimit,
    createdAt: iso(key.createdAt),
    updatedAt: key.updatedAt === null ? null : iso(key.updatedAt),
    expiresAt: key.expiresAt === null ? null : iso(key.expiresAt),
    ...(key.rateLimit && { rateLimit: { ...key.rateLimit } }),
    ...(key.label !== maskSecret(key.secret) && { label: key.label }),
    ...(key.creatorUserId !== key.userId && { creatorUserId: key.creatorUserId }),
    ...(key.externalUser !== null && { externalUser: key.externalUser }),
    usage: key.usage.slice(0, key.usageCount).flatMap(exportRecord),
  }
}

/** A file as a world spec holds it, its content as base64 by `encode`, or without content when there is none. */
export function worldFile(file: Omit<FileState, 'createdAt'> & { createdAt: number | string }, encode: ((bytes: Uint8Array) => string) | undefined): WorldFile {
  return {
    id: file.id,
    userId: file.userId,
    workspaceId: file.workspaceId,
    origin: file.origin,
    // Left out when it is the default (the id), which may be longer than a filename may be.
    ...(file.filename !== file.id && { filename: file.filename }),
    ...(file.provider !== null && { provider: file.provider }),
    createdAt: typeof file.createdAt === 'number' ? iso(file.createdAt) : file.createdAt,
    ...(encode !== undefined && { base64: encode(file.bytes) }),
  }
}

/**
 * A model as a world spec holds it: `created` an ISO instant, not the wire's epoch seconds, and the
 * canonical slug it was created with, if any.
 */
export function worldModel<M extends { created: number }>(model: M): Omit<M, 'created'> & { created: string; canonicalSlug?: string } {
  const spec = { ...structuredClone(model), created: iso(model.created * 1000) }
  const slug = givenCanonicalSlug(model)
  return slug === undefined ? spec : { ...spec, canonicalSlug: slug }
}

/**
 * An activity row as world spec entries (decisions/0053): the fields the loader would take from the
 * key and the model written only where the row differs from them. Usage past what a double carries
 * to the unit is written in more entries, which add up again when loaded.
 */
export function worldActivity(data: StoreData, row: ActivityState): WorldActivity[] {
  const defaults = activityDefaults(data, row.userId, row.keyHash, row.model, row.provider)
  const first: WorldActivity = {
    userId: row.userId,
    date: dayText(row.day),
    keyHash: row.keyHash,
    model: row.model,
    provider: row.provider,
    ...(!(defaults.endpointIds.length === 1 && defaults.endpointIds[0] === row.endpointId) && { endpointId: row.endpointId }),
    ...(defaults.permaslug !== row.permaslug && { permaslug: row.permaslug }),
    ...(defaults.workspaceId !== row.workspaceId && { workspaceId: row.workspaceId }),
    ...(defaults.creatorUserId !== row.creatorUserId && { creatorUserId: row.creatorUserId }),
    requests: row.requests,
    usage: 0,
    promptTokens: row.promptTokens,
    completionTokens: row.completionTokens,
    ...(row.reasoningTokens !== 0 && { reasoningTokens: row.reasoningTokens }),
  }
  const entries: WorldActivity[] = []
  let units = row.units
  let byok = row.byokUnits
  do {
    const part = Math.min(units, MAX_RECORD_UNITS)
    const byokPart = Math.min(byok, MAX_RECORD_UNITS)
    const base = entries.length === 0 ? first : { ...first, requests: 0, promptTokens: 0, completionTokens: 0, ...(first.reasoningTokens !== undefined && { reasoningTokens: 0 }) }
    entries.push({ ...base, usage: toUsd(part), ...(byokPart !== 0 && { byokUsage: toUsd(byokPart) }) })
    units -= part
    byok -= byokPart
  } while (units > 0 || byok > 0)
  return entries
}

/** A workspace budget as a world spec holds it (decisions/0052). */
export function worldBudget(budget: BudgetState): WorldBudget {
  return { id: budget.id, workspace: budget.workspaceId, interval: budget.interval, limitUsd: budget.limitUsd, createdAt: iso(budget.createdAt), updatedAt: iso(budget.updatedAt) }
}

/** A BYOK credential as a world spec holds it (decisions/0054): every field, defaults left out. */
export function worldByok(c: ByokState): WorldByok {
  return {
    id: c.id,
    userId: c.userId,
    workspace: c.workspaceId,
    provider: c.provider,
    key: c.key,
    ...(c.name !== null && { name: c.name }),
    ...(c.allowedApiKeyHashes !== null && { allowedApiKeyHashes: [...c.allowedApiKeyHashes] }),
    ...(c.allowedModels !== null && { allowedModels: [...c.allowedModels] }),
    ...(c.allowedUserIds !== null && { allowedUserIds: [...c.allowedUserIds] }),
    ...(c.declaredZdr !== null && { declaredZdr: c.declaredZdr }),
    ...(c.disabled && { disabled: true }),
    ...(c.isByokOnly && { isByokOnly: true }),
    ...(c.isFallback && { isFallback: true }),
    ...(c.isRequired && { isRequired: true }),
    sortOrder: c.sortOrder,
    createdAt: iso(c.createdAt),
  }
}

/** A preset as a world spec holds it: every version, with its id, config, system prompt and instant. */
export function worldPreset(preset: PresetState): WorldPreset {
  return {
    id: preset.id,
    userId: preset.userId,
    slug: preset.slug,
    name: preset.name,
    description: preset.description,
    createdAt: iso(preset.createdAt),
    updatedAt: iso(preset.updatedAt),
    versions: preset.versions.map((version) => ({ id: version.id, config: structuredClone(version.config) as Record<string, unknown>, systemPrompt: version.systemPrompt, createdAt: iso(version.createdAt) })),
  }
}

/** A member as a world spec holds it, with its places in workspaces (decisions/0051). */
export function worldMember(member: MemberState, places: readonly WorkspaceMemberState[]): WorldMember {
  const own = places.filter((place) => place.memberId === member.id)
  const workspaces = own.map((place) => ({ workspaceId: place.workspaceId, id: place.id, createdAt: iso(place.createdAt) }))
  // The owner: a member without a row, whose entry holds its places alone.
  if (member.id === member.userId) return { userId: member.userId, id: member.id, workspaces }
  return {
    userId: member.userId,
    id: member.id,
    email: member.email,
    firstName: member.firstName,
    lastName: member.lastName,
    role: member.role,
    createdAt: iso(member.createdAt),
    ...(own.length > 0 && { workspaces }),
  }
}

/** A guardrail as a world spec holds it, with its assignments (those of deleted keys and removed members left out). */
export function worldGuardrail(data: StoreData, guardrail: GuardrailState): WorldGuardrail {
  const keys = [...data.guardrailKeys.values()].filter((a) => a.guardrailId === guardrail.id && data.keys.has(a.keyHash))
  const members = [...data.guardrailMembers.values()].filter((a) => a.guardrailId === guardrail.id && (a.memberId === a.userId || data.members.has(`${a.userId}\u0000${a.memberId}`)))
  return {
    userId: guardrail.userId,
    id: guardrail.id,
    workspaceId: guardrail.workspaceId,
    rules: structuredClone(guardrail.rules) as WorldGuardrail['rules'],
    createdAt: iso(guardrail.createdAt),
    updatedAt: guardrail.updatedAt === null ? null : iso(guardrail.updatedAt),
    ...(keys.length > 0 && { keys: keys.map((a) => ({ keyHash: a.keyHash, id: a.id, createdAt: iso(a.createdAt) })) }),
    ...(members.length > 0 && { members: members.map((a) => ({ memberId: a.memberId, id: a.id, createdAt: iso(a.createdAt) })) }),
  }
}

/** The owners that have places in workspaces, as members (they have no row of their own). */
function ownersWithPlaces(data: StoreData): MemberState[] {
  const owners = new Map<string, MemberState>()
  for (const place of data.workspaceMembers.values()) {
    const userId = data.workspaces.get(place.workspaceId)?.userId
    if (userId === place.memberId && !owners.has(userId)) owners.set(userId, { userId, id: userId, email: '', firstName: null, lastName: null, role: 'admin', createdAt: 0 })
  }
  return [...owners.values()]
}

/** The places of each member's organisation's workspaces, for {@link worldMember}. */
function placesOf(data: StoreData, member: MemberState): WorkspaceMemberState[] {
  const own: WorkspaceMemberState[] = []
  for (const place of data.workspaceMembers.values()) if (place.memberId === member.id && data.workspaces.get(place.workspaceId)?.userId === member.userId) own.push(place)
  return own
}

export function exportWorld<Handles extends object>(data: StoreData, nowMs: number, handles: Handles, options: ExportOptions = {}): WorldSpec<Handles> {
  const encode = options.bodies === false ? undefined : (options.encode ?? toBase64)
  const rows = exportRows(data)
  return {
    format: WORLD_FORMAT,
    now: iso(nowMs),
    users: rows.users.map(([user, workspace]) => userEntry(user, workspace)),
    workspaces: rows.workspaces.map(({ userId, record }) => worldWorkspace(userId, record)),
    keys: rows.keys.map(worldKey),
    files: rows.files.map((file) => worldFile(file, encode)),
    models: rows.models.map(worldModel),
    videoModels: rows.videoModels.map(worldModel),
    // Only when there are some: a world without presets exports as it did before they existed.
    ...(rows.presets.length > 0 && { presets: rows.presets.map(worldPreset) }),
    ...(rows.budgets.length > 0 && { budgets: rows.budgets.map(worldBudget) }),
    // Likewise members: the owners are members without an entry. An owner's workspace places are kept by an entry of its own below.
    ...(rows.members.length > 0 && { members: rows.members.map((member) => worldMember(member, placesOf(data, member))) }),
    ...(rows.guardrails.length > 0 && { guardrails: rows.guardrails.map((guardrail) => worldGuardrail(data, guardrail)) }),
    ...(rows.byok.length > 0 && { byok: rows.byok.map(worldByok) }),
    // Likewise activity: a world without any exports as it did before it was world state.
    ...(rows.activity.length > 0 && { activity: rows.activity.flatMap((row) => worldActivity(data, row)) }),
    handles: structuredClone(handles),
  }
}

/**
 * The rows an export writes, taken at once: rows are values (a change stores a new row, and a key's
 * usage log is only appended to past its count), so these are the state of one instant however
 * long the writing of them takes. References only: 100,000 keys in a few milliseconds.
 */
function exportRows(data: StoreData) {
  const users = [...data.users.values()]
  const defaults = new Set(users.map((user) => user.defaultWorkspaceId))
  return {
    users: users.map((user) => [user, defaultWorkspaceRow(data, user)] as const),
    workspaces: [...data.workspaces.values()].filter(({ record }) => !defaults.has(record.id)),
    keys: [...data.keys.values()],
    files: [...data.files.values()],
    models: [...data.models.values()],
    videoModels: [...data.videoModels.values()],
    presets: [...data.presets.values()],
    budgets: [...data.budgets.values()],
    members: [...ownersWithPlaces(data), ...data.members.values()],
    // A workspace's default guardrail as it was made is made again by its workspace (decisions/0055).
    guardrails: [...data.guardrails.values()].filter((g) => !untouchedDefault(data, g)),
    byok: [...data.byok.values()].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1)),
    activity: [...data.activity.values()],
  }
}

/**
 * {@link exportWorld} as JSON text in parts, `JSON.stringify(exportWorld(...))` to the byte: the
 * rows are taken when it is called, and each entity is written when its turn comes, a file's
 * content a slice at a time; so that the server writes the export of a 100,000-key world (about
 * 40 MB, a quarter of a second to build and stringify whole) without holding its other requests up.
 */
export function exportWorldParts(data: StoreData, nowMs: number, handles: object, options: ExportOptions = {}): Iterable<string> {
  const encode = options.bodies === false ? undefined : (options.encode ?? toBase64)
  const rows = exportRows(data)
  const now = iso(nowMs)
  const handlesText = JSON.stringify(structuredClone(handles))
  function* list<T>(name: string, items: readonly T[], text: (item: T) => Iterable<string>): Generator<string> {
    yield `,${JSON.stringify(name)}:[`
    for (const [i, item] of items.entries()) {
      if (i > 0) yield ','
      yield* text(item)
    }
    yield ']'
  }
  const one = <T>(entry: (item: T) => unknown) => (item: T): string[] => [JSON.stringify(entry(item))]
  function* file(row: FileState): Generator<string> {
    const text = JSON.stringify(worldFile(row, undefined))
    if (encode === undefined) {
      yield text
      return
    }
    // `base64` is a file entry's last field, and base64 needs no escaping: it goes in a slice at a time.
    yield `${text.slice(0, -1)},"base64":"`
    yield* base64Slices(row.bytes, encode)
    yield '"}'
  }
  function* parts(): Generator<string> {
    yield `{"format":${JSON.stringify(WORLD_FORMAT)},"now":${JSON.stringify(now)}`
    yield* list('users', rows.users, one(([user, workspace]) => userEntry(user, workspace)))
    yield* list('workspaces', rows.workspaces, one(({ userId, record }) => worldWorkspace(userId, record)))
    yield* list('keys', rows.keys, one(worldKey))
    yield* list('files', rows.files, file)
    yield* list('models', rows.models, one(worldModel))
    yield* list('videoModels', rows.videoModels, one(worldModel))
    if (rows.presets.length > 0) yield* list('presets', rows.presets, one(worldPreset))
    if (rows.budgets.length > 0) yield* list('budgets', rows.budgets, one(worldBudget))
    if (rows.members.length > 0) yield* list('members', rows.members, one((member: MemberState) => worldMember(member, placesOf(data, member))))
    if (rows.guardrails.length > 0) yield* list('guardrails', rows.guardrails, one((guardrail: GuardrailState) => worldGuardrail(data, guardrail)))
    if (rows.byok.length > 0) yield* list('byok', rows.byok, one(worldByok))
    if (rows.activity.length > 0) yield* list('activity', rows.activity.flatMap((row) => worldActivity(data, row)), one((entry: WorldActivity) => entry))
    yield `,"handles":${handlesText}}`
  }
  return parts()
}
