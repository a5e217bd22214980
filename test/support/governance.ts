// For the fixture and arbitrary tests of the governance records (decisions/0051, 0052, 0054): a
// world spec that holds one record, loaded into a fresh simulator, and the record read back over
// the wire. The worlds carry only the models that name the catalog's model ids and provider slugs
// the records use (found once from the default world), so a load stays cheap over 200 seeds.
import { expect } from 'vitest'
import { type WorldSpec, createSimulator, maskSecret } from '../../src/index.js'
import type { ByokKey, Guardrail, OrganizationMember, WorkspaceBudget } from '../../src/index.js'
import { providerSlug } from '../../src/core/store/catalog.js'
import { BYOK_PROVIDERS, GOVERNED_MODELS, GOVERNED_PROVIDERS } from '../../src/fixtures/internal/governance.js'

const NOW = '2026-03-02T10:00:00Z'
/** The organisation each world is for, and its management key (the governance routes need one). */
export const ORG = 'user_2governanceOrganisation0001'
const MANAGEMENT = `sk-or-v1-${'c'.repeat(64)}`

type WorldModels = NonNullable<WorldSpec['models']>

/** The default world's models that the records can name: theirs, and one per provider slug they use. */
function governedModels(): WorldModels {
  const all = createSimulator().exportWorld().models ?? []
  const ids = new Set<string>([...GOVERNED_MODELS, ...BYOK_PROVIDERS.flatMap((p) => p.models)])
  const chosen = all.filter((m) => ids.has(m.id))
  const covered = new Set(chosen.flatMap((m) => (m.endpoints ?? []).map((e) => providerSlug(String(e.provider_name ?? '')))))
  for (const slug of GOVERNED_PROVIDERS) {
    if (covered.has(slug)) continue
    const model = all.find((m) => (m.endpoints ?? []).some((e) => providerSlug(String(e.provider_name ?? '')) === slug))
    if (model === undefined) throw new Error(`no model of the default world is served by ${slug}`)
    chosen.push(model)
    for (const e of model.endpoints ?? []) covered.add(providerSlug(String(e.provider_name ?? '')))
  }
  return chosen
}
let models: WorldModels | undefined

/** A world of one organisation (its default workspace `workspace`, when given) with `extra` lists. */
function worldWith(workspace: string | null, extra: Partial<WorldSpec>): WorldSpec {
  models ??= governedModels()
  return {
    format: 'model-access-sim/world@1',
    now: NOW,
    models,
    users: [{ id: ORG, ...(workspace === null ? {} : { defaultWorkspaceId: workspace }) }],
    keys: [{ userId: ORG, name: 'Management', secret: MANAGEMENT, management: true }],
    ...extra,
  }
}

/** GET `path` as the organisation's management key: the 200 body. */
function read(spec: WorldSpec, path: string): unknown {
  const sim = createSimulator({ world: spec })
  const res = sim.handle({ method: 'GET', path, authorization: `Bearer ${MANAGEMENT}` })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}

/** The guardrail as a world spec holds it (`sim.guardrails.create`'s options, the rules as the wire names them). */
export function guardrailWorld(g: Guardrail): WorldSpec {
  const { id, workspace_id, created_at, updated_at, ...rules } = g
  return worldWith(workspace_id, { guardrails: [{ userId: ORG, id, workspaceId: workspace_id, rules, createdAt: created_at, updatedAt: updated_at }] })
}

/** The guardrail loaded through a world spec, as `GET /guardrails/{id}` answers it. */
export function guardrailReadBack(g: Guardrail): unknown {
  return read(guardrailWorld(g), `/guardrails/${g.id}`)
}

/** The budget as a world spec holds it (`sim.budgets.set`'s options); its workspace the organisation's default. */
export function budgetWorld(b: WorkspaceBudget): WorldSpec {
  return worldWith(b.workspace_id, {
    budgets: [{ workspace: b.workspace_id, interval: b.reset_interval ?? 'lifetime', limitUsd: b.limit_usd, id: b.id, createdAt: b.created_at, updatedAt: b.updated_at }],
  })
}

/** The budget loaded through a world spec, as `GET /workspaces/{id}/budgets/{interval}` answers it. */
export function budgetReadBack(b: WorkspaceBudget): unknown {
  return read(budgetWorld(b), `/workspaces/${b.workspace_id}/budgets/${b.reset_interval ?? 'lifetime'}`)
}

/**
 * A raw key that masks to `label`. The record carries only the mask, so the world is given a key
 * of the same head and tail, long enough that `maskSecret` shows exactly those: the secret itself
 * cannot go through a world spec from the record, only a key indistinguishable on the wire.
 */
export function secretFor(label: string): string {
  const [head = '', tail = ''] = label.split('...')
  const secret = `${head}${'x'.repeat(24)}${tail}`
  expect(maskSecret(secret)).toBe(label)
  return secret
}

/** The credential as a world spec holds it (`sim.byok.create`'s options); its workspace the organisation's default. */
export function byokWorld(k: ByokKey): WorldSpec {
  return worldWith(k.workspace_id, {
    byok: [{
      userId: ORG, id: k.id, provider: k.provider, key: secretFor(k.label), workspace: k.workspace_id, name: k.name ?? null,
      allowedApiKeyHashes: k.allowed_api_key_hashes, allowedModels: k.allowed_models, allowedUserIds: k.allowed_user_ids, declaredZdr: k.declared_zdr,
      disabled: k.disabled, isByokOnly: k.is_byok_only, isFallback: k.is_fallback, isRequired: k.is_required, sortOrder: k.sort_order, createdAt: k.created_at,
    }],
  })
}

/** The credential loaded through a world spec, as `GET /byok/{id}` answers it. */
export function byokReadBack(k: ByokKey): unknown {
  return read(byokWorld(k), `/byok/${k.id}`)
}

/** The member as a world spec holds it (`sim.members.add`'s options), in the organisation {@link ORG}. */
export function memberWorld(m: OrganizationMember): WorldSpec {
  return worldWith(null, {
    members: [{ userId: ORG, id: m.id, email: m.email, firstName: m.first_name, lastName: m.last_name, role: m.role === 'org:admin' ? 'admin' : 'member' }],
  })
}

/** The member loaded through a world spec, as `GET /organization/members` lists it after the owner. */
export function memberReadBack(m: OrganizationMember): unknown {
  const body = read(memberWorld(m), '/organization/members') as { data: unknown[]; total_count: number }
  expect(body.total_count).toBe(2)
  return body.data[1]
}
