import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SortedIndex } from './sorted-index.js'

const byValue = (a: number, b: number): number => a - b

describe('SortedIndex', () => {
  it('pages like a full sort, newest first, whatever the insertion and removal order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: -1000, max: 1000 }), { maxLength: 300 }),
        fc.array(fc.nat(), { maxLength: 50 }),
        fc.nat({ max: 320 }),
        fc.integer({ min: 1, max: 120 }),
        (values, removals, offset, limit) => {
          const index = new SortedIndex(byValue)
          // Insert in two halves with a read between, so both the buffered merge and the
          // in-order push meet items already merged.
          const half = values.length >> 1
          for (const v of values.slice(0, half)) index.insert(v)
          index.pageFromEnd(0, 1)
          for (const v of values.slice(half)) index.insert(v)
          const kept = new Set(values)
          for (const r of removals) {
            const v = values[r % Math.max(values.length, 1)]
            if (v === undefined) continue
            expect(index.remove(v)).toBe(kept.delete(v))
          }
          const expected = [...kept].sort(byValue).reverse().slice(offset, offset + limit)
          expect(index.pageFromEnd(offset, limit)).toEqual(expected)
          expect(index.size).toBe(kept.size)
        },
      ),
      // fast-check prints the seed and path of a failing run; pass them back as { seed, path } to replay it.
      { verbose: true },
    )
  })

  it('reports a removal of an absent item as false', () => {
    const index = new SortedIndex(byValue)
    index.insert(1)
    expect(index.remove(2)).toBe(false)
    expect(index.pageFromEnd(0, 10)).toEqual([1])
  })
})
