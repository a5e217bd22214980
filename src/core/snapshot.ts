import { describe } from './describe.js'
import { SimulatorError, SimulatorErrorCode } from './errors.js'
import type { Version } from './store/versions.js'

/** The format tag every snapshot carries. */
export const SNAPSHOT_FORMAT = 'model-access-sim/snapshot@3'

/**
 * A state a simulator was in, as `sim.snapshot()` returns it: an opaque handle for `sim.restore()`
 * (decisions/0015 in the repository). It lives as long as you keep it and costs what changed since the previous one.
 * It belongs to the process that took it: a copy made with a spread, `structuredClone` or JSON is
 * not a snapshot. To carry a state to another process, use `sim.exportWorld()`.
 */
export interface SimulatorSnapshot {
  readonly format: typeof SNAPSHOT_FORMAT
  /** The simulator clock when the snapshot was taken, in epoch milliseconds. */
  readonly clockMs: number
  /** The seed of the simulator that took it. */
  readonly seed: number
}

class Snapshot implements SimulatorSnapshot {
  readonly format = SNAPSHOT_FORMAT
  readonly clockMs: number
  readonly seed: number
  readonly #version: Version

  constructor(version: Version, seed: number) {
    this.#version = version
    this.clockMs = version.clockMs
    this.seed = seed
    Object.freeze(this)
  }

  static versionOf(value: unknown): Version | undefined {
    return typeof value === 'object' && value !== null && #version in value ? (value as Snapshot).#version : undefined
  }
}

/** The handle of a version: the same object each time the same state is snapshotted. */
export function snapshotHandle(version: Version, seed: number): SimulatorSnapshot {
  return (version.handle ??= new Snapshot(version, seed)) as SimulatorSnapshot
}

/** The version a snapshot handle stands for, or a SimulatorError naming `snapshot`. */
export function versionOf(snapshot: unknown): Version {
  const version = Snapshot.versionOf(snapshot)
  if (version === undefined) {
    const copied = typeof snapshot === 'object' && snapshot !== null && (snapshot as { format?: unknown }).format !== undefined
    throw new SimulatorError(
      SimulatorErrorCode.InvalidSnapshot,
      `Failed to restore: "snapshot" must be a value sim.snapshot() returned, got ${describe(snapshot)}${
        copied ? ' (a copy of one: a spread, structuredClone or JSON does not carry the state; to move a state between processes use sim.exportWorld())' : ''
      }. Nothing was changed.`,
      { argument: 'snapshot' },
    )
  }
  return version
}
