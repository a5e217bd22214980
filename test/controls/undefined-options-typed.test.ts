// The options types take `undefined` where the runtime does: every optional option of the public
// API is typed `?: T | undefined`, so a project with `exactOptionalPropertyTypes` (this one has it)
// can pass a value that may be missing as it is. This file holds no casts: `npm run typecheck`
// compiles it with that setting, and fails if an options type loses its `| undefined`. At run time
// it checks that each such call does what the same call without the field does
// (test/controls/undefined-options.test.ts checks every field of every options object that way).
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { createHandlers } from '../../src/msw/index.js'
import { startServer } from '../../src/server/index.js'
import { fakeApiKey, fakePricing, generateWorld } from '../../src/fixtures/index.js'
import { world as worldArbitrary } from '../../src/arbitraries/index.js'
import { estimateCost, validatePricing } from '../../src/pricing/index.js'
import fc from 'fast-check'

/** A value a test reads from its environment, which may be missing. */
const missing = (): number | undefined => undefined
const missingText = (): string | undefined => undefined

describe('options given as undefined, typed without casts', () => {
  it('createSimulator, the collections and the rules take them as left out', () => {
    const sim = createSimulator({ seed: missing(), now: missingText(), world: undefined, rateLimit: undefined, journalLimit: missing(), clock: undefined })
    const plain = createSimulator()
    expect(sim.exportWorld()).toEqual(plain.exportWorld())

    const key = sim.keys.create({ userId: sim.world.userId, name: missingText(), limit: missing(), workspaceId: missingText(), expiresAt: undefined, rateLimit: undefined })
    const same = plain.keys.create({ userId: plain.world.userId })
    expect(key.record).toEqual(same.record)
    sim.keys.update(key.record.hash, { limit: 5 })
    expect(sim.keys.update(key.record.hash, { name: missingText(), limit: missing(), disabled: undefined }).limit).toBe(5)

    const fault = sim.faults.add({ respond: { status: 500, message: missingText() }, operation: undefined, once: undefined, times: missing(), name: missingText() })
    expect(fault.name).toMatch(/^fault-\d+$/)
    fault.remove()
    sim.faults.serviceUnavailable({ retryAfterSeconds: missing(), operation: 'listKeys' })
    expect(sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}`, query: missingText(), body: undefined }).headers['retry-after']).toBe('30')
    sim.faults.clear()
    sim.latency.set({ ms: 5, real: undefined, operation: undefined })

    // Options that take some of a record's fields: a model's endpoints and architecture, a video model, a guardrail's rules.
    const model = sim.models.create({ id: 'acme/fast-1', description: missingText(), architecture: { tokenizer: undefined }, endpoints: [{ provider_name: 'Together', status: undefined }] })
    expect(model).toEqual(plain.models.create({ id: 'acme/fast-1', architecture: {}, endpoints: [{ provider_name: 'Together' }] }))
    expect(sim.videoModels.create({ id: 'acme/video-1', description: missingText(), created: undefined })).toEqual(plain.videoModels.create({ id: 'acme/video-1' }))
    const guardrail = sim.guardrails.create({ userId: sim.world.userId, rules: { name: 'Cap', limit_usd: missing(), description: undefined } })
    expect(guardrail).toMatchObject({ name: 'Cap', limit_usd: null })
    expect(sim.guardrails.update(guardrail.id, { description: 'Kept', limit_usd: undefined }).limit_usd).toBeNull()
    expect(sim.journal.list({ operation: undefined, status: missing() }).length).toBe(sim.journal.list().length)
  })

  it('the adapters, fixtures, arbitraries and pricing take them as left out', async () => {
    const sim = createSimulator()
    expect(createHandlers(sim, { baseUrl: missingText() }).length).toBe(createHandlers(sim).length)
    const server = await startServer(sim, { host: '127.0.0.1', port: missing() })
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+/)
    } finally {
      await server.close()
    }
    expect(fakePricing({ seed: 5 }, { input_cache_read: undefined })).not.toHaveProperty('input_cache_read')
    // @ts-expect-error name is a field every API key has: undefined would drop it, and is refused
    expect(() => fakeApiKey({ seed: 1 }, { name: undefined })).toThrow('"overrides.name" is undefined')
    expect(generateWorld({ seed: 1, size: undefined })).toEqual(generateWorld({ seed: 1 }))
    expect(fc.sample(worldArbitrary({ maxUsers: missing() }), { seed: 7, numRuns: 3 })).toEqual(fc.sample(worldArbitrary(), { seed: 7, numRuns: 3 }))
    const pricing = { prompt: '0.000001', completion: '0.000002' }
    const at = Date.UTC(2026, 2, 2)
    expect(estimateCost(pricing, { promptTokens: 10, completionTokens: 5, cachedTokens: missing() }, { at, promptTokens: missing() })).toBe(estimateCost(pricing, { promptTokens: 10, completionTokens: 5 }, { at }))

    // A price that may be missing, inside a pricing: absent, as in the JSON it stands for, and not stored.
    const loose = { ...pricing, input_cache_read: missingText(), overrides: [{ utc_start: 2200, utc_end: 600, prompt: '0.0000005', completion: missingText(), utc_days: undefined }] }
    const strict = { ...pricing, overrides: [{ utc_start: 2200, utc_end: 600, prompt: '0.0000005' }] }
    expect(validatePricing(loose)).toEqual([])
    const night = Date.UTC(2026, 2, 2, 23)
    expect(estimateCost(loose, { promptTokens: 1000, completionTokens: 10, cachedTokens: 100 }, { at: night })).toBe(estimateCost(strict, { promptTokens: 1000, completionTokens: 10, cachedTokens: 100 }, { at: night }))
    const sim2 = createSimulator()
    const stored = sim2.models.create({ id: 'acme/priced-1', endpoints: [{ provider_name: 'Together', pricing: loose }] }).endpoints[0]?.pricing
    expect([Object.keys(stored ?? {}), Object.keys(stored?.overrides?.[0] ?? {})]).toEqual([['prompt', 'completion', 'overrides'], ['utc_start', 'utc_end', 'prompt']])
  })
})
