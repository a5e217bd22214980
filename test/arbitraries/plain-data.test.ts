import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { apiKey, byokKey, endpoint, guardrail, member, modelWithEndpoints, pricing, pricingOverride, requestContext, videoModel, workspace, workspaceBudget, workspaceList } from '../../src/arbitraries/index.js'
import { settings } from './support.js'

/** Whether every object in a value is a plain object or array, as JSON.parse would build it. */
function plain(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== Array.prototype) return false
  return Object.values(value).every(plain)
}

const wire: [string, fc.Arbitrary<unknown>][] = [
  ['apiKey', apiKey()],
  ['workspace', workspace()],
  ['endpoint', endpoint()],
  ['modelWithEndpoints', modelWithEndpoints()],
  ['videoModel', videoModel()],
  ['pricing', pricing()],
  ['pricingOverride', pricingOverride()],
  ['workspaceList', workspaceList()],
  ['guardrail', guardrail()],
  ['workspaceBudget', workspaceBudget()],
  ['byokKey', byokKey()],
  ['member', member()],
]

describe('values are plain data', () => {
  it.each(wire)('every %s is plain JSON that survives a round trip unchanged', (_, arbitrary) => {
    fc.assert(
      fc.property(arbitrary, (value) => {
        expect(plain(value)).toBe(true)
        expect(JSON.parse(JSON.stringify(value))).toStrictEqual(value)
      }),
      settings,
    )
  })

  it('every request context is a plain object of promptTokens and at', () => {
    fc.assert(
      fc.property(requestContext(), (request) => {
        expect(Object.getPrototypeOf(request)).toBe(Object.prototype)
        expect(Object.keys(request)).toEqual(['promptTokens', 'at'])
      }),
      settings,
    )
  })
})
