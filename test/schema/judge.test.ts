// The judge the schema tests trust: ajv, with const, enum and uniqueItems compared as JSON values
// (test/schema/support.ts says why). Each case here is one ajv's own comparison gets wrong or
// throws on, or one the replacement must still get right.
import { describe, expect, it } from 'vitest'
import { ajvValid } from './support.js'

describe('the judge compares JSON values', () => {
  it('objects whose keys name Object.prototype members', () => {
    expect(ajvValid({ const: { toString: false } }, { toString: false })).toBe(true)
    expect(ajvValid({ const: { toString: false } }, { toString: true })).toBe(false)
    expect(ajvValid({ const: { constructor: {} } }, { constructor: {} })).toBe(true)
    expect(ajvValid({ const: { valueOf: 1 } }, { valueOf: 1 })).toBe(true)
    expect(ajvValid({ enum: [1, { valueOf: 2 }] }, { valueOf: 2 })).toBe(true)
    expect(ajvValid({ enum: [1, { valueOf: 2 }] }, { valueOf: 3 })).toBe(false)
    expect(ajvValid({ type: 'array', uniqueItems: true }, [{ toString: 1 }, { toString: 1 }])).toBe(false)
    expect(ajvValid({ type: 'array', uniqueItems: true }, [{ toString: 1 }, { toString: 2 }])).toBe(true)
  })

  it('numbers by value, keys in any order, types apart', () => {
    expect(ajvValid({ const: -0 }, 0)).toBe(true)
    expect(ajvValid({ const: 1 }, 1.0)).toBe(true)
    expect(ajvValid({ const: 1 }, '1')).toBe(false)
    expect(ajvValid({ const: null }, 'null')).toBe(false)
    expect(ajvValid({ const: { a: 1, b: [2, { c: 3 }] } }, { b: [2, { c: 3 }], a: 1 })).toBe(true)
    expect(ajvValid({ const: [1, 2] }, [2, 1])).toBe(false)
    expect(ajvValid({ uniqueItems: true }, [1, 1.0])).toBe(false)
    expect(ajvValid({ uniqueItems: false }, [1, 1])).toBe(true)
  })

  it('the keywords still apply where they sit, and uniqueItems only to arrays', () => {
    expect(ajvValid({ type: 'object', properties: { a: { const: 'x' } } }, { a: 'y' })).toBe(false)
    expect(ajvValid({ type: 'object', properties: { a: { enum: ['x'] } } }, { a: 'x' })).toBe(true)
    expect(ajvValid({ uniqueItems: true }, 'xx')).toBe(true)
  })
})
