// The rate limiter: a token bucket per key (and one shared by anonymous callers), refilled on the
// simulator clock. Over it, 429 "Rate limit exceeded" with Retry-After in whole seconds.
import { OpenRouter } from '@openrouter/sdk'
import { OpenRouterDefaultError, OpenRouterError, TooManyRequestsResponseError } from '@openrouter/sdk/models/errors'
import { describe, expect, it } from 'vitest'
import { createSimulator, ERROR_MESSAGES, SimulatorError, SimulatorErrorCode, type RateLimit, type SimResponse } from '../../src/index.js'
import { DEFAULT_BASE_URL } from '../../src/msw/index.js'
import { failureOf, simulatorErrorOf, useSimulatorServer } from '../support/server.js'

type Sim = ReturnType<typeof createSimulator>

const THREE_PER_SECOND: RateLimit = { requests: 3, intervalMs: 1000 }

const { serve } = useSimulatorServer()

function sdk(secret?: string): OpenRouter {
  return new OpenRouter({ serverURL: DEFAULT_BASE_URL, retryConfig: { strategy: 'none' }, ...(secret === undefined ? {} : { apiKey: secret }) })
}


/** GET /keys as the world's management key. */
function listKeys(sim: Sim, secret = sim.world.managementKey): SimResponse {
  return sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${secret}` })
}

/** GET /videos/models, anonymously unless a secret is given. */
function listVideoModels(sim: Sim, secret?: string): SimResponse {
  return sim.handle({ method: 'GET', path: '/videos/models', ...(secret === undefined ? {} : { authorization: `Bearer ${secret}` }) })
}

function statuses(count: number, request: () => SimResponse): number[] {
  return Array.from({ length: count }, () => request().status)
}

/** A fresh enabled regular key of the world's organisation, with its own bucket. */
function newRegularKey(sim: Sim, rateLimit?: RateLimit): { secret: string; hash: string } {
  const created = sim.keys.create({ userId: sim.world.userId, name: 'Rate-limited', ...(rateLimit === undefined ? {} : { rateLimit }) })
  return { secret: created.key, hash: created.record.hash }
}


describe('rate limits are off unless asked for', () => {
  it('answers a long burst from one key and from anonymous callers with 200 every time', () => {
    const sim = createSimulator()
    expect(statuses(200, () => listKeys(sim))).toEqual(Array(200).fill(200))
    expect(statuses(200, () => listVideoModels(sim))).toEqual(Array(200).fill(200))
  })

  it('answers a burst from a key without its own limit with 200 when the simulator has no default', () => {
    const sim = createSimulator()
    const limited = newRegularKey(sim, { requests: 1, intervalMs: 60_000 })
    listVideoModels(sim, limited.secret)
    expect(listVideoModels(sim, limited.secret).status).toBe(429)
    expect(statuses(50, () => listVideoModels(sim, sim.world.apiKey))).toEqual(Array(50).fill(200))
  })
})

describe('a default limit of 3 requests per 1000 ms', () => {
  it('lets three requests through, then answers the fourth with 429 "Rate limit exceeded"', () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    expect(statuses(3, () => listKeys(sim))).toEqual([200, 200, 200])

    const limited = listKeys(sim)
    expect(limited.status).toBe(429)
    expect(limited.type).toBe('json')
    expect(limited.headers['content-type']).toBe('application/json')
    expect(limited.body).toEqual({ error: { code: 429, message: ERROR_MESSAGES[429] }, user_id: sim.world.userId })
  })

  it('says to retry after 1 second once the bucket is empty, since one token takes 333.3 ms to come back', () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    statuses(3, () => listKeys(sim))
    expect(listKeys(sim).headers['retry-after']).toBe('1')
  })

  it('rounds Retry-After up to whole seconds from what is left in the bucket', () => {
    // One token per 10 s: empty, the wait is 10 s; 2.5 s later a quarter token is back and 7.5 s remain, said as 8.
    const sim = createSimulator({ rateLimit: { requests: 1, intervalMs: 10_000 } })
    expect(listKeys(sim).status).toBe(200)
    expect(listKeys(sim).headers['retry-after']).toBe('10')
    sim.clock.advance(2500)
    const later = listKeys(sim)
    expect(later.status).toBe(429)
    expect(later.headers['retry-after']).toBe('8')
  })

  it('still refuses 333 ms after the bucket emptied and lets one request through 1 ms later', () => {
    // 3 per 1000 ms is one token per 333.33 ms: 333 ms bring back 0.999 of a token, 334 ms a whole one.
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    statuses(3, () => listKeys(sim))
    sim.clock.advance(333)
    expect(listKeys(sim).status).toBe(429)
    sim.clock.advance(1)
    expect(listKeys(sim).status).toBe(200)
    expect(listKeys(sim).status).toBe(429)
  })

  it('gives one request back when 334 ms pass after the bucket emptied', () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    statuses(3, () => listKeys(sim))
    sim.clock.advance(334)
    expect(statuses(2, () => listKeys(sim))).toEqual([200, 429])
  })

  it('refills to the full three after a whole interval, and never beyond it however long the wait', () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    statuses(4, () => listKeys(sim))
    sim.clock.advance(1000)
    expect(statuses(4, () => listKeys(sim))).toEqual([200, 200, 200, 429])
    sim.clock.advance(60 * 60_000)
    expect(statuses(4, () => listKeys(sim))).toEqual([200, 200, 200, 429])
  })

  it('does not take a token for a refused request', () => {
    // Refused requests while empty cost nothing: 334 ms after the last success, one token is back regardless.
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    statuses(3, () => listKeys(sim))
    for (let i = 0; i < 3; i++) {
      sim.clock.advance(100)
      expect(listKeys(sim).status).toBe(429)
    }
    sim.clock.advance(34)
    expect(listKeys(sim).status).toBe(200)
  })

  it('neither refills nor drains a bucket when the clock is set back', () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    const start = sim.clock.nowMs()
    statuses(1, () => listKeys(sim))
    sim.clock.set(start - 10_000)
    // Two tokens were left; going back in time takes none of them and adds none.
    expect(statuses(3, () => listKeys(sim))).toEqual([200, 200, 429])
    // From the earlier instant on, refilling runs as usual.
    sim.clock.advance(334)
    expect(statuses(2, () => listKeys(sim))).toEqual([200, 429])
  })

  it('does not refill while the real time passes but the simulator clock stands still', async () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    statuses(3, () => listKeys(sim))
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(listKeys(sim).status).toBe(429)
  })
})

describe('buckets', () => {
  it('gives every key a bucket of its own: another key is unaffected when one is exhausted', () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    const other = newRegularKey(sim)
    expect(statuses(4, () => listVideoModels(sim, sim.world.apiKey))).toEqual([200, 200, 200, 429])
    expect(statuses(4, () => listVideoModels(sim, other.secret))).toEqual([200, 200, 200, 429])
    expect(statuses(4, () => listKeys(sim))).toEqual([200, 200, 200, 429])
  })

  it('shares one bucket between every anonymous caller, whatever operation they call', () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    expect(listVideoModels(sim).status).toBe(200)
    expect(sim.handle({ method: 'GET', path: '/models/anthropic/claude-sonnet-4.5/endpoints' }).status).toBe(200)
    expect(listVideoModels(sim).status).toBe(200)
    expect(sim.handle({ method: 'GET', path: '/models/anthropic/claude-sonnet-4.5/endpoints' }).status).toBe(429)
    expect(listVideoModels(sim).status).toBe(429)
  })

  it('keeps keyed callers out of the anonymous bucket and anonymous callers out of theirs', () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    expect(statuses(4, () => listVideoModels(sim))).toEqual([200, 200, 200, 429])
    expect(statuses(3, () => listVideoModels(sim, sim.world.apiKey))).toEqual([200, 200, 200])
    expect(listVideoModels(sim, sim.world.apiKey).status).toBe(429)
    sim.clock.advance(334)
    expect(listVideoModels(sim).status).toBe(200)
  })

  it('puts a bearer that names no key in the anonymous bucket', () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    expect(statuses(2, () => listVideoModels(sim))).toEqual([200, 200])
    expect(listVideoModels(sim, 'sk-or-v1-not-a-key-of-this-simulator').status).toBe(401)
    expect(listVideoModels(sim).status).toBe(429)
  })

  it("charges a disabled key's requests to that key's own bucket", () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    const disabled = newRegularKey(sim)
    sim.keys.update(disabled.hash, { disabled: true })
    expect(statuses(4, () => listVideoModels(sim, disabled.secret))).toEqual([401, 401, 401, 429])
    expect(statuses(3, () => listVideoModels(sim))).toEqual([200, 200, 200])
  })

  it('charges one key the same bucket across all the operations it calls', () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    const auth = `Bearer ${sim.world.managementKey}`
    expect(sim.handle({ method: 'GET', path: '/keys', authorization: auth }).status).toBe(200)
    expect(sim.handle({ method: 'GET', path: `/keys/${sim.world.apiKeyHash}`, authorization: auth }).status).toBe(200)
    expect(sim.handle({ method: 'GET', path: `/workspaces/${sim.world.workspaces.production}`, authorization: auth }).status).toBe(200)
    expect(sim.handle({ method: 'GET', path: '/videos/models', authorization: auth }).status).toBe(429)
  })
})

describe("a key's own rate limit", () => {
  it('overrides the default when given at creation, whether tighter or looser', () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    const tight = newRegularKey(sim, { requests: 1, intervalMs: 60_000 })
    const loose = newRegularKey(sim, { requests: 5, intervalMs: 1000 })

    expect(statuses(2, () => listVideoModels(sim, tight.secret))).toEqual([200, 429])
    expect(listVideoModels(sim, tight.secret).headers['retry-after']).toBe('60')
    expect(statuses(6, () => listVideoModels(sim, loose.secret))).toEqual([200, 200, 200, 200, 200, 429])
    expect(statuses(4, () => listVideoModels(sim, sim.world.apiKey))).toEqual([200, 200, 200, 429])
  })

  it('limits a key even when the simulator has no default limit', () => {
    const sim = createSimulator()
    const limited = newRegularKey(sim, { requests: 2, intervalMs: 1000 })
    expect(statuses(3, () => listVideoModels(sim, limited.secret))).toEqual([200, 200, 429])
  })

  it('takes effect when set by update, and update with null goes back to the default', () => {
    const sim = createSimulator()
    sim.keys.update(sim.world.apiKeyHash, { rateLimit: { requests: 2, intervalMs: 1000 } })
    expect(statuses(3, () => listVideoModels(sim, sim.world.apiKey))).toEqual([200, 200, 429])

    sim.keys.update(sim.world.apiKeyHash, { rateLimit: null })
    expect(statuses(20, () => listVideoModels(sim, sim.world.apiKey))).toEqual(Array(20).fill(200))
  })

  it('replaces the default for a key updated before its first request', () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    sim.keys.update(sim.world.apiKeyHash, { rateLimit: { requests: 6, intervalMs: 1000 } })
    expect(statuses(7, () => listVideoModels(sim, sim.world.apiKey))).toEqual([200, 200, 200, 200, 200, 200, 429])
  })
})

describe('429 on every operation', () => {
  it('answers 429 on listKeys, which declares it, and on listVideoModels, which does not', () => {
    const sim = createSimulator({ rateLimit: { requests: 1, intervalMs: 1000 } })
    listKeys(sim)
    const keys = listKeys(sim)
    expect(keys.status).toBe(429)
    expect(keys.body).toEqual({ error: { code: 429, message: ERROR_MESSAGES[429] }, user_id: sim.world.userId })

    listVideoModels(sim)
    const videos = listVideoModels(sim)
    expect(videos.status).toBe(429)
    // Anonymous: no caller to name.
    expect(videos.body).toEqual({ error: { code: 429, message: ERROR_MESSAGES[429] } })
    expect(videos.headers['retry-after']).toBe('1')
  })

  it('answers a limited request before checking its credentials', () => {
    // The limiter runs before auth: an anonymous call to a management operation gets 429, not 401.
    const sim = createSimulator({ rateLimit: { requests: 1, intervalMs: 1000 } })
    expect(sim.handle({ method: 'GET', path: '/keys' }).status).toBe(401)
    expect(sim.handle({ method: 'GET', path: '/keys' }).status).toBe(429)
  })

  it('sends Retry-After over MSW to a plain fetch', async () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    serve(sim)
    for (let i = 0; i < 3; i++) expect((await fetch(`${DEFAULT_BASE_URL}/videos/models`)).status).toBe(200)
    const res = await fetch(`${DEFAULT_BASE_URL}/videos/models`)
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('1')
    expect(await res.json()).toEqual({ error: { code: 429, message: ERROR_MESSAGES[429] } })
  })
})

describe('through the SDK over MSW', () => {
  it("surfaces listKeys' 429 as TooManyRequestsResponseError with the envelope and Retry-After", async () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    serve(sim)
    const client = sdk(sim.world.managementKey)
    for (let i = 0; i < 3; i++) await client.apiKeys.list()

    const error = await failureOf(client.apiKeys.list())

    expect(error).toBeInstanceOf(TooManyRequestsResponseError)
    const typed = error as TooManyRequestsResponseError
    expect(typed.statusCode).toBe(429)
    expect(typed.message).toBe(ERROR_MESSAGES[429])
    expect(typed.data$.error).toEqual({ code: 429, message: ERROR_MESSAGES[429] })
    expect(typed.data$.userId).toBe(sim.world.userId)
    expect(typed.headers.get('retry-after')).toBe('1')
  })

  it("surfaces the videos list's 429, which the SDK does not declare, as its default error", async () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    serve(sim)
    const client = sdk()
    for (let i = 0; i < 3; i++) await client.videoGeneration.listVideosModels()

    const error = await failureOf(client.videoGeneration.listVideosModels())

    expect(error).toBeInstanceOf(OpenRouterDefaultError)
    expect(error).not.toBeInstanceOf(TooManyRequestsResponseError)
    const fallback = error as OpenRouterError
    expect(fallback.statusCode).toBe(429)
    expect(JSON.parse(fallback.body)).toEqual({ error: { code: 429, message: ERROR_MESSAGES[429] } })
    expect(fallback.headers.get('retry-after')).toBe('1')
  })
})

describe('snapshots and reset', () => {
  it('restores the bucket levels a snapshot held', () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    statuses(2, () => listKeys(sim))
    const saved = sim.snapshot()
    expect(statuses(2, () => listKeys(sim))).toEqual([200, 429])

    sim.restore(saved)
    expect(statuses(2, () => listKeys(sim))).toEqual([200, 429])
  })

  it('restores full buckets from a snapshot taken before any request', () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    const saved = sim.snapshot()
    statuses(4, () => listKeys(sim))
    sim.restore(saved)
    expect(statuses(4, () => listKeys(sim))).toEqual([200, 200, 200, 429])
  })

  it('carries bucket levels into another simulator with the same limit', () => {
    const first = createSimulator({ rateLimit: THREE_PER_SECOND })
    statuses(3, () => listKeys(first))
    const second = createSimulator({ rateLimit: THREE_PER_SECOND })
    second.restore(first.snapshot())
    expect(listKeys(second).status).toBe(429)
  })

  it('refills every bucket on reset', () => {
    const sim = createSimulator({ rateLimit: THREE_PER_SECOND })
    statuses(4, () => listKeys(sim))
    statuses(4, () => listVideoModels(sim))
    sim.reset()
    expect(statuses(4, () => listKeys(sim))).toEqual([200, 200, 200, 429])
    expect(statuses(4, () => listVideoModels(sim))).toEqual([200, 200, 200, 429])
  })
})

describe('bad rate-limit options', () => {
  // The argument named: the field that is wrong, or the whole option when it is no object.
  const bad: { name: string; value: unknown; argument: string }[] = [
    { name: 'zero requests', value: { requests: 0, intervalMs: 1000 }, argument: 'rateLimit.requests' },
    { name: 'negative requests', value: { requests: -1, intervalMs: 1000 }, argument: 'rateLimit.requests' },
    { name: 'a fractional number of requests', value: { requests: 1.5, intervalMs: 1000 }, argument: 'rateLimit.requests' },
    { name: 'a zero interval', value: { requests: 3, intervalMs: 0 }, argument: 'rateLimit.intervalMs' },
    { name: 'a negative interval', value: { requests: 3, intervalMs: -1000 }, argument: 'rateLimit.intervalMs' },
    { name: 'an infinite interval', value: { requests: 3, intervalMs: Number.POSITIVE_INFINITY }, argument: 'rateLimit.intervalMs' },
    { name: 'a missing interval', value: { requests: 3 }, argument: 'rateLimit.intervalMs' },
    { name: 'requests as a string', value: { requests: '3', intervalMs: 1000 }, argument: 'rateLimit.requests' },
    { name: 'a bare number', value: 3, argument: 'rateLimit' },
  ]

  it.each(bad)('createSimulator refuses $name with a SimulatorError naming $argument', ({ value, argument }) => {
    const error = simulatorErrorOf(() => createSimulator({ rateLimit: value as RateLimit }))
    expect(error.code).toBe(SimulatorErrorCode.InvalidArgument)
    expect(error.argument).toBe(argument)
    expect(error.message).toContain(`"${argument}"`)
  })

  it.each(bad)('sim.keys.create refuses $name with a SimulatorError naming $argument, creating nothing', ({ value, argument }) => {
    const sim = createSimulator()
    const before = sim.keys.list().length
    const error = simulatorErrorOf(() => sim.keys.create({ userId: sim.world.userId, rateLimit: value as RateLimit }))
    expect(error.code).toBe(SimulatorErrorCode.InvalidArgument)
    expect(error.argument).toBe(argument)
    expect(sim.keys.list()).toHaveLength(before)
  })

  it.each(bad)('sim.keys.update refuses $name with a SimulatorError naming $argument, changing nothing', ({ value, argument }) => {
    const sim = createSimulator()
    const before = sim.keys.get(sim.world.apiKeyHash)
    const error = simulatorErrorOf(() => sim.keys.update(sim.world.apiKeyHash, { name: 'Renamed', rateLimit: value as RateLimit }))
    expect(error.code).toBe(SimulatorErrorCode.InvalidArgument)
    expect(error.argument).toBe(argument)
    expect(sim.keys.get(sim.world.apiKeyHash)).toEqual(before)
    expect(statuses(20, () => listVideoModels(sim, sim.world.apiKey))).toEqual(Array(20).fill(200))
  })

  it('accepts null as "no default limit"', () => {
    const sim = createSimulator({ rateLimit: null })
    expect(statuses(20, () => listKeys(sim))).toEqual(Array(20).fill(200))
  })
})
