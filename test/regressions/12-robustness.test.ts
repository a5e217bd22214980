// Regressions of the robustness defects found by attacking the simulator (issue 12): the journal's
// memory, fault responses, sticky patterns, Retry-After, content-disposition and key labels.
import { describe, expect, it } from 'vitest'
import { createSimulator, maskSecret } from '../../src/index.js'
import { simulatorErrorOf } from '../support/server.js'

describe('the journal', () => {
  it('never holds more than journalLimit entries, at any point', () => {
    const sim = createSimulator({ journalLimit: 3 })
    for (let i = 1; i <= 10; i++) {
      sim.handle({ method: 'GET', path: '/videos/models' })
      expect(sim.journal.list()).toHaveLength(Math.min(i, 3))
    }
    expect(sim.journal.list().map((entry) => entry.seq)).toEqual([8, 9, 10])
  })

  it('shares a download’s bytes with the store instead of keeping a copy per entry, and hands the caller its own copy', () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create({ name: 'Acme' })
    const admin = sim.keys.create({ userId: org.id, management: true })
    sim.files.create({ userId: org.id, id: 'file_big', origin: 'server', bytes: new Uint8Array(1024 * 1024).fill(7) })
    const responses: Uint8Array[] = []
    for (let i = 0; i < 3; i++) {
      const res = sim.handle({ method: 'GET', path: '/files/file_big/content', authorization: `Bearer ${admin.key}` })
      responses.push(res.body as Uint8Array)
    }
    // Each caller got a copy: changing one changes neither the store nor the next answer.
    ;(responses[0] as Uint8Array)[0] = 99
    expect((responses[1] as Uint8Array)[0]).toBe(7)
    expect(sim.files.list()[0]?.bytes[0]).toBe(7)
    // The journal's entries all see the store's one buffer (list() hands out copies of it).
    const kept = sim.journal.list().map((entry) => (entry.response.body as Uint8Array)[0])
    expect(kept).toEqual([7, 7, 7])
  })
})

describe('fault responses', () => {
  it.each([
    ['metadata that is a string', { status: 503, metadata: 'x' }, 'respond.metadata'],
    ['metadata holding a function', { status: 503, metadata: { f: () => 1 } }, 'respond.metadata'],
    ['metadata holding a BigInt', { status: 503, metadata: { n: 2n } }, 'respond.metadata'],
    ['metadata that is an array', { status: 503, metadata: [1] }, 'respond.metadata'],
    ['headers that are a string', { status: 503, headers: 'abc' }, 'respond.headers'],
    ['a header name with a space', { status: 503, headers: { 'bad name': 'x' } }, 'respond.headers'],
    ['a header value with CR LF', { status: 503, headers: { 'x-a': 'a\r\nb' } }, 'respond.headers'],
    ['a header value that is a number', { status: 503, headers: { 'retry-after': 5 } }, 'respond.headers'],
    ['a message that is a number', { status: 503, message: 5 }, 'respond.message'],
  ])('refuses %s, naming it', (_, respond, argument) => {
    const sim = createSimulator()
    expect(simulatorErrorOf(() => sim.faults.add({ respond: respond as never })).argument).toBe(argument)
    expect(sim.faults.list()).toEqual([])
  })

  it('keeps its own copy of metadata and headers: changing the rule afterwards changes nothing', () => {
    const sim = createSimulator()
    const respond = { status: 503, metadata: { region: 'eu' }, headers: { 'Retry-After': '5' } }
    sim.faults.add({ respond })
    respond.metadata.region = 'us'
    respond.headers['Retry-After'] = '600'
    const res = sim.handle({ method: 'GET', path: '/videos/models' })
    expect(res.headers['retry-after']).toBe('5')
    expect((res.body as { error: { metadata: unknown } }).error.metadata).toEqual({ region: 'eu' })
  })

  it('matches every request with a sticky or global RegExp path, not every other one', () => {
    const sim = createSimulator()
    const fault = sim.faults.add({ path: /^\/videos/y, respond: { status: 500 } })
    sim.faults.add({ path: /^\/videos/g, respond: { status: 502 }, name: 'global' })
    const statuses = Array.from({ length: 4 }, () => sim.handle({ method: 'GET', path: '/videos/models' }).status)
    expect(statuses).toEqual([500, 500, 500, 500])
    expect(fault.matched).toBe(4)
  })

  it('treats null options of every preset as none', () => {
    const sim = createSimulator()
    expect([sim.faults.providerDown(null).name, sim.faults.serviceUnavailable(null).name, sim.faults.internalError(null).name]).toEqual([
      'provider-down',
      'service-unavailable',
      'internal-error',
    ])
    expect(simulatorErrorOf(() => sim.faults.providerDown('soon' as never)).argument).toBe('options')
  })

  it('refuses an empty list of operations, which would match nothing', () => {
    expect(simulatorErrorOf(() => createSimulator().faults.add({ operation: [], respond: 'never' })).argument).toBe('operation')
  })
})

describe('Retry-After', () => {
  it('refuses a rate-limit interval over a year, so Retry-After is always whole seconds', () => {
    expect(simulatorErrorOf(() => createSimulator({ rateLimit: { requests: 1, intervalMs: 1e300 } })).argument).toBe('rateLimit.intervalMs')
    const sim = createSimulator({ rateLimit: { requests: 1, intervalMs: 365 * 86_400_000 } })
    sim.handle({ method: 'GET', path: '/videos/models' })
    expect(sim.handle({ method: 'GET', path: '/videos/models' }).headers['retry-after']).toBe(String(365 * 86_400))
  })
})

describe('content-disposition', () => {
  it("escapes ' ( ) and * in filename*, as RFC 8187 requires", () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create({ name: 'Acme' })
    const admin = sim.keys.create({ userId: org.id, management: true })
    sim.files.create({ userId: org.id, id: 'file_cv', origin: 'server', filename: "résumé (final)'s*.pdf", bytes: new Uint8Array([1]) })
    const res = sim.handle({ method: 'GET', path: '/files/file_cv/content', authorization: `Bearer ${admin.key}` })
    const header = res.headers['content-disposition'] as string
    expect(header).toBe(`attachment; filename="r_sum_ (final)'s*.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%28final%29%27s%2A.pdf`)
    const star = /filename\*=UTF-8''(.*)$/.exec(header)?.[1] as string
    expect(star).toMatch(/^[A-Za-z0-9!#$&+.^_`|~%-]+$/)
    expect(decodeURIComponent(star)).toBe("résumé (final)'s*.pdf")
  })
})

describe('key labels', () => {
  it.each(['sk-or-v1-admin', 'sk-or-v1-test-secret', 'sk-or-v1-....', 'sk-or-v1-abc', 'my-own-secret', 'sk-or-v1-a...b'])(
    'never let anyone recover %s: at most a third of it shows, and never all of it',
    (secret) => {
      const label = maskSecret(secret)
      expect(label).not.toBe(secret)
      const body = secret.replace(/^sk-or-v1-/, '')
      const shown = label.replace(/^sk-or-v1-/, '').replace('...', '').length
      expect(shown).toBeLessThanOrEqual(Math.floor(body.length / 3))
    },
  )

  it('keeps the service’s form for a real 64-digit secret', () => {
    expect(maskSecret(`sk-or-v1-${'0e6'}${'a'.repeat(57)}${'1c96'}`)).toBe('sk-or-v1-0e6...1c96')
  })

  it('never answers GET /keys/{hash} with the bearer secret of a key whose secret looks like a label', () => {
    const sim = createSimulator()
    const { record } = sim.keys.create({ userId: sim.world.userId, secret: 'sk-or-v1-....' })
    const res = sim.handle({ method: 'GET', path: `/keys/${record.hash}`, authorization: `Bearer ${sim.world.managementKey}` })
    expect(JSON.stringify(res.body)).not.toContain('"sk-or-v1-...."')
  })
})

describe('generated ids never collide with the ids of a loaded world', () => {
  it('draws a fresh user and workspace id in a simulator loaded from an export with the same seed', () => {
    const sim = createSimulator({ world: 'empty', seed: 9 })
    const first = sim.users.create({ name: 'First' })
    const extra = sim.workspaces.create({ userId: first.id, name: 'Extra' })
    // Same seed, same draws: the twin's next user and workspace ids are the ones just taken.
    const twin = createSimulator({ world: sim.exportWorld(), seed: 9 })
    const second = twin.users.create({ name: 'Second' })
    const other = twin.workspaces.create({ userId: second.id, name: 'Other' })
    expect(second.id).not.toBe(first.id)
    expect([second.defaultWorkspaceId, other.id]).not.toContain(first.defaultWorkspaceId)
    expect(other.id).not.toBe(extra.id)
    expect(twin.users.list().map((u) => u.name).sort()).toEqual(['First', 'Second'])
    expect(twin.workspaces.get(extra.id)?.name).toBe('Extra')
    // And the twin still exports a world that loads.
    expect(() => createSimulator({ world: twin.exportWorld() })).not.toThrow()
  })
})
