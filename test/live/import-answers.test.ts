// importWorld against odd live answers and bad options: the requests it sends (paths, queries,
// pages), how it waits out a 429, the errors that stop it (each naming the request), and what the
// world spec holds of files, credits and the organisation's owner. The live service is a simulator in
// process (fake-service.ts), altered one answer at a time.
import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/index.js'
import { type ImportProgress, type ImportWorldOptions, importWorld } from '../../src/live/index.js'
import { type Alter, LIVE_BASE, type Sent, fakeService, jsonAnswer } from './fake-service.js'

const live = createSimulator()
const { world } = live
const MANAGEMENT = world.managementKey

async function imported(alter?: Alter, extra: Partial<ImportWorldOptions> = {}, sim: Pick<Simulator<unknown>, 'handle'> = live) {
  const service = fakeService(sim, alter)
  const events: ImportProgress[] = []
  const result = await importWorld({ baseUrl: LIVE_BASE, managementKey: MANAGEMENT, fetch: service.fetch, onProgress: (e) => events.push(e), now: live.clock.now(), ...extra })
  return { ...result, sent: service.sent, events, sim: createSimulator({ world: result.world }) }
}

async function failure(alter?: Alter, extra: Partial<ImportWorldOptions> = {}): Promise<string> {
  const error = await imported(alter, extra).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(Error)
  return (error as Error).message
}

/** The workspaces the account lists, as GET /workspaces answers them. */
const listedWorkspaces = () => (live.handle({ method: 'GET', path: '/workspaces', query: 'limit=100', authorization: `Bearer ${MANAGEMENT}` }).body as { data: { id: string; slug: string }[] }).data
const request = (s: Sent): string => `${s.path}${s.query.size > 0 ? `?${s.query}` : ''}`
const envelope = (status: number, message: string, headers: Record<string, string> = {}): Response => jsonAnswer(status, { error: { code: status, message } }, headers)

describe('importWorld refuses bad options by name', () => {
  const refusal = async (options: unknown): Promise<string> => {
    const error = await importWorld(options as ImportWorldOptions).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(Error)
    return (error as Error).message
  }
  const valid = { baseUrl: LIVE_BASE, managementKey: MANAGEMENT }

  it('names the option and what it must be', async () => {
    expect(await refusal(null)).toBe('Failed to import a world: "options" must be an options object, got null.')
    expect(await refusal([valid])).toBe('Failed to import a world: "options" must be an options object, got an array.')
    const url = 'Failed to import a world: "baseUrl" must be an absolute http: or https: URL such as "https://openrouter.ai/api/v1", got'
    expect(await refusal({ ...valid, baseUrl: 'ftp://example.test/api/v1' })).toBe(`${url} "ftp://example.test/api/v1".`)
    expect(await refusal({ ...valid, baseUrl: 'localhost:4010' })).toBe(`${url} "localhost:4010".`)
    expect(await refusal({ ...valid, baseUrl: 42 })).toBe(`${url} 42.`)
    const key = 'Failed to import a world: "managementKey" must be a management key: 8 to 512 characters without white space.'
    for (const managementKey of ['1234567', 'x'.repeat(513), 'has a space', 12345678, undefined]) expect(await refusal({ ...valid, managementKey })).toBe(key)
    for (const list of ['models', 'workspaces', 'files']) {
      expect(await refusal({ ...valid, [list]: 'a/b' })).toBe(`Failed to import a world: "${list}" must be an array of non-empty strings, got "a/b".`)
      expect(await refusal({ ...valid, [list]: ['a/b', ''] })).toBe(`Failed to import a world: "${list}" must be an array of non-empty strings, got an array.`)
      expect(await refusal({ ...valid, [list]: [3] })).toBe(`Failed to import a world: "${list}" must be an array of non-empty strings, got an array.`)
    }
    expect(await refusal({ ...valid, fetch: 'fetch' })).toBe('Failed to import a world: "fetch" must be a function, got "fetch".')
    expect(await refusal({ ...valid, onProgress: true })).toBe('Failed to import a world: "onProgress" must be a function, got true.')
    for (const n of ['maxRetries', 'maxWaitMs']) {
      for (const value of [-1, 1.5, '3', Number.POSITIVE_INFINITY]) expect(await refusal({ ...valid, [n]: value })).toMatch(new RegExp(`^Failed to import a world: "${n}" must be a non-negative integer, got `))
    }
    expect(await refusal({ ...valid, maxRetries: -1 })).toBe('Failed to import a world: "maxRetries" must be a non-negative integer, got -1.')
  })

  it('takes a key of 8 and of 512 characters, and 0 retries and waits', async () => {
    for (const managementKey of ['12345678', 'x'.repeat(512)]) {
      const message = await refusal({ ...valid, managementKey, fetch: async () => envelope(401, 'No such key') })
      expect(message).toBe('GET /keys?include_disabled=true answered 401: No such key')
    }
    const message = await refusal({ ...valid, maxRetries: 0, maxWaitMs: 0, fetch: async () => envelope(429, 'Slow down', { 'retry-after': '0' }) })
    expect(message).toBe('GET /keys?include_disabled=true answered 429 after 1 attempts: Slow down')
  })

  it('refuses a model id without an author, naming it', async () => {
    for (const id of ['gpt-4o', '/gpt-4o']) {
      const message = await failure(undefined, { models: [id] })
      expect(message).toBe(`Failed to import a world: "models" must hold author/slug model ids, got ${JSON.stringify(id)}.`)
    }
  })
})

describe('the requests importWorld sends', () => {
  it('sends GETs only, to the base URL, with the key as a bearer and asking for JSON', async () => {
    const seen: { url: string; method: string | undefined; headers: Headers }[] = []
    const service = fakeService(live)
    await importWorld({
      baseUrl: `${LIVE_BASE}//`,
      managementKey: MANAGEMENT,
      now: live.clock.now(),
      fetch: async (input, init) => {
        seen.push({ url: String(input), method: init?.method, headers: new Headers(init?.headers) })
        return service.fetch(input, init)
      },
    })
    expect(seen.length).toBeGreaterThan(3)
    for (const s of seen) {
      expect(s.url.startsWith(`${LIVE_BASE}/`) && !s.url.startsWith(`${LIVE_BASE}//`)).toBe(true)
      expect(s.method).toBe('GET')
      expect(s.headers.get('authorization')).toBe(`Bearer ${MANAGEMENT}`)
      expect(s.headers.get('accept')).toBe('application/json')
    }
  })

  it('reads every page of keys, then every page of workspaces, and says so as it goes', async () => {
    const { sent, events } = await imported((s) => {
      // One key a page, to see the paging: the key list of a page is cut to its first key.
      if (s.path !== '/keys') return undefined
      const offset = Number(s.query.get('offset') ?? '0')
      const query = new URLSearchParams(s.query)
      query.delete('offset')
      const all = live.handle({ method: 'GET', path: '/keys', query, authorization: `Bearer ${MANAGEMENT}` }).body as { data: unknown[] }
      return jsonAnswer(200, { data: all.data.slice(offset, offset + 1) })
    })
    const defaultId = world.workspaces.default
    const keyLists = sent.filter((s) => s.path === '/keys' && !s.query.has('workspace_id')).map(request)
    const count = (live.handle({ method: 'GET', path: '/keys', query: 'include_disabled=true', authorization: `Bearer ${MANAGEMENT}` }).body as { data: unknown[] }).data.length
    expect(keyLists).toEqual(Array.from({ length: count + 1 }, (_, i) => (i === 0 ? '/keys?include_disabled=true' : `/keys?include_disabled=true&offset=${i}`)))
    expect(sent[count + 1] && request(sent[count + 1] as Sent)).toBe(`/workspaces/${defaultId}`)
    expect(sent.some((s) => s.path === '/workspaces' && s.query.toString() === 'offset=0&limit=100')).toBe(true)
    expect(events.find((e) => e.kind === 'keys')).toEqual({ kind: 'keys', message: 'GET /keys?include_disabled=true: 1 keys' })
    expect(events.filter((e) => e.kind === 'keys').at(count)).toEqual({ kind: 'keys', message: `GET /keys?include_disabled=true&offset=${count}: 0 keys` })
    const workspace = live.workspaces.list().find((w) => w.id === defaultId)
    expect(events).toContainEqual({ kind: 'workspace', message: `GET /workspaces/${defaultId}: ${workspace?.name} (${workspace?.slug})` })
    expect(events).toContainEqual({ kind: 'workspace', message: `GET /workspaces?offset=0&limit=100: ${listedWorkspaces().length} workspaces` })
    const others = listedWorkspaces().filter((w) => w.id !== defaultId)
    expect(others.length).toBeGreaterThan(0)
    for (const w of others) expect(sent.map(request)).toContain(`/keys?include_disabled=true&workspace_id=${w.id}`)
    // The default workspace's keys are listed once, without its id; each workspace is read once.
    expect(sent.map(request).filter((r) => r.includes(`workspace_id=${defaultId}`))).toEqual([])
    expect(sent.filter((s) => s.path.startsWith('/workspaces/')).map(request)).toEqual([`/workspaces/${defaultId}`])
  })

  it('follows a workspace that only a key names, and lists its keys too', async () => {
    const { staging, production } = world.workspaces
    const keyOf = (workspace: string) => (live.handle({ method: 'GET', path: '/keys', query: `include_disabled=true&workspace_id=${workspace}`, authorization: `Bearer ${MANAGEMENT}` }).body as { data: { workspace_id: string }[] }).data
    expect(keyOf(staging).length).toBeGreaterThan(0)
    const { sent, world: spec } = await imported(async (s, answer) => {
      // The account's listing misses staging; one key of production's listing is in staging.
      if (s.path === '/workspaces') {
        const body = (await (await answer()).json()) as { data: { id: string }[] }
        return jsonAnswer(200, { data: body.data.filter((w) => w.id !== staging), total_count: body.data.length - 1 })
      }
      if (s.path === '/keys' && s.query.get('workspace_id') === production && !s.query.has('offset')) return jsonAnswer(200, { data: [...keyOf(production), keyOf(staging)[0]] })
      return undefined
    })
    const requests = sent.map(request)
    expect(requests.filter((r) => r === `/workspaces/${staging}`)).toHaveLength(1)
    expect(requests.indexOf(`/keys?include_disabled=true&workspace_id=${staging}`)).toBeGreaterThan(requests.indexOf(`/workspaces/${staging}`))
    expect(Object.values(spec.handles?.workspaces ?? {})).toContain(staging)
  })

  it('reads workspaces page by page until the total is reached, or a page is empty', async () => {
    const all = listedWorkspaces()
    const pages = (total: (offset: number) => number | undefined): Alter => (s) => {
      if (s.path !== '/workspaces') return undefined
      const offset = Number(s.query.get('offset'))
      return jsonAnswer(200, { data: all.slice(offset, offset + 1), total_count: total(offset) })
    }
    const listed = (sent: Sent[]): string[] => sent.filter((s) => s.path === '/workspaces').map((s) => s.query.get('offset') ?? '')
    const counted = await imported(pages(() => all.length))
    expect(listed(counted.sent)).toEqual(all.map((_, i) => String(i)))
    const uncounted = await imported(pages(() => undefined))
    expect(listed(uncounted.sent)).toEqual([...all.map((_, i) => String(i)), String(all.length)])
  })

  it('reads a default workspace by its slug when GET /keys lists no key', async () => {
    const empty = createSimulator({ world: 'empty' })
    const user = empty.users.create({ name: 'Keyless Co' })
    const admin = empty.keys.create({ userId: user.id, management: true })
    const service = fakeService(empty, (s) => (s.path === '/keys' ? jsonAnswer(200, { data: [] }) : undefined))
    const { world: spec } = await importWorld({ baseUrl: LIVE_BASE, managementKey: admin.key, fetch: service.fetch })
    expect(service.sent.map(request).slice(0, 2)).toEqual(['/keys?include_disabled=true', '/workspaces/default'])
    expect(spec.handles?.defaultWorkspaceId).toBe(empty.workspaces.list().find((w) => w.created_by === user.id || w.slug === 'default')?.id)
  })

  it('reads a workspace given by slug or id only when the account listing did not have it', async () => {
    const hidden = live.workspaces.create({ userId: world.userId, name: 'Hidden', slug: 'hidden-team' })
    try {
      const listedOnly = (s: Sent) => (s.path === '/workspaces' ? jsonAnswer(200, { data: [], total_count: 0 }) : undefined)
      const bySlug = await imported(listedOnly, { workspaces: ['hidden-team'] })
      expect(bySlug.sent.map(request)).toContain('/workspaces/hidden-team')
      expect(bySlug.world.handles?.workspaces['hidden-team']).toBe(hidden.id)
      const known = await imported(undefined, { workspaces: ['hidden-team', hidden.id.toUpperCase()] })
      expect(known.sent.map(request).filter((r) => r.startsWith(`/workspaces/`) && !r.startsWith(`/workspaces/${world.workspaces.default}`))).toEqual([])
    } finally {
      live.workspaces.delete(hidden.id)
    }
  })
})

describe('importWorld stops on errors, naming the request', () => {
  it('names a request that failed, with the error', async () => {
    expect(
      await failure((s) => {
        if (s.path === '/credits') throw new TypeError('connect ECONNREFUSED 127.0.0.1:1')
        return undefined
      }),
    ).toBe('GET /credits failed: connect ECONNREFUSED 127.0.0.1:1')
    expect(
      await failure((s) => {
        if (s.path === '/credits') throw 'socket hang up'
        return undefined
      }),
    ).toBe('GET /credits failed: socket hang up')
  })

  it('names the status and the reason: the envelope\'s message, or the start of the body', async () => {
    expect(await failure((s) => (s.path === '/videos/models' ? envelope(500, 'Internal error') : undefined))).toBe('GET /videos/models answered 500: Internal error')
    expect(await failure((s) => (s.path === '/videos/models' ? new Response(`<html>${'x'.repeat(300)}</html>`, { status: 502 }) : undefined))).toBe(`GET /videos/models answered 502: <html>${'x'.repeat(194)}`)
    expect(await failure((s) => (s.path === '/videos/models' ? jsonAnswer(503, { error: { code: 503 } }) : undefined))).toBe('GET /videos/models answered 503: {"error":{"code":503}}')
    expect(await failure((s) => (s.path === '/videos/models' ? new Response('{"data": [', { status: 200 }) : undefined))).toBe('GET /videos/models answered 200 with a body that is not JSON')
  })

  it('is an ImportError, and names a status whose body could not be read', async () => {
    const error = await imported((s) => (s.path === '/credits' ? envelope(500, 'Internal error') : undefined)).catch((e: Error) => e)
    expect(error).toMatchObject({ name: 'ImportError', message: 'GET /credits answered 500: Internal error' })
    const broken = new ReadableStream({
      start(controller) {
        controller.error(new Error('connection reset'))
      },
    })
    expect(await failure((s) => (s.path === '/credits' ? new Response(broken, { status: 500 }) : undefined))).toBe('GET /credits answered 500: ')
  })

  it('names a list without a data array', async () => {
    expect(await failure((s) => (s.path === '/keys' ? jsonAnswer(200, { keys: [] }) : undefined))).toBe('GET /keys?include_disabled=true answered without a data array')
    expect(await failure((s) => (s.path === '/workspaces' ? jsonAnswer(200, { data: {} }) : undefined))).toBe('GET /workspaces?offset=0&limit=100 answered without a data array')
  })

  it('names credits that are not numbers', async () => {
    for (const data of [{ total_credits: '5', total_usage: 0 }, { total_credits: 5 }, { total_credits: -1, total_usage: 0 }, { total_credits: 5, total_usage: -0.5 }, { total_credits: 5, total_usage: Number.NaN }]) {
      expect(await failure((s) => (s.path === '/credits' ? jsonAnswer(200, { data }) : undefined)), JSON.stringify(data)).toBe('GET /credits answered without numbers total_credits and total_usage')
    }
    expect(await failure((s) => (s.path === '/credits' ? jsonAnswer(200, {}) : undefined))).toBe('GET /credits answered without numbers total_credits and total_usage')
  })
})

describe('importWorld waits out a 429', () => {
  /** Answers 429 with these Retry-After values (null: no header) to GET /credits, one a try, then the simulator's answer. */
  const limited = (...retryAfter: (string | null)[]): Alter => {
    let n = 0
    return (s) => {
      if (s.path !== '/credits' || n >= retryAfter.length) return undefined
      const value = retryAfter[n++]
      return envelope(429, 'Rate limit exceeded', value === null || value === undefined ? {} : { 'retry-after': value })
    }
  }

  it('waits each Retry-After, in whole milliseconds, and tries again', async () => {
    const { events, sent } = await imported(limited('0', '0.0004', '0'), { maxRetries: 3 })
    expect(events.filter((e) => e.kind === 'wait').map((e) => e.message)).toEqual([
      'GET /credits: 429, waiting 0 ms (Retry-After), then attempt 2 of 4',
      'GET /credits: 429, waiting 1 ms (Retry-After), then attempt 3 of 4',
      'GET /credits: 429, waiting 0 ms (Retry-After), then attempt 4 of 4',
    ])
    expect(sent.filter((s) => s.path === '/credits')).toHaveLength(4)
  })

  it('gives up on a Retry-After longer than maxWaitMs; a missing or unreadable one counts as a second', async () => {
    expect(await failure(limited('120'))).toBe('GET /credits answered 429 with Retry-After 120 s, longer than the 60000 ms allowed to wait (maxWaitMs)')
    expect(await failure(limited('2'), { maxWaitMs: 1999 })).toBe('GET /credits answered 429 with Retry-After 2 s, longer than the 1999 ms allowed to wait (maxWaitMs)')
    expect(await failure(limited(null), { maxWaitMs: 999 })).toBe('GET /credits answered 429 with Retry-After 1 s, longer than the 999 ms allowed to wait (maxWaitMs)')
    expect(await failure(limited('soon'), { maxWaitMs: 999 })).toMatch(/^GET \/credits answered 429 with Retry-After NaN s, longer than the 999 ms allowed/)
    expect(await failure(limited('-3'), { maxWaitMs: 999 })).toMatch(/^GET \/credits answered 429 with Retry-After -3 s, longer than the 999 ms allowed/)
    const { events } = await imported(limited('0.001'), { maxWaitMs: 1, maxRetries: 1 })
    expect(events.filter((e) => e.kind === 'wait').map((e) => e.message)).toEqual(['GET /credits: 429, waiting 1 ms (Retry-After), then attempt 2 of 2'])
  })

  it('gives up after maxRetries, five unless told', async () => {
    expect(await failure(limited('0', '0', '0', '0', '0', '0'))).toBe('GET /credits answered 429 after 6 attempts: Rate limit exceeded')
    const { sent } = await imported(limited('0', '0', '0', '0', '0'))
    expect(sent.filter((s) => s.path === '/credits')).toHaveLength(6)
    expect(await failure(limited('0', '0'), { maxRetries: 1 })).toBe('GET /credits answered 429 after 2 attempts: Rate limit exceeded')
  })
})

describe('what the world spec holds', () => {
  it('brings the endpoints of a model whose slug has a variant or a slash, encoded as the SDK sends it', async () => {
    const { sent, events, world: spec } = await imported(
      (s) => (s.path.startsWith('/models/a') && s.path.endsWith('/endpoints') ? jsonAnswer(200, { data: { ...(live.handle({ method: 'GET', path: `/models/${world.models.paid}/endpoints` }).body as { data: object }).data, id: s.path.includes('chat') ? 'a/chat:free' : 'acme/abc' } }) : undefined),
      { models: ['a/chat:free', 'acme/a b/c'] },
    )
    expect(sent.map(request)).toEqual(expect.arrayContaining(['/models/a/chat%3Afree/endpoints', '/models/acme/a%20b/c/endpoints']))
    const endpoints = (live.handle({ method: 'GET', path: `/models/${world.models.paid}/endpoints` }).body as { data: { endpoints: unknown[] } }).data.endpoints.length
    expect(events).toContainEqual({ kind: 'model', message: `GET /models/a/chat%3Afree/endpoints: ${endpoints} endpoints` })
    const videos = (live.handle({ method: 'GET', path: '/videos/models' }).body as { data: unknown[] }).data.length
    expect(events).toContainEqual({ kind: 'video-models', message: `GET /videos/models: ${videos} video models` })
    expect(spec.handles?.models).toEqual(['a/chat:free', 'acme/abc'])
  })

  it('names each file by its content-disposition, or by its id', async () => {
    const named = (disposition: string | null): Alter => (s) =>
      s.path.startsWith('/files/') ? new Response(new Uint8Array([104, 105]), { status: 200, headers: { 'content-type': 'application/octet-stream', ...(disposition !== null && { 'content-disposition': disposition }) } }) : undefined
    const filename = async (disposition: string | null): Promise<string | undefined> => {
      const { sim, events } = await imported(named(disposition), { files: ['file_a'] })
      expect(events).toContainEqual({ kind: 'file', message: 'GET /files/file_a/content: 2 bytes' })
      return sim.files.list().find((f) => f.id === 'file_a')?.filename
    }
    expect(await filename(`attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`)).toBe('résumé.txt')
    expect(await filename('attachment; filename="notes.txt"; size=2')).toBe('notes.txt')
    expect(await filename('attachment; filename=plain.csv')).toBe('plain.csv')
    expect(await filename(`attachment; filename*=UTF-8''100%25.txt; filename="fallback.txt"`)).toBe('100%.txt')
    expect(await filename(`attachment; filename*=UTF-8''bad%E0%A4.txt`)).toBe('bad%E0%A4.txt')
    expect(await filename('attachment')).toBe('file_a')
    expect(await filename(null)).toBe('file_a')
  })

  it('keeps the credits bought, the usage of deleted keys, and says so', async () => {
    const keysUsage = (live.handle({ method: 'GET', path: '/credits', authorization: `Bearer ${MANAGEMENT}` }).body as { data: { total_usage: number } }).data.total_usage
    const credits = (total_credits: number, total_usage: number): Alter => (s) => (s.path === '/credits' ? jsonAnswer(200, { data: { total_credits, total_usage } }) : undefined)
    const read = (sim: Simulator<unknown>, key: string | undefined) => (sim.handle({ method: 'GET', path: '/credits', authorization: `Bearer ${key}` }).body as { data: { total_credits: number; total_usage: number } }).data
    const retired = await imported(credits(40, keysUsage + 1.25))
    expect(retired.events).toContainEqual({ kind: 'credits', message: `GET /credits: 40 USD bought, ${keysUsage + 1.25} USD used` })
    const withRetired = read(retired.sim, retired.world.handles?.managementKey)
    expect(withRetired.total_credits).toBe(40)
    expect(withRetired.total_usage).toBeCloseTo(keysUsage + 1.25, 6)
    // Usage below what the keys spent retires nothing.
    const none = await imported(credits(3, 0))
    const spentByKeys = none.sim.keys.list().reduce((sum, key) => sum + key.usage, 0)
    expect(spentByKeys).toBeLessThan(keysUsage)
    expect(read(none.sim, none.world.handles?.managementKey).total_usage).toBeCloseTo(spentByKeys, 6)
  })

  it('makes the organisation\'s owner the user who created most of its keys', async () => {
    const creator = (ids: (string | null)[]): Alter => (s) => {
      if (s.path !== '/keys') return undefined
      if (s.query.has('offset') || s.query.has('workspace_id')) return jsonAnswer(200, { data: [] })
      const page = live.handle({ method: 'GET', path: '/keys', query: 'include_disabled=true', authorization: `Bearer ${MANAGEMENT}` }).body as { data: Record<string, unknown>[] }
      return jsonAnswer(200, { data: page.data.slice(0, ids.length).map((key, i) => ({ ...key, creator_user_id: ids[i] })) })
    }
    const most = await imported(creator(['user_a', 'user_b2', 'user_b2', null]))
    expect(most.world.handles?.userId).toBe('user_b2')
    const unnamed = await imported(creator([null, null]))
    expect(unnamed.world.handles?.userId).toBe(live.workspaces.get(world.workspaces.default)?.created_by)
    // An id the simulator would not take as a user id is not kept: a fresh one is made.
    for (const id of ['x-user_ab', 'user_ab-c', `user_${'a'.repeat(65)}`]) {
      const odd = await imported(creator([id]))
      expect(odd.world.handles?.userId).toMatch(/^user_[A-Za-z0-9]+$/)
      expect(odd.world.handles?.userId).not.toBe(id)
    }
  })
})
