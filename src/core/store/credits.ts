// An organisation's credits: what it bought, and what its keys spent, deleted keys included
// (decisions/0021). Both are kept in 10^-10 USD (core/usage.ts), so the sums are exact; the store
// holds them on the organisation's row, so snapshots, restore and reset cover them.
import type { Credits } from '../types.js'
import { type UsageWindows, bigUnitsToUsd, figuresAt } from '../usage.js'
import { ArgumentChecker, fieldsOf } from './check.js'
import { describe } from '../describe.js'
import { type StoreContext, windowsNow } from './context.js'
import type { StoreIndices, UserState } from './state.js'
import { put } from './versions.js'
import { creditFigure } from './users.js'
import { requireUser } from './workspaces.js'

export interface AddCreditsOptions {
  /** The organisation whose credits grow. */
  userId: string
  /** USD to add: a positive finite number, kept exactly to 10^-10 USD. */
  amount: number
}

/**
 * `sim.credits`: an organisation's credits, as `GET /credits` reports them. A new organisation has
 * none; `add` buys some. `total_usage` is what all its keys spent (their regular usage, not BYOK,
 * as of the simulator clock's now), the keys deleted since included.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator({ world: 'empty' })
 * const org = sim.users.create({ name: 'Acme' })
 * const { record } = sim.keys.create({ userId: org.id })
 * sim.credits.add({ userId: org.id, amount: 25 })
 * sim.usage.record({ keyHash: record.hash, cost: 0.1 })
 * sim.usage.record({ keyHash: record.hash, cost: 0.2 })
 * console.log(sim.credits.get(org.id))
 * //=> {"total_credits":25,"total_usage":0.3}
 */
export interface CreditCollection {
  /**
   * Adds `amount` USD to an organisation's credits and returns its `{ total_credits, total_usage }`.
   * An unknown user, an amount that is not a positive finite number (or rounds to less than
   * 10^-10 USD), or a field that is not one of {@link AddCreditsOptions} throws a SimulatorError
   * naming it, and adds nothing.
   */
  add(options: AddCreditsOptions): Credits
  /** An organisation's `{ total_credits, total_usage }`, as `GET /credits` reports them; an unknown user throws. */
  get(userId: string): Credits
}

const ADD_FIELDS = fieldsOf<AddCreditsOptions>({ userId: true, amount: true })

/**
 * What an organisation's keys spent as of `windows.nowMs`, in 10^-10 USD (a BigInt: a large
 * organisation's sum runs past the safe integers): the `usage` of each of
 * its keys, plus what its deleted keys had spent when they were deleted.
 */
export function organisationUsageUnits(ctx: StoreContext, user: UserState, windows: UsageWindows): bigint {
  // The last sum per organisation, kept on the indices (one simulator's, swapped whole by a restore
  // from another): it holds while no key changed (every put and remove of a key counts), the clock
  // reads the same and the organisation's row is the same object. The row matters on its own: a
  // restore to before a key was made and deleted changes no key, only the retired usage. A sum visits every key of the store: in
  // a 100,000-key world, tens of milliseconds that a test asking twice need not pay again.
  const indices = ctx.indices as StoreIndices & { [SUMS]?: Map<string, KeptSum> }
  const sums = (indices[SUMS] ??= new Map())
  const kept = sums.get(user.id)
  if (kept !== undefined && kept.epoch === indices.keysEpoch && kept.nowMs === windows.nowMs && kept.user === user) return kept.units
  const units = sumUsage(ctx, user, windows)
  sums.set(user.id, { epoch: indices.keysEpoch, nowMs: windows.nowMs, user, units })
  return units
}

/**
 * After a charge of `units` at `nowMs` to a key of `userId`, the one key change since epoch
 * `before`: the kept sum, when it was current, moves by the charge instead of being summed again
 * over every key of the store at the next request (a charge's record is at `nowMs`, so the sum at
 * `nowMs` grows by exactly its units; folding records keeps a key's total).
 */
export function noteCharge(ctx: StoreContext, userId: string, before: number, nowMs: number, units: number): void {
  const indices = ctx.indices as StoreIndices & { [SUMS]?: Map<string, KeptSum> }
  const kept = indices[SUMS]?.get(userId)
  if (kept === undefined || kept.epoch !== before || kept.nowMs !== nowMs || indices.keysEpoch !== before + 1) return
  kept.epoch = indices.keysEpoch
  kept.units += BigInt(units)
}

const SUMS = Symbol('organisation usage sums')

interface KeptSum {
  epoch: number
  nowMs: number
  user: UserState
  units: bigint
}

function sumUsage(ctx: StoreContext, user: UserState, windows: UsageWindows): bigint {
  // Summed as numbers while they stay safe integers (each key's total is one), as a BigInt after.
  let units = 0
  let big = user.retiredUnits
  for (const key of ctx.data.keys.values()) {
    if (key.userId !== user.id) continue
    units += figuresAt(key.usage, key.usageCount, windows).total
    if (units > Number.MAX_SAFE_INTEGER / 2) {
      big += BigInt(units)
      units = 0
    }
  }
  return big + BigInt(units)
}

/** The wire's credits of an organisation, as of the clock's now. */
export function creditsOf(ctx: StoreContext, userId: string): Credits {
  const user = ctx.data.users.get(userId) as UserState
  return { total_credits: bigUnitsToUsd(user.creditUnits), total_usage: bigUnitsToUsd(organisationUsageUnits(ctx, user, windowsNow(ctx))) }
}

export function createCreditCollection(ctx: StoreContext): CreditCollection {
  return {
    add(options) {
      const operation = 'add credits'
      const check: ArgumentChecker = new ArgumentChecker(operation)
      check.knownFields(check.object(options, 'options'), ADD_FIELDS, '', 'a credit purchase')
      const userId = requireUser(ctx, options.userId, operation)
      const amount = options.amount
      if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) {
        check.fail('amount', `must be a positive finite number of USD, got ${describe(amount)}`)
      }
      const units = creditFigure(check, amount, 'amount')
      if (units < 1n) check.fail('amount', `must be at least 0.0000000001 USD, the least kept, got ${amount}`)
      const user = ctx.data.users.get(userId) as UserState
      put(ctx, 'users', userId, { ...user, creditUnits: user.creditUnits + units })
      return creditsOf(ctx, userId)
    },
    get(userId) {
      return creditsOf(ctx, requireUser(ctx, userId, 'get credits'))
    },
  }
}

/**
 * What the organisation can still spend, in 10^-10 USD (the unit of usage records): its credits
 * less what its keys spent, never below 0; null for an organisation the store does not hold.
 */
export function creditsAvailable(ctx: StoreContext, userId: string): number | null {
  const user = ctx.data.users.get(userId)
  if (user === undefined) return null
  const left = user.creditUnits - organisationUsageUnits(ctx, user, windowsNow(ctx))
  return left <= 0n ? 0 : Number(left)
}
