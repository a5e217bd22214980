// The models of the embedded default world, built once per process and shared by every simulator
// that loads it (decisions/0041). A model row is a value: the store writes a new row, never into
// one (store/versions.ts), so simulators can hold the same frozen row. Only the embedded default
// world is shared: a spec a caller passes may be changed between two loads, the embedded one never.
import { deepFreeze } from '../json-data.js'
import type { ModelWithEndpoints } from '../types.js'

/** How many instants (`shift`s) a world's built models are kept for: a suite uses one or two. */
const SHIFTS_KEPT = 4

/** Built, checked and frozen models of one world spec, by the shift (ms) its instants were moved by. */
export class SharedModels {
  private readonly byShift = new Map<number, ReadonlyMap<string, ModelWithEndpoints>>()

  /** The models built for `shift` by an earlier load, by id, or undefined. */
  get(shift: number): ReadonlyMap<string, ModelWithEndpoints> | undefined {
    return this.byShift.get(shift)
  }

  /**
   * Keeps (a copy of the map of) the models a load built for `shift`, each frozen, so that a write
   * into one throws instead of reaching other simulators.
   */
  remember(shift: number, models: ReadonlyMap<string, ModelWithEndpoints>): void {
    if (this.byShift.size >= SHIFTS_KEPT) this.byShift.delete(this.byShift.keys().next().value as number)
    for (const model of models.values()) deepFreeze(model)
    this.byShift.set(shift, new Map(models))
  }
}
