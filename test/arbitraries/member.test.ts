import fc from 'fast-check'
import { ListOrganizationMembersResponseBody$inboundSchema } from '@openrouter/sdk/models/operations/listorganizationmembers.js'
import { describe, expect, it } from 'vitest'
import { member } from '../../src/arbitraries/index.js'
import { memberReadBack } from '../support/governance.js'
import { expectSdkParses, sampleOf, settings, shrunk } from './support.js'

describe('member', () => {
  it('every member is one the SDK parses', () => {
    fc.assert(fc.property(member(), (m) => expectSdkParses(ListOrganizationMembersResponseBody$inboundSchema, { data: [m], total_count: 1 })), settings)
  })

  it('every member loads through a world spec and reads back the same', () => {
    fc.assert(fc.property(member(), (m) => void expect(memberReadBack(m)).toEqual(m)), { ...settings, numRuns: Math.min(settings.numRuns, 60) })
  })

  it('is deterministic by seed and refuses any constraint', () => {
    expect(fc.sample(member(), { seed: 5, numRuns: 5 })).toEqual(fc.sample(member(), { seed: 5, numRuns: 5 }))
    expect(() => member({ role: 'admin' } as never)).toThrow(/role/)
  })

  it('comes up with both roles and members without names', () => {
    const members = sampleOf(member())
    expect(members.some((m) => m.role === 'org:admin')).toBe(true)
    expect(members.some((m) => m.first_name === null && m.last_name === null)).toBe(true)
  })

  it('shrinks an admin to one without names', () => {
    expect(shrunk(member(), (m) => m.role !== 'org:admin')).toMatchObject({ role: 'org:admin', first_name: null, last_name: null })
  })
})
