// What each workspace's keys spent, kept as they spend (decisions/0060): a budget's admission check
// read every key of the workspace on every request, so a workspace of 10,000 keys with a budget
// cost 27 ms a request. The sums are made once, by reading every key, and from then on only the
// keys changed since are read again: a request charges one key, and admission reads that one.
import { figuresAt, figuresHoldUntil, type UsageFigures, type UsageWindows } from '../usage.js'
import type { KeyIndex, KeyState } from './state.js'

/** One workspace's sums at an instant, and each key's share of them. */
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

const zero = (): UsageFigures => ({ total: 0, daily: 0, weekly: 0, monthly: 0, byokTotal: 0, byokDaily: 0, byokWeekly: 0, byokMonthly: 0 })

/**
 * The spend of the workspaces whose budgets have been checked, in 10^-10 USD, kept in step with
 * their keys ({@link WorkspaceSpends.keyChanged} is told of every write to a key). Part of the
 * store's indices: never snapshotted, made afresh with them.
 */
export class WorkspaceSpends {
  private readonly spends = new Map<string, Spend>()

  /** A key of `workspaceId` was made, written or deleted. */
  keyChanged(workspaceId: string, hash: string): void {
    this.spends.get(workspaceId)?.dirty.add(hash)
  }

  /** Keys were loaded into `workspaceId` all at once (a world load): its sums are made again when next asked. */
  forget(workspaceId: string): void {
    this.spends.delete(workspaceId)
  }

  /**
   * The sums of the figures of every listable key of the workspace (every key but management keys,
   * disabled ones included; a deleted key's spend leaves with it) at `windows`. The answer is shared:
   * read it, never change it.
   */
  at(workspaceId: string, index: KeyIndex | undefined, keys: ReadonlyMap<string, KeyState>, windows: UsageWindows): Readonly<UsageFigures> {
    const spend = this.spends.get(workspaceId)
    if (spend !== undefined && spend.day === windows.day && spend.week === windows.week && spend.month === windows.month && windows.nowMs >= spend.nowMs && windows.nowMs < spend.next) {
      // No key's records fell due in between: only the keys written since can differ.
      spend.nowMs = windows.nowMs
      for (const hash of spend.dirty) this.recount(spend, hash, keys.get(hash), workspaceId, windows)
      spend.dirty.clear()
      return spend.sums
    }
    const fresh: Spend = { day: windows.day, week: windows.week, month: windows.month, nowMs: windows.nowMs, next: Number.POSITIVE_INFINITY, sums: zero(), shares: new Map(), dirty: new Set() }
    if (index !== undefined) {
      for (const order of index.all.pageFromEnd(0, index.all.size)) this.recount(fresh, order.hash, keys.get(order.hash), workspaceId, windows)
    }
    this.spends.set(workspaceId, fresh)
    return fresh.sums
  }

  /** Replaces the key's share of the sums with its figures now (none when it is gone, moved or a management key). */
  private recount(spend: Spend, hash: string, key: KeyState | undefined, workspaceId: string, windows: UsageWindows): void {
    const before = spend.shares.get(hash)
    if (before !== undefined) {
      for (const field of FIELDS) spend.sums[field] -= before[field]
      spend.shares.delete(hash)
    }
    if (key === undefined || key.management || key.workspaceId !== workspaceId || key.usageCount === 0) return
    const f = figuresAt(key.usage, key.usageCount, windows)
    const share = zero()
    for (const field of FIELDS) {
      share[field] = f[field]
      spend.sums[field] += f[field]
    }
    spend.shares.set(hash, share)
    const until = figuresHoldUntil(key.usage)
    if (until < spend.next) spend.next = until
  }
}
