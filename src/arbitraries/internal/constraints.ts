import { describe } from '../../core/describe.js'
import { SimulatorError, SimulatorErrorCode } from '../../core/errors.js'
import { unknownField } from '../../core/store/check.js'

/** A contract violation in a constraints object, said the way the project says errors. */
export function invalidConstraint(arbitrary: string, argument: string, reason: string, fix: string): SimulatorError {
  return new SimulatorError(SimulatorErrorCode.InvalidArgument, `Failed to build the ${arbitrary} arbitrary: ${reason}. Please ${fix}.`, { argument })
}

/**
 * Refuses constraints that are not an object, and a constraint the arbitrary does not have: a
 * misspelt one (`hasLimt`) would otherwise be ignored, and the property test would quietly range
 * over values it meant to exclude.
 */
export function checkConstraints(arbitrary: string, constraints: unknown, known: ReadonlySet<string>): void {
  if (typeof constraints !== 'object' || constraints === null || Array.isArray(constraints)) {
    throw invalidConstraint(arbitrary, 'constraints', `the constraints must be an object, got ${describe(constraints)}`, 'pass an object such as {}, or nothing')
  }
  const field = unknownField(constraints, known)
  if (field !== undefined) {
    throw invalidConstraint(arbitrary, field, `${JSON.stringify(field)} is not a constraint of ${arbitrary}`, `pass only ${[...known].join(', ')}`)
  }
}

/** A count constraint: a non-negative safe integer, or the fallback when absent. */
function count(arbitrary: string, name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value < 0) {
    throw invalidConstraint(arbitrary, name, `${name} must be a non-negative integer, got ${String(value)}`, `pass a whole number such as 0 or 3`)
  }
  return value
}

/** A min/max pair of counts, checked for order. */
export function countRange(
  arbitrary: string,
  names: readonly [string, string],
  values: readonly [number | undefined, number | undefined],
  fallbacks: readonly [number, number],
): [number, number] {
  const min = count(arbitrary, names[0], values[0], fallbacks[0])
  const max = count(arbitrary, names[1], values[1], Math.max(min, fallbacks[1]))
  if (min > max) {
    throw invalidConstraint(arbitrary, names[0], `${names[0]} (${min}) is greater than ${names[1]} (${max})`, `pass ${names[0]} <= ${names[1]}`)
  }
  return [min, max]
}
