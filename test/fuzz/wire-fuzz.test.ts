// Wire fuzzing: hostile requests (requests.ts) over random worlds, rate limits and faults
// (campaign.ts), through sim.handle, the MSW handlers and the node:http server. Every answer must
// keep the wire contract of the README's "Wire behaviour" section (checkResponse says how).
//
// Seeded: FUZZ_SEED=<n> replays a run; every failure prints the seed, the world, the request and the
// line that replays it. `npm run fuzz` (run.ts) is the long run of the sim.handle properties.
import { connect } from 'node:net'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHandlers } from '../../src/msw/index.js'
import { startServer } from '../../src/server/index.js'
import { type Armed, DEFAULT_SEED, ViolationLog, type WorldKind, type WorldSetup, arm, requestsOf, runWorld, seedFromEnv, worldSetup } from './campaign.js'
import { type FuzzRequest, type Observed, type SentRequest, checkResponse, observeDropped, observeFetch, render, stringLiteral, summarise } from './requests.js'
import { runs } from '../support/runs.js'

const seed = seedFromEnv(DEFAULT_SEED)
/** Requests per world through sim.handle: 2,000 in CI (a quarter locally, test/support/runs.ts). */
const PER_WORLD = runs(2_000)
/** Requests per world through the MSW handlers and through the node:http server. */
const PER_MSW_WORLD = runs(500)
const PER_SERVER_WORLD = runs(250)
/** A count as the tests' names print it: 2,000. */
const count = (n: number): string => n.toLocaleString('en-US')
const FILE = 'test/fuzz/wire-fuzz.test.ts'

/** Runs worlds of the given kinds through sim.handle and fails with the report when any answer broke the contract. */
function fuzzInProcess(kinds: readonly WorldKind[]): void {
  const log = new ViolationLog()
  const setups = new Map<string, WorldSetup>()
  const seen = new Map<WorldKind, number>()
  for (const kind of kinds) {
    const index = seen.get(kind) ?? 0
    seen.set(kind, index + 1)
    const setup = worldSetup(seed, kind, index)
    setups.set(`${kind}:${index}`, setup)
    runWorld(setup, PER_WORLD, log)
  }
  expect(log.requests).toBe(kinds.length * PER_WORLD)
  expect(log.total, log.format(seed, setups)).toBe(0)
}

describe('through sim.handle', () => {
  it('answers every hostile request in a world without controls with a documented success or an error envelope, and no request changes the world', () => {
    fuzzInProcess(['plain', 'plain', 'plain'])
  })

  it('keeps the contract under default and per-key rate limits, sane and extreme, with Retry-After in whole seconds', () => {
    fuzzInProcess(['rate-limited', 'rate-limited'])
  })

  it('keeps the contract with random faults on, fires a fault on exactly the requests its rule matches, and no request changes the world', () => {
    fuzzInProcess(['faulted', 'faulted'])
  })

  it('keeps the contract with faults, rate limits and latency that moves the clock by days all at once', () => {
    fuzzInProcess(['chaos'])
  })

  it('never throws, whatever JavaScript value it is handed in place of a request or of one of its fields', () => {
    fuzzInProcess(['malformed', 'malformed'])
  })
})

// ---------------------------------------------------------------------------------------------
// Over HTTP: the same requests, as fetch sends them
// ---------------------------------------------------------------------------------------------

/** Which worlds the adapters serve: plain and faulted in turn (no `never` faults: a held request would hang the run). */
const WIRE_KINDS: readonly WorldKind[] = ['plain', 'faulted', 'plain', 'faulted']

/** What fetch made of a fuzz request: the URL and init it really sent, or why it refused to send it. */
interface Prepared {
  url: URL
  init: { method: string; headers: Record<string, string> }
  /** The request as the adapter hands it on: method, path below the base, query, header. */
  sent: SentRequest
  /** The fetch call, as text to replay. */
  text: string
}

/** fetch normalises and refuses some of what the generator draws: a forbidden method becomes GET, an unsendable header is left out. */
function prepare(origin: string, basePath: string, request: FuzzRequest): Prepared | 'unsendable' {
  let url: URL
  try {
    url = new URL(`${origin}${basePath}${request.path.startsWith('/') ? request.path : `/${request.path}`}${request.query === '' ? '' : `?${request.query}`}`)
  } catch {
    return 'unsendable'
  }
  let method = request.method
  try {
    method = new Request(url, { method }).method
  } catch {
    method = 'GET'
  }
  const headers: Record<string, string> = {}
  let authorization: string | null = null
  if (typeof request.authorization === 'string') {
    try {
      authorization = new Headers({ authorization: request.authorization }).get('authorization')
      if (authorization !== null) headers['authorization'] = request.authorization
    } catch {
      authorization = null
    }
  }
  const below = url.pathname === basePath ? '/' : url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : undefined
  const text = `fetch(${stringLiteral(url.href)}, ${render({ method, headers })})`
  return { url, init: { method, headers }, sent: { method, path: below ?? url.pathname, query: url.search.replace(/^\?/, ''), authorization, head: method === 'HEAD' }, text }
}

/** One fetch, checked: a fetch that fails must be a network-error fault (the journal says which). */
async function exchange(armed: Armed, prepared: Prepared, outsideBase: boolean): Promise<{ observed: Observed; problems: string[] }> {
  const nowMs = armed.sim.clock.now().getTime()
  let observed: Observed
  try {
    observed = await observeFetch(await fetch(prepared.url, prepared.init))
  } catch (error) {
    const last = armed.sim.journal.list().at(-1)
    if (last?.outcome === 'network-error' && !outsideBase) observed = observeDropped('wire')
    else {
      const cause = error instanceof Error && error.cause !== undefined ? ` (${String(error.cause)})` : ''
      return { observed: observeDropped('wire'), problems: [`fetch failed without a network-error fault: ${String(error)}${cause}`] }
    }
  }
  const ctx = { view: armed.view, nowMs, faultStatuses: armed.faultStatuses, dropsAllowed: armed.dropsAllowed, outsideBase }
  return { observed, problems: checkResponse(ctx, prepared.sent, observed) }
}

function report(log: ViolationLog, setups: Map<string, WorldSetup>, test: string): string {
  return log.format(seed, setups, () => `FUZZ_SEED=${seed} npx vitest run ${FILE} -t ${JSON.stringify(test)}`)
}

function record(log: ViolationLog, setup: WorldSetup, i: number, text: string, observed: Observed, problems: string[]): void {
  log.requests++
  if (problems.length > 0) log.add({ kind: setup.kind, world: setup.index, request: i, requestText: text, response: summarise(observed), problems })
}

describe('through the MSW handlers', () => {
  const BASE_ORIGIN = 'https://openrouter.ai'
  const BASE_PATH = '/api/v1'
  const server = setupServer()
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterAll(() => server.close())

  const total = WIRE_KINDS.length * PER_MSW_WORLD
  const test = `answers ${count(total)} hostile fetches with the documented success or an error envelope, and HEAD with no body`
  it(test, async () => {
    const log = new ViolationLog()
    const setups = new Map<string, WorldSetup>()
    let skipped = 0
    for (const [w, kind] of WIRE_KINDS.entries()) {
      const setup = worldSetup(seed, kind, 100 + w, { wire: true })
      setups.set(`${kind}:${setup.index}`, setup)
      const armed = arm(setup)
      server.resetHandlers(...createHandlers(armed.sim))
      const requests = requestsOf(setup, armed.view, PER_MSW_WORLD) as FuzzRequest[]
      for (const [i, request] of requests.entries()) {
        const prepared = prepare(BASE_ORIGIN, BASE_PATH, request)
        // The handlers serve only the base URL; a path whose dot segments climb out of it is not theirs.
        if (prepared === 'unsendable' || !(prepared.url.pathname === BASE_PATH || prepared.url.pathname.startsWith(`${BASE_PATH}/`))) {
          skipped++
          continue
        }
        const { observed, problems } = await exchange(armed, prepared, false)
        record(log, setup, i, prepared.text, observed, problems)
      }
    }
    expect(log.requests + skipped).toBe(total)
    expect(skipped).toBeLessThan(total / 10)
    expect(log.total, report(log, setups, test)).toBe(0)
  })
})

describe('through the node:http server', () => {
  const total = WIRE_KINDS.length * PER_SERVER_WORLD
  const test = `answers ${count(total)} hostile fetches over loopback with the documented success or an error envelope, and HEAD with no body`
  it(test, async () => {
    const log = new ViolationLog()
    const setups = new Map<string, WorldSetup>()
    let skipped = 0
    for (const [w, kind] of WIRE_KINDS.entries()) {
      const setup = worldSetup(seed, kind, 200 + w, { wire: true })
      setups.set(`${kind}:${setup.index}`, setup)
      const armed = arm(setup)
      const server = await startServer(armed.sim, { port: 0 })
      try {
        const { origin, pathname: basePath } = new URL(server.url)
        for (const [i, request] of (requestsOf(setup, armed.view, PER_SERVER_WORLD) as FuzzRequest[]).entries()) {
          const prepared = prepare(origin, basePath, request)
          // The control API (/__sim) is the harness's own, secrets and all: not part of the service's contract.
          if (prepared === 'unsendable' || prepared.url.pathname === '/__sim' || prepared.url.pathname.startsWith('/__sim/')) {
            skipped++
            continue
          }
          const outside = !(prepared.url.pathname === basePath || prepared.url.pathname.startsWith(`${basePath}/`))
          const { observed, problems } = await exchange(armed, prepared, outside)
          record(log, setup, i, prepared.text, observed, problems)
        }
      } finally {
        await server.close()
      }
    }
    expect(log.requests + skipped).toBe(total)
    expect(skipped).toBeLessThan(total / 10)
    expect(log.total, report(log, setups, test)).toBe(0)
  })

  /** Request targets fetch would normalise or refuse, sent as they are over a raw socket. */
  const RAW_TARGETS: readonly string[] = [
    '/api/v1/keys/../keys',
    '/api/v1/keys/..',
    '/api/v1//keys',
    '//api/v1/keys',
    '/api/v1/./videos/models',
    '/api/v1/videos/models/',
    '/api/v1/videos/models//',
    '/api/v1/%2e%2e/v1/keys',
    '/api/v1/keys%2F..%2Fkeys',
    '/api/v1/files/%zz/content',
    '/api/v1/files/a%2Fb/content',
    '/api/v1/files/a\\b/content',
    '/api/v1\\keys',
    '/api/v1/models/%E9/x/endpoints',
    '/api/v1/workspaces/\u00e9',
    '/api/v1/workspaces/日本',
    '/api/v1/keys?offset=1e3',
    '/api/v1/keys?offset=0x10&offset=0x10',
    '/api/v1/keys#fragment',
    '/api/v1/keys?#',
    '*',
    'api/v1/keys',
    'http://127.0.0.1/api/v1/keys',
    'http://evil.example/api/v1/videos/models',
    `/api/v1/${'a'.repeat(10_000)}`,
    '/api/v1/keys\u007f',
    '/api/v1/keys\t',
  ]

  it('answers raw request targets that fetch would normalise away (dot segments, double slashes, backslashes, absolute-form, raw UTF-8) with envelopes', async () => {
    const setup = worldSetup(seed, 'plain', 300, { wire: true })
    const armed = arm(setup)
    const management = armed.view.keys.find((k) => k.management && !k.disabled)
    const server = await startServer(armed.sim, { port: 0 })
    const log = new ViolationLog()
    try {
      for (const [i, target] of RAW_TARGETS.entries()) {
        for (const [j, method] of ['GET', 'HEAD'].entries()) {
          const authorization = management === undefined ? null : `Bearer ${management.secret}`
          const observed = await rawRequest(server.port, method, target, authorization)
          // The path as the server reads it: an absolute-form target by its path and query (RFC 9112,
          // whatever its host), any other that is not origin-form below the root.
          const absolute = /^https?:\/\//i.test(target) && URL.canParse(target)
          const url = absolute ? new URL(target) : new URL(`http://simulator${target.startsWith('/') ? target : `/${target}`}`)
          const outside = !(url.pathname === '/api/v1' || url.pathname.startsWith('/api/v1/'))
          const sent: SentRequest = { method, path: outside ? url.pathname : url.pathname.slice('/api/v1'.length) || '/', query: url.search.replace(/^\?/, ''), authorization, head: method === 'HEAD' }
          const ctx = { view: armed.view, nowMs: armed.sim.clock.now().getTime(), outsideBase: outside }
          const problems = checkResponse(ctx, sent, observed)
          record(log, setup, i * 2 + j, `raw ${method} ${stringLiteral(target)} over a socket`, observed, problems)
        }
      }
    } finally {
      await server.close()
    }
    expect(log.total, report(log, new Map([[`plain:${setup.index}`, setup]]), 'raw request targets')).toBe(0)
  })
})

/** One HTTP/1.1 request written byte for byte on a socket (`Connection: close`), its answer read whole. */
function rawRequest(port: number, method: string, target: string, authorization: string | null): Promise<Observed> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    const timer = setTimeout(() => socket.destroy(), 5_000)
    socket.on('connect', () => {
      const head = `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${authorization === null ? '' : `Authorization: ${authorization}\r\n`}\r\n`
      socket.write(Buffer.from(head, 'utf8'))
    })
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', () => undefined)
    socket.on('close', () => {
      clearTimeout(timer)
      const raw = Buffer.concat(chunks)
      const end = raw.indexOf('\r\n\r\n')
      if (end === -1) return resolve(observeDropped('wire'))
      const [statusLine = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n')
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? Number.NaN)
      const headers: [string, unknown][] = lines.map((line) => {
        const colon = line.indexOf(':')
        return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]
      })
      const length = headers.find(([name]) => name === 'content-length')?.[1]
      const body = raw.subarray(end + 4)
      const bytes = new Uint8Array(length === undefined ? body : body.subarray(0, Number(length)))
      resolve({ via: 'wire', status, headers, body: { kind: 'bytes', bytes }, problems: [] })
    })
  })
}
