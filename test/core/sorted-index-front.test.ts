// SortedIndex removing from the front by a start mark (a generation store letting its oldest go once
// a request): the same items, sizes and pages as a plain sorted array, whatever the order of
// inserts (in order, out of order) and removals (the smallest, any other).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SortedIndex } from '../../src/core/sorted-index.js'
import { runs } from '../support/runs.js'

type Op = { kind: 'push' } | { kind: 'insert'; value: number } | { kind: 'removeFirst' } | { kind: 'remove'; pick: number }

describe('SortedIndex, removing from the front', () => {
  it('agrees with a sorted array under any mix of inserts and removals', () => {
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 5, arbitrary: fc.constant({ kind: 'push' as const }) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 5_000 }).map((value) => ({ kind: 'insert' as const, value })) },
      { weight: 4, arbitrary: fc.constant({ kind: 'removeFirst' as const }) },
      { weight: 1, arbitrary: fc.nat().map((pick) => ({ kind: 'remove' as const, pick })) },
    )
    fc.assert(
      fc.property(fc.array(op, { maxLength: 4_000 }), (ops) => {
        const index = new SortedIndex<number>((a, b) => a - b)
        const model: number[] = []
        let next = 0
        for (const o of ops) {
          if (o.kind === 'push' || o.kind === 'insert') {
            const value = o.kind === 'push' ? (next += 2) : o.value
            index.insert(value)
            model.push(value)
            model.sort((a, b) => a - b)
          } else if (model.length > 0) {
            const at = o.kind === 'removeFirst' ? 0 : o.pick % model.length
            expect(index.remove(model[at] as number)).toBe(true)
            model.splice(at, 1)
          } else expect(index.remove(1)).toBe(false)
          expect(index.size).toBe(model.length)
        }
        expect(index.pageFromEnd(0, model.length + 1)).toEqual([...model].reverse())
        expect(index.pageFromEnd(model.length, 5)).toEqual([])
        if (model.length > 0) expect(index.pageFromEnd(model.length - 1, 5)).toEqual([model[0]])
      }),
      { numRuns: runs(60), verbose: true },
    )
  })

  it('keeps a store of 10,000 at its size while a million come and go', () => {
    const index = new SortedIndex<number>((a, b) => a - b)
    for (let i = 0; i < 1_000_000; i++) {
      index.insert(i)
      if (index.size > 10_000) index.remove(i - 10_000)
    }
    expect(index.size).toBe(10_000)
    expect(index.pageFromEnd(9_999, 2)).toEqual([990_000])
    expect((index as unknown as { items: unknown[] }).items.length).toBeLessThanOrEqual(20_000)
  })
})
