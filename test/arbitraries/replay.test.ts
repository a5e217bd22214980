import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as arbitraries from '../../src/arbitraries/index.js'
import { apiKey, modelWithEndpoints, workspace } from '../../src/arbitraries/index.js'

// Fresh arbitraries each time, so nothing but the seed can carry the values over.
const makers: [string, () => fc.Arbitrary<unknown>][] = [
  ['apiKey', () => arbitraries.apiKey()],
  ['workspace', () => arbitraries.workspace()],
  ['endpoint', () => arbitraries.endpoint()],
  ['modelWithEndpoints', () => arbitraries.modelWithEndpoints()],
  ['videoModel', () => arbitraries.videoModel()],
  ['pricing', () => arbitraries.pricing()],
  ['pricingOverride', () => arbitraries.pricingOverride()],
  ['requestContext', () => arbitraries.requestContext()],
  ['workspaceList', () => arbitraries.workspaceList()],
]

describe('replaying a seed', () => {
  it.each(makers)('the same seed gives the same %s values, faker text included', (_, make) => {
    const first = fc.sample(make(), { seed: 7, numRuns: 30 })
    const again = fc.sample(make(), { seed: 7, numRuns: 30 })
    expect(again).toEqual(first)
    expect(fc.sample(make(), { seed: 8, numRuns: 30 })).not.toEqual(first)
  })

  it('faker text varies between values and does not depend on the global faker', async () => {
    const { faker } = await import('@faker-js/faker')
    faker.seed(1)
    const names = fc.sample(workspace(), { seed: 3, numRuns: 200 }).map((w) => w.name)
    faker.seed(2)
    faker.company.name()
    expect(fc.sample(workspace(), { seed: 3, numRuns: 200 }).map((w) => w.name)).toEqual(names)
    expect(new Set(names).size).toBeGreaterThan(20)
    const descriptions = new Set(fc.sample(modelWithEndpoints({ maxEndpoints: 0 }), { seed: 3, numRuns: 100 }).map((m) => m.description))
    expect(descriptions.size).toBeGreaterThan(20)
  })

  it('a failing run replays from the seed and path fast-check prints, down to the faker-made name', () => {
    const property = () => fc.property(apiKey(), (key) => !/[aeiou]{2}/i.test(key.name))
    const failure = fc.check(property(), { seed: 42 })
    expect(failure.failed).toBe(true)
    const replay = fc.check(property(), { seed: failure.seed, path: failure.counterexamplePath ?? '' })
    expect(replay.failed).toBe(true)
    expect(replay.counterexample).toEqual(failure.counterexample)
  })
})
