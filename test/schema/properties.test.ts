// The schema engine against ajv, on arbitrary schemas over the keywords it covers.
//
// Replaying a failure: fc.assert prints `{ seed: ..., path: "...", endOnFailure: true }` and the
// shrunk schema. Add the printed values to that fc.assert's options to run only that case:
//   { numRuns: ..., seed: <seed>, path: '<path>', endOnFailure: true }
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileSchema, generateValue, uint32Source, validateValue } from '../../src/core/schema/index.js'
import { runs } from '../support/runs.js'
import { ajvErrors, ajvValid, documentArbitrary } from './support.js'

describe('generated values', () => {
  it('are valid per ajv for every drawn schema, and the validator agrees when there is no warning', () => {
    fc.assert(
      fc.property(documentArbitrary, fc.integer(), (schema, seed) => {
        const compiled = compileSchema(schema, 'schema')
        const { value, warnings } = generateValue(compiled, uint32Source(seed))
        expect(warnings, JSON.stringify(value)).toEqual([])
        expect(ajvValid(schema, value), `${JSON.stringify(value)} ${ajvErrors(schema, value)}`).toBe(true)
        expect(validateValue(compiled, value)).toEqual([])
      }),
      { numRuns: runs(300) },
    )
  })
})

/** A value near one the schema accepts: a leaf replaced, a key dropped or added, or any JSON at all. */
function nearby(value: unknown, change: { where: number; by: unknown; mode: number }): unknown {
  if (change.mode === 0) return change.by
  if (Array.isArray(value)) {
    if (value.length === 0) return [change.by]
    const i = change.where % value.length
    const copy = [...value]
    if (change.mode === 1) copy.splice(i, 1)
    else copy[i] = nearby(copy[i], { ...change, mode: change.mode === 2 ? 0 : change.mode - 1 })
    return copy
  }
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value)
    const copy: Record<string, unknown> = { ...value }
    if (keys.length === 0 || change.mode === 3) copy[`extra${change.where % 3}`] = change.by
    else {
      const key = keys[change.where % keys.length] as string
      if (change.mode === 1) delete copy[key]
      else copy[key] = nearby(copy[key], { ...change, mode: change.mode === 2 ? 0 : change.mode - 1 })
    }
    return copy
  }
  return change.by
}

describe('validateValue', () => {
  it('agrees with ajv on values near valid ones and on arbitrary JSON', () => {
    const change = fc.record({ where: fc.nat(), by: fc.jsonValue({ maxDepth: 2 }), mode: fc.nat({ max: 4 }) })
    fc.assert(
      fc.property(documentArbitrary, fc.integer(), change, (schema, seed, how) => {
        const compiled = compileSchema(schema, 'schema')
        const valid = generateValue(compiled, uint32Source(seed)).value
        const value = nearby(valid, how)
        const errors = validateValue(compiled, value)
        expect(errors.length === 0, `${JSON.stringify(value)}: ours ${JSON.stringify(errors)}, ajv ${ajvErrors(schema, value)}`).toBe(ajvValid(schema, value))
      }),
      { numRuns: runs(300) },
    )
  })
})
