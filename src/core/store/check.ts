import { describe } from '../describe.js'
import { invalidArgument } from '../errors.js'


/**
 * The first own enumerable field of `value` whose name is not in `known`, or undefined. Only the
 * names count: a known field whose value is `undefined` is fine, an unknown one is not. Allocates
 * nothing, so a loader can run it on every entity of a large world.
 */
export function unknownField(value: object, known: ReadonlySet<string>): string | undefined {
  for (const field in value) {
    if (!known.has(field) && Object.hasOwn(value, field)) return field
  }
  return undefined
}

/**
 * The field names of an options type, for {@link ArgumentChecker.knownFields}: listing each field of
 * `T` once, and no other, is checked by the compiler, so the set cannot drift from the type.
 */
export function fieldsOf<T extends object>(fields: { readonly [K in keyof Required<T>]: true }): ReadonlySet<string> {
  return new Set(Object.keys(fields))
}

/** The fields of `Omit<T, ...omitted>`, from the fields of `T` ({@link fieldsOf}): `fields` without `omitted`. */
export function withoutFields<T extends object>(fields: ReadonlySet<string>, ...omitted: (keyof T & string)[]): ReadonlySet<string> {
  return new Set([...fields].filter((field) => !(omitted as string[]).includes(field)))
}

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

  /**
   * Refuses an own enumerable field of `value` not in `known` (decisions/0005: a typo in a fixture
   * fails loudly). `at` is the path of `value` (`usage`, `world.keys[3]`), or '' for the options
   * themselves, whose fields are named bare (`disabeld`); `what` says what `value` is (`a key`).
   * The error names the field's path and lists the known fields. `root` names the options for a
   * field with an empty name when `at` is ''.
   */
  knownFields(value: object, known: ReadonlySet<string>, at: string, what: string, root = 'options'): void {
    const field = unknownField(value, known)
    if (field === undefined) return
    const fields = `${what} (known fields: ${[...known].join(', ')})`
    if (field === '') this.fail(at === '' ? root : at, `has a field with an empty name, which is not a field of ${fields}`)
    this.fail(at === '' ? field : `${at}.${field}`, `is not a field of ${fields}`)
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

  /** `hint`: what ends the message of a refused value (what it probably meant), or `''`. */
  oneOf<T extends string | number>(value: unknown, allowed: readonly T[], argument: string, hint?: (value: unknown) => string): T {
    if (!allowed.includes(value as T)) this.fail(argument, `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, got ${describe(value)}${hint?.(value) ?? ''}`)
    return value as T
  }
}


export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
