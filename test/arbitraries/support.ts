import fc from 'fast-check'
import { expect } from 'vitest'
import { runs } from '../support/runs.js'

/** fast-check prints the seed and path of a failing run; pass them back as { seed, path } to replay it. */
export const settings = { verbose: true, numRuns: runs(150) }

/** The one seed the distribution checks sample from, so they count the same values on every run. */
export const SAMPLE_SEED = 20260302

/** 1000 values from a fixed seed: enough that a boundary drawn one time in a hundred shows up. */
export function sampleOf<T>(arbitrary: fc.Arbitrary<T>, numRuns = 1000): T[] {
  return fc.sample(arbitrary, { seed: SAMPLE_SEED, numRuns })
}

/** How the service writes timestamps: microseconds and an explicit UTC offset. */
export const SERVICE_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/
export const HEX64 = /^[0-9a-f]{64}$/
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

interface SafeParser {
  safeParse(value: unknown): { success: boolean; error?: unknown }
}

/** Parses a value as the SDK does once it has crossed the wire as JSON; a failure names the SDK's issues. */
export function expectSdkParses(schema: SafeParser, value: unknown): void {
  const result = schema.safeParse(JSON.parse(JSON.stringify(value)))
  expect(result.success, JSON.stringify(result.error)).toBe(true)
}

/** The counterexample of a property expected to fail, as fast-check shrank it. */
export function shrunk<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => boolean, seed = 1): T {
  const details = fc.check(fc.property(arbitrary, predicate), { seed })
  expect(details.failed, 'the property was expected to fail').toBe(true)
  return (details.counterexample as [T])[0]
}
