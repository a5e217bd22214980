// checkService against the project's own server, which stands in for the live service: no drift.
// Then a proxy in front of it alters one thing at a time, and exactly the rules that thing breaks
// must drift. Everything binds 127.0.0.1 on port 0; nothing leaves the machine.
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator, maskSecret } from '../../src/index.js'
import { type CheckReport, type CheckServiceOptions, checkService, formatReport } from '../../src/live/check.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'

const sim = createSimulator()
const { world } = sim
// A preset of the account, so that GET /presets/{slug} has one to read on this side too.
sim.presets.create({ userId: world.userId, slug: 'support-replies', config: { model: world.models.paid, max_tokens: 300 }, systemPrompt: 'You answer support tickets.' })
// Governance records of the account, so the governance lists have an item on this side too.
const guarded = sim.guardrails.create({ userId: world.userId, rules: { name: 'Production guardrail', limit_usd: 100, reset_interval: 'monthly' } })
sim.guardrails.assignKeys(guarded.id, [world.keys.exhausted])
sim.guardrails.assignMembers(guarded.id, [sim.members.add({ userId: world.userId, email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' }).id])
sim.budgets.set({ workspace: world.workspaces.production, interval: 'daily', limitUsd: 10 })
sim.byok.create({ userId: world.userId, provider: 'anthropic', key: 'sk-ant-api03-0123456789abcdefghij', workspace: null })
let server: SimulatorServer

beforeAll(async () => {
  server = await startServer(sim, { port: 0, host: '127.0.0.1' })
})
afterAll(async () => {
  await server.close()
})

const MODELS = [world.models.paid, world.models.free, world.models.timeWindowed, world.models.longContext]

/** Every option given: no rule has a reason to be skipped. */
const full = (baseUrl: string, extra: Partial<CheckServiceOptions> = {}): CheckServiceOptions => ({
  baseUrl,
  managementKey: world.managementKey,
  regularKey: world.apiKey,
  models: MODELS,
  files: [world.files.report],
  timeoutMs: 10_000,
  allowWrites: true,
  ...extra,
})

const drifting = (report: CheckReport): string[] => report.results.filter((r) => r.verdict === 'drift').map((r) => r.rule).sort()
const result = (report: CheckReport, rule: string) => report.results.find((r) => r.rule === rule)

/** The secret itself, its part after the prefix, and a long piece of it: none may show anywhere. */
function expectNoSecret(report: CheckReport, secret: string): void {
  const body = secret.slice('sk-or-v1-'.length)
  for (const text of [JSON.stringify(report), formatReport(report)]) {
    expect(text).not.toContain(secret)
    expect(text).not.toContain(body)
    expect(text).not.toContain(body.slice(0, 16))
  }
}

describe('checkService against the simulator itself', () => {
  it('finds no drift, with every rule run', async () => {
    const report = await checkService(full(server.url))
    expect(report.results.filter((r) => r.verdict !== 'same')).toEqual([])
    expect(report).toMatchObject({ drift: 0, skipped: 0, same: report.results.length, baseUrl: server.url })
    // Shapes of the seven JSON answers, five error statuses and their envelope, order, anonymity.
    expect(report.results.map((r) => r.rule)).toEqual([
      'shape GET /keys',
      'shape GET /keys/{hash}',
      ...MODELS.flatMap((id) => [`shape GET /models/${id}/endpoints`, `shape anonymous GET /models/${id}/endpoints`]),
      `shape GET /files/${world.files.report}/content`,
      'shape GET /workspaces/{id}',
      'shape GET /workspaces',
      'shape GET /videos/models',
      'shape GET /key',
      'shape GET /credits',
      'shape GET /models',
      'shape GET /providers',
      'shape GET /presets',
      'shape GET /presets/{slug}',
      'shape GET /oauth/jwks',
      'shape GET /guardrails',
      'shape GET /guardrails/{id}',
      'shape GET /guardrails/assignments/keys',
      'shape GET /guardrails/assignments/members',
      'shape GET /workspaces/{id}/budgets',
      'shape GET /byok',
      'shape GET /organization/members',
      'shape GET /activity',
      'shape GET /models/user',
      'shape GET /endpoints/zdr',
      'shape POST /keys (throwaway key)',
      'shape PATCH /keys/{hash} (throwaway key)',
      'shape DELETE /keys/{hash} (throwaway key)',
      '404 GET /keys/{hash} after DELETE',
      '401 no Authorization on GET /keys',
      '403 regular key on GET /keys',
      '404 unknown key hash',
      '404 unknown workspace',
      '404 unknown model',
      '404 unknown file',
      '400 offset=-1 on GET /keys',
      '400 offset=abc on GET /keys',
      '401 no Authorization on GET /key',
      '401 no Authorization on GET /credits',
      '403 regular key on GET /credits',
      '404 unknown model on GET /model/{author}/{slug}',
      '404 unknown preset',
      '404 unknown guardrail',
      'error envelope, code = status',
      'order of GET /keys: newest first',
      ...MODELS.map((id) => `anonymous hides performance: ${id}`),
    ])
    expect(result(report, 'shape GET /keys')).toEqual({
      rule: 'shape GET /keys',
      simulator: '200 json, fits { data: ApiKey[] }',
      live: '200 json, fits { data: ApiKey[] }',
      verdict: 'same',
    })
    expect(formatReport(report).split('\n').at(-1)).toBe(`${report.results.length} rules: ${report.results.length} same, 0 drift, 0 skipped`)
  })

  it('skips the rules that need what was not given, and says why', async () => {
    const report = await checkService({ baseUrl: server.url, managementKey: world.managementKey })
    expect(report.drift).toBe(0)
    expect(report.results.filter((r) => r.verdict === 'skipped').map((r) => [r.rule, r.live])).toEqual([
      ['shape GET /models/{author}/{slug}/endpoints', 'skipped: no model given (--models)'],
      ['shape GET /files/{id}/content', 'skipped: no file given (--files): there is no list-files operation to pick one from'],
      ['shape POST /keys (throwaway key)', 'skipped: writes not allowed (--allow-writes)'],
      ['shape PATCH /keys/{hash} (throwaway key)', 'skipped: writes not allowed (--allow-writes)'],
      ['shape DELETE /keys/{hash} (throwaway key)', 'skipped: writes not allowed (--allow-writes)'],
      ['404 GET /keys/{hash} after DELETE', 'skipped: writes not allowed (--allow-writes)'],
      ['403 regular key on GET /keys', 'skipped: no regular key given (--regular-key)'],
      ['403 regular key on GET /credits', 'skipped: no regular key given (--regular-key)'],
      ['anonymous hides performance: {author}/{slug}', 'skipped: no model given (--models)'],
    ])
    expect(formatReport(report)).toMatch(/^403 regular key on GET \/keys +- +skipped: no regular key given \(--regular-key\) +skipped$/m)
  })

  it('skips GET /presets/{slug} for an account without presets, and still checks the empty list', async () => {
    const bare = createSimulator()
    const other = await startServer(bare, { port: 0, host: '127.0.0.1' })
    try {
      const report = await checkService(full(other.url, { managementKey: bare.world.managementKey, regularKey: bare.world.apiKey }))
      expect(report.drift).toBe(0)
      expect(result(report, 'shape GET /presets/{slug}')).toMatchObject({ live: 'skipped: GET /presets listed no preset to read', verdict: 'skipped' })
      expect(result(report, 'shape GET /presets')).toMatchObject({ live: '200 json, fits { data: Preset[], total_count: integer }', verdict: 'same' })
      expect(result(report, 'shape GET /oauth/jwks')).toMatchObject({ live: '200 json, fits { keys: OAuthJwk[] }', verdict: 'same' })
    } finally {
      await other.close()
    }
  })

  it('sends GETs only, only to the base URL, each key only in the Authorization header', async () => {
    const sent: { method: string; url: string; authorization: string | null; redirect: string | undefined }[] = []
    const recording: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers)
      sent.push({ method: init?.method ?? 'GET', url: String(input), authorization: headers.get('authorization'), redirect: init?.redirect })
      return fetch(input, init)
    }
    const report = await checkService(full(server.url, { fetch: recording, allowWrites: false }))
    expect(report.drift).toBe(0)
    expect(report.results.filter((r) => r.verdict === 'skipped').map((r) => r.rule)).toEqual([
      'shape POST /keys (throwaway key)',
      'shape PATCH /keys/{hash} (throwaway key)',
      'shape DELETE /keys/{hash} (throwaway key)',
      '404 GET /keys/{hash} after DELETE',
    ])
    expect(sent.length).toBe(report.requests.length)
    // Rules that read the same request share one answer.
    expect(new Set(sent.map((s) => `${s.url} ${s.authorization}`)).size).toBe(sent.length)
    for (const request of sent) {
      expect(request.method).toBe('GET')
      expect(request.url.startsWith(`${server.url}/`)).toBe(true)
      expect(request.url).not.toContain(world.managementKey.slice(9))
      expect(request.redirect).toBe('manual')
      expect([null, `Bearer ${world.managementKey}`, `Bearer ${world.apiKey}`]).toContain(request.authorization)
    }
    expect(report.requests.every((r) => r.startsWith('GET /'))).toBe(true)
  })

  it('never shows either key, but as maskSecret shows it', async () => {
    const report = await checkService(full(server.url))
    expectNoSecret(report, world.managementKey)
    expectNoSecret(report, world.apiKey)
    expect(report.keys).toEqual({ management: maskSecret(world.managementKey), regular: maskSecret(world.apiKey) })
    expect(formatReport(report).split('\n')[0]).toBe(`${server.url} (management key ${maskSecret(world.managementKey)}, regular key ${maskSecret(world.apiKey)})`)
  })

  it('refuses bad options before sending anything, without echoing a key', async () => {
    let calls = 0
    const counting: typeof fetch = async (input, init) => {
      calls++
      return fetch(input, init)
    }
    const base = { managementKey: world.managementKey, fetch: counting }
    await expect(checkService({ ...base, baseUrl: 'ftp://example.test' })).rejects.toThrow(/"baseUrl" must be an http\(s\) URL/)
    await expect(checkService({ ...base, baseUrl: `http://user:${world.managementKey}@127.0.0.1/` })).rejects.toThrow(/"baseUrl" must not carry credentials, a query or a fragment\.$/)
    await expect(checkService({ ...base, baseUrl: server.url, managementKey: '' })).rejects.toThrow(/"managementKey" must be an API key/)
    await expect(checkService({ ...base, baseUrl: server.url, regularKey: `${world.apiKey} x` })).rejects.toThrow(/^Failed to check the service: "regularKey" must be an API key: non-empty, without spaces\.$/)
    await expect(checkService({ ...base, baseUrl: server.url, models: ['gpt-4o'] })).rejects.toThrow(/"models" must be an array of model ids such as "openai\/gpt-4o", got "gpt-4o"/)
    // The key given where the URL goes (arguments swapped) is not echoed back.
    await expect(checkService({ ...base, baseUrl: world.managementKey, managementKey: server.url })).rejects.toThrow(/"baseUrl" must be an http\(s\) URL such as "https:\/\/openrouter.ai\/api\/v1", got a string that holds an API key\.$/)
    // A misspelt option is named, not ignored (`apiKey` for `regularKey` would skip every regular-key rule); its value is not shown.
    const misspelt = await checkService({ ...base, baseUrl: server.url, apiKey: world.apiKey } as never).catch((e: Error) => e)
    expect(misspelt).toMatchObject({ argument: 'apiKey' })
    expect((misspelt as Error).message).toMatch(/^Failed to check the service: "apiKey" is not a field of the options of checkService \(known fields: baseUrl, managementKey, regularKey, /)
    expect((misspelt as Error).message).not.toContain(world.apiKey)
    expect(calls).toBe(0)
  })

  it('reports an unreachable service as drift on every rule it runs, without throwing', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const report = await checkService({ baseUrl: `http://127.0.0.1:${port}/api/v1`, managementKey: world.managementKey, regularKey: world.apiKey, models: [world.models.paid], timeoutMs: 5_000 })
    expect(result(report, '404 unknown model')?.live).toMatch(/^request failed: fetch failed/)
    expect(report.same).toBe(0)
    expect(report.drift + report.skipped).toBe(report.results.length)
    expectNoSecret(report, world.managementKey)
  })
})

// ---- a proxy that alters the simulator's answers ------------------------------------------------

interface Answer {
  status: number
  headers: Record<string, string>
  body: Buffer
}
/** The request as the proxy saw it: the path below the base (`/keys/abc`), its query, whether it had a key. */
interface Seen {
  method: string
  path: string
  query: URLSearchParams
  authorization: string | undefined
}
type Alteration = (seen: Seen, answer: Answer) => Answer

/** The JSON body changed by `edit` (which may change it in place), with the content length to match. */
function editJson(answer: Answer, edit: (body: any) => unknown): Answer {
  const body: unknown = JSON.parse(answer.body.toString('utf8'))
  const edited = edit(body) ?? body
  const text = Buffer.from(JSON.stringify(edited))
  return { ...answer, headers: { ...answer.headers, 'content-length': String(text.byteLength) }, body: text }
}

const isJson = (answer: Answer): boolean => (answer.headers['content-type'] ?? '').startsWith('application/json')

async function startProxy(target: string, alter: Alteration): Promise<{ url: string; close(): Promise<void> }> {
  const origin = new URL(target).origin
  const proxy: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', origin)
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      const method = req.method ?? 'GET'
      const upstream = await fetch(url, { method, headers: pick(req.headers), ...(chunks.length > 0 && { body: Buffer.concat(chunks) }) })
      const headers: Record<string, string> = {}
      upstream.headers.forEach((value, name) => {
        if (name !== 'transfer-encoding' && name !== 'connection' && name !== 'keep-alive') headers[name] = value
      })
      const seen: Seen = { method, path: url.pathname.replace(/^\/api\/v1/, ''), query: url.searchParams, authorization: req.headers.authorization }
      const answer = alter(seen, { status: upstream.status, headers, body: Buffer.from(await upstream.arrayBuffer()) })
      res.writeHead(answer.status, answer.headers)
      res.end(answer.body)
    })().catch((error: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' })
      res.end(String(error))
    })
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const { port } = proxy.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections()
        proxy.close(() => resolve())
      }),
  }
}

function pick(headers: IncomingHttpHeaders): Record<string, string> {
  const picked: Record<string, string> = {}
  if (headers.authorization !== undefined) picked['authorization'] = headers.authorization
  if (headers['content-type'] !== undefined) picked['content-type'] = headers['content-type']
  return picked
}

/** Applies `change` to each key object of a 200 from GET /keys or GET /keys/{hash}. */
const eachKey =
  (change: (key: Record<string, unknown>) => void): Alteration =>
  (seen, answer) => {
    if (seen.method !== 'GET' || !/^\/keys(\/[^/]+)?$/.test(seen.path) || answer.status !== 200) return answer
    return editJson(answer, (body) => {
      for (const key of Array.isArray(body.data) ? body.data : [body.data]) change(key)
    })
  }

/** Renames a field of every item of a 200 from the list at `path`. */
const renamedInList =
  (path: string, from: string, to: string): Alteration =>
  (seen, answer) =>
    seen.path === path && answer.status === 200
      ? editJson(answer, (body) => {
          for (const item of body.data) {
            item[to] = item[from]
            delete item[from]
          }
        })
      : answer

const ALTERATIONS: [string, Alteration, string[]][] = [
  ['renames limit_remaining to limitRemaining in GET /keys', renamedInList('/keys', 'limit_remaining', 'limitRemaining'), ['shape GET /keys']],
  [
    'answers 403 instead of 404 for an unknown key hash',
    (seen, answer) =>
      /^\/keys\/[^/]+$/.test(seen.path) && answer.status === 404
        ? editJson({ ...answer, status: 403 }, (body) => {
            body.error.code = 403
            body.error.message = 'Forbidden'
          })
        : answer,
    // The throwaway key, read after its DELETE, is an unknown hash too.
    ['404 unknown key hash', '404 GET /keys/{hash} after DELETE'],
  ],
  [
    'sends usage as a string ("1.5")',
    eachKey((key) => {
      key.usage = String(key.usage)
    }),
    ['shape GET /keys', 'shape GET /keys/{hash}'],
  ],
  [
    "drops the error envelope's code",
    (_, answer) =>
      answer.status >= 400 && isJson(answer)
        ? editJson(answer, (body) => {
            delete body.error.code
          })
        : answer,
    ['error envelope, code = status'],
  ],
  [
    'lists keys oldest first',
    (seen, answer) => (seen.path === '/keys' && answer.status === 200 ? editJson(answer, (body) => void body.data.reverse()) : answer),
    ['order of GET /keys: newest first'],
  ],
  [
    'shows latency to an anonymous caller of one model',
    (seen, answer) =>
      seen.path === `/models/${world.models.paid}/endpoints` && seen.authorization === undefined && answer.status === 200
        ? editJson(answer, (body) => {
            body.data.endpoints[0].latency_last_30m = { p50: 300, p75: 400, p90: 500, p99: 900 }
          })
        : answer,
    [`anonymous hides performance: ${world.models.paid}`],
  ],
  [
    'answers 200 with an empty list for offset=abc',
    (seen, answer) => (seen.path === '/keys' && seen.query.get('offset') === 'abc' ? { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"data":[]}') } : answer),
    ['400 offset=abc on GET /keys'],
  ],
  [
    'serves file downloads as text/plain without content-disposition',
    (seen, answer) => {
      if (!seen.path.startsWith('/files/') || answer.status !== 200) return answer
      const { 'content-disposition': _, ...headers } = answer.headers
      return { ...answer, headers: { ...headers, 'content-type': 'text/plain' } }
    },
    [`shape GET /files/${world.files.report}/content`],
  ],
  [
    'adds a field the wire types do not declare to workspaces',
    (seen, answer) => (seen.path.startsWith('/workspaces/') && answer.status === 200 ? editJson(answer, (body) => void (body.data.region = 'eu')) : answer),
    ['shape GET /workspaces/{id}'],
  ],
  [
    'answers a quantization outside QUANTIZATIONS for one model, with a key',
    (seen, answer) =>
      seen.path === `/models/${world.models.free.replace(':', '%3A')}/endpoints` && seen.authorization !== undefined && answer.status === 200
        ? editJson(answer, (body) => void (body.data.endpoints[0].quantization = 'q4_k_m'))
        : answer,
    [`shape GET /models/${world.models.free}/endpoints`],
  ],
  [
    'sends a preset without its designated_version',
    (seen, answer) => (/^\/presets\/[^/]+$/.test(seen.path) && answer.status === 200 ? editJson(answer, (body) => void delete body.data.designated_version) : answer),
    ['shape GET /presets/{slug}'],
  ],
  [
    'lists presets with a status outside PresetStatus',
    (seen, answer) => (seen.path === '/presets' && answer.status === 200 ? editJson(answer, (body) => void (body.data[0].status = 'paused')) : answer),
    ['shape GET /presets'],
  ],
  [
    'publishes an RSA signing key in GET /oauth/jwks',
    (seen, answer) =>
      seen.path === '/oauth/jwks' && answer.status === 200
        ? editJson(answer, (body) => void body.keys.push({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: 'k1', n: 'AQAB', e: 'AQAB' }))
        : answer,
    ['shape GET /oauth/jwks'],
  ],
  [
    'sends a guardrail without include_byok_in_budgets',
    (seen, answer) => (/^\/guardrails\/[0-9a-f-]{36}$/.test(seen.path) && answer.status === 200 ? editJson(answer, (body) => void delete body.data.include_byok_in_budgets) : answer),
    ['shape GET /guardrails/{id}'],
  ],
  ['lists key assignments with key_hash renamed to hash', renamedInList('/guardrails/assignments/keys', 'key_hash', 'hash'), ['shape GET /guardrails/assignments/keys']],
  [
    'lists BYOK credentials with sort_order as a string',
    (seen, answer) => (seen.path === '/byok' && answer.status === 200 ? editJson(answer, (body) => void (body.data[0].sort_order = String(body.data[0].sort_order))) : answer),
    ['shape GET /byok'],
  ],
  [
    'lists members without total_count',
    (seen, answer) => (seen.path === '/organization/members' && answer.status === 200 ? editJson(answer, (body) => void delete body.total_count) : answer),
    ['shape GET /organization/members'],
  ],
  [
    'answers 403 for an unknown preset',
    (seen, answer) => (seen.path.startsWith('/presets/') && answer.status === 404 ? editJson({ ...answer, status: 403 }, (body) => void (body.error.code = 403)) : answer),
    ['404 unknown preset'],
  ],
]

describe('checkService against a proxy that alters one thing', () => {
  it.each(ALTERATIONS)('%s: drift in exactly the rules it breaks', async (_, alter, expected) => {
    const proxy = await startProxy(server.url, alter)
    try {
      const report = await checkService(full(proxy.url))
      expect(drifting(report)).toEqual([...expected].sort())
      expect(report.drift).toBe(expected.length)
      expect(report.skipped).toBe(0)
      expectNoSecret(report, world.managementKey)
      expectNoSecret(report, world.apiKey)
    } finally {
      await proxy.close()
    }
  })

  it('names each problem with its JSON path, grouped across the list', async () => {
    const proxy = await startProxy(
      server.url,
      eachKey((key) => {
        key.usage = String(key.usage)
      }),
    )
    try {
      const report = await checkService(full(proxy.url))
      const list = result(report, 'shape GET /keys')
      const count = sim.handle({ method: 'GET', path: '/keys', query: 'include_disabled=true', authorization: `Bearer ${world.managementKey}` })
      const keys = (count.body as { data: { usage: number }[] }).data
      expect(list).toEqual({
        rule: 'shape GET /keys',
        simulator: '200 json, fits { data: ApiKey[] }',
        live: `200 json, ${keys.length} shape problems`,
        verdict: 'drift',
        details: [`data[0].usage: expected number, got "${keys[0]?.usage}" (and ${keys.length - 1} more like it)`],
      })
      const text = formatReport(report)
      expect(text).toContain(`drift: shape GET /keys\n  simulator: 200 json, fits { data: ApiKey[] }\n  live:      200 json, ${keys.length} shape problems\n  data[0].usage: expected number`)
      expect(text.split('\n').at(-1)).toBe(`${report.results.length} rules: ${report.results.length - 2} same, 2 drift, 0 skipped`)
    } finally {
      await proxy.close()
    }
  })

  it('accepts undeclared fields when told to', async () => {
    const proxy = await startProxy(server.url, ALTERATIONS.find(([name]) => name.startsWith('adds a field'))?.[1] as Alteration)
    try {
      const report = await checkService(full(proxy.url, { allowExtraFields: true }))
      expect(report.drift).toBe(0)
    } finally {
      await proxy.close()
    }
  })

  it('keeps a key the service echoes out of the report', async () => {
    // A service that puts the caller's bearer into the keys it lists, where a number should be.
    const echo: Alteration = (seen, answer) =>
      seen.path === '/keys' && answer.status === 200
        ? editJson(answer, (body) => {
            body.data[0].usage = seen.authorization
            body.data[0].name = `${seen.authorization} ${seen.authorization?.slice(16)}`
          })
        : answer
    const proxy = await startProxy(server.url, echo)
    try {
      const report = await checkService(full(proxy.url))
      expect(drifting(report)).toEqual(['shape GET /keys'])
      expect(result(report, 'shape GET /keys')?.details).toEqual([`data[0].usage: expected number, got "Bearer ${maskSecret(world.managementKey)}"`])
      expectNoSecret(report, world.managementKey)
    } finally {
      await proxy.close()
    }
  })
})
