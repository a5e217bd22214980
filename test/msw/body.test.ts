// Reading an intercepted request's body from its source (src/msw/body.ts, decisions/0064): the text
// is always what `request.text()` gives, the body is left unread, and on the Node versions whose
// fetch keeps the source (up to 22) the stream is really skipped, so the saving cannot rot unseen.
//
// Replaying a failure: fc.assert prints `{ seed: ..., path: "...", endOnFailure: true }`; add them to
// that fc.assert's options to run only that case.
import https from 'node:https'
import fc from 'fast-check'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { bodySource } from '../../src/msw/body.js'
import { createHandlers, DEFAULT_BASE_URL } from '../../src/msw/index.js'
import { runs } from '../support/runs.js'

const URL = `${DEFAULT_BASE_URL}/keys`
const post = (body: BodyInit | null): Request => new Request(URL, { method: 'POST', body, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit)

/** What the handlers read: the source when it can be used, else the stream. */
const read = async (request: Request): Promise<string> => bodySource(request) ?? (await request.text())

const major = Number(process.versions.node.split('.')[0])
/** Node's fetch keeps a Request's body source under a "state" symbol up to Node 22; Node 24's keeps it in private fields. */
const keepsSource = Object.getOwnPropertySymbols(post('x')).some((key) => key.description === 'state')

describe('bodySource', () => {
  it('is used where Node keeps the source (Node 20 and 22), and not where it does not', () => {
    expect(keepsSource).toBe(major <= 22)
    expect(bodySource(post('{"name":"a"}'))).toBe(keepsSource ? '{"name":"a"}' : undefined)
    expect(bodySource(post(new TextEncoder().encode('{"name":"b"}')))).toBe(keepsSource ? '{"name":"b"}' : undefined)
    // MSW hands handlers copies of the request: a clone keeps the source too.
    expect(bodySource(post('{"name":"c"}').clone())).toBe(keepsSource ? '{"name":"c"}' : undefined)
  })

  /** Checks, over `bodies`, that the handlers read what `text()` gives. */
  const readsAsText = (bodies: fc.Arbitrary<string | Uint8Array<ArrayBuffer>>) =>
    fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        // Another request of the same body: a clone read here would use up a byte source (below).
        const expected = await post(body).text()
        expect(await read(post(body))).toBe(expected)
      }),
      { numRuns: runs(400) },
    )

  it('gives exactly what text() gives for any string body, lone surrogates and a leading U+FEFF included', async () => {
    await readsAsText(fc.tuple(fc.constantFrom('', '\uFEFF', '\uD800', '\uDC00x'), fc.string({ unit: 'binary', maxLength: 40 })).map(([head, rest]) => head + rest))
  })

  it('gives exactly what text() gives for any byte body: bad UTF-8 as U+FFFD, a byte order mark dropped', async () => {
    await readsAsText(fc.tuple(fc.constantFrom([], [0xef, 0xbb, 0xbf], [0xff], [0xc3]), fc.uint8Array({ maxLength: 40 })).map(([head, rest]) => Uint8Array.from([...head, ...rest])))
  })

  it('copies the bytes at construction, as fetch does: changing them afterwards changes nothing', async () => {
    const bytes = new TextEncoder().encode('{"name":"before"}')
    const request = post(bytes)
    bytes.set(new TextEncoder().encode('{"name":"AFTER!"}'))
    expect(await read(request)).toBe('{"name":"before"}')
  })

  it('takes the stream when a clone read first has emptied the bytes (as a listener reading request.clone() does)', async () => {
    const request = post(new TextEncoder().encode('{"name":"a"}'))
    expect(await request.clone().text()).toBe('{"name":"a"}')
    expect(bodySource(request)).toBeUndefined()
    expect(await read(request)).toBe('{"name":"a"}')
    // A string source is not used up by a read.
    const text = post('{"name":"b"}')
    await text.clone().text()
    expect(bodySource(text)).toBe(keepsSource ? '{"name":"b"}' : undefined)
  })

  it('leaves the body unread', async () => {
    const request = post('{"name":"a"}')
    expect(await read(request)).toBe('{"name":"a"}')
    expect(request.bodyUsed).toBe(!keepsSource)
    if (keepsSource) expect(await request.text()).toBe('{"name":"a"}')
  })

  it('gives nothing for a body that is used, locked, streamed, a blob or form data: those take the stream', async () => {
    const used = post('{"a":1}')
    await used.text()
    expect(bodySource(used)).toBeUndefined()
    await expect(read(used)).rejects.toThrow(TypeError)

    const locked = post('{"a":1}')
    locked.body?.getReader()
    expect(bodySource(locked)).toBeUndefined()

    const streamed = post(new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('{"a":2}')), c.close()) }))
    expect(bodySource(streamed)).toBeUndefined()
    expect(await read(streamed)).toBe('{"a":2}')

    const blob = post(new Blob(['{"a":3}']))
    expect(bodySource(blob)).toBeUndefined()
    expect(await read(blob)).toBe('{"a":3}')

    const form = new FormData()
    form.set('a', '4')
    const formRequest = post(form)
    expect(bodySource(formRequest)).toBeUndefined()
    // A multipart body's boundary is drawn per request, so its text is checked by its part.
    expect(await read(formRequest)).toMatch(/name="a"\r\n\r\n4\r\n/)
  })

  it('reads a URL-encoded body, which fetch keeps as its text', async () => {
    const request = post(new URLSearchParams({ a: '1', b: 'two words' }))
    expect(bodySource(request)).toBe(keepsSource ? 'a=1&b=two+words' : undefined)
    expect(await read(request)).toBe('a=1&b=two+words')
  })

  it('gives nothing for a request without a body', () => {
    expect(bodySource(new Request(URL))).toBeUndefined()
  })
})

describe('bodies through MSW', () => {
  const sim = createSimulator()
  const server = setupServer(...createHandlers(sim))
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterAll(() => server.close())
  const headers = { authorization: `Bearer ${sim.world.apiKey}`, 'content-type': 'application/json' }
  const chat = JSON.stringify({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'Hello' }] })

  it('answers a body sent by fetch, as a string and as bytes', async () => {
    for (const body of [chat, new TextEncoder().encode(chat)]) {
      const res = await fetch(`${DEFAULT_BASE_URL}/chat/completions`, { method: 'POST', headers, body })
      expect(res.status).toBe(200)
      expect(((await res.json()) as { object: string }).object).toBe('chat.completion')
    }
  })

  it('reads a leading byte order mark as text() does: dropped, so the JSON parses', async () => {
    const res = await fetch(`${DEFAULT_BASE_URL}/chat/completions`, { method: 'POST', headers, body: `\uFEFF${chat}` })
    expect(res.status).toBe(200)
  })

  it('answers a body sent by node:http (MSW builds the request from its written bytes)', async () => {
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = https.request(`${DEFAULT_BASE_URL}/chat/completions`, { method: 'POST', headers }, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      })
      req.on('error', reject)
      req.write(chat.slice(0, 20))
      req.end(chat.slice(20))
    })
    expect(answer.status).toBe(200)
    expect((JSON.parse(answer.text) as { object: string }).object).toBe('chat.completion')
  })
})
