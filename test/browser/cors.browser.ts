// The simulator's HTTP server called by a web page of another origin, in headless Chromium
// (decisions/0069): the page (test/browser/cors-page.ts, bundled with esbuild) is served on one
// loopback port, the simulator on another, and the browser enforces CORS on every answer. The
// page's fetch, the openai client and the official SDK read their answers and headers; the
// control API and a server started with `cors: false` stay unreadable.
//
// Not part of `npm test` (it needs Chromium): `npm run test:browser`; .ci/browser.sh runs it.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH_MESSAGES, createSimulator } from '../../src/index.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'
import type { CorsSetup, CorsStep } from './cors-page.js'
import { bundlePage, CHROMIUM, CHROMIUM_ARGS, requireChromium, STEP_TIMEOUT_MS } from './support.js'

const HTML = `<!doctype html>
<html>
  <head><meta charset="utf-8"><link rel="icon" href="data:,"><title>a page calling model-access-sim's server</title></head>
  <body><script type="module" src="/cors-page.js"></script></body>
</html>
`

// Four requests a minute per key: the page makes four with its key, and five with the management
// key (a PATCH, then four /credits), whose last is a 429.
const sim = createSimulator({ rateLimit: { requests: 4, intervalMs: 60_000 } })
let pages: Server | undefined
let open: SimulatorServer | undefined
let closed: SimulatorServer | undefined
let browser: Browser | undefined
let steps: CorsStep[] = []
let pageOrigin = ''
const pageErrors: string[] = []

function found(label: string): CorsStep {
  const s = steps.find((candidate) => candidate.label === label)
  if (s === undefined) throw new Error(`the page ran no step "${label}"`)
  return s
}

/** A step that must have been read; its failure is the test's message. */
function readable(label: string): Extract<CorsStep, { ok: true }> {
  const s = found(label)
  if (!s.ok) throw new Error(`the page could not read "${label}": ${s.name}: ${s.message}`)
  return s
}

beforeAll(async () => {
  requireChromium()
  const pageJs = await bundlePage('cors-page.ts')
  pages = createServer((req, res) => {
    const send = (type: string, body: string): void => {
      res.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' })
      res.end(body)
    }
    if (req.url === '/') return send('text/html', HTML)
    if (req.url === '/cors-page.js') return send('text/javascript', pageJs)
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve, reject) => {
    pages?.once('error', reject)
    pages?.listen(0, '127.0.0.1', () => resolve())
  })
  pageOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`
  open = await startServer(sim, { port: 0 })
  closed = await startServer(sim, { port: 0, cors: false })

  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: STEP_TIMEOUT_MS })
  const page = await browser.newPage()
  page.setDefaultTimeout(STEP_TIMEOUT_MS)
  page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`))
  await page.goto(`${pageOrigin}/`, { waitUntil: 'load' })
  await page.waitForFunction(() => typeof window.__runCors === 'function')
  const setup: CorsSetup = {
    url: open.url,
    closedUrl: closed.url,
    controlUrl: open.controlUrl,
    apiKey: sim.world.apiKey,
    apiKeyHash: sim.world.apiKeyHash,
    managementKey: sim.world.managementKey,
    model: sim.world.models.paid,
  }
  steps = await page.evaluate((given) => window.__runCors(given), setup)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await open?.close()
  await closed?.close()
  if (pages) {
    pages.closeAllConnections()
    await new Promise<void>((resolve) => pages?.close(() => resolve()))
  }
})

describe('a page of another origin calling the server, in headless Chromium', () => {
  it('is on another origin than the server, and threw nothing', () => {
    expect(new URL(open?.url ?? '').origin).not.toBe(pageOrigin)
    expect(pageErrors).toEqual([])
  })

  it("reads a chat completion posted with the page's fetch, after the browser's preflight", () => {
    const chat = readable('fetch chat')
    expect(chat.status).toBe(200)
    expect(chat.type).toBe('cors')
    expect(chat.value).toMatchObject({ object: 'chat.completion', model: expect.stringContaining(sim.world.models.paid) })
    // The browser's preflights reached no operation: the journal holds the page's own requests only
    // (the cors: false server's preflight, answered by the simulator, is the one OPTIONS).
    const journaled = sim.journal.list()
    // Five completions: the fetch, the openai client's three (the 401 included) and the SDK's.
    expect(journaled.filter((entry) => entry.operation === 'createChatCompletion')).toHaveLength(5)
    expect(journaled.filter((entry) => entry.method === 'OPTIONS').map((entry) => entry.path)).toEqual(['/chat/completions'])
  })

  it('reads an error envelope, a PATCH, and the retry-after of a 429', () => {
    const bad = readable('fetch bad key')
    expect(bad.status).toBe(401)
    expect(bad.value).toEqual({ error: { code: 401, message: AUTH_MESSAGES.unknown, metadata: { reason: 'unknown' } } })
    const patched = readable('fetch PATCH key')
    expect(patched.status).toBe(200)
    expect(patched.value).toMatchObject({ data: { hash: sim.world.apiKeyHash, name: 'renamed from a page' } })
    const limited = readable('fetch rate limited')
    expect(limited.status).toBe(429)
    expect(Number(limited.headers?.['retry-after'])).toBeGreaterThan(0)
  })

  it('serves the openai client as a browser app configures it: a completion, a stream, and a typed 401', () => {
    expect(readable('openai chat').value).toMatchObject({ content: expect.any(String), total: expect.any(Number) })
    const stream = readable('openai stream').value as { content: string; chunks: number }
    expect(stream.chunks).toBeGreaterThan(1)
    expect(stream.content.length).toBeGreaterThan(0)
    const refused = found('openai bad key')
    expect(refused).toMatchObject({ ok: false, name: 'AuthenticationError', status: 401 })
  })

  it('serves the official SDK', () => {
    expect(readable('sdk chat').value).toMatchObject({ content: expect.any(String) })
  })

  it('leaves the control API unreadable and unchanged, and a cors: false server unreadable', () => {
    for (const label of ['control API', 'control reset', 'closed server', 'closed server chat']) {
      expect(found(label), label).toMatchObject({ ok: false, name: 'TypeError' })
    }
    // The reset was refused before it ran: the page's renamed key is still renamed.
    expect(sim.keys.get(sim.world.apiKeyHash)?.name).toBe('renamed from a page')
  })
})
