// The journal names the responder rule whose answer each inference request got (`responder`, with
// `responderRemaining` for a rule with `times`), for chat completions, Responses and embeddings,
// through `sim.journal.list()` and its `responder` filter, and over the server's control API.
// Null for the default reply and for every request no rule answered.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator, type JournalEntry, type SimResponse, type WorldSpec } from '../../src/index.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'
import { ALPHA, chat, chatWorld, MODEL } from './support.js'
import { runs } from '../support/runs.js'

// fast-check prints the seed and path of a failing run; pass them back as { seed, path } to replay it.
const settings = { verbose: true, numRuns: runs(40) }

type Handle = { handle(request: any): SimResponse }

/** What the journal says answered, as [responder, responderRemaining], for each entry. */
const answered = (entries: readonly JournalEntry[]) => entries.map((e) => [e.responder, e.responderRemaining])
const lastEntry = (sim: { journal: { list(): JournalEntry[] } }): JournalEntry => {
  const entries = sim.journal.list()
  const last = entries[entries.length - 1]
  if (last === undefined) throw new Error('the journal is empty')
  return last
}

function responses(sim: Handle, key: string, input: string, extra: Record<string, unknown> = {}) {
  const response = sim.handle({ method: 'POST', path: '/responses', authorization: `Bearer ${key}`, body: JSON.stringify({ model: MODEL, input, ...extra }) })
  return { status: response.status, body: response.body as any }
}

const EMBED = 'acme/embed-1'
/** {@link chatWorld} with an embeddings model served by Alpha. */
function embedWorld() {
  const world = chatWorld()
  world.sim.models.create({
    id: EMBED,
    architecture: { output_modalities: ['embeddings'], input_modalities: ['text'], modality: 'text->embeddings' },
    endpoints: [{ provider_name: 'Alpha', pricing: { prompt: '0.0000001', completion: '0' }, context_length: 8192 }],
  })
  return world
}
function embed(sim: Handle, key: string, input: string | string[]) {
  const response = sim.handle({ method: 'POST', path: '/embeddings', authorization: `Bearer ${key}`, body: JSON.stringify({ model: EMBED, input }) })
  return { status: response.status, body: response.body as any }
}

describe('the journal names the responder rule that answered', () => {
  it('a chat completion, JSON and streamed: the rule by its name, or responder-<n>; null for the default reply', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ name: 'refunds', match: { lastUserMessage: /refund/i }, reply: { content: 'Five days.' } })
    const unnamed = sim.inference.respond({ match: { lastUserMessage: 'invoice' }, reply: { content: 'Attached.' } })
    expect(unnamed.name).toBe('responder-2')

    expect(chat(sim, key, { model: MODEL, messages: [{ role: 'user', content: 'Where is my REFUND?' }] }).body.choices[0].message.content).toBe('Five days.')
    expect(chat(sim, key, { model: MODEL, messages: [{ role: 'user', content: 'My invoice?' }] }).body.choices[0].message.content).toBe('Attached.')
    const plain = chat(sim, key, { model: MODEL, messages: [{ role: 'user', content: 'Hello' }] })
    expect(plain.status).toBe(200)
    const streamed = chat(sim, key, { model: MODEL, stream: true, messages: [{ role: 'user', content: 'refund, streamed' }] })
    expect(streamed.response.type).toBe('stream')

    const entries = sim.journal.list()
    expect(entries.map((e) => [e.operation, e.status])).toEqual(Array(4).fill(['createChatCompletion', 200]))
    expect(answered(entries)).toEqual([
      ['refunds', null],
      ['responder-2', null],
      [null, null],
      ['refunds', null],
    ])
    // The names are those the responders' list gives, and the counts agree with it.
    expect(sim.inference.responders.list()).toEqual([
      { name: 'responder-2', used: 1, remaining: null },
      { name: 'refunds', used: 2, remaining: null },
    ])
  })

  it('a Responses request, which chat rules answer too unless they name an operation', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ name: 'chat-only', match: { operation: 'createChatCompletion' }, reply: { content: 'Chat.' } })
    expect(responses(sim, key, 'Hello').status).toBe(200)
    sim.inference.respond({ name: 'any-text', reply: { content: 'Either.' } })
    const answer = responses(sim, key, 'Hello')
    expect(answer.body.output[0].content[0].text).toBe('Either.')
    sim.inference.respond({ name: 'responses-only', match: { operation: 'createResponses' }, reply: { content: 'Responses.' }, times: 1 })
    expect(responses(sim, key, 'Hello').body.output[0].content[0].text).toBe('Responses.')

    const entries = sim.journal.list({ operation: 'createResponses' })
    expect(answered(entries)).toEqual([
      [null, null],
      ['any-text', null],
      ['responses-only', 0],
    ])
  })

  it('an embeddings request: only a rule for createEmbeddings answers it; null for the default vectors', () => {
    const { sim, key } = embedWorld()
    sim.inference.respond({ name: 'chat', reply: { content: 'Not for vectors.' } })
    expect(embed(sim, key, 'plain text').status).toBe(200)
    sim.inference.respond({ name: 'stated-tokens', match: { operation: 'createEmbeddings', input: /invoice/ }, reply: { usage: { promptTokens: 77 } }, times: 3 })
    const scripted = embed(sim, key, ['about an invoice', 'other'])
    expect(scripted.body.usage.prompt_tokens).toBe(77)
    expect(embed(sim, key, 'no match').status).toBe(200)

    expect(answered(sim.journal.list({ operation: 'createEmbeddings' }))).toEqual([
      [null, null],
      ['stated-tokens', 2],
      [null, null],
    ])
  })

  it('a rule limited to N uses names N entries, counting down to 0; the next entry names the older rule, then null once it is spent too', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ name: 'older', reply: { content: 'Older.' }, times: 1 })
    sim.inference.respond({ name: 'first-three', reply: { content: 'Newer.' }, times: 3 })
    const contents = Array.from({ length: 6 }, () => chat(sim, key, { model: MODEL }).body.choices[0].message.content)
    expect(contents.slice(0, 4)).toEqual(['Newer.', 'Newer.', 'Newer.', 'Older.'])
    expect(contents.slice(4)).not.toContain('Older.')

    expect(answered(sim.journal.list())).toEqual([
      ['first-three', 2],
      ['first-three', 1],
      ['first-three', 0],
      ['older', 0],
      [null, null],
      [null, null],
    ])
    expect(sim.journal.list({ responder: 'first-three' }).map((e) => e.seq)).toEqual([1, 2, 3])
    expect(sim.journal.list({ responder: 'older' }).map((e) => e.seq)).toEqual([4])
    expect(sim.journal.list({ responder: 'nobody' })).toEqual([])
  })

  it('a rule whose error is the answer is named; one whose error the router fell back from is not', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ name: 'alpha-fails', match: { provider: 'Alpha' }, error: { status: 503, message: 'Alpha is busy' }, times: 5 })
    sim.faults.providerDown({ provider: 'Beta' })
    const ordered = (order: string[]) => chat(sim, key, { model: MODEL, provider: { order, allow_fallbacks: false } })

    // Alpha's rule fails the only attempt: the caller gets the rule's error.
    const alone = ordered(['Alpha'])
    expect([alone.status, alone.body.error.message]).toEqual([503, 'Alpha is busy'])
    // Beta's fault, then Alpha's rule: the last failure, the rule's, is the answer.
    const ruleLast = ordered(['Beta', 'Alpha'])
    expect([ruleLast.status, ruleLast.body.error.message]).toEqual([503, 'Alpha is busy'])
    // Alpha's rule, then Beta's fault: the fault's 502 is the answer; the rule was used all the same.
    const faultLast = ordered(['Alpha', 'Beta'])
    expect(faultLast.status).toBe(502)
    // Alpha's rule, then Gamma's default reply.
    const fellBack = ordered(['Alpha', 'Gamma'])
    expect([fellBack.status, fellBack.body.provider]).toEqual([200, 'Gamma'])

    expect(answered(sim.journal.list())).toEqual([
      ['alpha-fails', 4],
      ['alpha-fails', 3],
      [null, null],
      [null, null],
    ])
    expect(sim.inference.responders.list()).toEqual([{ name: 'alpha-fails', used: 4, remaining: 1 }])
  })

  it('a reply a mid-stream fault cuts is still the rule’s', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ name: 'long', reply: { content: 'x'.repeat(200) } })
    sim.faults.add({ operation: 'createChatCompletion', afterChunks: 1, respond: { status: 500 } })
    const cut = chat(sim, key, { model: MODEL, stream: true })
    expect(cut.response.type).toBe('stream')
    expect(lastEntry(sim).responder).toBe('long')
  })

  it('null for every request no reply was made for, a catch-all rule notwithstanding, and the rule is not used', () => {
    const { sim, key, keyHash } = chatWorld({ limit: 1 })
    sim.inference.respond({ name: 'everything', reply: { content: 'Scripted.' } })
    const management = sim.keys.create({ userId: sim.users.list()[0]!.id, management: true }).key
    const refused = [
      // Validation: a wrong value, no model.
      chat(sim, key, { model: MODEL, temperature: 5 }),
      chat(sim, key, {}),
      // A model that does not exist; a management key, which administers and does not spend.
      chat(sim, key, { model: 'acme/none' }),
      chat(sim, management, { model: MODEL }),
      // No credentials.
      chat(sim, 'sk-or-v1-nope', { model: MODEL }),
    ]
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400, 403, 401])
    // A fault on the operation answers before any reply is made.
    const fault = sim.faults.internalError({ operation: 'createChatCompletion', once: true })
    expect(chat(sim, key, { model: MODEL }).status).toBe(500)
    // The key spends past its limit (1 USD) with a stated usage, then is refused at admission.
    sim.inference.respond({ name: 'expensive', reply: { content: 'Costly.', usage: { promptTokens: 1_000_000, completionTokens: 0 } }, times: 1 })
    expect(chat(sim, key, { model: MODEL, provider: { order: ['Gamma'] } }).status).toBe(200)
    expect(sim.keys.get(keyHash)!.limit_remaining).toBeLessThanOrEqual(0)
    const overLimit = chat(sim, key, { model: MODEL })
    expect(overLimit.status).toBe(403)
    // An operation that is not inference, right after a rule answered: nothing carries over.
    expect(sim.handle({ method: 'GET', path: '/key', authorization: `Bearer ${key}` }).status).toBe(200)

    const entries = sim.journal.list()
    expect(entries.map((e) => [e.status, e.fault, e.responder, e.responderRemaining])).toEqual([
      [400, null, null, null],
      [400, null, null, null],
      [400, null, null, null],
      [403, null, null, null],
      [401, null, null, null],
      [500, fault.name, null, null],
      [200, null, 'expensive', 0],
      [403, null, null, null],
      [200, null, null, null],
    ])
    expect(sim.inference.responders.list()).toEqual([
      { name: 'expensive', used: 1, remaining: 0 },
      { name: 'everything', used: 0, remaining: null },
    ])
  })

  it('null for a request the rate limiter answered', () => {
    const sim = createSimulator({ world: 'empty', seed: 7, now: '2026-03-02T10:00:00Z', rateLimit: { requests: 1, intervalMs: 60_000 } })
    const org = sim.users.create({ name: 'Acme', credits: { total: 10_000 } })
    const { key } = sim.keys.create({ userId: org.id })
    sim.models.create({ id: MODEL, endpoints: [ALPHA] })
    sim.inference.respond({ name: 'scripted', reply: { content: 'Hi.' } })
    expect([chat(sim, key, { model: MODEL }).status, chat(sim, key, { model: MODEL }).status]).toEqual([200, 429])
    expect(sim.journal.list().map((e) => [e.rateLimited, e.responder])).toEqual([
      [false, 'scripted'],
      [true, null],
    ])
  })

  it('rules of a world file are named as the file names them, again after a reset', () => {
    const { sim: source } = chatWorld()
    const spec: WorldSpec<object> = { ...source.exportWorld(), responders: [{ name: 'from-file', match: { lastUserMessage: { regex: 'hello', flags: 'i' } }, reply: { content: 'From the file.' }, times: 1 }] }
    const sim = createSimulator({ world: spec, seed: 7 })
    const key = sim.keys.create({ userId: sim.users.list()[0]!.id }).key
    const ask = () => chat(sim, key, { model: MODEL, messages: [{ role: 'user', content: 'Hello' }] })
    ask()
    ask()
    expect(answered(sim.journal.list())).toEqual([
      ['from-file', 0],
      [null, null],
    ])
    sim.reset()
    const again = sim.keys.create({ userId: sim.users.list()[0]!.id }).key
    chat(sim, again, { model: MODEL, messages: [{ role: 'user', content: 'hello again' }] })
    expect(answered(sim.journal.list())).toEqual([['from-file', 0]])
  })

  it('entries are copies: editing one changes neither the journal nor the rule', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ name: 'kept', reply: { content: 'x' }, times: 2 })
    chat(sim, key, { model: MODEL })
    const [entry] = sim.journal.list()
    entry!.responder = 'edited'
    entry!.responderRemaining = 99
    expect(answered(sim.journal.list())).toEqual([['kept', 1]])
    expect(sim.inference.responders.list()).toEqual([{ name: 'kept', used: 1, remaining: 1 }])
  })

  it('refuses a responder filter that is not a rule name, naming filter.responder', () => {
    const { sim } = chatWorld()
    for (const responder of ['', 5, null]) {
      expect(() => sim.journal.list({ responder } as never)).toThrow(/filter\.responder/)
    }
  })

  it('agrees with a model of the rules over random rules and requests: newest matching rule first, each within its times', () => {
    const rule = fc.record({ word: fc.constantFrom('alpha', 'beta', 'gamma'), times: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }), named: fc.boolean() })
    const step = fc.oneof(
      fc.record({ kind: fc.constant('rule' as const), rule }),
      fc.record({ kind: fc.constant('ask' as const), word: fc.constantFrom('alpha', 'beta', 'gamma', 'delta') }),
      fc.record({ kind: fc.constant('remove' as const), index: fc.nat({ max: 5 }) }),
    )
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
        const sim = createSimulator({ world: 'empty', seed: 3, now: '2026-03-02T10:00:00Z' })
        const org = sim.users.create({ name: 'Acme', credits: { total: 10_000 } })
        const { key } = sim.keys.create({ userId: org.id })
        sim.models.create({ id: MODEL, endpoints: [ALPHA] })
        // The model: rules newest first, each with its word, limit and uses.
        let rules: { name: string; word: string; limit: number; used: number }[] = []
        const expected: [string | null, number | null][] = []
        steps.forEach((s, i) => {
          if (s.kind === 'rule') {
            const given = { match: { lastUserMessage: s.rule.word }, reply: { content: s.rule.word }, ...(s.rule.times !== undefined && { times: s.rule.times }), ...(s.rule.named && { name: `rule-${i}` }) }
            const { name } = sim.inference.respond(given)
            rules.unshift({ name, word: s.rule.word, limit: s.rule.times ?? Infinity, used: 0 })
          } else if (s.kind === 'remove') {
            const name = rules[s.index]?.name
            if (name === undefined) return
            sim.inference.responders.remove(name)
            rules = rules.filter((r) => r.name !== name)
          } else {
            expect(chat(sim, key, { model: MODEL, messages: [{ role: 'user', content: `about ${s.word}` }] }).status).toBe(200)
            const hit = rules.find((r) => r.word === s.word && r.used < r.limit)
            if (hit === undefined) expected.push([null, null])
            else {
              hit.used++
              expected.push([hit.name, hit.limit === Infinity ? null : hit.limit - hit.used])
            }
          }
        })
        expect(answered(sim.journal.list())).toEqual(expected)
        // The filter selects exactly the entries that name the rule.
        for (const { name } of rules) expect(sim.journal.list({ responder: name }).every((e) => e.responder === name)).toBe(true)
      }),
      settings,
    )
  })
})

describe('the responder in the journal over the server', () => {
  const sim = createSimulator()
  let server: SimulatorServer

  beforeAll(async () => {
    server = await startServer(sim, { port: 0 })
  })
  afterAll(() => server.close())

  async function control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(`${server.controlUrl}${path}`, { method, ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) })
    const text = await res.text()
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) }
  }

  async function ask(content: string, stream = false): Promise<number> {
    const res = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim.world.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: sim.world.models.paid, messages: [{ role: 'user', content }], stream }),
    })
    await res.text()
    return res.status
  }

  it('GET /__sim/journal shows responder and responderRemaining, filters on ?responder=, with and without bodies', async () => {
    expect((await control('POST', '/reset')).status).toBe(204)
    const posted = await control('POST', '/responders', { name: 'refunds', match: { lastUserMessage: { regex: 'refund', flags: 'i' } }, reply: { content: 'Five days.' }, times: 2 })
    expect(posted).toEqual({ status: 201, body: { name: 'refunds' } })
    expect(await ask('REFUND?')).toBe(200)
    expect(await ask('Hello')).toBe(200)
    expect(await ask('refund, streamed', true)).toBe(200)
    expect(await ask('refund once more')).toBe(200)

    const all = (await control('GET', '/journal?operation=createChatCompletion')).body.data
    expect(answered(all)).toEqual([
      ['refunds', 1],
      [null, null],
      ['refunds', 0],
      [null, null],
    ])
    const filtered = await control('GET', '/journal?responder=refunds&bodies=false')
    expect(filtered.status).toBe(200)
    expect(filtered.body.data.map((e: JournalEntry) => [e.seq, e.responder, e.responderRemaining, 'body' in e.response])).toEqual([
      [all[0].seq, 'refunds', 1, false],
      [all[2].seq, 'refunds', 0, false],
    ])
    // Paged: the first page names the rule, and the next one starts after it.
    const paged = await control('GET', '/journal?responder=refunds&limit=1')
    expect([paged.body.data.map((e: JournalEntry) => e.responderRemaining), paged.body.nextAfter]).toEqual([[1], all[0].seq])
    expect((await control('GET', '/journal?responder=nobody')).body).toEqual({ data: [] })
    // The list the control API gives agrees with the journal.
    expect((await control('GET', '/responders')).body).toEqual({ data: [{ name: 'refunds', used: 2, remaining: 0 }] })
  })

  it('a rule posted without a name is journaled as the name POST answered with', async () => {
    expect((await control('POST', '/reset')).status).toBe(204)
    const posted = await control('POST', '/responders', { reply: { content: 'Anything.' } })
    expect(await ask('Hi')).toBe(200)
    const [entry] = (await control('GET', `/journal?responder=${encodeURIComponent(posted.body.name)}`)).body.data
    expect([entry.responder, entry.responderRemaining]).toEqual([posted.body.name, null])
    expect(posted.body.name).toMatch(/^responder-\d+$/)
  })
})
