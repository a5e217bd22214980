import fc from 'fast-check'
import { GetWorkspaceBudgetResponse$inboundSchema } from '@openrouter/sdk/models/getworkspacebudgetresponse.js'
import { describe, expect, it } from 'vitest'
import { workspaceBudget } from '../../src/arbitraries/index.js'
import { budgetReadBack } from '../support/governance.js'
import { SERVICE_TIMESTAMP, UUID_V4, expectSdkParses, sampleOf, settings, shrunk } from './support.js'

describe('workspaceBudget', () => {
  it('every budget is one the SDK parses, with UUIDs, a limit above 0 and ordered timestamps', () => {
    fc.assert(
      fc.property(workspaceBudget(), (b) => {
        expectSdkParses(GetWorkspaceBudgetResponse$inboundSchema, { data: b, include_byok_in_budgets: true })
        expect(b.id).toMatch(UUID_V4)
        expect(b.workspace_id).toMatch(UUID_V4)
        expect(b.limit_usd).toBeGreaterThan(0)
        expect(b.updated_at).toMatch(SERVICE_TIMESTAMP)
        expect(Date.parse(b.updated_at)).toBeGreaterThanOrEqual(Date.parse(b.created_at))
      }),
      settings,
    )
  })

  it('every budget loads through a world spec and reads back the same', () => {
    fc.assert(fc.property(workspaceBudget(), (b) => void expect(budgetReadBack(b)).toEqual({ data: b, include_byok_in_budgets: false })), { ...settings, numRuns: Math.min(settings.numRuns, 60) })
  })

  it('is deterministic by seed and refuses an unknown constraint', () => {
    expect(fc.sample(workspaceBudget(), { seed: 5, numRuns: 5 })).toEqual(fc.sample(workspaceBudget(), { seed: 5, numRuns: 5 }))
    expect(() => workspaceBudget({ interval: 'daily' } as never)).toThrow(/interval/)
  })

  it('comes up with every interval, a cent, and budgets never changed', () => {
    const budgets = sampleOf(workspaceBudget())
    for (const interval of ['daily', 'weekly', 'monthly', null]) expect(budgets.some((b) => b.reset_interval === interval)).toBe(true)
    expect(budgets.some((b) => b.limit_usd === 0.01)).toBe(true)
    expect(budgets.some((b) => b.updated_at === b.created_at)).toBe(true)
  })

  it('shrinks a budget over 100 USD to a daily one of exactly that, never changed', () => {
    const minimal = shrunk(workspaceBudget(), (b) => b.limit_usd <= 100)
    expect(minimal).toMatchObject({ reset_interval: 'daily', limit_usd: 100.01 })
    expect(minimal.updated_at).toBe(minimal.created_at)
  })
})
