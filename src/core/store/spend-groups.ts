// What a group of keys spent (a workspace's keys, for its budgets; a member's keys, for the member's
// guardrail limit), kept as they spend (decisions/0060): admission read every key of the group on
// every request, so a workspace of 10,000 keys with a budget cost 27 ms a request. The sums are
// made once, by reading every key, and from then on only the keys written since are read again: a
// request charges one key, and admission reads that one.
import { figuresAt, figuresHoldUntil, type UsageFigures, type UsageRecord, type UsageWindows } from '../usage.js'

/**
 * What the groups read of a key: the store's key state has these fields (declared here, not
 * imported: the store's state module keeps the groups, and a type import back would be a circle).
 */
interface SpendKey {
  readonly hash: string
  readonly userId: string
  readonly workspaceId: string
  readonly creatorUserId: string | null
  readonly management: boolean
  readonly usage: readonly UsageRecord[]
  readonly usageCount: number
}

/** The group of a workspace's keys: every listable key of it (every key but management keys, disabled ones included). */
export const workspaceGroup = (workspaceId: string): string => `w\u0000${workspaceId}`

/** The group of a member's keys: the keys of the organisation whose `creatorUserId` is the member. */
export const memberGroup = (userId: string, memberId: string): string => `m\u0000${userId}\u0000${memberId}`

/** One group's sums at an instant, and each key's share of them. */
interface Spend {
  day: number
  week: number
  month: number
  /** The instant the sums are for. */
  nowMs: number
  /** Until when (exclusive) no key's figures change without a write: the earliest record dated after `nowMs`. */
  next: number
  sums: UsageFigures
  /** Each counted key's figures as they were added to the sums (copies: `figuresAt`'s own object changes). */
  shares: Map<string, UsageFigures>
  /** Keys written since the sums were made. */
  dirty: Set<string>
}

const FIELDS = ['total', 'daily', 'weekly', 'monthly', 'byokTotal', 'byokDaily', 'byokWeekly', 'byokMonthly'] as const
type SpendField = (typeof FIELDS)[number]

const zero = (): UsageFigures => ({ total: 0, daily: 0, weekly: 0, monthly: 0, byokTotal: 0, byokDaily: 0, byokWeekly: 0, byokMonthly: 0 })

/** Which keys a group counts, and where to find them all when its sums are made whole. */
export interface SpendGroup {
  /** Its id: {@link workspaceGroup} or {@link memberGroup}. */
  id: string
  /** Whether a key belongs to it (only keys that exist are asked). */
  counts(key: SpendKey): boolean
  /** The hashes of every key that may belong to it. */
  candidates(): Iterable<string>
}

/**
 * The spend of the groups of keys whose limits have been checked, in 10^-10 USD, kept in step with
 * their keys ({@link SpendGroups.keyChanged} is told of every write to a key). Part of the store's
 * indices: never snapshotted, made afresh with them.
 */
export class SpendGroups {
  private readonly spends = new Map<string, Spend>()

  /** A key was made, written or deleted: the groups it belongs to read it again. */
  keyChanged(key: SpendKey): void {
    if (this.spends.size === 0) return
    this.spends.get(workspaceGroup(key.workspaceId))?.dirty.add(key.hash)
    if (key.creatorUserId !== null) this.spends.get(memberGroup(key.userId, key.creatorUserId))?.dirty.add(key.hash)
  }

  /** Keys were loaded all at once (a world load): every group's sums are made again when next asked. */
  forgetAll(): void {
    this.spends.clear()
  }

  /**
   * The sums of the figures of the group's keys at `windows` (a deleted key's spend leaves with
   * it). The answer is shared: read it, never change it.
   */
  at(group: SpendGroup, keys: ReadonlyMap<string, SpendKey>, windows: UsageWindows): Readonly<UsageFigures> {
    const spend = this.spends.get(group.id)
    if (spend !== undefined && spend.day === windows.day && spend.week === windows.week && spend.month === windows.month && windows.nowMs >= spend.nowMs && windows.nowMs < spend.next) {
      // No key's records fell due in between: only the keys written since can differ.
      spend.nowMs = windows.nowMs
      for (const hash of spend.dirty) this.recount(spend, hash, keys.get(hash), group, windows)
      spend.dirty.clear()
      return spend.sums
    }
    const fresh: Spend = { day: windows.day, week: windows.week, month: windows.month, nowMs: windows.nowMs, next: Number.POSITIVE_INFINITY, sums: zero(), shares: new Map(), dirty: new Set() }
    for (const hash of group.candidates()) this.recount(fresh, hash, keys.get(hash), group, windows)
    this.spends.set(group.id, fresh)
    return fresh.sums
  }

  /** Replaces the key's share of the sums with its figures now (none when it is gone or not the group's). */
  private recount(spend: Spend, hash: string, key: SpendKey | undefined, group: SpendGroup, windows: UsageWindows): void {
    // Indexed loops: this runs for the charged key on every governed request, mostly before the JIT
    // has compiled it, where `for...of` costs an iterator and its results per field (decisions/0033).
    const sums = spend.sums
    const before = spend.shares.get(hash)
    if (before !== undefined) {
      for (let i = 0; i < FIELDS.length; i++) {
        const field = FIELDS[i] as SpendField
        sums[field] -= before[field]
      }
      spend.shares.delete(hash)
    }
    if (key === undefined || key.usageCount === 0 || !group.counts(key)) return
    const f = figuresAt(key.usage, key.usageCount, windows)
    const share = zero()
    for (let i = 0; i < FIELDS.length; i++) {
      const field = FIELDS[i] as SpendField
      share[field] = f[field]
      sums[field] += f[field]
    }
    spend.shares.set(hash, share)
    const until = figuresHoldUntil(key.usage)
    if (until < spend.next) spend.next = until
  }
}
