// What a group of keys spent is kept as its keys spend (decisions/0060), not summed over every key
// at each admission: a workspace's keys (its budgets) and a member's keys (the member's guardrail
// limit). Model-based: random sequences of charges, recorded usage (BYOK too, past and future
// dated), keys made (for one member or another), disabled and deleted, keys of another workspace,
// clock moves across UTC day, week and month boundaries (and back), snapshots and restores. After
// each step the budget's spend for every interval is the exact sum of the figures of the
// workspace's keys, as each key reports them; and a request of the member is refused by its
// guardrail exactly when what the member's keys report they spent today reaches the limit.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { toUnits } from '../../src/core/usage.js'
import { runs } from '../support/runs.js'

const MODEL = 'acme/chat'
const INTERVALS = ['daily', 'weekly', 'monthly', 'lifetime'] as const
/** The held member's daily limit, in USD: a few requests' worth, so that sequences reach it. */
const MEMBER_LIMIT = 0.0002

function world(includeByok: boolean) {
  const sim = createSimulator({ world: 'empty', seed: 3, now: '2026-03-02T10:00:00Z' })
  const org = sim.users.create({ name: 'Acme', credits: { total: 1_000_000 } })
  const workspace = sim.workspaces.create({ userId: org.id, name: 'Agents', slug: 'agents' })
  const other = sim.workspaces.create({ userId: org.id, name: 'Other', slug: 'other' })
  sim.models.create({ id: MODEL, endpoints: [{ provider_name: 'Alpha', pricing: { prompt: '0.0000013', completion: '0.0000027' } }] })
  // A budget far off, so that every request is admitted: the spend it reads is what is checked.
  sim.budgets.set({ workspace: workspace.id, interval: 'lifetime', limitUsd: 500_000, includeByokInBudgets: includeByok })
  // A member held to a daily limit by a guardrail, and another member not held.
  const member = sim.members.add({ userId: org.id, id: 'user_held' }).id
  const free = sim.members.add({ userId: org.id, id: 'user_free' }).id
  const guardrail = sim.guardrails.create({ userId: org.id, rules: { name: 'Member cap', limit_usd: MEMBER_LIMIT, reset_interval: 'daily', include_byok_in_budgets: includeByok } })
  sim.guardrails.assignMembers(guardrail.id, [member])
  return { sim, org: org.id, workspace: workspace.id, other: other.id, members: [member, free] as const }
}

/** What the keys of `workspace` report they spent, summed as integers of 10^-10 USD: the reference. */
function reference(sim: Sim, workspace: string, includeByok: boolean): Record<(typeof INTERVALS)[number], number> {
  const sums = { daily: 0, weekly: 0, monthly: 0, lifetime: 0 }
  for (const key of sim.keys.list()) {
    if (key.workspace_id !== workspace) continue
    sums.daily += toUnits(key.usage_daily) + (includeByok ? toUnits(key.byok_usage_daily) : 0)
    sums.weekly += toUnits(key.usage_weekly) + (includeByok ? toUnits(key.byok_usage_weekly) : 0)
    sums.monthly += toUnits(key.usage_monthly) + (includeByok ? toUnits(key.byok_usage_monthly) : 0)
    sums.lifetime += toUnits(key.usage) + (includeByok ? toUnits(key.byok_usage) : 0)
  }
  return sums
}

type Sim = ReturnType<typeof world>['sim']

/** What the keys naming `member` as creator report they spent today, in 10^-10 USD. */
function memberToday(sim: Sim, member: string, includeByok: boolean): number {
  let sum = 0
  for (const key of sim.keys.list()) if (key.creator_user_id === member) sum += toUnits(key.usage_daily) + (includeByok ? toUnits(key.byok_usage_daily) : 0)
  return sum
}

type Step =
  | { kind: 'chat'; key: number; words: number }
  | { kind: 'member chat'; key: number }
  | { kind: 'record'; key: number; cost: number; byok: boolean; offsetMs: number }
  | { kind: 'make'; where: 'workspace' | 'other'; daily: number; member: number }
  | { kind: 'disable'; key: number }
  | { kind: 'delete'; key: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'snapshot' }
  | { kind: 'restore' }

const HOUR = 3_600_000
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('chat' as const), key: fc.nat(9), words: fc.integer({ min: 1, max: 40 }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('record' as const),
      key: fc.nat(9),
      cost: fc.integer({ min: 1, max: 5_000_000 }).map((units) => units / 1e10),
      byok: fc.boolean(),
      // Mostly now, sometimes in the past (inside or outside the windows) or dated ahead (due later).
      offsetMs: fc.oneof(fc.constant(0), fc.integer({ min: -40 * 24 * HOUR, max: 3 * 24 * HOUR })),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('member chat' as const), key: fc.nat(9) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('make' as const),
      where: fc.constantFrom('workspace' as const, 'other' as const),
      daily: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3_000 }).map((units) => units / 1e7)),
      // 0: the held member, 1: the other member, 2: the organisation itself (the default creator).
      member: fc.nat(2),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('disable' as const), key: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), key: fc.nat(9) }) },
  // Across hours, a UTC day, a week or a month; now and then back.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.oneof(fc.integer({ min: 1, max: 6 * HOUR }), fc.integer({ min: 20 * HOUR, max: 9 * 24 * HOUR }), fc.integer({ min: 28 * 24 * HOUR, max: 33 * 24 * HOUR }), fc.integer({ min: -30 * HOUR, max: -1 })) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'snapshot' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restore' as const }) },
)

function run(steps: readonly Step[], includeByok: boolean): void {
  const { sim, org, workspace, other, members } = world(includeByok)
  const keys: { hash: string; secret: string; member: string }[] = []
  const make = (where: string, daily: number, creator: string) => {
    const made = sim.keys.create({ userId: org, workspaceId: where, name: `k${keys.length}`, creatorUserId: creator, ...(daily > 0 && { usage: { daily } }) })
    keys.push({ hash: made.record.hash, secret: made.key, member: creator })
  }
  const creatorOf = (i: number) => (i === 0 ? members[0] : i === 1 ? members[1] : org)
  make(workspace, 0, members[0])
  make(workspace, 0.00015, members[1])
  make(other, 0, members[0])
  let snapshot: ReturnType<Sim['snapshot']> | undefined
  const pick = (i: number) => keys[i % keys.length] as { hash: string; secret: string; member: string }
  const present = (hash: string) => sim.keys.get(hash) !== undefined
  for (const [n, s] of steps.entries()) {
    switch (s.kind) {
      case 'chat': {
        const key = pick(s.key)
        const res = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key.secret}`, body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'word '.repeat(s.words) }] }) })
        // Served, or refused for a key that is gone or disabled: nothing else.
        expect([200, 401, 403]).toContain(res.status)
        break
      }
      case 'record': {
        const key = pick(s.key)
        if (present(key.hash)) sim.usage.record({ keyHash: key.hash, cost: s.cost, byok: s.byok, at: sim.clock.nowMs() + s.offsetMs })
        break
      }
      case 'make':
        make(s.where === 'workspace' ? workspace : other, s.daily, creatorOf(s.member))
        break
      case 'member chat': {
        // A key of the held member that can be used, if there is one: refused by the member's guardrail exactly at its limit.
        const held = keys.filter((k) => k.member === members[0] && sim.keys.get(k.hash)?.disabled === false)
        const key = held[s.key % Math.max(held.length, 1)]
        if (key === undefined) break
        const reached = memberToday(sim, members[0], includeByok) >= toUnits(MEMBER_LIMIT)
        const res = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key.secret}`, body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }) })
        const reason = (res.body as { error?: { metadata?: { reason?: string } } }).error?.metadata?.reason
        expect({ status: res.status, reason }, `step ${n}: the member has ${reached ? '' : 'not '}reached its limit`).toEqual(reached ? { status: 403, reason: 'guardrail_limit_exceeded' } : { status: 200, reason: undefined })
        break
      }
      case 'disable': {
        const key = pick(s.key)
        if (present(key.hash)) sim.keys.update(key.hash, { disabled: true })
        break
      }
      case 'delete': {
        const key = pick(s.key)
        if (present(key.hash)) sim.keys.delete(key.hash)
        break
      }
      case 'advance':
        // Back in time only by setting the clock.
        if (s.ms >= 0) sim.clock.advance(s.ms)
        else sim.clock.set(sim.clock.nowMs() + s.ms)
        break
      case 'snapshot':
        snapshot = sim.snapshot()
        break
      case 'restore':
        if (snapshot !== undefined) sim.restore(snapshot)
        break
    }
    const expected = reference(sim, workspace, includeByok)
    for (const interval of INTERVALS) {
      expect(toUnits(sim.budgets.spent(workspace, interval)), `${interval} after step ${n} (${JSON.stringify(s)})`).toBe(expected[interval])
    }
  }
}

describe("a workspace's spend, kept as its keys spend", () => {
  it('is the exact sum of its keys\' figures after any sequence of charges, usage, key changes, clock moves and restores', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), fc.boolean(), (steps, includeByok) => run(steps, includeByok)),
      { numRuns: runs(200), verbose: 1 },
    )
  })

  it('counts a charge to a key of the workspace at once, and none of another workspace', () => {
    const { sim, org, workspace, other } = world(false)
    const mine = sim.keys.create({ userId: org, workspaceId: workspace, name: 'mine' })
    const theirs = sim.keys.create({ userId: org, workspaceId: other, name: 'theirs' })
    expect(sim.budgets.spent(workspace, 'daily')).toBe(0)
    sim.usage.record({ keyHash: mine.record.hash, cost: 0.25 })
    sim.usage.record({ keyHash: theirs.record.hash, cost: 7 })
    expect(sim.budgets.spent(workspace, 'daily')).toBe(0.25)
    sim.usage.record({ keyHash: mine.record.hash, cost: 0.5 })
    expect(sim.budgets.spent(workspace, 'daily')).toBe(0.75)
    // A deleted key's spend leaves with it (decisions/0052).
    sim.keys.delete(mine.record.hash)
    expect(sim.budgets.spent(workspace, 'daily')).toBe(0)
    expect(sim.budgets.spent(other, 'daily')).toBe(7)
  })
})
