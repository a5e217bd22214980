import { describe } from '../describe.js'
import { invalidArgument } from '../errors.js'

export { describe }

/** Argument checks for the programmatic API; each throws a SimulatorError naming the argument. */
export class ArgumentChecker {
  constructor(private readonly operation: string) {}

  fail(argument: string, problem: string): never {
    throw invalidArgument(this.operation, argument, problem)
  }

  object(value: unknown, argument: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(argument, 'must be an options object')
    return value as Record<string, unknown>
  }

  string(value: unknown, argument: string, pattern?: RegExp, patternHint?: string): string {
    if (typeof value !== 'string' || value.length === 0) this.fail(argument, `must be a non-empty string, got ${describe(value)}`)
    if (pattern && !pattern.test(value)) this.fail(argument, `must match ${patternHint ?? String(pattern)}, got ${JSON.stringify(value)}`)
    return value
  }

  boolean(value: unknown, argument: string): boolean {
    if (typeof value !== 'boolean') this.fail(argument, `must be a boolean, got ${describe(value)}`)
    return value
  }

  nonNegative(value: unknown, argument: string): number {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      this.fail(argument, `must be a non-negative finite number, got ${describe(value)}`)
    }
    return value
  }

  positiveInteger(value: unknown, argument: string): number {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
      this.fail(argument, `must be a positive integer, got ${describe(value)}`)
    }
    return value
  }

  oneOf<T extends string | number>(value: unknown, allowed: readonly T[], argument: string): T {
    if (!allowed.includes(value as T)) this.fail(argument, `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, got ${describe(value)}`)
    return value as T
  }
}


export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
