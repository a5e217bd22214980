// Step 9 of the money path: every completion leaves a generation, readable by its organisation
// through `GET /generation?id=`. They are rows of the store (so snapshots, restore and reset cover
// them), and the store keeps only the latest GENERATION_LIMIT: memory stays bounded however many
// requests a simulator serves (decisions/0024).
import type { StoreContext } from '../store/context.js'
import { put, remove } from '../store/versions.js'
import type { Generation } from './wire.js'

/** How many generations a simulator keeps; the oldest goes when one more is recorded (then its id is 404). */
export const GENERATION_LIMIT = 10_000

/** A generation as the store holds it (a value: never changed in place). */
export interface GenerationState {
  /** Order of recording: the smallest is the oldest. */
  readonly seq: number
  readonly userId: string
  readonly keyHash: string
  /** The exact cost, as `estimateCost` gives it. */
  readonly cost: string
  /** The cost charged to the key, in 10^-10 USD. */
  readonly units: number
  readonly wire: Generation
}

/** Stores a generation, letting the oldest go once more than `limit` are kept. */
export function recordGeneration(ctx: StoreContext, state: Omit<GenerationState, 'seq'>, limit = GENERATION_LIMIT): GenerationState {
  const newest = ctx.indices.generationOrder.pageFromEnd(0, 1)[0]
  // Written out rather than spread from `state`: a spread here was a tenth of recording one.
  const row: GenerationState = { seq: newest === undefined ? 1 : newest.seq + 1, userId: state.userId, keyHash: state.keyHash, cost: state.cost, units: state.units, wire: state.wire }
  put(ctx, 'generations', row.wire.id, row)
  const order = ctx.indices.generationOrder
  while (order.size > limit) {
    const oldest = order.pageFromEnd(order.size - 1, 1)[0] as GenerationState
    remove(ctx, 'generations', oldest.wire.id)
  }
  return row
}

/** The generation of that id if it belongs to the organisation; undefined otherwise. */
export function generationOf(ctx: StoreContext, id: string, userId: string): GenerationState | undefined {
  const row = ctx.data.generations.get(id)
  return row !== undefined && row.userId === userId ? row : undefined
}
