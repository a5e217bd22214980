// The export in parts (GET /__sim/world/export, decisions/0047) is JSON.stringify of exportWorld() to
// the byte, and the state of the instant it was asked for, however long its writing takes.
import { describe, expect, it } from 'vitest'
import { toBase64 } from '../../src/core/base64.js'
import { internalsOf } from '../../src/core/internals.js'
import { createSimulator } from '../../src/index.js'

function partsOf(sim: ReturnType<typeof createSimulator>, options: { bodies?: boolean } = {}): Iterable<string> {
  const internals = internalsOf(sim)
  if (internals === undefined) throw new Error('not a createSimulator simulator')
  return internals.exportWorldParts({ encode: toBase64, ...options })
}

/** A world with an entity of each kind the export writes, a file larger than a base64 slice and an empty one. */
function busyWorld(): ReturnType<typeof createSimulator> {
  const sim = createSimulator({ seed: 7 })
  const { userId } = sim.world
  const workspace = sim.workspaces.create({ userId, name: 'Side "quoted" \u2028 line', slug: 'side' })
  const key = sim.keys.create({ userId, workspaceId: workspace.id, name: 'spender', limit: 12.5 })
  sim.usage.record({ keyHash: key.record.hash, cost: 0.25 })
  sim.usage.record({ keyHash: key.record.hash, cost: 1.5, byok: true })
  const bytes = new Uint8Array(3 * 64 * 1024 * 2 + 5).map((_, i) => (i * 31) & 255)
  sim.files.create({ userId, id: 'file_large', origin: 'server', bytes })
  sim.files.create({ userId, id: 'file_empty', origin: 'server', bytes: new Uint8Array(0) })
  return sim
}

describe('the export in parts', () => {
  it('is exportWorld() as JSON to the byte, with and without file contents', () => {
    for (const sim of [createSimulator(), busyWorld()]) {
      const spec = sim.exportWorld()
      expect([...partsOf(sim)].join('')).toBe(JSON.stringify(spec))
      const light = { ...spec, files: spec.files?.map(({ base64: _base64, text: _text, ...file }) => file) }
      expect([...partsOf(sim, { bodies: false })].join('')).toBe(JSON.stringify(light))
    }
  })

  it('writes the state of the instant it was asked for: a change while it is written is not in it', () => {
    const sim = busyWorld()
    const before = JSON.stringify(sim.exportWorld())
    const parts = partsOf(sim)[Symbol.iterator]()
    const first = parts.next()
    const key = Object.values(sim.exportWorld().keys ?? [])[0]
    sim.keys.create({ userId: sim.world.userId, name: 'made during the export' })
    if (key?.hash !== undefined) sim.usage.record({ keyHash: key.hash, cost: 3 })
    sim.users.create({ name: 'Late' })
    let text = first.done ? '' : first.value
    for (let next = parts.next(); !next.done; next = parts.next()) text += next.value
    expect(text).toBe(before)
  })
})
