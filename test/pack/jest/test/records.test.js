import { expect, test } from '@jest/globals'
import fc from 'fast-check'
import { createSimulator } from 'model-access-sim'
import { pricing, requestContext } from 'model-access-sim/arbitraries'
import { fakeApiKey, fakeModel } from 'model-access-sim/fixtures'
import { estimateCost, resolvePricing, validatePricing } from 'model-access-sim/pricing'

test('fixtures: the same seed gives the same record', () => {
  const key = fakeApiKey({ seed: 1 })
  expect(fakeApiKey({ seed: 1 })).toEqual(key)
  expect(key.hash).toMatch(/\S/)
  const overridden = fakeApiKey({ seed: 7 }, { limit: 100, limit_reset: null, usage: 30, byok_usage: 0 })
  expect(overridden.limit_remaining).toBe(70)
})

test('fixtures load into a simulator', () => {
  const sim = createSimulator({ world: 'empty' })
  const model = fakeModel({ seed: 4 })
  expect(sim.models.create({ ...model, created: model.created * 1000 })).toEqual(model)
})

test('pricing: an exact cost', () => {
  // 3 prompt tokens at 0.1, less a 10% discount
  expect(estimateCost({ prompt: '0.1', completion: '0', discount: 0.1 }, { promptTokens: 3 }, { at: 0 })).toBe('0.27')
})

test('arbitraries: every drawn pricing is valid and resolves', () => {
  fc.assert(
    fc.property(pricing(), requestContext(), (p, request) => {
      expect(validatePricing(p)).toEqual([])
      expect(typeof resolvePricing(p, request).prompt).toBe('string')
    }),
    { numRuns: 200 },
  )
})
