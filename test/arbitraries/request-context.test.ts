import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SimulatorError } from '../../src/index.js'
import { requestContext } from '../../src/arbitraries/index.js'
import { resolvePricing } from '../../src/pricing/index.js'
import { sampleOf, settings, shrunk } from './support.js'

const ms = (at: Date | number): number => (at instanceof Date ? at.getTime() : at)
const timeOfDay = (at: Date | number): string => new Date(ms(at)).toISOString().slice(11, 23)

describe('requestContext', () => {
  it('every request is one the pricing engine takes', () => {
    fc.assert(
      fc.property(requestContext(), (request) => {
        expect(Number.isSafeInteger(request.promptTokens) && request.promptTokens >= 0).toBe(true)
        expect(Number.isSafeInteger(ms(request.at))).toBe(true)
        expect(() => resolvePricing({ prompt: '1', completion: '1' }, request)).not.toThrow()
      }),
      settings,
    )
  })

  it('honours the prompt-token and instant bounds and the type of at', () => {
    const minAt = new Date('2026-03-07T23:59:00Z')
    const maxAt = Date.UTC(2026, 2, 8, 0, 1)
    fc.assert(
      fc.property(
        requestContext({ minPromptTokens: 1000, maxPromptTokens: 1001, minAt, maxAt, atType: 'date' }),
        requestContext({ atType: 'number' }),
        (bounded, numeric) => {
          expect(bounded.promptTokens).toBeGreaterThanOrEqual(1000)
          expect(bounded.promptTokens).toBeLessThanOrEqual(1001)
          expect(bounded.at).toBeInstanceOf(Date)
          expect(bounded.at.getTime()).toBeGreaterThanOrEqual(minAt.getTime())
          expect(bounded.at.getTime()).toBeLessThanOrEqual(maxAt)
          expect(typeof numeric.at).toBe('number')
        },
      ),
      settings,
    )
  })

  it('refuses bounds in the wrong order, saying what to pass instead', () => {
    expect(() => requestContext({ minPromptTokens: 5, maxPromptTokens: 4 })).toThrow(/Please pass minPromptTokens <= maxPromptTokens/)
    expect(() => requestContext({ minAt: Date.UTC(2027, 0, 1), maxAt: Date.UTC(2026, 0, 1) })).toThrow(SimulatorError)
    expect(() => requestContext({ minAt: new Date(Number.NaN) })).toThrow(SimulatorError)
  })

  it('is biased toward prompt tokens one either side of the thresholds', () => {
    const tokens = new Set(sampleOf(requestContext()).map((r) => r.promptTokens))
    for (const t of [0, 999, 1000, 1001, 127999, 128000, 128001, 200000]) expect(tokens.has(t), `promptTokens ${t}`).toBe(true)
  })

  it('is biased toward instants at 23:59:59.999 and 00:00:00.000, as Dates and as numbers', () => {
    const requests = sampleOf(requestContext())
    expect(requests.some((r) => timeOfDay(r.at) === '23:59:59.999')).toBe(true)
    expect(requests.some((r) => timeOfDay(r.at) === '00:00:00.000')).toBe(true)
    expect(requests.some((r) => timeOfDay(r.at) === '16:30:00.000')).toBe(true)
    expect(requests.some((r) => r.at instanceof Date)).toBe(true)
    expect(requests.some((r) => typeof r.at === 'number')).toBe(true)
  })

  it('brings up both bounds of a narrow range', () => {
    const minAt = Date.UTC(2026, 2, 2, 12)
    const maxAt = Date.UTC(2026, 2, 2, 13)
    const instants = sampleOf(requestContext({ minAt, maxAt, atType: 'number' })).map((r) => r.at)
    expect(instants).toContain(minAt)
    expect(instants).toContain(maxAt)
  })

  it('shrinks to the first token count past a threshold at midnight of Monday 2026-03-02', () => {
    const minimal = shrunk(requestContext({ atType: 'number' }), (r) => r.promptTokens <= 128000)
    expect(minimal).toEqual({ promptTokens: 128001, at: Date.UTC(2026, 2, 2) })
  })
})
