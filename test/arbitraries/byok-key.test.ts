import fc from 'fast-check'
import { GetBYOKKeyResponse$inboundSchema } from '@openrouter/sdk/models/getbyokkeyresponse.js'
import { describe, expect, it } from 'vitest'
import { byokKey } from '../../src/arbitraries/index.js'
import { byokReadBack } from '../support/governance.js'
import { SERVICE_TIMESTAMP, UUID_V4, expectSdkParses, sampleOf, settings, shrunk } from './support.js'

describe('byokKey', () => {
  it('every credential is one the SDK parses, with a UUID and a masked label', () => {
    fc.assert(
      fc.property(byokKey(), (k) => {
        expectSdkParses(GetBYOKKeyResponse$inboundSchema, { data: k })
        expect(k.id).toMatch(UUID_V4)
        expect(k.label).toMatch(/^.{3}\.\.\.[A-Za-z0-9]{4}$/)
        expect(k.created_at).toMatch(SERVICE_TIMESTAMP)
      }),
      settings,
    )
  })

  it('every credential loads through a world spec (a raw key of the same mask) and reads back the same', () => {
    fc.assert(fc.property(byokKey(), (k) => void expect(byokReadBack(k)).toEqual({ data: k })), { ...settings, numRuns: Math.min(settings.numRuns, 60) })
  })

  it('is deterministic by seed and refuses an unknown constraint', () => {
    expect(fc.sample(byokKey(), { seed: 5, numRuns: 5 })).toEqual(fc.sample(byokKey(), { seed: 5, numRuns: 5 }))
    expect(() => byokKey({ provider: 'openai' } as never)).toThrow(/provider/)
  })

  it('comes up with credentials of every workspace, empty lists and later sort orders', () => {
    const credentials = sampleOf(byokKey())
    expect(credentials.some((k) => k.workspace_id === null)).toBe(true)
    expect(credentials.some((k) => k.allowed_models?.length === 0)).toBe(true)
    expect(credentials.some((k) => k.sort_order > 1)).toBe(true)
    expect(new Set(credentials.map((k) => k.provider)).size).toBeGreaterThan(5)
  })

  it('shrinks a disabled credential to a bare OpenAI one', () => {
    const minimal = shrunk(byokKey(), (k) => !k.disabled)
    expect(minimal).toMatchObject({ provider: 'openai', disabled: true, name: null, workspace_id: null, allowed_models: null, sort_order: 0, is_fallback: false })
  })
})
