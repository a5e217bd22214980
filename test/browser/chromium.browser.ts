// The simulator in a real browser: test/browser/page.ts bundled with esbuild (from the TypeScript
// sources, msw/browser from node_modules), served over loopback with msw's own service worker, and
// opened in headless Chromium. The page calls the six operations with its own fetch, on the default
// base (https://openrouter.ai, cross-origin) and on a base of its own origin, and the answers are
// checked here against the same requests made to a simulator in Node.
//
// Not part of `npm test` (it needs Chromium): `npm run test:browser`; .ci/browser.sh installs Chromium and runs it.
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH_MESSAGES, createSimulator, type SimResponse } from '../../src/index.js'
import type { PageCall, PageRejection, PageResults } from './page.js'
import { bundlePage, CHROMIUM, CHROMIUM_ARGS, requireChromium, STEP_TIMEOUT_MS } from './support.js'

const HTML = `<!doctype html>
<html>
  <head><meta charset="utf-8"><link rel="icon" href="data:,"><title>model-access-sim in the browser</title></head>
  <body><script type="module" src="/page.js"></script></body>
</html>
`

let server: Server | undefined
let browser: Browser | undefined
let results: PageResults
/** Requests that reached the loopback server other than the page's own files: the worker let them through. */
const strays: string[] = []
/** Console errors and uncaught exceptions in the page. */
const pageErrors: string[] = []

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const errors = pageErrors.length > 0 ? `; the page reported: ${pageErrors.join(' | ')}` : ''
      reject(new Error(`${what} took longer than ${STEP_TIMEOUT_MS} ms${errors}`))
    }, STEP_TIMEOUT_MS)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

beforeAll(async () => {
  requireChromium()

  const pageJs = await bundlePage('page.ts')
  // msw's service worker, read from the installed package (node_modules/msw/lib/mockServiceWorker.js).
  const workerJs = readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8')

  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    const send = (type: string, body: string) => {
      res.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' })
      res.end(body)
    }
    if (req.method === 'GET' && path === '/') return send('text/html', HTML)
    if (req.method === 'GET' && path === '/page.js') return send('text/javascript', pageJs)
    if (req.method === 'GET' && path === '/mockServiceWorker.js') return send('text/javascript', workerJs)
    strays.push(`${req.method} ${req.url}`)
    res.writeHead(599, { 'content-type': 'text/plain' })
    res.end('reached the loopback server: the service worker did not answer')
  })
  await new Promise<void>((resolve, reject) => {
    server?.once('error', reject)
    server?.listen(0, '127.0.0.1', () => resolve())
  })
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: STEP_TIMEOUT_MS })
  const page = await browser.newPage()
  page.setDefaultTimeout(STEP_TIMEOUT_MS)
  page.on('console', (message) => {
    // Chromium logs every non-2xx answer as "Failed to load resource"; the error answers are wanted.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) pageErrors.push(`console: ${message.text()}`)
  })
  page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`))
  await page.goto(`${origin}/`, { waitUntil: 'load' })
  await withTimeout(page.waitForFunction(() => window.__ready !== undefined), 'loading the page')
  await withTimeout(page.evaluate(() => window.__ready), 'starting the service worker')
  results = await withTimeout(page.evaluate(() => window.__run()), 'the requests in the page')
}, 120_000)

afterAll(async () => {
  await browser?.close()
  if (server) {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server?.close(() => resolve()))
  }
})

/** The page's answer to a request it made. */
function answer(label: string): PageCall {
  const found = results.calls.find((c) => c.label === label)
  if (found === undefined) throw new Error(`the page made no request labelled "${label}"`)
  if ('rejected' in found) throw new Error(`the page's fetch for "${label}" rejected: ${found.name}: ${found.message}`)
  return found
}

function rejection(label: string): PageRejection {
  const found = results.calls.find((c) => c.label === label)
  if (found === undefined || !('rejected' in found)) throw new Error(`the page's fetch for "${label}" did not reject: ${JSON.stringify(found)}`)
  return found
}

/** The same request made to a fresh default-world simulator in Node. */
function expected(url: string, key?: string): SimResponse & { status: number; headers: Record<string, string> } {
  const base = results.bases.find((b) => url.startsWith(`${b}/`))
  if (base === undefined) throw new Error(`${url} is under none of the page's bases`)
  const { pathname, search } = new URL(url)
  const path = pathname.slice(new URL(base).pathname.length)
  const nodeSim = createSimulator()
  return nodeSim.handle({ method: 'GET', path, query: search.slice(1), ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) })
}

describe('the simulator in headless Chromium, through msw/browser', () => {
  const world = createSimulator().world

  it('starts msw’s service worker, which controls the page, with no page errors', () => {
    expect(results.controlled).toBe(true)
    expect(pageErrors).toEqual([])
    expect(results.world).toEqual(world)
  })

  describe.each([
    ['default', 'https://openrouter.ai/api/v1 (cross-origin)'],
    ['same-origin', 'the page’s own origin'],
  ])('%s base: %s', (tag) => {
    it('GET /keys with the management key: 200, the page of keys', () => {
      const res = answer(`${tag} listKeys`)
      const want = expected(res.url, world.managementKey)
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toBe('application/json')
      const body = res.json as { data: { hash: string; name: string }[] }
      expect(body.data.length).toBeGreaterThan(0)
      expect(body.data.map((k) => k.hash)).toContain(world.apiKeyHash)
      expect(body).toEqual(JSON.parse(JSON.stringify(want.body)))
    })

    it('GET /keys/{hash} with the management key: 200, that key', () => {
      const res = answer(`${tag} getKey`)
      expect(res.status).toBe(200)
      expect((res.json as { data: { hash: string } }).data.hash).toBe(world.apiKeyHash)
      expect(res.json).toEqual(JSON.parse(JSON.stringify(expected(res.url, world.managementKey).body)))
    })

    it('GET /workspaces/{id}: 200, the production workspace', () => {
      const res = answer(`${tag} getWorkspace`)
      expect(res.status).toBe(200)
      const { data } = res.json as { data: { id: string; slug: string } }
      expect([data.id, data.slug]).toEqual([world.workspaces.production, 'production'])
      expect(res.json).toEqual(JSON.parse(JSON.stringify(expected(res.url, world.managementKey).body)))
    })

    it('GET /files/{id}/content: 200, the exact bytes as octet-stream', () => {
      const res = answer(`${tag} getFileContent`)
      const want = expected(res.url, world.managementKey)
      expect(res.status).toBe(200)
      expect(want.type).toBe('bytes')
      const bytes = want.body as Uint8Array
      expect(bytes.length).toBeGreaterThan(0)
      expect(res.bytes).toEqual([...bytes])
      expect(res.text).toBe(new TextDecoder().decode(bytes))
      expect(res.headers['content-type']).toBe('application/octet-stream')
      expect(res.headers['content-length']).toBe(String(bytes.length))
      expect(res.headers['content-disposition']).toBe(want.headers['content-disposition'])
    })

    it('GET /models/{author}/{slug}/endpoints: 200, endpoints with pricing', () => {
      const res = answer(`${tag} listEndpoints`)
      expect(res.status).toBe(200)
      const { data } = res.json as { data: { id: string; endpoints: { pricing: { prompt: string; completion: string; overrides?: unknown[] } }[] } }
      expect(data.id).toBe(world.models.timeWindowed)
      expect(data.endpoints.length).toBeGreaterThan(0)
      for (const endpoint of data.endpoints) expect(endpoint.pricing.prompt).toMatch(/^\d+(\.\d+)?$/)
      expect(data.endpoints[0]?.pricing.overrides?.length).toBeGreaterThan(0) // the peak/off-peak windows
      expect(res.json).toEqual(JSON.parse(JSON.stringify(expected(res.url, world.apiKey).body)))
    })

    it('GET /videos/models: 200, every video model', () => {
      const res = answer(`${tag} listVideoModels`)
      expect(res.status).toBe(200)
      expect((res.json as { data: unknown[] }).data).toHaveLength(6)
      expect(res.json).toEqual(JSON.parse(JSON.stringify(expected(res.url).body)))
    })

    it('an unknown key: 401 with the error envelope', () => {
      const res = answer(`${tag} bad key`)
      expect(res.status).toBe(401)
      expect(res.headers['content-type']).toBe('application/json')
      expect(res.json).toEqual({ error: { code: 401, message: AUTH_MESSAGES.unknown, metadata: { reason: 'unknown' } } })
      expect(res.json).toEqual(JSON.parse(JSON.stringify(expected(res.url, 'sk-or-v1-not-a-real-key').body)))
    })

    it('a regular key on a management operation: 403', () => {
      const res = answer(`${tag} regular key on getKey`)
      expect(res.status).toBe(403)
      expect(res.json).toEqual({ error: { code: 403, message: 'Only management keys can perform this operation' }, user_id: world.userId })
    })

    it('GET /scim/groups, not simulated: the catch-all 404 that names it', () => {
      const res = answer(`${tag} GET /scim/groups`)
      expect(res.status).toBe(404)
      expect((res.json as { error: { code: number; message: string } }).error.code).toBe(404)
      expect((res.json as { error: { message: string } }).error.message).toMatch(/GET \/scim\/groups is not simulated/)
    })
  })

  it('answers cross-origin requests with no CORS in the way: no preflight, every header readable', () => {
    // A response the service worker makes is not CORS-filtered, even for https://openrouter.ai: the
    // page sees a "basic" response and reads content-disposition and retry-after, which a real
    // cross-origin answer would hide unless the service listed them in Access-Control-Expose-Headers.
    const answered = results.calls.filter((c): c is PageCall => !('rejected' in c))
    expect(new Set(answered.map((c) => c.type))).toEqual(new Set(['basic']))
    expect(answer('default getFileContent').headers['content-disposition']).toMatch(/^attachment; filename=/)
  })

  it('serves the same-origin base from the worker, never from the loopback server', () => {
    expect(results.bases[1]).toBe(`${results.origin}/api/v1`)
    expect(strays).toEqual([])
  })

  it('applies a fault added in the page: 503 with Retry-After once, then 200', () => {
    const faulted = answer('fault 503')
    expect(faulted.status).toBe(503)
    expect(faulted.headers['retry-after']).toBe('7')
    expect((faulted.json as { error: { code: number } }).error.code).toBe(503)
    expect(answer('after the fault').status).toBe(200)
  })

  it('turns a network-error fault into a rejected fetch', () => {
    expect(rejection('fault network-error')).toMatchObject({ name: 'TypeError' })
  })

  it('expires a key when the page moves the clock', () => {
    expect(answer('before the clock moves').status).toBe(200)
    const after = answer('after the clock moves')
    expect(after.status).toBe(401)
    expect(after.json).toEqual({ error: { code: 401, message: AUTH_MESSAGES.expired, metadata: { reason: 'expired' } } })
    expect(results.clockAfter).toBe('2026-03-02T11:00:00.000Z')
  })

  it('journals every request the page made, in order', () => {
    const operations = results.journal.map((e) => e.operation)
    const six = ['listKeys', 'getKey', 'getWorkspace', 'getFileContent', 'listEndpoints', 'listVideoModels', 'listKeys', 'getKey', null]
    expect(operations).toEqual([...six, ...six, 'listVideoModels', 'listVideoModels', 'getWorkspace', 'listKeys', 'listKeys'])
    expect(results.journal.map((e) => e.status)).toEqual(results.calls.map((c) => ('rejected' in c ? 0 : c.status)))
    expect(results.journal.find((e) => e.outcome === 'network-error')?.operation).toBe('getWorkspace')
  })
})
