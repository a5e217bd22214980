// GET /keys pages stay right while keys are made, changed and deleted over the wire: the page
// cache (KeyPages in store/keys.ts) must show a new key and drop a deleted or disabled one on the
// right page at once. A property test: random writes between random page reads, each page compared
// with the page computed afresh from the store.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type ApiKey, createSimulator } from '../../src/index.js'
import { runs } from '../support/runs.js'

const PAGE = 100

type Command =
  | { kind: 'read' }
  | { kind: 'create'; workspace: 0 | 1; limit: number | null }
  | { kind: 'backdated'; workspace: 0 | 1; minutesAgo: number }
  | { kind: 'toggle'; pick: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'limit'; pick: number; limit: number | null }
  | { kind: 'usage'; pick: number; cents: number }
  | { kind: 'advance'; minutes: number }
  | { kind: 'snapshot' }
  | { kind: 'restore' }

const workspace = fc.constantFrom<0 | 1>(0, 1)
const pick = fc.nat({ max: 10_000 })
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: 'read' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('create' as const), workspace, limit: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('backdated' as const), workspace, minutesAgo: fc.integer({ min: 0, max: 200 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('toggle' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('limit' as const), pick, limit: fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('usage' as const), pick, cents: fc.integer({ min: 1, max: 2000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: 0, max: 60 * 30 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'snapshot' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restore' as const }) },
)

describe('GET /keys pages after creates, updates and deletes over the wire', () => {
  it('always equal the page computed afresh from the store', () => {
    fc.assert(
      fc.property(fc.integer({ min: 85, max: 130 }), fc.array(command, { minLength: 5, maxLength: 40 }), (initial, commands) => {
        const sim = createSimulator({ world: 'empty' })
        const org = sim.users.create({ id: 'user_pages', name: 'Pages' })
        const admin = sim.keys.create({ userId: org.id, management: true, secret: 'sk-or-v1-pages-admin' })
        const staging = sim.workspaces.create({ userId: org.id, name: 'Staging' })
        const workspaces: [string, string] = [org.defaultWorkspaceId as string, staging.id]
        // Several keys per minute: ties on created_at are ordered by hash.
        for (let i = 0; i < initial; i++) {
          sim.keys.create({ userId: org.id, workspaceId: workspaces[i % 2] as string, createdAt: Date.parse('2026-03-01T00:00:00Z') + Math.floor(i / 3) * 60_000, disabled: i % 7 === 0 })
        }
        const auth = `Bearer ${admin.key}`
        const send = (method: string, path: string, body?: unknown, query?: string) =>
          sim.handle({ method, path, authorization: auth, ...(query === undefined ? {} : { query }), ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
        const listable = (): ApiKey[] => sim.keys.list().filter((key) => key.hash !== admin.record.hash)
        const chosen = (n: number): ApiKey | undefined => {
          const keys = listable()
          return keys.length === 0 ? undefined : keys[n % keys.length]
        }
        let saved = sim.snapshot()
        /** Every page a test reads, each compared with the page computed afresh: so each is cached before the next write. */
        const checkPages = (): void => {
          for (const workspaceId of workspaces) {
            for (const includeDisabled of [false, true]) {
              const expected = listable()
                .filter((key) => key.workspace_id === workspaceId && (includeDisabled || !key.disabled))
                .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0))
              for (const offset of [0, 99, 100]) {
                const response = send('GET', '/keys', undefined, `workspace_id=${workspaceId}&include_disabled=${includeDisabled}&offset=${offset}`)
                expect(response.status).toBe(200)
                expect(JSON.parse(JSON.stringify(response.body))).toEqual({ data: expected.slice(offset, offset + PAGE) })
              }
            }
          }
        }

        checkPages()
        for (const step of commands) {
          switch (step.kind) {
            case 'read':
              break
            case 'create':
              expect(send('POST', '/keys', { name: 'New', workspace_id: workspaces[step.workspace], limit: step.limit }).status).toBe(201)
              break
            case 'backdated':
              sim.keys.create({ userId: org.id, workspaceId: workspaces[step.workspace], createdAt: sim.clock.nowMs() - step.minutesAgo * 60_000 })
              break
            case 'toggle': {
              const key = chosen(step.pick)
              if (key) expect(send('PATCH', `/keys/${key.hash}`, { disabled: !key.disabled }).status).toBe(200)
              break
            }
            case 'delete': {
              const key = chosen(step.pick)
              if (key) expect(send('DELETE', `/keys/${key.hash}`).status).toBe(200)
              break
            }
            case 'limit': {
              const key = chosen(step.pick)
              if (key) expect(send('PATCH', `/keys/${key.hash}`, { limit: step.limit }).status).toBe(200)
              break
            }
            case 'usage': {
              const key = chosen(step.pick)
              if (key) sim.usage.record({ keyHash: key.hash, cost: step.cents / 100 })
              break
            }
            case 'advance':
              sim.clock.advance(step.minutes * 60_000)
              break
            case 'snapshot':
              saved = sim.snapshot()
              break
            case 'restore':
              sim.restore(saved)
              break
          }
          checkPages()
        }
      }),
      { verbose: true, numRuns: runs(40) },
    )
  })

  it('shows a key made over the wire first on page one, and moves the 100th key to page two, at once', () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create({ name: 'Pages' })
    const admin = sim.keys.create({ userId: org.id, management: true })
    for (let i = 0; i < 100; i++) sim.keys.create({ userId: org.id, createdAt: Date.parse('2026-03-01T00:00:00Z') + i * 1000 })
    const auth = `Bearer ${admin.key}`
    const page = (offset: number) => (JSON.parse(JSON.stringify(sim.handle({ method: 'GET', path: '/keys', query: `offset=${offset}`, authorization: auth }).body)) as { data: ApiKey[] }).data
    const [first, second] = [page(0), page(100)]
    expect([first.length, second.length]).toEqual([100, 0])

    const created = sim.handle({ method: 'POST', path: '/keys', authorization: auth, body: '{"name":"Newest"}' })
    const hash = (created.body as { data: ApiKey }).data.hash
    expect(page(0)[0]?.hash).toBe(hash)
    expect(page(100).map((key) => key.hash)).toEqual([first[99]?.hash])

    sim.handle({ method: 'DELETE', path: `/keys/${hash}`, authorization: auth })
    expect(page(0).map((key) => key.hash)).toEqual(first.map((key) => key.hash))
    expect(page(100)).toEqual([])
  })
})
