// pricingFromSdk: the SDK's camelCase pricing back to the wire pricing it was parsed from.
import { OpenRouter } from '@openrouter/sdk'
import { PublicPricing$inboundSchema } from '@openrouter/sdk/models'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { pricing, requestContext } from '../../src/arbitraries/index.js'
import { compilePricing, PricingError, pricingFromSdk } from '../../src/pricing/index.js'
import { simTest } from '../../src/vitest/index.js'
import { runs } from '../support/runs.js'

// fast-check prints the seed and path of a failing run; pass them back as { seed, path } to replay it.
const settings = { verbose: true, numRuns: runs(300) }

/** What the SDK makes of wire pricing: its own schema, applied to the JSON. */
const parsedBySdk = (wire: unknown) => PublicPricing$inboundSchema.parse(JSON.parse(JSON.stringify(wire)))

describe('pricingFromSdk', () => {
  it('gives back the wire pricing the SDK parsed, which resolves the same for every request', () => {
    fc.assert(
      fc.property(pricing(), fc.array(requestContext(), { minLength: 1, maxLength: 5 }), (wire, requests) => {
        const back = pricingFromSdk(parsedBySdk(wire))
        expect(back).toEqual(wire)
        const [a, b] = [compilePricing(wire), compilePricing(back)]
        for (const request of requests) expect(b.resolve(request)).toEqual(a.resolve(request))
      }),
      settings,
    )
  })

  simTest('takes every endpoint’s pricing as sdk.endpoints.list returns it', async ({ sim }) => {
    const sdk = new OpenRouter({ apiKey: sim.world.apiKey, serverURL: 'https://openrouter.ai/api/v1', retryConfig: { strategy: 'none' } })
    const models = [sim.world.models.timeWindowed, sim.world.models.longContext, sim.world.models.paid, sim.world.models.free]
    let overrides = 0
    for (const id of models) {
      const [author, slug] = id.split('/') as [string, string]
      const { data } = await sdk.endpoints.list({ author, slug })
      const wire = sim.models.get(id)?.endpoints ?? []
      expect(data.endpoints.map((e) => pricingFromSdk(e.pricing))).toEqual(wire.map((e) => e.pricing))
      overrides += wire.reduce((n, e) => n + (e.pricing.overrides?.length ?? 0), 0)
    }
    expect(overrides, 'the handles include pricing with overrides').toBeGreaterThan(0)
  })

  it.each([
    ['a wire name, which needs no conversion', { prompt: '0.1', completion: '0.2', input_cache_read: '0.01' }, 'input_cache_read', /that is the wire's name/],
    ['a field the SDK does not have', { prompt: '0.1', completion: '0.2', cacheDiscount: '0.5' }, 'cacheDiscount', /is not a field of the SDK's pricing/],
    ['an override field the SDK does not have', { prompt: '0.1', completion: '0.2', overrides: [{ prompt: '0.3', utc_start: 60 }] }, 'overrides[0].utc_start', /pricing override/],
    ['a price the engine refuses, by the SDK’s name', { prompt: '0.1', completion: '0.2', inputCacheWrite1h: '-1' }, 'inputCacheWrite1h', /negative/],
    ['a window end out of range, by the SDK’s name', { prompt: '0.1', completion: '0.2', overrides: [{ prompt: '0.3', utcStart: 60, utcEnd: 5000 }] }, 'overrides[0].utcEnd', /./],
    ['no prompt price', { completion: '0.2' }, 'prompt', /is required/],
  ])('refuses %s, naming it', (_, input, path, message) => {
    let error: unknown
    try {
      pricingFromSdk(input)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(PricingError)
    const issue = (error as PricingError).issues.find((i) => i.path === path)
    expect(issue, JSON.stringify((error as PricingError).issues)).toBeDefined()
    expect(issue?.message).toMatch(message)
    expect((error as PricingError).argument).toBe('pricing')
  })

  it('refuses what is not an object', () => {
    expect(() => pricingFromSdk(null)).toThrow(/pricingFromSdk: invalid pricing: pricing must be an object/)
    expect(() => pricingFromSdk('0.1')).toThrow(PricingError)
  })
})
