// Model-based test of the provisioning writes, through the official SDK over MSW: random sequences
// of key and workspace creates, updates, deletes and reads, usage records and credits, every answer
// checked against a plain model written here, independently of src/.
//
// Replaying a failure: fast-check prints `{ seed, path, endOnFailure: true }`; add them to the
// options of fc.assert below (FUZZ_SEED=<seed> replays the whole run).
import type { OpenRouter } from '@openrouter/sdk'
import { BadRequestResponseError, NotFoundResponseError } from '@openrouter/sdk/models/errors'
import fc from 'fast-check'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createSimulator, type EmptyWorld, type Simulator } from '../src/index.js'
import { createHandlers } from '../src/msw/index.js'
import { sdkClient } from './support/server.js'
import { runs, scaled } from './support/runs.js'

const BASE = 'http://sdk-model.test/api/v1'
const seed = Number(process.env['FUZZ_SEED'] ?? 20_261_125)
/** Integer units of 1e-10 USD, as the model keeps money. */
const UNITS = 1e10

type Reset = 'daily' | 'weekly' | 'monthly'

interface ModelKey {
  hash: string
  name: string
  disabled: boolean
  limit: number | null
  limitReset: Reset | null
  workspaceId: string
  /** Usage recorded on it, in units. */
  usage: number
}

interface ModelWorkspace {
  id: string
  name: string
  slug: string
}

interface Model {
  keys: Map<string, ModelKey>
  /** Hashes of deleted keys: 404 on every method from then on. */
  deleted: Set<string>
  workspaces: Map<string, ModelWorkspace>
  defaultWorkspaceId: string
  /** All the organisation's usage, deleted keys' included, in units. */
  totalUsage: number
  credits: number
}

interface Real {
  sim: Simulator<EmptyWorld>
  sdk: OpenRouter
  userId: string
}

type Command = fc.AsyncCommand<Model, Real>

/** The commands that ran, by name: the run must reach every kind of them. */
const ran: string[] = []

const sdkFor = (secret: string): OpenRouter => sdkClient(secret, BASE)

/** The SDK error a call fails with, or undefined when it succeeds. */
async function failure(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call()
    return undefined
  } catch (error) {
    return error
  }
}

const pick = <T,>(list: readonly T[], n: number): T | undefined => (list.length === 0 ? undefined : list[n % list.length])
const keyList = (m: Model): string[] => [...m.keys.keys(), ...m.deleted]

class CreateKey implements Command {
  constructor(
    readonly name: string,
    readonly limit: number | null,
    readonly limitReset: Reset | null,
    readonly workspace: number,
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    ran.push(this.constructor.name)
    const workspaceId = pick([...m.workspaces.keys()], this.workspace) as string
    const { data, key } = await r.sdk.apiKeys.create({ requestBody: { name: this.name, limit: this.limit, limitReset: this.limitReset, workspaceId } })
    expect(key).toMatch(/^sk-or-v1-/)
    expect({ name: data.name, limit: data.limit, limitReset: data.limitReset, workspaceId: data.workspaceId, disabled: data.disabled, usage: data.usage }).toEqual({
      name: this.name,
      limit: this.limit,
      limitReset: this.limitReset,
      workspaceId,
      disabled: false,
      usage: 0,
    })
    expect(m.keys.has(data.hash) || m.deleted.has(data.hash)).toBe(false)
    m.keys.set(data.hash, { hash: data.hash, name: this.name, disabled: false, limit: this.limit, limitReset: this.limitReset, workspaceId, usage: 0 })
  }
  toString = (): string => `CreateKey(${JSON.stringify(this.name)}, ${this.limit}, ${this.limitReset}, ws ${this.workspace})`
}

class UpdateKey implements Command {
  constructor(
    readonly key: number,
    readonly changes: { name?: string; disabled?: boolean; limit?: number | null },
  ) {}
  check = (m: Model): boolean => keyList(m).length > 0
  async run(m: Model, r: Real): Promise<void> {
    ran.push(this.constructor.name)
    const hash = pick(keyList(m), this.key) as string
    if (m.deleted.has(hash)) {
      expect(await failure(() => r.sdk.apiKeys.update({ hash, requestBody: this.changes }))).toBeInstanceOf(NotFoundResponseError)
      return
    }
    const { data } = await r.sdk.apiKeys.update({ hash, requestBody: this.changes })
    const key = m.keys.get(hash) as ModelKey
    Object.assign(key, this.changes)
    expect({ name: data.name, disabled: data.disabled, limit: data.limit }).toEqual({ name: key.name, disabled: key.disabled, limit: key.limit })
    expect(data.limitRemaining).toBe(key.limit === null ? null : Math.max(0, (key.limit * UNITS - key.usage) / UNITS))
  }
  toString = (): string => `UpdateKey(#${this.key}, ${JSON.stringify(this.changes)})`
}

class DeleteKey implements Command {
  constructor(readonly key: number) {}
  check = (m: Model): boolean => keyList(m).length > 0
  async run(m: Model, r: Real): Promise<void> {
    ran.push(this.constructor.name)
    const hash = pick(keyList(m), this.key) as string
    if (m.deleted.has(hash)) {
      expect(await failure(() => r.sdk.apiKeys.delete({ hash }))).toBeInstanceOf(NotFoundResponseError)
      return
    }
    expect(await r.sdk.apiKeys.delete({ hash })).toEqual({ deleted: true })
    m.keys.delete(hash)
    m.deleted.add(hash)
  }
  toString = (): string => `DeleteKey(#${this.key})`
}

class GetKey implements Command {
  constructor(readonly key: number) {}
  check = (m: Model): boolean => keyList(m).length > 0
  async run(m: Model, r: Real): Promise<void> {
    ran.push(this.constructor.name)
    const hash = pick(keyList(m), this.key) as string
    if (m.deleted.has(hash)) {
      expect(await failure(() => r.sdk.apiKeys.get({ hash }))).toBeInstanceOf(NotFoundResponseError)
      return
    }
    const key = m.keys.get(hash) as ModelKey
    const { data } = await r.sdk.apiKeys.get({ hash })
    expect({ name: data.name, disabled: data.disabled, limit: data.limit, limitReset: data.limitReset, workspaceId: data.workspaceId, usage: Math.round(data.usage * UNITS) }).toEqual({
      name: key.name,
      disabled: key.disabled,
      limit: key.limit,
      limitReset: key.limitReset,
      workspaceId: key.workspaceId,
      usage: key.usage,
    })
  }
  toString = (): string => `GetKey(#${this.key})`
}

class ListKeys implements Command {
  constructor(
    readonly workspace: number,
    readonly includeDisabled: boolean,
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    ran.push(this.constructor.name)
    const workspaceId = pick([...m.workspaces.keys()], this.workspace) as string
    const { data } = await r.sdk.apiKeys.list({ workspaceId, includeDisabled: this.includeDisabled })
    // Every key is created at the same instant (the clock does not move): newest first, then hash ascending, is hash order.
    const expected = [...m.keys.values()]
      .filter((key) => key.workspaceId === workspaceId && (this.includeDisabled || !key.disabled))
      .map((key) => key.hash)
      .sort()
      .slice(0, 100)
    expect(data.map((key) => key.hash)).toEqual(expected)
  }
  toString = (): string => `ListKeys(ws ${this.workspace}, includeDisabled ${this.includeDisabled})`
}

class RecordUsage implements Command {
  constructor(
    readonly key: number,
    readonly units: number,
  ) {}
  check = (m: Model): boolean => m.keys.size > 0
  async run(m: Model, r: Real): Promise<void> {
    ran.push(this.constructor.name)
    const key = pick([...m.keys.values()], this.key) as ModelKey
    r.sim.usage.record({ keyHash: key.hash, cost: this.units / UNITS })
    key.usage += this.units
    m.totalUsage += this.units
  }
  toString = (): string => `RecordUsage(#${this.key}, ${this.units} units)`
}

class AddCredits implements Command {
  constructor(readonly units: number) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    ran.push(this.constructor.name)
    r.sim.credits.add({ userId: r.userId, amount: this.units / UNITS })
    m.credits += this.units
  }
  toString = (): string => `AddCredits(${this.units} units)`
}

class GetCredits implements Command {
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    ran.push(this.constructor.name)
    const { data } = await r.sdk.credits.getCredits()
    expect({ totalCredits: Math.round(data.totalCredits * UNITS), totalUsage: Math.round(data.totalUsage * UNITS) }).toEqual({ totalCredits: m.credits, totalUsage: m.totalUsage })
  }
  toString = (): string => 'GetCredits'
}

class CreateWorkspace implements Command {
  constructor(
    readonly name: string,
    readonly slug: string,
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    ran.push(this.constructor.name)
    const taken = [...m.workspaces.values()].some((w) => w.slug === this.slug)
    const call = () => r.sdk.workspaces.create({ createWorkspaceRequest: { name: this.name, slug: this.slug } })
    if (taken) {
      expect(await failure(call)).toBeInstanceOf(BadRequestResponseError)
      return
    }
    const { data } = await call()
    expect({ name: data.name, slug: data.slug }).toEqual({ name: this.name, slug: this.slug })
    m.workspaces.set(data.id, { id: data.id, name: this.name, slug: this.slug })
  }
  toString = (): string => `CreateWorkspace(${JSON.stringify(this.name)}, ${this.slug})`
}

class RenameWorkspace implements Command {
  constructor(
    readonly workspace: number,
    readonly name: string,
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    ran.push(this.constructor.name)
    const workspace = pick([...m.workspaces.values()], this.workspace) as ModelWorkspace
    const { data } = await r.sdk.workspaces.update({ id: workspace.slug, updateWorkspaceRequest: { name: this.name } })
    workspace.name = this.name
    expect({ id: data.id, name: data.name, slug: data.slug }).toEqual({ id: workspace.id, name: this.name, slug: workspace.slug })
  }
  toString = (): string => `RenameWorkspace(ws ${this.workspace}, ${JSON.stringify(this.name)})`
}

class DeleteWorkspace implements Command {
  constructor(readonly workspace: number) {}
  check = (m: Model): boolean => m.workspaces.size > 1
  async run(m: Model, r: Real): Promise<void> {
    ran.push(this.constructor.name)
    const candidates = [...m.workspaces.values()].filter((w) => w.id !== m.defaultWorkspaceId)
    const workspace = pick(candidates, this.workspace) as ModelWorkspace
    const holdsKeys = [...m.keys.values()].some((key) => key.workspaceId === workspace.id)
    const call = () => r.sdk.workspaces.delete({ id: workspace.id })
    if (holdsKeys) {
      expect(await failure(call)).toBeInstanceOf(BadRequestResponseError)
      return
    }
    await call()
    m.workspaces.delete(workspace.id)
    expect(await failure(() => r.sdk.workspaces.get({ id: workspace.id }))).toBeInstanceOf(NotFoundResponseError)
  }
  toString = (): string => `DeleteWorkspace(#${this.workspace})`
}

class ListWorkspaces implements Command {
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    ran.push(this.constructor.name)
    const { result } = await r.sdk.workspaces.list({})
    expect(result.data.map((w) => w.id).sort()).toEqual([...m.workspaces.keys()].sort())
    expect(result.totalCount).toBe(m.workspaces.size)
  }
  toString = (): string => 'ListWorkspaces'
}

const NAMES = ['alpha', 'beta', 'Production', 'key with spaces', 'ünïcode', 'x']
const SLUGS = ['alpha', 'beta', 'staging', 'prod-eu', 'a-b-c']

const commands = [
  fc.tuple(fc.constantFrom(...NAMES), fc.option(fc.integer({ min: 0, max: 50 }), { nil: null }), fc.constantFrom<Reset | null>(null, 'daily', 'weekly', 'monthly'), fc.nat()).map(([n, l, reset, w]) => new CreateKey(n, l, reset, w)),
  fc.tuple(fc.nat(), fc.record({ name: fc.constantFrom(...NAMES), disabled: fc.boolean(), limit: fc.option(fc.integer({ min: 0, max: 50 }), { nil: null }) }, { requiredKeys: [] })).map(([k, c]) => new UpdateKey(k, c)),
  fc.nat().map((k) => new DeleteKey(k)),
  fc.nat().map((k) => new GetKey(k)),
  fc.tuple(fc.nat(), fc.boolean()).map(([w, d]) => new ListKeys(w, d)),
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 5e10 })).map(([k, u]) => new RecordUsage(k, u)),
  fc.integer({ min: 1, max: 1e12 }).map((u) => new AddCredits(u)),
  fc.constant(new GetCredits()),
  fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(...SLUGS)).map(([n, s]) => new CreateWorkspace(n, s)),
  fc.tuple(fc.nat(), fc.constantFrom(...NAMES)).map(([w, n]) => new RenameWorkspace(w, n)),
  fc.nat().map((w) => new DeleteWorkspace(w)),
  fc.constant(new ListWorkspaces()),
]

describe('the provisioning writes through the SDK, against a plain model', () => {
  let current: Real | undefined
  const server = setupServer()
  beforeAll(() => {
    vi.stubEnv('OPENROUTER_API_KEY', undefined)
    server.listen({ onUnhandledRequest: 'error' })
  })
  afterAll(() => {
    server.close()
    vi.unstubAllEnvs()
  })

  it('finds no divergence over random sequences of creates, updates, deletes and reads', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 40, size: 'max' }), async (cmds) => {
        const sim = createSimulator({ world: 'empty', seed: 7 })
        const org = sim.users.create({ name: 'Model org' })
        const admin = sim.keys.create({ userId: org.id, management: true })
        server.resetHandlers(...createHandlers(sim, { baseUrl: BASE }))
        current = { sim, sdk: sdkFor(admin.key), userId: org.id }
        const defaultId = org.defaultWorkspaceId as string
        const defaultWorkspace = sim.workspaces.list().find((w) => w.id === defaultId)
        const model: Model = {
          keys: new Map(),
          deleted: new Set(),
          workspaces: new Map([[defaultId, { id: defaultId, name: defaultWorkspace?.name ?? '', slug: defaultWorkspace?.slug ?? '' }]]),
          defaultWorkspaceId: defaultId,
          totalUsage: 0,
          credits: 0,
        }
        await fc.asyncModelRun(() => ({ model, real: current as Real }), cmds)
      }),
      { seed, numRuns: runs(40) },
    )
    const kinds = new Set(ran)
    expect([...kinds].sort()).toEqual(['AddCredits', 'CreateKey', 'CreateWorkspace', 'DeleteKey', 'DeleteWorkspace', 'GetCredits', 'GetKey', 'ListKeys', 'ListWorkspaces', 'RecordUsage', 'RenameWorkspace', 'UpdateKey'])
    expect(ran.length).toBeGreaterThan(scaled(400, 40))
  })
})
