// deepFreeze (src/core/json-data.ts): what the default world's shared models, presets' configs and
// request bodies read once are frozen with, so that a write into shared data throws.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { deepFreeze } from '../../src/core/json-data.js'
import { runs } from '../support/runs.js'

/** Every object in a value (arrays included), the value first. */
function objectsOf(value: unknown): object[] {
  if (typeof value !== 'object' || value === null) return []
  return [value, ...Object.values(value).flatMap(objectsOf)]
}

describe('deepFreeze', () => {
  it('freezes every object of any JSON value and returns the value itself', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(deepFreeze(value)).toBe(value)
        expect(objectsOf(value).every((o) => Object.isFrozen(o))).toBe(true)
      }),
      { seed: 20261128, numRuns: runs(300) },
    )
  })

  it('passes primitives through', () => {
    expect([deepFreeze(1), deepFreeze('a'), deepFreeze(null), deepFreeze(undefined)]).toEqual([1, 'a', null, undefined])
  })

  it('reaches the bottom of a value nested deeper than the call stack goes, and ends on a cycle', () => {
    let deep: Record<string, unknown> = { leaf: { x: 1 } }
    const bottom = deep
    for (let i = 0; i < 100_000; i++) deep = { next: deep }
    expect(() => deepFreeze(deep)).not.toThrow()
    expect(Object.isFrozen(bottom) && Object.isFrozen(bottom['leaf'])).toBe(true)
    const loop: Record<string, unknown> = { a: [1] }
    loop['self'] = loop
    expect(deepFreeze(loop)).toBe(loop)
    expect(Object.isFrozen(loop['a'])).toBe(true)
  })

  it('takes a frozen object as frozen whole, as it leaves it', () => {
    const inner = { open: { x: 1 } }
    Object.freeze(inner)
    const outer = deepFreeze({ inner })
    expect(Object.isFrozen(outer)).toBe(true)
    expect(Object.isFrozen(inner.open)).toBe(false)
  })
})
