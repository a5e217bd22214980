// The page the Chromium test opens: the simulator and its MSW handlers bundled for the browser
// (esbuild, from the TypeScript sources), served by msw's own service worker. It starts the worker,
// then `window.__run()` makes every request with the page's `fetch` and returns what came back, as
// plain data the Node side asserts on (test/browser/chromium.browser.ts).
import { setupWorker } from 'msw/browser'
import { createSimulator } from '../../src/index.js'
import { createHandlers } from '../../src/msw/index.js'

/** One request as the page saw it. */
export interface PageCall {
  label: string
  url: string
  status: number
  /** `Response.type`: "basic" for the page's origin, "cors" for another. */
  type: string
  /** The headers the page could read. */
  headers: Record<string, string>
  /** The body parsed as JSON, or null when it is not JSON. */
  json: unknown
  /** The body's bytes, as numbers (downloads). */
  bytes: number[]
  /** The body decoded as UTF-8. */
  text: string
}

/** A fetch that rejected (a network-error fault). */
export interface PageRejection {
  label: string
  rejected: true
  name: string
  message: string
}

export interface PageResults {
  origin: string
  /** `navigator.serviceWorker.controller` after start: the page is controlled by the worker. */
  controlled: boolean
  world: unknown
  /** The bases the page called, the default first. */
  bases: string[]
  calls: (PageCall | PageRejection)[]
  /** The simulator's clock after the page moved it. */
  clockAfter: string
  /** The journal of the page's simulator: operation and status of every request, in order. */
  journal: { operation: string | null; status: number; outcome: string; fault: string | null }[]
}

declare global {
  interface Window {
    __ready: Promise<void>
    __run: () => Promise<PageResults>
  }
}

const sim = createSimulator() // the embedded default world, clock at 2026-03-02T10:00:00Z
const SAME_ORIGIN_BASE = `${location.origin}/api/v1`
const worker = setupWorker(...createHandlers(sim), ...createHandlers(sim, { baseUrl: SAME_ORIGIN_BASE }))

window.__ready = worker
  .start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'error', quiet: true })
  .then(() => undefined)

async function call(label: string, url: string, key?: string): Promise<PageCall | PageRejection> {
  let res: Response
  try {
    res = await fetch(url, key === undefined ? {} : { headers: { authorization: `Bearer ${key}` } })
  } catch (error) {
    const e = error as Error
    return { label, rejected: true, name: e.name, message: e.message }
  }
  const buffer = new Uint8Array(await res.arrayBuffer())
  const text = new TextDecoder().decode(buffer)
  let json: unknown = null
  if ((res.headers.get('content-type') ?? '').includes('json')) json = JSON.parse(text)
  const headers: Record<string, string> = {}
  res.headers.forEach((value, name) => {
    headers[name] = value
  })
  return { label, url, status: res.status, type: res.type, headers, json, bytes: [...buffer], text }
}

window.__run = async (): Promise<PageResults> => {
  await window.__ready
  const w = sim.world
  const calls: (PageCall | PageRejection)[] = []
  const bases = ['https://openrouter.ai/api/v1', SAME_ORIGIN_BASE]

  // The six operations, on the default (cross-origin) base and on the page's own origin.
  for (const [i, base] of bases.entries()) {
    const tag = i === 0 ? 'default' : 'same-origin'
    calls.push(await call(`${tag} listKeys`, `${base}/keys`, w.managementKey))
    calls.push(await call(`${tag} getKey`, `${base}/keys/${w.apiKeyHash}`, w.managementKey))
    calls.push(await call(`${tag} getWorkspace`, `${base}/workspaces/${w.workspaces.production}`, w.managementKey))
    calls.push(await call(`${tag} getFileContent`, `${base}/files/${w.files.report}/content`, w.managementKey))
    calls.push(await call(`${tag} listEndpoints`, `${base}/models/${w.models.timeWindowed}/endpoints`, w.apiKey))
    calls.push(await call(`${tag} listVideoModels`, `${base}/videos/models`))
    // Errors: an unknown key, a regular key on a management operation, and a path outside the six.
    calls.push(await call(`${tag} bad key`, `${base}/keys`, 'sk-or-v1-not-a-real-key'))
    calls.push(await call(`${tag} regular key on getKey`, `${base}/keys/${w.apiKeyHash}`, w.apiKey))
    calls.push(await call(`${tag} GET /scim/groups`, `${base}/scim/groups`, w.apiKey))
  }

  // The simulator's state is live in the page: a fault, then the clock.
  sim.faults.serviceUnavailable({ operation: 'listVideoModels', retryAfterSeconds: 7, once: true })
  calls.push(await call('fault 503', `${bases[0]}/videos/models`))
  calls.push(await call('after the fault', `${bases[0]}/videos/models`))
  sim.faults.add({ operation: 'getWorkspace', respond: 'network-error', once: true })
  calls.push(await call('fault network-error', `${bases[1]}/workspaces/default`, w.managementKey))

  const expiring = sim.keys.create({ userId: w.userId, management: true, expiresAt: '2026-03-02T11:00:00Z' })
  calls.push(await call('before the clock moves', `${bases[0]}/keys`, expiring.key))
  sim.clock.advance(60 * 60_000) // 11:00: the key has expired
  calls.push(await call('after the clock moves', `${bases[0]}/keys`, expiring.key))

  return {
    origin: location.origin,
    controlled: navigator.serviceWorker.controller !== null,
    world: JSON.parse(JSON.stringify(w)),
    bases,
    calls,
    clockAfter: sim.clock.now().toISOString(),
    journal: sim.journal.list().map((e) => ({ operation: e.operation, status: e.status, outcome: e.outcome, fault: e.fault })),
  }
}
