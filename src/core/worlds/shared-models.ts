// The models of the embedded default world, made once per process (each when first read) and
// shared by every simulator that loads it (decisions/0041, 0066). A model row is a value: the
// store writes a new row, never into one (store/versions.ts), so simulators can hold the same
// frozen row. Only the embedded default world is shared: a spec a caller passes may be changed
// between two loads, the embedded one never.
import type { ModelTable } from '../store/model-table.js'

/** How many instants (`shift`s) a world's built models are kept for: a suite uses one or two. */
const SHIFTS_KEPT = 4

/**
 * The models of one world spec, by the shift (ms) its instants were moved by: a table whose rows
 * are made and frozen on first read (decisions/0066), so that a write into one throws instead of
 * reaching other simulators.
 */
export class SharedModels {
  private readonly byShift = new Map<number, ModelTable>()

  /** `models` reads the world's models: each id, in order, with what reads the model's spec (a `WorldModel`). */
  constructor(readonly models: () => readonly (readonly [id: string, read: () => object])[]) {}

  /** The table kept for `shift` by an earlier load, or undefined. */
  get(shift: number): ModelTable | undefined {
    return this.byShift.get(shift)
  }

  /** Keeps `models` for `shift`: its rows must be frozen when made. Loads copy it (`ModelTable.copy`). */
  remember(shift: number, models: ModelTable): void {
    if (this.byShift.size >= SHIFTS_KEPT) this.byShift.delete(this.byShift.keys().next().value as number)
    this.byShift.set(shift, models)
  }
}
