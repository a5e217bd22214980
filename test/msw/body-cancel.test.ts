// A non-streamed answer's body cancelled unread through plain `setupServer(...createHandlers(sim))`
// on msw 2. The openai JS client does this before each retry of a 429 or 5xx (it awaits the
// cancel), and msw 2 tees every mocked body for its own copy, so the cancel never settled and the
// client hung instead of retrying (decisions/0045 met it for streams first). The openai client
// itself, with its default retries, is test/clients/openai.client.ts's "retried" case.
import { setupServer } from 'msw/node'
import { afterEach, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { createHandlers, toResponse } from '../../src/msw/index.js'

const BASE = 'https://openrouter.ai/api/v1'

let close: (() => void) | undefined
afterEach(() => close?.())

function mounted() {
  const sim = createSimulator()
  const server = setupServer(...createHandlers(sim))
  server.listen({ onUnhandledRequest: 'error' })
  close = () => server.close()
  const headers = { authorization: `Bearer ${sim.world.apiKey}`, 'content-type': 'application/json' }
  const chat = () => fetch(`${BASE}/chat/completions`, { method: 'POST', headers, body: JSON.stringify({ model: sim.world.models.paid, messages: [{ role: 'user', content: 'Hello' }] }) })
  return { sim, server, headers, chat }
}

/** `promise`, or a failure naming `what` after 3 s: a hang fails here, not at the test's timeout. */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not settle in 3 s`)), 3000)))
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

describe('a non-streamed answer cancelled unread', () => {
  it('settles at once, and the retry the client then sends is answered (a 503 fault, then 200)', async () => {
    const { sim, chat } = mounted()
    sim.faults.serviceUnavailable({ operation: 'createChatCompletion', once: true, retryAfterSeconds: 1 })
    const refused = await chat()
    expect(refused.status).toBe(503)
    await within((refused.body as ReadableStream<Uint8Array>).cancel(), "the client's cancel of the 503's body")
    const retried = await within(chat(), 'the retry')
    expect(retried.status).toBe(200)
    expect(sim.journal.list().map((entry) => entry.status)).toEqual([503, 200])
  })

  it('settles for every kind of answer: a cached catalog page, an error envelope, bytes', async () => {
    const { sim } = mounted()
        const answers = [
      await fetch(`${BASE}/models`),
      await fetch(`${BASE}/keys`), // no key: a 401 envelope
      await fetch(`${BASE}/files/${sim.world.files.report}/content`, { headers: { authorization: `Bearer ${sim.world.managementKey}` } }),
    ]
    expect(answers.map((res) => res.status)).toEqual([200, 401, 200])
    for (const res of answers) await within((res.body as ReadableStream<Uint8Array>).cancel(), `the cancel of a ${res.status} body`)
  })

  it("leaves MSW's copy whole, and its own: a client changing the bytes it read changes not the copy nor a later answer", async () => {
    const { sim, server } = mounted()
    const url = `${BASE}/files/${sim.world.files.report}/content`
    const headers = { authorization: `Bearer ${sim.world.managementKey}` }
    const copies: Response[] = []
    server.events.on('response:mocked', ({ response }) => void copies.push(response))
    const first = await fetch(url, { headers })
    const reader = (first.body as ReadableStream<Uint8Array>).getReader()
    const chunks: Uint8Array[] = []
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value)
    const text = new TextDecoder().decode(Buffer.concat(chunks))
    expect(text.length).toBeGreaterThan(0)
    expect(Number(first.headers.get('content-length'))).toBe(Buffer.byteLength(text))
    for (const chunk of chunks) chunk.fill(0x20)
    expect(await (copies[0] as Response).text()).toBe(text)
    expect(await (await fetch(url, { headers })).text()).toBe(text)
  })

  it('gives toResponse the same body: read whole by one clone, the other branch cancelled at once', async () => {
    const res = toResponse({ status: 429, headers: { 'retry-after': '1' }, type: 'json', body: { error: { code: 429, message: 'Slow down' } } })
    const copy = res.clone()
    await within((res.body as ReadableStream<Uint8Array>).cancel(), 'the cancel of one branch')
    expect(await copy.json()).toEqual({ error: { code: 429, message: 'Slow down' } })
  })

  it('changes nothing where there is no body: HEAD, 204', async () => {
    const head = toResponse({ status: 200, headers: {}, type: 'json', body: { data: [] } }, 'HEAD')
    expect([head.status, head.body, head.headers.get('content-length')]).toEqual([200, null, '11'])
    const noContent = toResponse({ status: 204, headers: {}, type: 'json', body: null })
    expect([noContent.status, noContent.body]).toEqual([204, null])
  })
})
