// The shortcuts of a request's hot path give exactly what the plain code they replace gave: each
// is checked here against that plain code (a reference written out in the test), over random input.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { createHandlers } from '../../src/msw/index.js'
import { startServer } from '../../src/server/index.js'
import { MAX_BODY_DEPTH } from '../../src/core/body.js'
import { costToUnits } from '../../src/core/inference/price.js'
import { REPLY_WORDS, defaultReply } from '../../src/core/inference/reply.js'
import type { InputMessage } from '../../src/core/inference/request.js'
import { SortedIndex } from '../../src/core/sorted-index.js'
import { Random } from '../../src/core/random.js'
import { uniformInt } from 'pure-rand/distribution/uniformInt'
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus'
import { setupServer } from 'msw/node'
import { type AnsweredResponse, toWire } from '../../src/core/http.js'
import { runs } from '../support/runs.js'

const SEED = 20261126

/** costToUnits as BigInt arithmetic alone: whole 10^-10 USD, half up past the tenth decimal. */
function unitsReference(cost: string): number {
  const dot = cost.indexOf('.')
  const units = BigInt(dot === -1 ? cost : cost.slice(0, dot) + cost.slice(dot + 1))
  const scale = dot === -1 ? 0 : cost.length - dot - 1
  if (scale <= 10) return Number(units * 10n ** BigInt(10 - scale))
  const divisor = 10n ** BigInt(scale - 10)
  return Number((units + divisor / 2n) / divisor)
}

/**
 * The default reply as it was first written: FNV-1a over the joined text, then the words drawn by
 * xorshift32 from that hash. The shortcut (the hash folded piece by piece, replies kept per hash)
 * must give exactly this.
 */
function replyReference(seed: number, model: string, messages: readonly Pick<InputMessage, 'role' | 'text'>[]): string {
  const text = `${model}\u0000${messages.map((m) => `${m.role}\u0001${m.text}`).join('\u0000')}`
  let h = (0x811c9dc5 ^ seed) >>> 0
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  let state = h || 1
  const next = (): number => {
    state ^= state << 13
    state >>>= 0
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    return state
  }
  const count = 12 + (next() % 36)
  const words: string[] = []
  for (let i = 0; i < count; i++) words.push(REPLY_WORDS[next() % REPLY_WORDS.length] as string)
  const joined = words.join(' ')
  return `${joined.charAt(0).toUpperCase()}${joined.slice(1)}.`
}

describe('costToUnits', () => {
  it('agrees with exact BigInt arithmetic on every decimal, short (read as a double) or long', () => {
    const digits = (min: number, max: number) => fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''))
    const cost = fc.oneof(
      fc.tuple(digits(1, 8), digits(0, 14)).map(([whole, fraction]) => (fraction === '' ? whole : `${whole}.${fraction}`)),
      fc.tuple(digits(1, 20), digits(1, 25)).map(([whole, fraction]) => `${whole}.${fraction}`),
      // 16 and more digits, with no decimals or a few: past what a double holds exactly.
      fc.tuple(digits(15, 22), digits(0, 3)).map(([whole, fraction]) => (fraction === '' ? whole : `${whole}.${fraction}`)),
      fc.constantFrom('0', '0.0', '0.00000000005', '0.00000000004999', '999999999999999', '9999999999999999', '99999999999999999', '0.9999999999', '12345.6789012345'),
    )
    fc.assert(
      fc.property(cost, (c) => {
        expect(costToUnits(c), c).toBe(unitsReference(c))
      }),
      { seed: SEED, numRuns: runs(3000) },
    )
  })
})

describe('defaultReply', () => {
  it('is the reply the joined-text code gives, for any seed, model and messages, asked once or again (kept)', () => {
    const message = fc.record({ role: fc.constantFrom('system', 'user', 'assistant', 'tool' as const), text: fc.string({ unit: 'binary', maxLength: 40 }) })
    const request = fc.record({ seed: fc.integer(), model: fc.string({ maxLength: 20 }), messages: fc.array(message, { maxLength: 4 }) })
    fc.assert(
      fc.property(request, ({ seed, model, messages }) => {
        const input = { messages: messages.map((m) => ({ ...m, mediaParts: 0, toolCallChars: 0 })) as InputMessage[] }
        const expected = replyReference(seed, model, messages)
        expect(defaultReply(seed, model, input)).toBe(expected)
        expect(defaultReply(seed, model, input)).toBe(expected)
      }),
      { seed: SEED, numRuns: runs(500) },
    )
  })

  it('gives, word for word, the replies the code that hashed the joined text gave (written down from it)', () => {
    const m = (role: InputMessage['role'], text: string) => ({ role, text, mediaParts: 0, toolCallChars: 0 })
    expect(defaultReply(7, 'm', { messages: [m('system', 'Be brief.'), m('user', 'Hello there')] })).toBe(
      'Model that soon without here costs simulated all arrival time now network fallbacks order time keys words providers without request your your limits this prices some keys on a without later providers calls are messages rely providers network with tests soon.',
    )
    expect(defaultReply(7, 'openai/gpt-4o', { messages: [] })).toBe(
      'Prices they always can reply these they today reply limits without is tokens routing keys always fallbacks tokens on simulated again answers these are or can tokens time in request surprises at with always a costs routing.',
    )
    expect(defaultReply(-3, 'x/y', { messages: [m('user', 'h\u00e9llo \u{1F600}')] })).toBe(
      'These or of prices streams in the is are seed prices limits of order every the network costs about for request network network short on at can calls time time later on today that here seed order so is short stable order streams without your always costs.',
    )
  })
})

describe('SortedIndex first and last', () => {
  it('are the smallest and the largest, as a page from either end gives them', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 60 }), fc.nat({ max: 60 }), (values, removals) => {
        const index = new SortedIndex<number>((a, b) => a - b)
        for (const v of values) index.insert(v)
        for (let i = 0; i < removals && index.size > 0; i++) index.remove(index.first() as number)
        expect(index.last()).toBe(index.pageFromEnd(0, 1)[0])
        expect(index.first()).toBe(index.size === 0 ? undefined : index.pageFromEnd(index.size - 1, 1)[0])
      }),
      { seed: SEED, numRuns: runs(500) },
    )
  })
})

describe('body depth', () => {
  it('reads a shallow body whose strings hold more brackets than the depth cap', () => {
    const sim = createSimulator()
    const name = `${'['.repeat(MAX_BODY_DEPTH + 5)}${'{'.repeat(MAX_BODY_DEPTH + 5)}`
    const res = sim.handle({ method: 'POST', path: '/keys', authorization: `Bearer ${sim.world.managementKey}`, body: JSON.stringify({ name: name.slice(0, 100) + name.slice(-100) }) })
    expect(res.status).toBe(201)
  })
})

describe('request targets read without a URL parse', () => {
  it('through MSW: the query is read, a fragment is not part of it, and the journal shows the path as sent', async () => {
    const sim = createSimulator()
    const server = setupServer(...createHandlers(sim))
    server.listen({ onUnhandledRequest: 'error' })
    try {
      const headers = { authorization: `Bearer ${sim.world.managementKey}` }
      const all = (await (await fetch('https://openrouter.ai/api/v1/keys', { headers })).json()) as { data: unknown[] }
      const paged = await fetch('https://openrouter.ai/api/v1/keys?offset=1#part?offset=5', { headers })
      expect(paged.status).toBe(200)
      expect(((await paged.json()) as { data: unknown[] }).data).toEqual(all.data.slice(1))
      const [first, second] = sim.journal.list()
      expect([first?.path, first?.query, second?.path, second?.query]).toEqual(['/keys', '', '/keys', 'offset=1'])
    } finally {
      server.close()
    }
  })

  it('over the server: plain paths and paths that need a parse (dot segments, escapes, a query) reach the same operation', async () => {
    const sim = createSimulator()
    const server = await startServer(sim, { port: 0 })
    try {
      const headers = { authorization: `Bearer ${sim.world.managementKey}` }
      const { request } = await import('node:http')
      const get = (path: string) =>
        new Promise<number>((resolve, reject) => {
          request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
            res.resume()
            res.on('end', () => resolve(res.statusCode ?? 0))
          })
            .on('error', reject)
            .end()
        })
      expect(await get('/api/v1/keys')).toBe(200)
      expect(await get('/api/v1/./keys')).toBe(200)
      expect(await get('/api/v1/x/../keys?offset=1')).toBe(200)
      expect(await get('/api/v1/%6Beys')).toBe(404)
      expect(sim.journal.list().map((e) => [e.operation, e.path, e.query])).toEqual([
        ['listKeys', '/keys', ''],
        ['listKeys', '/keys', ''],
        ['listKeys', '/keys', 'offset=1'],
        [null, '/%6Beys', ''],
      ])
    } finally {
      await server.close()
    }
  })
})

describe('a key record written field by field', () => {
  it('is JSON.stringify of the record the body shows, byte for byte, on every key operation that answers one', () => {
    const name = fc.string({ unit: 'binary', minLength: 1, maxLength: 30 })
    const key = fc.record(
      {
        name,
        limit: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 1_000_000 }), fc.double({ min: 0, max: 1e6, noNaN: true })),
        limitReset: fc.constantFrom(null, 'daily', 'weekly', 'monthly' as const),
        includeByokInLimit: fc.boolean(),
        disabled: fc.boolean(),
        expiresAt: fc.oneof(fc.constant(null), fc.integer({ min: Date.UTC(2027, 0, 1), max: Date.UTC(2199, 0, 1) }).map((ms) => new Date(ms).toISOString())),
        usage: fc.record({ total: fc.constant(12.3456), daily: fc.constant(1.5) }),
      },
      { requiredKeys: ['name'] },
    )
    fc.assert(
      fc.property(key, name, (options, rename) => {
        const sim = createSimulator({ seed: 9, now: '2026-03-04T05:06:07Z' })
        const auth = `Bearer ${sim.world.managementKey}`
        const { record } = sim.keys.create({ userId: sim.world.userId, ...options })
        const answers = [
          sim.handle({ method: 'GET', path: `/keys/${record.hash}`, authorization: auth }),
          sim.handle({ method: 'PATCH', path: `/keys/${record.hash}`, authorization: auth, body: JSON.stringify({ name: rename }) }),
          sim.handle({ method: 'POST', path: '/keys', authorization: auth, body: JSON.stringify({ name: rename, limit: options.limit ?? null }) }),
          sim.handle({ method: 'GET', path: '/keys', authorization: auth }),
        ]
        for (const answer of answers) {
          // The text first: reading `body` builds the object and withdraws the written text.
          const wire = toWire(answer as AnsweredResponse, answer.status === 201 ? 'POST' : 'GET')
          expect(answer.status, wire.body as string).toBeLessThan(300)
          expect(wire.body).toBe(JSON.stringify(answer.body))
          expect(Number(wire.headers['content-length'])).toBe(new TextEncoder().encode(wire.body as string).byteLength)
        }
      }),
      { seed: SEED, numRuns: runs(150) },
    )
  })
})

describe('an embeddings answer sent as bytes', () => {
  it('is the UTF-8 of JSON.stringify of its body, for a list asked again (its data kept), a new list, base64 and a set size', () => {
    const sim = createSimulator({ seed: 4 })
    const model = sim.world.models.embedding
    const auth = `Bearer ${sim.world.apiKey}`
    const lists = [['a refund policy', 'shipping times'], ['a refund policy', 'shipping times'], ['shipping times', 'a refund policy', 'ünïcödé ✓'], ['one']]
    const bodies = [
      ...lists.map((input) => ({ model, input })),
      { model, input: lists[0], encoding_format: 'base64' },
      { model, input: lists[0], encoding_format: 'base64' },
      { model, input: lists[2], dimensions: 8 },
      { model, input: 'one' },
    ]
    const sent: string[] = []
    for (const body of bodies) {
      const answer = sim.handle({ method: 'POST', path: '/embeddings', authorization: auth, body: JSON.stringify(body) })
      const wire = toWire(answer as AnsweredResponse, 'POST')
      expect(answer.status).toBe(200)
      expect(wire.body).toBeInstanceOf(Uint8Array)
      const text = new TextDecoder().decode(wire.body as Uint8Array)
      expect(text).toBe(JSON.stringify(answer.body))
      expect(Number(wire.headers['content-length'])).toBe((wire.body as Uint8Array).byteLength)
      sent.push(text)
    }
    // The journal makes each answer's text again from the inputs: the same bodies.
    expect(sim.journal.list().map((e) => JSON.stringify(e.response.body))).toEqual(sent)
  })
})

describe('seeded ids drawn without uniformInt', () => {
  it('are the characters uniformInt draws, from the same draws, for every alphabet size the simulator uses and others', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 2, max: 300 }), fc.integer({ min: 0, max: 80 }), (seed, size, length) => {
        const alphabet = Array.from({ length: size }, (_, i) => String.fromCharCode(0x21 + i)).join('')
        const random = new Random(seed)
        const reference = xoroshiro128plus(seed)
        const expected = Array.from({ length }, () => alphabet[uniformInt(reference, 0, size - 1)]).join('')
        expect((random as unknown as { fromAlphabet(a: string, n: number): string }).fromAlphabet(alphabet, length)).toBe(expected)
        // The stream is where uniformInt leaves it: the next draw agrees too.
        expect(random.int(0, 1_000_000)).toBe(uniformInt(reference, 0, 1_000_000))
      }),
      { seed: SEED, numRuns: runs(500) },
    )
  })
})
