// The store written back as a world spec: every value the creators would otherwise draw at random
// (ids, secrets, names, guardrails, endpoint figures) is written out, so that loading the spec
// rebuilds a store that answers every request as this one does (decisions/0013).
import { toBase64 } from '../base64.js'
import type { StoreData } from '../store/state.js'
import { UNITS_PER_USD, type UsageRecord } from '../usage.js'
import { WORLD_FORMAT, type WorldFile, type WorldKey, type WorldModel, type WorldSpec, type WorldUsageRecord, type WorldUser, type WorldVideoModel, type WorldWorkspace } from './spec.js'

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

export function exportWorld<Handles extends object>(data: StoreData, nowMs: number, handles: Handles): WorldSpec<Handles> {
  const users: WorldUser[] = []
  for (const user of data.users.values()) {
    const workspace = data.workspaces.get(user.defaultWorkspaceId)
    users.push({
      id: user.id,
      name: user.name,
      createdAt: iso(user.createdAt),
      defaultWorkspaceId: user.defaultWorkspaceId,
      ...(workspace && { defaultWorkspaceGuardrailId: workspace.record.default_guardrail_id }),
    })
  }
  const defaults = new Set([...data.users.values()].map((user) => user.defaultWorkspaceId))
  const workspaces: WorldWorkspace[] = []
  for (const { userId, record } of data.workspaces.values()) {
    if (defaults.has(record.id)) continue
    workspaces.push({
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
    })
  }
  const keys: WorldKey[] = []
  for (const key of data.keys.values()) {
    keys.push({
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
      usage: key.usage.slice(0, key.usageCount).flatMap(exportRecord),
    })
  }
  const files: WorldFile[] = []
  for (const file of data.files.values()) {
    files.push({
      id: file.id,
      userId: file.userId,
      workspaceId: file.workspaceId,
      origin: file.origin,
      // Left out when it is the default (the id), which may be longer than a filename may be.
      ...(file.filename !== file.id && { filename: file.filename }),
      ...(file.provider !== null && { provider: file.provider }),
      createdAt: iso(file.createdAt),
      base64: toBase64(file.bytes),
    })
  }
  const models: WorldModel[] = [...data.models.values()].map((model) => ({ ...structuredClone(model), created: iso(model.created * 1000) }))
  const videoModels: WorldVideoModel[] = [...data.videoModels.values()].map((model) => ({ ...structuredClone(model), created: iso(model.created * 1000) }))
  return { format: WORLD_FORMAT, now: iso(nowMs), users, workspaces, keys, files, models, videoModels, handles: structuredClone(handles) }
}
