// For the tests that compare a one-pass body reader with the field-by-field one (decisions/0033):
// what a read gives, and the values a body's fields may be given.
import fc from 'fast-check'
import { ApiError } from '../../src/core/errors.js'

/** A read's value, or the status, message and metadata of the 400 it threw. */
export type Outcome = { ok: unknown } | { status: number; message: string; metadata: unknown }

export function outcome(read: () => unknown): Outcome {
  try {
    return { ok: read() }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return { status: error.status, message: error.message, metadata: error.metadata }
  }
}

/** Values any field may be given: each kind a client gets wrong, and a few it gets right. */
export const anyValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -3, max: 5 }),
  fc.constantFrom(0.5, -0.5, -0, 1e300, Number.MAX_SAFE_INTEGER + 2),
  fc.string({ maxLength: 6 }),
  fc.constant([]),
  fc.constant({}),
)
