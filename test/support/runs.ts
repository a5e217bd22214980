// How many runs a property or a fuzz campaign makes (decisions/0035). CI runs every property and
// campaign at its full depth; a developer's `npm test` runs a quarter of each, so that the whole
// suite stays within a few minutes on two cores. FULL_RUNS=1 (or CI=true) gives the full depth
// locally. A seeded property or campaign runs a prefix of its full run: what fails locally fails
// in CI, and fast-check prints the seed and path of a failure either way.

/** True in CI (CI set to anything but "false" or "0") and with FULL_RUNS=1: every run at full depth. */
export const FULL_RUNS = isSet(process.env['CI']) || isSet(process.env['FULL_RUNS'])

/** The share of the full count a local run makes. */
export const LOCAL_SHARE = 0.25

/** The fewest runs a local run makes of a property (fewer only when the full count is fewer). */
export const LOCAL_FLOOR = 20

/**
 * `full` in CI or with FULL_RUNS=1; otherwise a quarter of it (rounded up), and never fewer than
 * `floor` (or `full`, when that is smaller).
 */
export function runs(full: number, floor: number = LOCAL_FLOOR): number {
  if (FULL_RUNS) return full
  return Math.max(Math.min(full, floor), Math.ceil(full * LOCAL_SHARE))
}

/**
 * A threshold counted over `full` runs (how often a generator reached a case), scaled to the runs
 * this run makes: the same share of them. Exactly `threshold` at full depth.
 */
export function scaled(threshold: number, full: number, made: number = runs(full)): number {
  return made === full ? threshold : Math.floor((threshold * made) / full)
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false'
}
