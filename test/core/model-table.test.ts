// The store's models table makes a row when it is first read (decisions/0066): what it answers is
// what an eager table answers, a copy shares the rows, and the default world's load makes only
// the models a test reads.
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { copyModelTable, ModelTable } from '../../src/core/store/model-table.js'
import { emptyStoreData, shareStoreData, writableTable } from '../../src/core/store/state.js'
import { DEFAULT_WORLD_MODELS, defaultWorld } from '../../src/core/worlds/default.js'
import type { ModelWithEndpoints } from '../../src/core/types.js'

/** A model row with just an id: the table never looks inside a row. */
const row = (id: string) => ({ id }) as unknown as ModelWithEndpoints

/** A lazy table of `ids`, and how many times each row was made. */
function counted(ids: string[]) {
  const makes = new Map<string, number>()
  const table = ModelTable.lazy(
    ids.map((id) => [
      id,
      () => {
        makes.set(id, (makes.get(id) ?? 0) + 1)
        return row(id)
      },
    ]),
  )
  return { table, makes }
}

describe('ModelTable', () => {
  it('makes a row on its first read, once, and answers the same object after', () => {
    const { table, makes } = counted(['a/1', 'b/2', 'c/3'])
    expect([table.size, table.has('b/2'), table.has('x'), [...table.keys()]]).toEqual([3, true, false, ['a/1', 'b/2', 'c/3']])
    expect(makes.size).toBe(0)
    expect(table.madeCount()).toBe(0)
    const first = table.get('b/2')
    expect(first).toEqual(row('b/2'))
    expect(table.get('b/2')).toBe(first)
    expect(table.get('x')).toBeUndefined()
    expect([...makes]).toEqual([['b/2', 1]])
    expect(table.madeCount()).toBe(1)
  })

  it('answers made models, in order, from every read of the Map interface', () => {
    const reads: ((t: ModelTable) => unknown)[] = [
      (t) => [...t.values()],
      (t) => [...t.entries()].map(([, m]) => m),
      (t) => [...t].map(([, m]) => m),
      (t) => {
        const seen: unknown[] = []
        t.forEach((m, id, map) => {
          expect(map).toBe(t)
          expect(m.id).toBe(id)
          seen.push(m)
        })
        return seen
      },
      (t) => [...new Map(t).values()],
      (t) => Array.from(t.values()),
    ]
    for (const read of reads) {
      const { table, makes } = counted(['a/1', 'b/2'])
      expect(read(table)).toEqual([row('a/1'), row('b/2')])
      expect([...makes.values()]).toEqual([1, 1])
      expect(table.madeCount()).toBe(2)
    }
  })

  it('keeps the Map\u2019s own writes: set, delete and clear', () => {
    const { table, makes } = counted(['a/1', 'b/2'])
    const replaced = row('a/1')
    table.set('a/1', replaced)
    table.set('z/9', row('z/9'))
    table.delete('b/2')
    expect([...table.keys()]).toEqual(['a/1', 'z/9'])
    expect(table.get('a/1')).toBe(replaced)
    expect(makes.size).toBe(0)
    table.clear()
    expect(table.size).toBe(0)
  })

  it('copies to a table of its own that shares the rows: what one makes is made for both', () => {
    const { table, makes } = counted(['a/1', 'b/2'])
    const copy = table.copy()
    expect(copy).toBeInstanceOf(ModelTable)
    // Not `not.toBe`: when two objects differ, it compares them deeply, which reads every row.
    expect(copy === table).toBe(false)
    const made = copy.get('a/1')
    expect(table.get('a/1')).toBe(made)
    expect([...makes]).toEqual([['a/1', 1]])
    copy.delete('b/2')
    expect([table.has('b/2'), copy.has('b/2')]).toEqual([true, false])
    expect(copyModelTable(table)).toBeInstanceOf(ModelTable)
    const plain = new Map([['a/1', row('a/1')]])
    const plainCopy = copyModelTable(plain)
    expect([plainCopy instanceof ModelTable, plainCopy === plain, [...plainCopy.keys()]]).toEqual([false, false, ['a/1']])
  })

  it('stays lazy when a simulator first writes to a shared table of it', () => {
    const { table, makes } = counted(['a/1', 'b/2'])
    const data = emptyStoreData()
    data.models = table
    shareStoreData(data)
    const own = writableTable(data, 'models')
    expect(own === table).toBe(false)
    expect(own).toBeInstanceOf(ModelTable)
    expect(data.models === own).toBe(true)
    expect(makes.size).toBe(0)
    expect(data.models.get('b/2')).toBe(table.get('b/2'))
  })
})

describe('the default world\u2019s models', () => {
  it('are made as a test reads them, and answer as a world built afresh does', () => {
    // An instant no other test uses: a clock shift whose table no simulator has read yet.
    const now = '2031-05-06T07:08:09.000Z'
    const shift = Date.parse(now) - Date.parse(defaultWorld().now as string)
    const sim = createSimulator({ now })
    const table = DEFAULT_WORLD_MODELS.get(shift)
    expect(table).toBeInstanceOf(ModelTable)
    expect(table!.madeCount()).toBe(0)

    const fresh = createSimulator({ now, world: structuredClone(defaultWorld()) })
    const ask = (s: typeof sim) =>
      s.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${s.world.apiKey}`, body: JSON.stringify({ model: s.world.models.paid, messages: [{ role: 'user', content: 'Hello' }] }) })
    const answer = ask(sim)
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual(ask(fresh).body)
    // The routed model alone, not the catalog.
    expect(table!.madeCount()).toBe(1)
    expect(table!.size).toBeGreaterThan(300)

    expect(sim.handle({ method: 'GET', path: '/models' }).body).toEqual(fresh.handle({ method: 'GET', path: '/models' }).body)
    expect(table!.madeCount()).toBe(table!.size)
    expect(sim.exportWorld()).toEqual(fresh.exportWorld())
  })
})
