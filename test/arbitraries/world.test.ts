import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { world } from '../../src/arbitraries/index.js'
import type { ArbitraryWorldHandles, WorldConstraints, WorldSpec } from '../../src/arbitraries/index.js'
import { createSimulator } from '../../src/index.js'
import { HEX64, sampleOf, settings, shrunk } from './support.js'
import { runs } from '../support/runs.js'

type World = WorldSpec<ArbitraryWorldHandles>

const DAY_MS = 86_400_000
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const ms = (instant: string | null | undefined): number => Date.parse(instant as string)
const timeOfDay = (instant: string): number => ((ms(instant) % DAY_MS) + DAY_MS) % DAY_MS
const lists = (w: World) => ({
  users: w.users ?? [],
  workspaces: w.workspaces ?? [],
  keys: w.keys ?? [],
  files: w.files ?? [],
  models: w.models ?? [],
  videoModels: w.videoModels ?? [],
})
const regularKeys = (w: World) => lists(w).keys.filter((k) => k.management !== true)
const duplicates = (values: readonly string[]): string[] => values.filter((v, i) => values.indexOf(v) !== i)

/** Worlds the property tests share: fewer runs than the default, as each one loads a whole simulator. */
const worldRuns = { ...settings, numRuns: runs(100) }

describe('world', () => {
  it('every world loads; sim.world is its handles, whose management key lists keys', () => {
    fc.assert(
      fc.property(world(), (w) => {
        const sim = createSimulator({ world: w })
        const { users, workspaces, keys, files, models, videoModels } = lists(w)
        expect(sim.world).toEqual(w.handles)
        expect(sim.world.userId).toBe(users[0]?.id)
        const res = sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}` })
        expect(res.status).toBe(200)
        expect(sim.clock.now().toISOString()).toBe(w.now)
        // Nothing was dropped or merged on the way in: every entity of the spec is in the store.
        expect(sim.users.list()).toHaveLength(users.length)
        expect(sim.workspaces.list()).toHaveLength(users.length + workspaces.length)
        expect(sim.keys.list().map((k) => k.hash)).toEqual(keys.map((k) => k.hash))
        expect(sim.files.list()).toHaveLength(files.length)
        expect(sim.models.list()).toHaveLength(models.length)
        expect(sim.videoModels.list()).toHaveLength(videoModels.length)
      }),
      worldRuns,
    )
  })

  it('ids are distinct, slugs are distinct within an organisation and never "default", and keys and files stay in their own organisation', () => {
    fc.assert(
      fc.property(world(), (w) => {
        const { users, workspaces, keys, files, models, videoModels } = lists(w)
        expect(duplicates(users.map((u) => u.id))).toEqual([])
        const uuids = [...users.flatMap((u) => (u.defaultWorkspaceId === undefined || u.defaultWorkspaceId === null ? [] : [u.defaultWorkspaceId])), ...workspaces.map((ws) => ws.id)]
        for (const id of uuids) expect(id).toMatch(UUID)
        expect(duplicates(uuids)).toEqual([])
        for (const user of users) {
          const slugs = workspaces.filter((ws) => ws.userId === user.id).map((ws) => ws.slug as string)
          expect(slugs).not.toContain('default')
          expect(duplicates(slugs)).toEqual([])
        }
        for (const key of keys) expect(key.hash).toMatch(HEX64)
        expect(duplicates(keys.map((k) => k.hash as string))).toEqual([])
        expect(duplicates(keys.map((k) => k.secret))).toEqual([])
        expect(duplicates(models.map((m) => m.id))).toEqual([])
        expect(duplicates(videoModels.map((m) => m.id))).toEqual([])
        expect(duplicates(files.map((f) => `${f.workspaceId ?? `default of ${f.userId}`} ${f.provider ?? ''} ${f.id}`))).toEqual([])
        for (const item of [...keys, ...files]) {
          if (item.workspaceId === undefined) continue
          const owner = workspaces.find((ws) => ws.id === item.workspaceId)?.userId ?? users.find((u) => u.defaultWorkspaceId === item.workspaceId)?.id
          expect(owner).toBe(item.userId)
        }
        for (const user of users) expect(keys.filter((k) => k.userId === user.id && k.management === true)).toHaveLength(1)
      }),
      worldRuns,
    )
  })

  it('every usage record falls between its key creation and now (or expiry), and nothing is created after now', () => {
    fc.assert(
      fc.property(world(), (w) => {
        const now = ms(w.now)
        const { users, workspaces, keys, files, models, videoModels } = lists(w)
        for (const entity of [...users, ...workspaces, ...keys, ...files]) expect(ms(entity.createdAt)).toBeLessThanOrEqual(now)
        for (const model of [...models, ...videoModels]) expect(ms(model.created)).toBeLessThanOrEqual(now)
        for (const key of keys) {
          for (const record of key.usage ?? []) {
            expect(ms(record.at)).toBeGreaterThanOrEqual(ms(key.createdAt))
            expect(ms(record.at)).toBeLessThanOrEqual(Math.min(now, key.expiresAt ? ms(key.expiresAt) : now))
          }
          if (key.expiresAt) expect(ms(key.expiresAt)).toBeGreaterThanOrEqual(ms(key.createdAt))
        }
      }),
      worldRuns,
    )
  })

  it('a world survives a JSON round trip unchanged, and both copies load the same keys', () => {
    fc.assert(
      fc.property(world(), (w) => {
        const copy = JSON.parse(JSON.stringify(w)) as World
        expect(copy).toStrictEqual(w)
        const [original, reloaded] = [createSimulator({ world: w }), createSimulator({ world: copy })]
        expect(reloaded.keys.list()).toEqual(original.keys.list())
        expect(reloaded.files.list()).toEqual(original.files.list())
      }),
      { ...settings, numRuns: runs(50) },
    )
  })

  it('is biased toward usage records on the key creation, on now, either side of midnight and of Monday 00:00', () => {
    const worlds = sampleOf(world(), 200)
    const records = worlds.flatMap((w) => lists(w).keys.flatMap((key) => (key.usage ?? []).map((record) => ({ now: w.now as string, key, record }))))
    expect(records.some(({ key, record }) => record.at === key.createdAt)).toBe(true)
    expect(records.some(({ now, key, record }) => record.at === now && now !== key.createdAt)).toBe(true)
    expect(records.some(({ record }) => timeOfDay(record.at) === 0)).toBe(true)
    expect(records.some(({ record }) => timeOfDay(record.at) === DAY_MS - 1)).toBe(true)
    expect(records.some(({ record }) => new Date(record.at).getUTCDay() === 0 && timeOfDay(record.at) === DAY_MS - 1)).toBe(true)
    expect(records.some(({ record }) => new Date(record.at).getUTCDay() === 1 && timeOfDay(record.at) === 0)).toBe(true)
    expect(records.some(({ record }) => record.cost === 0)).toBe(true)
    expect(records.some(({ record }) => record.cost > 0 && record.cost < 1e-6)).toBe(true)
    expect(records.some(({ record }) => record.byok === true)).toBe(true)
  })

  it('is biased toward limits of 0 and null, keys expiring at or one millisecond either side of now, and disabled keys', () => {
    const worlds = sampleOf(world(), 200)
    const keys = worlds.flatMap((w) => regularKeys(w).map((key) => ({ now: ms(w.now), key })))
    expect(keys.some(({ key }) => key.limit === 0)).toBe(true)
    expect(keys.some(({ key }) => key.limit === null)).toBe(true)
    expect(keys.some(({ key }) => key.limit === undefined)).toBe(true)
    for (const offset of [-1, 0, 1]) expect(keys.some(({ now, key }) => key.expiresAt != null && ms(key.expiresAt) === now + offset), `expiresAt = now ${offset}`).toBe(true)
    expect(keys.some(({ key }) => key.expiresAt === null)).toBe(true)
    expect(keys.some(({ key }) => key.disabled === true)).toBe(true)
    expect(keys.some(({ key }) => key.usage === undefined)).toBe(true)
  })

  it('puts keys in named workspaces and in the default one, both by its id and by leaving workspaceId out', () => {
    const keys = sampleOf(world(), 200).flatMap((w) => regularKeys(w).map((key) => ({ w, key })))
    expect(keys.some(({ key }) => key.workspaceId === undefined)).toBe(true)
    expect(keys.some(({ w, key }) => key.workspaceId !== undefined && lists(w).users.some((u) => u.defaultWorkspaceId === key.workspaceId))).toBe(true)
    expect(keys.some(({ w, key }) => lists(w).workspaces.some((ws) => ws.id === key.workspaceId))).toBe(true)
  })

  it('is biased toward empty lists, now on a midnight, and files as text and as base64', () => {
    const worlds = sampleOf(world(), 200)
    for (const list of ['workspaces', 'files', 'models', 'videoModels'] as const) expect(worlds.some((w) => lists(w)[list].length === 0), list).toBe(true)
    expect(worlds.some((w) => regularKeys(w).length === 0)).toBe(true)
    expect(worlds.some((w) => timeOfDay(w.now as string) === 0)).toBe(true)
    expect(worlds.some((w) => timeOfDay(w.now as string) === DAY_MS - 1)).toBe(true)
    const files = worlds.flatMap((w) => lists(w).files)
    expect(files.some((f) => f.text !== undefined && f.base64 === undefined)).toBe(true)
    expect(files.some((f) => f.base64 !== undefined && f.text === undefined)).toBe(true)
    expect(files.some((f) => f.text === '' || f.base64 === '')).toBe(true)
  })

  it('respects every maximum, and reaches the defaults', () => {
    const constraints: { [K in keyof WorldConstraints]-?: number } = { maxUsers: 2, maxWorkspacesPerUser: 1, maxKeys: 3, maxUsageRecords: 2, maxModels: 1, maxVideoModels: 1, maxFiles: 2 }
    const within = (w: World, c: { [K in keyof WorldConstraints]-?: number }): void => {
      const { users, workspaces, files, models, videoModels } = lists(w)
      expect(users.length).toBeGreaterThanOrEqual(1)
      expect(users.length).toBeLessThanOrEqual(c.maxUsers)
      for (const user of users) expect(workspaces.filter((ws) => ws.userId === user.id).length).toBeLessThanOrEqual(c.maxWorkspacesPerUser)
      expect(regularKeys(w).length).toBeLessThanOrEqual(c.maxKeys)
      for (const key of lists(w).keys) expect((key.usage ?? []).length).toBeLessThanOrEqual(c.maxUsageRecords)
      expect(models.length).toBeLessThanOrEqual(c.maxModels)
      expect(videoModels.length).toBeLessThanOrEqual(c.maxVideoModels)
      expect(files.length).toBeLessThanOrEqual(c.maxFiles)
    }
    fc.assert(fc.property(world(constraints), (w) => within(w, constraints)), settings)

    const none = { maxUsers: 1, maxWorkspacesPerUser: 0, maxKeys: 0, maxUsageRecords: 0, maxModels: 0, maxVideoModels: 0, maxFiles: 0 }
    for (const w of fc.sample(world(none), { seed: 1, numRuns: 20 })) {
      expect(Object.values(lists(w)).map((list) => list.length)).toEqual([1, 0, 1, 0, 0, 0])
    }

    // The defaults are 3, 2, 8, 4, 3, 2, 3: a fixed-seed sample reaches each of them.
    const defaults = { maxUsers: 3, maxWorkspacesPerUser: 2, maxKeys: 8, maxUsageRecords: 4, maxModels: 3, maxVideoModels: 2, maxFiles: 3 }
    const worlds = sampleOf(world(), 300)
    for (const w of worlds) within(w, defaults)
    expect(Math.max(...worlds.map((w) => lists(w).users.length))).toBe(3)
    expect(Math.max(...worlds.flatMap((w) => lists(w).users.map((u) => lists(w).workspaces.filter((ws) => ws.userId === u.id).length)))).toBe(2)
    expect(Math.max(...worlds.map((w) => regularKeys(w).length))).toBe(8)
    expect(Math.max(...worlds.flatMap((w) => lists(w).keys.map((k) => (k.usage ?? []).length)))).toBe(4)
    expect(Math.max(...worlds.map((w) => lists(w).models.length))).toBe(3)
    expect(Math.max(...worlds.map((w) => lists(w).videoModels.length))).toBe(2)
    expect(Math.max(...worlds.map((w) => lists(w).files.length))).toBe(3)
  })

  it.each(['maxUsers', 'maxWorkspacesPerUser', 'maxKeys', 'maxUsageRecords', 'maxModels', 'maxVideoModels', 'maxFiles'] as const)(
    'throws a SimulatorError naming %s when it is negative or not a whole number',
    (name) => {
      for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(() => world({ [name]: bad }), String(bad)).toThrow(expect.objectContaining({ name: 'SimulatorError', argument: name }))
        expect(() => world({ [name]: bad })).toThrow(new RegExp(`world arbitrary: ${name} must be`))
      }
    },
  )

  it('throws when maxUsers is 0: every world has an organisation with a management key', () => {
    expect(() => world({ maxUsers: 0 })).toThrow(/maxUsers must be an integer of at least 1/)
    expect(() => world({ maxKeys: 0, maxWorkspacesPerUser: 0 })).not.toThrow()
  })

  it('the same fast-check seed gives the same worlds, faker text included; another seed, others', () => {
    const first = fc.sample(world(), { seed: 7, numRuns: 20 })
    expect(fc.sample(world(), { seed: 7, numRuns: 20 })).toEqual(first)
    expect(fc.sample(world(), { seed: 8, numRuns: 20 })).not.toEqual(first)
  })

  it('shrinks a world with a charged key to one organisation, its management key and one key with one record', () => {
    const minimal = shrunk(world(), (w) => lists(w).keys.every((k) => (k.usage ?? []).length === 0))
    const { users, workspaces, keys, files, models, videoModels } = lists(minimal)
    expect(users).toHaveLength(1)
    expect([workspaces, files, models, videoModels]).toEqual([[], [], [], []])
    expect(keys).toHaveLength(2)
    const [management, charged] = keys
    expect(management?.management).toBe(true)
    expect(management?.secret).toBe(minimal.handles?.managementKey)
    // Every optional field of the charged key shrank away; its one record costs nothing, at now.
    expect(Object.keys(charged ?? {}).sort()).toEqual(['createdAt', 'hash', 'secret', 'usage', 'userId'])
    expect(charged?.usage).toEqual([{ at: minimal.now, cost: 0 }])
    // Shrinking drives both keys' hashes and secrets toward the same zeros; they must stay distinct to load.
    expect(charged?.hash).not.toBe(management?.hash)
    expect(charged?.secret).not.toBe(management?.secret)
    expect(createSimulator({ world: minimal }).keys.list()).toHaveLength(2)
  })
})
