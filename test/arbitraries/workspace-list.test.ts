// workspaceList: arbitrary GET /workspaces answers, each one the official SDK parses.
import fc from 'fast-check'
import { ListWorkspacesResponse$inboundSchema } from '@openrouter/sdk/models/listworkspacesresponse.js'
import { describe, expect, it } from 'vitest'
import { workspaceList } from '../../src/arbitraries/index.js'
import { SimulatorError } from '../../src/index.js'
import { expectSdkParses, sampleOf, settings } from './support.js'

describe('workspaceList', () => {
  it('every page is one the SDK parses', () => {
    fc.assert(
      fc.property(workspaceList(), (list) => expectSdkParses(ListWorkspacesResponse$inboundSchema, list)),
      settings,
    )
  })

  it('pages hold distinct ids and slugs, oldest first, and total_count is at least the page', () => {
    fc.assert(
      fc.property(workspaceList({ maxLength: 8 }), (list) => {
        expect(list.data.length).toBeLessThanOrEqual(8)
        expect(new Set(list.data.map((w) => w.id)).size).toBe(list.data.length)
        expect(new Set(list.data.map((w) => w.slug)).size).toBe(list.data.length)
        const times = list.data.map((w) => Date.parse(w.created_at))
        expect(times).toEqual([...times].sort((a, b) => a - b))
        expect(Number.isInteger(list.total_count)).toBe(true)
        expect(list.total_count).toBeGreaterThanOrEqual(list.data.length)
      }),
      settings,
    )
  })

  it('reaches empty pages, whole lists and pages of longer lists', () => {
    const pages = sampleOf(workspaceList())
    expect(pages.some((p) => p.data.length === 0)).toBe(true)
    expect(pages.some((p) => p.data.length > 1 && p.total_count === p.data.length)).toBe(true)
    expect(pages.some((p) => p.total_count > p.data.length)).toBe(true)
  })

  it.each([[-1], [101], [1.5], [Number.NaN]])('refuses maxLength %s, naming it', (maxLength) => {
    let error: unknown
    try {
      workspaceList({ maxLength })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(SimulatorError)
    expect((error as SimulatorError).argument).toBe('maxLength')
  })

  it('refuses a constraint it does not have', () => {
    expect(() => workspaceList({ maxLenght: 3 } as never)).toThrow(/"maxLenght" is not a constraint of workspaceList/)
  })
})
