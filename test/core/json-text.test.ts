// The text a list response sends is joined from cached records in one copy: it must be exactly
// `JSON.stringify` of the value the same payload builds, for any number of records (none, one,
// many), with non-ASCII text, and its byteLength must be the UTF-8 length of that text.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cachedJson, dataPayload, listPayload, ListTexts, utf8Length } from '../../src/core/json-text.js'
import { runs } from '../support/runs.js'

const record = fc.record({ id: fc.string({ unit: 'grapheme' }), n: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer()), on: fc.boolean(), note: fc.option(fc.string({ unit: 'binary' })) })
const copy = <T>(value: T): unknown => structuredClone(value)

describe('list payloads', () => {
  it('send JSON.stringify of their value, with its UTF-8 byte length, for 0 to 40 records', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 40 }), (records) => {
        const entries = records.map((r) => cachedJson({ ...r }))
        const texts = new ListTexts()
        for (const payload of [listPayload(entries, copy), listPayload(entries, copy, { texts, list: 'page' })]) {
          const text = payload.text()
          expect(text).toBe(JSON.stringify(payload.value()))
          expect(text).toBe(JSON.stringify({ data: records }))
          expect(payload.byteLength).toBe(Buffer.byteLength(text, 'utf8'))
        }
      }),
      { verbose: true, numRuns: runs(300) },
    )
  })

  it('keep the last text of a list while the same records make it up, and make it again when one changes', () => {
    const texts = new ListTexts()
    const entries = [cachedJson({ a: 1 }), cachedJson({ a: 2 }), cachedJson({ a: 3 })]
    const first = listPayload(entries, copy, { texts, list: 'page' }).text()
    expect(listPayload(entries.slice(), copy, { texts, list: 'page' }).text()).toBe(first)
    const changed = [entries[0], cachedJson({ a: 'two' }), entries[2]] as typeof entries
    expect(listPayload(changed, copy, { texts, list: 'page' }).text()).toBe('{"data":[{"a":1},{"a":"two"},{"a":3}]}')
    expect(listPayload([], copy, { texts, list: 'page' }).text()).toBe('{"data":[]}')
  })

  it('count a lone surrogate as the three bytes of U+FFFD, as TextEncoder writes it', () => {
    for (const text of ['', 'plain ascii', '\x7f', '\x80', 'a\x7f\x80', '\ud800', 'a\udc00b', '\ud83d\ude00', 'é', '€']) expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length)
  })
})

describe('data payloads', () => {
  it('send {"data": record} as JSON.stringify does, and build a fresh copy of the value each time', () => {
    const value = { id: 'x', nested: { n: 1 } }
    const payload = dataPayload(cachedJson(value), copy)
    expect(payload.text()).toBe(JSON.stringify({ data: value }))
    expect(payload.byteLength).toBe(payload.text().length)
    const built = payload.value() as { data: typeof value }
    expect(built.data).toEqual(value)
    expect(built.data).not.toBe(value)
    built.data.nested.n = 2
    expect(value.nested.n).toBe(1)
  })
})
