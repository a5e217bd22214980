// The journal is bounded in bytes as well as entries, and keeps only the first 4 KiB of a refused or
// unauthenticated request's body (issue 36 item 2, decisions/0043).
import { fork } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { JOURNAL_ENTRY_OVERHEAD, JOURNAL_REFUSED_BODY_CAP } from '../../src/core/journal.js'
import { type JournalEntry, type SimRequest, type Simulator, SimulatorErrorCode, createSimulator } from '../../src/index.js'
import { simulatorErrorOf } from '../support/server.js'

type Sim = Simulator<{ apiKey: string; models: { paid: string } }>
const JOURNAL_HEAP = new URL('./support/journal-heap.ts', import.meta.url).pathname

/** A chat completion whose body is `bytes` long (ASCII), sent with `authorization`. */
function chatOf(sim: Sim, bytes: number, authorization: string | null = `Bearer ${sim.world.apiKey}`, model = sim.world.models.paid): SimRequest {
  const shell = JSON.stringify({ model, messages: [{ role: 'user', content: '' }] })
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'x'.repeat(bytes - shell.length) }] })
  expect(body.length).toBe(bytes)
  return { method: 'POST', path: '/chat/completions', headers: { 'content-type': 'application/json' }, authorization, body }
}

const last = (sim: Sim): JournalEntry => sim.journal.list().at(-1) as JournalEntry

/** What an accepted chat completion of a `bytes` body counts (no query). */
const chatSize = (bytes: number): number => JOURNAL_ENTRY_OVERHEAD + '/chat/completions'.length + bytes

describe('the journal byte budget', () => {
  it('counts each entry as its kept body, a fixed overhead and its path, and reports the sum', () => {
    const sim = createSimulator() as unknown as Sim
    expect(sim.journal.bytes()).toBe(0)
    expect(sim.handle(chatOf(sim, 10_000)).status).toBe(200)
    expect(sim.journal.bytes()).toBe(chatSize(10_000))
    sim.handle({ method: 'GET', path: '/videos/models', query: 'a=1' })
    expect(sim.journal.bytes()).toBe(chatSize(10_000) + JOURNAL_ENTRY_OVERHEAD + '/videos/models'.length + 3)
    sim.journal.clear()
    expect(sim.journal.bytes()).toBe(0)
  })

  it('drops the oldest entries once the bytes would pass the budget, and keeps the newest whole', () => {
    const sim = createSimulator({ journalBytes: 3 * chatSize(10_000) + 100 }) as unknown as Sim
    for (let i = 0; i < 7; i++) expect(sim.handle(chatOf(sim, 10_000)).status).toBe(200)
    const entries = sim.journal.list()
    expect(entries.map((e) => e.seq)).toEqual([5, 6, 7])
    for (const entry of entries) {
      expect(entry.requestBody).toHaveLength(10_000)
      expect(entry.requestBodyBytes).toBe(10_000)
      expect(entry.requestBodyTruncated).toBe(false)
    }
    expect(sim.journal.bytes()).toBe(3 * chatSize(10_000))
    // A larger entry drops as many of the oldest as it needs.
    sim.handle(chatOf(sim, 15_000))
    expect(sim.journal.list().map((e) => e.seq)).toEqual([7, 8])
    expect(sim.journal.bytes()).toBe(chatSize(10_000) + chatSize(15_000))
  })

  it('keeps the newest entry whole even when it alone is over the budget', () => {
    const sim = createSimulator({ journalBytes: 5_000 }) as unknown as Sim
    sim.handle({ method: 'GET', path: '/videos/models' })
    sim.handle(chatOf(sim, 20_000))
    expect(sim.journal.list().map((e) => [e.seq, e.requestBody?.length])).toEqual([[2, 20_000]])
    sim.handle({ method: 'GET', path: '/videos/models' })
    expect(sim.journal.list().map((e) => e.seq)).toEqual([3])
  })

  it('applies whichever bound is reached first: the entry limit under a large budget', () => {
    const sim = createSimulator({ journalLimit: 2, journalBytes: 1_000_000 }) as unknown as Sim
    for (let i = 0; i < 5; i++) sim.handle(chatOf(sim, 1_000))
    expect(sim.journal.list().map((e) => e.seq)).toEqual([4, 5])
    expect(sim.journal.bytes()).toBe(2 * chatSize(1_000))
  })

  it('keeps the bounds across many drops (the queue compacts): the latest entries, in order', () => {
    const sim = createSimulator({ journalBytes: 10 * chatSize(100) }) as unknown as Sim
    for (let i = 0; i < 500; i++) sim.handle(chatOf(sim, 100))
    expect(sim.journal.list().map((e) => e.seq)).toEqual(Array.from({ length: 10 }, (_, i) => 491 + i))
    expect(sim.journal.list({ status: 200 })).toHaveLength(10)
    expect(sim.journal.bytes()).toBe(10 * chatSize(100))
  })

  it('counts a download by its bytes: it may outlive its file', () => {
    const sim = createSimulator({ journalBytes: 2_500_000 }) as unknown as Sim & Simulator<{ userId: string; managementKey: string }>
    const world = sim.world as unknown as { userId: string; managementKey: string }
    const file = sim.files.create({ userId: world.userId, origin: 'server', bytes: new Uint8Array(1_000_000) })
    const download = { method: 'GET', path: `/files/${file.id}/content`, authorization: `Bearer ${world.managementKey}` }
    for (let i = 0; i < 3; i++) expect(sim.handle(download).status).toBe(200)
    expect(sim.journal.list().map((e) => e.seq)).toEqual([2, 3])
    expect(sim.journal.bytes()).toBe(2 * (JOURNAL_ENTRY_OVERHEAD + download.path.length + 1_000_000))
  })

  it('keeps nothing with journalBytes 0', () => {
    const sim = createSimulator({ journalBytes: 0 }) as unknown as Sim
    sim.handle({ method: 'GET', path: '/videos/models' })
    expect(sim.journal.list()).toEqual([])
    expect(sim.journal.bytes()).toBe(0)
  })

  it('is 64 MiB by default', () => {
    const sim = createSimulator({ journalLimit: 1_000 }) as unknown as Sim
    // Accepted bodies of 100,000 bytes (a larger prompt passes every endpoint's context length).
    const request = chatOf(sim, 100_000)
    for (let i = 0; i < 700; i++) expect(sim.handle(request).status).toBe(200)
    expect(sim.journal.list()).toHaveLength(Math.floor((64 * 1024 * 1024) / chatSize(100_000)))
  })

  it('refuses a negative, fractional or non-number journalBytes with a SimulatorError naming it', () => {
    for (const journalBytes of [-1, 2.5, '1000', Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      const error = simulatorErrorOf(() => createSimulator({ journalBytes: journalBytes as number }))
      expect(error.code).toBe(SimulatorErrorCode.InvalidArgument)
      expect(error.argument).toBe('journalBytes')
      expect(error.message).toContain('journalBytes')
    }
  })
})

describe('the body of a refused or unauthenticated request', () => {
  it('is kept up to 4 KiB, with its whole length and a flag: no key (401)', () => {
    const sim = createSimulator() as unknown as Sim
    const request = chatOf(sim, 10_000, null)
    expect(sim.handle(request).status).toBe(401)
    const entry = last(sim)
    expect(entry.requestBody).toBe((request.body as string).slice(0, JOURNAL_REFUSED_BODY_CAP))
    expect(entry.requestBodyBytes).toBe(10_000)
    expect(entry.requestBodyTruncated).toBe(true)
    expect(sim.journal.bytes()).toBe(JOURNAL_ENTRY_OVERHEAD + '/chat/completions'.length + JOURNAL_REFUSED_BODY_CAP)
  })

  it('is cut for bad credentials and for a valid key refused with a 4xx, read from bytes as from text', () => {
    const sim = createSimulator() as unknown as Sim
    const badKey = chatOf(sim, 10_000, 'Bearer sk-or-v1-nothing')
    expect(sim.handle(badKey).status).toBe(401)
    const unknownModel = chatOf(sim, 10_000, undefined, 'no-such/model')
    const bytes = { ...unknownModel, body: new TextEncoder().encode(unknownModel.body as string) }
    expect(sim.handle(bytes).status).toBe(400)
    expect(sim.journal.list().map((e) => [e.status, e.requestBody?.length, e.requestBodyBytes, e.requestBodyTruncated])).toEqual([
      [401, 4096, 10_000, true],
      [400, 4096, 10_000, true],
    ])
    expect(last(sim).principal).not.toBeNull()
  })

  it('is cut for a 5xx answer (a fault) and a rate-limited one', () => {
    const sim = createSimulator({ rateLimit: { requests: 1, intervalMs: 60_000 } }) as unknown as Sim
    sim.faults.providerDown({ operation: 'createChatCompletion', once: true })
    // A request a fault answers takes no token: the second takes the only one.
    for (let i = 0; i < 3; i++) sim.handle(chatOf(sim, 10_000))
    expect(sim.journal.list().map((e) => [e.status, e.requestBody?.length, e.requestBodyTruncated])).toEqual([
      [502, 4096, true],
      [200, 10_000, false],
      [429, 4096, true],
    ])
  })

  it('is cut for an anonymous caller whatever the answer (a network error, status 0), and kept whole for a valid key', () => {
    const sim = createSimulator() as unknown as Sim
    sim.faults.add({ operation: 'createChatCompletion', respond: 'network-error' })
    sim.handle(chatOf(sim, 10_000, null))
    sim.handle(chatOf(sim, 10_000))
    expect(sim.journal.list().map((e) => [e.status, e.principal === null, e.requestBody?.length, e.requestBodyTruncated])).toEqual([
      [0, true, 4096, true],
      [0, false, 10_000, false],
    ])
  })

  it('is kept whole when it is no longer than 4 KiB, refused or not', () => {
    const sim = createSimulator() as unknown as Sim
    sim.handle(chatOf(sim, JOURNAL_REFUSED_BODY_CAP, null))
    expect([last(sim).requestBody?.length, last(sim).requestBodyBytes, last(sim).requestBodyTruncated]).toEqual([4096, 4096, false])
    sim.handle({ method: 'GET', path: '/videos/models' })
    expect([last(sim).requestBody, last(sim).requestBodyBytes, last(sim).requestBodyTruncated]).toEqual([null, null, false])
  })

  it('is cut before a character that does not fit whole, and counts UTF-8 bytes', () => {
    const sim = createSimulator() as unknown as Sim
    // 'é' is 2 bytes: after one ASCII byte the 4 KiB cut falls inside one, which is left out.
    const text = `a${'é'.repeat(5_000)}`
    for (const body of [text, new TextEncoder().encode(text)]) {
      sim.handle({ method: 'POST', path: '/chat/completions', headers: { 'content-type': 'application/json' }, body })
      expect(last(sim).requestBody).toBe(`a${'é'.repeat(2_047)}`)
      expect(last(sim).requestBodyBytes).toBe(10_001)
    }
    // A pair of surrogates (4 bytes) is never split either.
    sim.handle({ method: 'POST', path: '/chat/completions', body: `${'a'.repeat(4_095)}😀${'b'.repeat(10)}` })
    expect(last(sim).requestBody).toBe('a'.repeat(4_095))
    expect(last(sim).requestBodyBytes).toBe(4_095 + 4 + 10)
  })

  it('is cut on the control API\'s journal too, where the new fields show', async () => {
    const { startServer } = await import('../../src/server/index.js')
    const sim = createSimulator() as unknown as Sim
    const server = await startServer(sim as never, { port: 0 })
    try {
      const body = 'x'.repeat(100_000)
      expect((await fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(401)
      const listed = (await (await fetch(`${server.controlUrl}/journal?status=401`)).json()) as { data: JournalEntry[] }
      expect(listed.data.map((e) => [e.requestBody?.length, e.requestBodyBytes, e.requestBodyTruncated])).toEqual([[4096, 100_000, true]])
    } finally {
      await server.close()
    }
  })

  it('40 refused 10 MB bodies count 40 x 4 KiB, and every kept string is short', () => {
    const sim = createSimulator() as unknown as Sim
    for (let i = 0; i < 40; i++) {
      const body = new Uint8Array(10_000_000).fill(0x61 + (i % 26))
      expect(sim.handle({ method: 'POST', path: '/chat/completions', headers: { 'content-type': 'application/json' }, body }).status).toBe(401)
    }
    const entries = sim.journal.list()
    expect(entries).toHaveLength(40)
    expect(entries.every((e) => (e.requestBody?.length ?? 0) === JOURNAL_REFUSED_BODY_CAP && e.requestBodyBytes === 10_000_000)).toBe(true)
    expect(sim.journal.bytes()).toBe(40 * (JOURNAL_ENTRY_OVERHEAD + '/chat/completions'.length + JOURNAL_REFUSED_BODY_CAP))
  })

  it('40 refused 10 MB bodies leave the heap within 64 MiB of where it was (measured after a GC, in a process of its own)', async () => {
    const child = fork(JOURNAL_HEAP, [], { execArgv: ['--import', 'tsx', '--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    const grown = await new Promise<{ grownBytes: number; entries: number }>((resolve, reject) => {
      child.once('message', (message) => resolve(message as never))
      child.once('exit', (code) => reject(new Error(`the heap process exited (${code}) before it answered`)))
    })
    child.kill()
    expect(grown.entries).toBe(60)
    expect(grown.grownBytes).toBeLessThan(64 * 1024 * 1024)
  }, 60_000)
})
