// An endpoint's traffic row makes its rings as they fill (decisions/0025): a simulator whose test
// sends a few requests holds a page of counts and a minute of samples, not a day's rings, and a
// copy made for a snapshot's sake is its own.
import { describe, expect, it } from 'vitest'
import { DAY_MINUTES, EndpointTraffic, PAGE_MINUTES, SAMPLE_MINUTES, SAMPLES_PER_MINUTE } from '../../src/core/store/traffic.js'
import type { Endpoint } from '../../src/core/types.js'

const endpoint = {} as Endpoint
const made = (row: EndpointTraffic) => ({ pages: row.pages.filter((p) => p !== undefined).length, samples: row.samples.filter((s) => s !== undefined).length })

describe('EndpointTraffic', () => {
  it('starts with no page of counts and no samples', () => {
    const row = new EndpointTraffic(endpoint, undefined, 0)
    expect(row.pages).toHaveLength(DAY_MINUTES / PAGE_MINUTES)
    expect(made(row)).toEqual({ pages: 0, samples: 0 })
    // Every sample slot holds no minute yet, and has seen nothing.
    expect([...row.sampleSlots.subarray(0, SAMPLE_MINUTES)].every(Number.isNaN)).toBe(true)
    expect([...row.sampleSlots.subarray(SAMPLE_MINUTES)].every((n) => n === 0)).toBe(true)
  })

  it('makes the page of a slot on its first use, its minutes unset and its counts 0, and the same page after', () => {
    const row = new EndpointTraffic(endpoint, undefined, 0)
    const page = row.pageOf(PAGE_MINUTES + 5)
    expect(page).toHaveLength(3 * PAGE_MINUTES)
    expect([...page.subarray(0, PAGE_MINUTES)].every(Number.isNaN)).toBe(true)
    expect([...page.subarray(PAGE_MINUTES)].every((n) => n === 0)).toBe(true)
    expect(row.pages[1]).toBe(page)
    expect(row.pageOf(2 * PAGE_MINUTES - 1)).toBe(page)
    expect(row.pageOf(2 * PAGE_MINUTES)).not.toBe(page)
    expect(made(row)).toEqual({ pages: 2, samples: 0 })
    const kept = row.samplesOf(3)
    expect(kept).toHaveLength(2 * SAMPLES_PER_MINUTE)
    expect(row.samplesOf(3)).toBe(kept)
    expect(made(row)).toEqual({ pages: 2, samples: 1 })
  })

  it('a copy holds the same figures in pages of its own: a write to either leaves the other as it was', () => {
    const row = new EndpointTraffic(endpoint, undefined, 0)
    row.pageOf(7)[7] = 1_000
    row.samplesOf(2)[0] = 250
    row.sampleSlots[2] = 1_000
    row.writes = 3
    row.lastErrorMinute = 990
    const copy = new EndpointTraffic(endpoint, undefined, 1, row)
    expect(made(copy)).toEqual({ pages: 1, samples: 1 })
    expect([copy.writes, copy.lastErrorMinute, copy.pageOf(7)[7], copy.samplesOf(2)[0], copy.sampleSlots[2]]).toEqual([3, 990, 1_000, 250, 1_000])
    copy.pageOf(7)[7] = 2_000
    copy.samplesOf(2)[0] = 500
    copy.sampleSlots[2] = 2_000
    copy.pageOf(200)
    expect([row.pageOf(7)[7], row.samplesOf(2)[0], row.sampleSlots[2]]).toEqual([1_000, 250, 1_000])
    expect(row.pages[Math.floor(200 / PAGE_MINUTES)]).toBeUndefined()
  })
})
