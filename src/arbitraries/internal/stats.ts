import fc from 'fast-check'
import type { PercentileStats } from '../../core/types.js'

/** Null about one time in five: the SDK needs the key present either way. */
export function nullable<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.option(arbitrary, { nil: null })
}

/** A step between percentiles: often none, so p50 = p75 = p90 = p99 comes up. */
function step(max: number): fc.Arbitrary<number> {
  return fc.oneof(fc.constant(0), fc.integer({ min: 0, max }))
}

/**
 * Percentiles with one decimal, in order: `'rising'` p50 <= p75 <= p90 <= p99 (latency: the slow
 * tail takes longer), `'falling'` p50 >= p75 >= p90 >= p99 (throughput: the slow tail makes fewer
 * tokens per second, as the simulator has it). Built from a start and three non-negative steps in
 * tenths, so each part shrinks to 0 and the order holds without a filter.
 */
export function percentiles(maxTenths: number, order: 'rising' | 'falling'): fc.Arbitrary<PercentileStats> {
  return fc.tuple(fc.integer({ min: 0, max: maxTenths }), step(maxTenths), step(maxTenths), step(maxTenths)).map(([start, a, b, c]) => {
    const [first, second, third, fourth] = [start, start + a, start + a + b, start + a + b + c].map((tenths) => tenths / 10) as [number, number, number, number]
    return order === 'rising' ? { p50: first, p75: second, p90: third, p99: fourth } : { p50: fourth, p75: third, p90: second, p99: first }
  })
}

/** Uptime percent in [0, 100] with two decimals, often exactly 100, 0 or 99.99. */
export const uptime: fc.Arbitrary<number> = fc.oneof(fc.constantFrom(100, 0, 99.99), fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100))
