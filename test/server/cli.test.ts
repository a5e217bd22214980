// The `model-access-sim` command, run from source as a user runs it: a child process per command,
// its output read from its pipes, its servers reached over real sockets on 127.0.0.1. The sources
// are bundled once for the file, as the published bin is, and each command runs that bundle
// (test/support/cli.ts says why).
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { type AddressInfo, createConnection, createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import pkg from '../../package.json' with { type: 'json' }
import { type BundledCli, bundleCli } from '../support/cli.js'

const ROOT = resolve(import.meta.dirname, '../..')
/** src/server/cli-entry.ts, bundled in the file's setup. */
let bundled: BundledCli | undefined
/** A cold start on a busy 2-core machine can take seconds. */
const START_TIMEOUT_MS = 20_000
/** The control API reads JSON only: fetch would send a string body as text/plain. */
const JSON_TYPE = { 'content-type': 'application/json' }
const BANNER_URL = /^model-access-sim \S+: the model-access API at (http:\/\/127\.0\.0\.1:(\d+)\/api\/v1)$/m

interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
  /** performance.now() when the process exited. */
  at: number
}

interface CliProcess {
  child: ChildProcess
  stdout(): string
  stderr(): string
  /** Resolves when the process has exited. */
  exited: Promise<Exit>
  /** Resolves when it has exited and its pipes are drained: all it wrote is in stdout() and stderr(). */
  closed: Promise<Exit>
  /** The first match of the pattern in stdout, waiting for it; rejects on timeout or exit without it. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>
}

/** Children that a test spawns for itself, killed after it; and every child, killed after the file. */
const perTest = new Set<CliProcess>()
const all = new Set<CliProcess>()

/**
 * Preloaded into a CLI that is told to bind 0.0.0.0: it listens on 127.0.0.1 instead, so that no
 * test ever listens beyond loopback, while the server believes the bind it was given.
 */
const LOOPBACK_ONLY = resolve(import.meta.dirname, 'support/loopback-only.mjs')

function spawnCli(args: string[], scope: 'test' | 'suite' = 'test', nodeArgs: string[] = [], env: Record<string, string> = {}): CliProcess {
  if (finished) throw new Error(`model-access-sim ${args.join(' ')} was not started: the test file had finished`)
  if (bundled === undefined) throw new Error(`model-access-sim ${args.join(' ')} was not started: the CLI is not bundled yet`)
  const child = spawn(process.execPath, [...nodeArgs, bundled.path, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  const listeners = new Set<() => void>()
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk
    for (const listener of listeners) listener()
  })
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk
  })
  let exitInfo: Exit | undefined
  const exited = new Promise<Exit>((resolveExit) => {
    child.once('exit', (code, signal) => {
      exitInfo = { code, signal, at: performance.now() }
      resolveExit(exitInfo)
      for (const listener of listeners) listener()
    })
  })
  const closed = new Promise<Exit>((resolveClose) => {
    child.once('close', (code, signal) => resolveClose(exitInfo ?? { code, signal, at: performance.now() }))
  })
  const cli: CliProcess = {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    closed,
    waitFor(pattern, timeoutMs = START_TIMEOUT_MS) {
      return new Promise((resolveMatch, reject) => {
        const check = (): void => {
          const match = pattern.exec(out)
          if (match !== null) return finish(() => resolveMatch(match))
          if (exitInfo !== undefined) {
            finish(() => reject(new Error(`the CLI exited (${exitInfo?.code ?? exitInfo?.signal}) before printing ${pattern}; stdout:\n${out}\nstderr:\n${err}`)))
          }
        }
        const timer = setTimeout(
          () => finish(() => reject(new Error(`no ${pattern} in the CLI's stdout within ${timeoutMs} ms; stdout:\n${out}\nstderr:\n${err}`))),
          timeoutMs,
        )
        const finish = (settle: () => void): void => {
          clearTimeout(timer)
          listeners.delete(check)
          settle()
        }
        listeners.add(check)
        check()
      })
    },
  }
  all.add(cli)
  if (scope === 'test') perTest.add(cli)
  return cli
}

async function kill(cli: CliProcess): Promise<void> {
  if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL')
  await cli.closed
}

afterEach(async () => {
  await Promise.all([...perTest].map(kill))
  perTest.clear()
})

interface Ran {
  code: number | null
  stdout: string
  stderr: string
}

/** Commands that run to their end, a few at a time: more would only share two cores and time out. */
const RUN_CONCURRENCY = 3
let running = 0
const queued: (() => void)[] = []

/** Runs a command to its end: its exit code and everything it wrote. */
async function run(args: string[], scope: 'test' | 'suite' = 'test', env: Record<string, string> = {}): Promise<Ran> {
  if (running >= RUN_CONCURRENCY) await new Promise<void>((resolveSlot) => queued.push(resolveSlot))
  running += 1
  let timer: NodeJS.Timeout | undefined
  try {
    const cli = spawnCli(args, scope, [], env)
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not exit within ${START_TIMEOUT_MS} ms; stderr:\n${cli.stderr()}`)), START_TIMEOUT_MS)
    })
    const { code } = await Promise.race([cli.closed, timeout])
    return { code, stdout: cli.stdout(), stderr: cli.stderr() }
  } finally {
    clearTimeout(timer)
    running -= 1
    queued.shift()?.()
  }
}

/** The file's temporary directory. */
let dir = ''
/** A small world written by `world generate --seed 7 --size small`, for the world tests to start from. */
let smallWorld = ''
/** Servers of the tests' own, closed after the file. */
const closers: (() => Promise<void>)[] = []
/** Set once the file's tests are done: a command still waiting for its turn then never starts. */
let finished = false

afterAll(async () => {
  finished = true
  for (const wake of queued.splice(0)) wake()
  await Promise.all([...all].map(kill))
  await Promise.all(closers.splice(0).map((close) => close()))
  if (dir !== '') rmSync(dir, { recursive: true, force: true })
  bundled?.remove()
})

/** Starters of the commands that groups of tests prepare, run once the file's setup is done. */
const prepared: (() => void)[] = []

/**
 * Commands a group of tests reads the results of. All groups' commands start together (a few at a
 * time) as soon as the file's setup is done, while the servers' tests run, and each test awaits its
 * own: the file takes the time of its slowest commands, not of all of them in a row. A command's
 * failure is reported by the test that awaits it.
 */
function prepare<K extends string>(commands: Record<K, () => Promise<Ran>>): Record<K, Promise<Ran>> {
  const results = {} as Record<K, Promise<Ran>>
  for (const name of Object.keys(commands) as K[]) {
    const result = new Promise<Ran>((resolveRun, rejectRun) => {
      prepared.push(() => void Promise.resolve().then(commands[name]).then(resolveRun, rejectRun))
    })
    result.catch(ignoreError)
    results[name] = result
  }
  return results
}

/** A command that `prepare` starts: its arguments are read when it starts, after the file's setup. */
function command(args: () => string[]): () => Promise<Ran> {
  return () => run(args(), 'suite')
}

interface Served {
  cli: CliProcess
  /** `http://127.0.0.1:PORT/api/v1`, as the banner prints it. */
  url: string
  origin: string
  port: number
  managementKey: string
  regularKey: string
}

/** Starts `serve` with the arguments and waits for its banner. */
async function serve(args: string[], scope: 'test' | 'suite' = 'test', nodeArgs: string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const cli = spawnCli(['serve', '--port', '0', ...args], scope, nodeArgs, env)
  if (args.includes('json')) {
    const [line = ''] = await cli.waitFor(/^\{"event":"ready".*\n/)
    const ready = JSON.parse(line) as { url: string; port: number; managementKey: string; regularKey: string }
    return { cli, url: ready.url, origin: new URL(ready.url).origin, port: ready.port, managementKey: ready.managementKey, regularKey: ready.regularKey }
  }
  const [, url = '', port = ''] = await cli.waitFor(BANNER_URL)
  // The whole banner is written at once, but a pipe may split it: wait for its last line.
  await cli.waitFor(/^Stop with Ctrl\+C\.$/m)
  const banner = cli.stdout()
  return {
    cli,
    url,
    origin: new URL(url).origin,
    port: Number(port),
    managementKey: /^ {2}management key: (sk-or-v1-\S+)$/m.exec(banner)?.[1] ?? '',
    regularKey: /^ {2}regular key: {4}(sk-or-v1-\S+)$/m.exec(banner)?.[1] ?? '',
  }
}

/** What the command printed after its banner (or its JSON ready line): its request log. */
function logOf(cli: CliProcess): string[] {
  const out = cli.stdout()
  const after = out.startsWith('{"event":"ready"') ? out.slice(out.indexOf('\n') + 1) : (out.split(/^Stop with Ctrl\+C\.\n\n?/m)[1] ?? '')
  return after.split('\n').filter((line) => line !== '')
}

function bearer(secret: string): { authorization: string } {
  return { authorization: `Bearer ${secret}` }
}

/** Whether something accepts a TCP connection on 127.0.0.1:port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolveConnect) => {
    const socket = createConnection({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolveConnect(true)
    })
    socket.once('error', () => resolveConnect(false))
  })
}

function ignoreError(): void {}

/** Its exit, or a failure after `ms`: a process that ignores a signal fails the test then, not at the test's timeout. */
function exitWithin(cli: CliProcess, ms: number): Promise<Exit> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the CLI was still running ${ms} ms after the signal; stderr:\n${cli.stderr()}`)), ms)
  })
  return Promise.race([cli.exited, late]).finally(() => clearTimeout(timer))
}

beforeAll(async () => {
  bundled = await bundleCli()
  dir = mkdtempSync(join(tmpdir(), 'model-access-sim-cli-'))
  smallWorld = join(dir, 'small-7.json')
  const generated = await run(['world', 'generate', '--seed', '7', '--size', 'small', '--out', smallWorld], 'suite')
  expect(generated, generated.stderr).toMatchObject({ code: 0 })
  for (const start of prepared) start()
}, 30_000)

/** Writes a copy of the small world to the path, changed by `spoil`. */
function spoiledWorld(path: string, spoil: (world: any) => void): void {
  const world = JSON.parse(readFileSync(smallWorld, 'utf8')) as unknown
  spoil(world)
  writeFileSync(path, JSON.stringify(world, null, 2))
}

describe('serve, with the default world and the pretty log', () => {
  let server: Served
  beforeAll(async () => {
    server = await serve([], 'suite')
  }, 30_000)

  it('prints a banner with the version, the API URL on the port it listens on, and a key of each kind', async () => {
    const first = server.cli.stdout().split('\n')[0]
    expect(first).toBe(`model-access-sim ${pkg.version}: the model-access API at http://127.0.0.1:${server.port}/api/v1`)
    expect(server.port).toBeGreaterThan(0)
    expect(server.managementKey).toMatch(/^sk-or-v1-[0-9a-f]{64}$/)
    expect(server.regularKey).toMatch(/^sk-or-v1-[0-9a-f]{64}$/)
    expect(server.regularKey).not.toBe(server.managementKey)
    expect(server.cli.stdout()).toContain(`  control API:    ${server.origin}/__sim`)
    expect(await accepts(server.port)).toBe(true)
  })

  it('prints a priced completion to try, which charges its cost and is refused at the key\'s limit the second time', async () => {
    const line = /^ {2}curl -s (\S+\/chat\/completions) -H "Authorization: Bearer (sk-or-v1-\S+)" -H 'content-type: application\/json' -d '(.+)'$/m.exec(server.cli.stdout())
    expect(line, server.cli.stdout()).not.toBeNull()
    const [, url = '', key = '', body = ''] = line ?? []
    const send = () => fetch(url, { method: 'POST', headers: { ...bearer(key), 'content-type': 'application/json' }, body })
    const first = await send()
    expect(first.status).toBe(200)
    const cost = ((await first.json()) as { usage: { cost: number } }).usage.cost
    expect(cost).toBeGreaterThan(0)
    const refused = await send()
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/^Key limit exceeded \(daily limit\)/)
    // Back to the world as loaded, for the other tests of this server.
    expect((await fetch(`${server.origin}/__sim/reset`, { method: 'POST' })).status).toBe(204)
  })

  it('lists keys for the printed management key and refuses the printed regular key with 403', async () => {
    const managed = await fetch(`${server.url}/keys`, { headers: bearer(server.managementKey) })
    expect(managed.status).toBe(200)
    const body = (await managed.json()) as { data: { hash: string }[] }
    expect(Array.isArray(body.data)).toBe(true)
    expect(body.data.length).toBeGreaterThan(0)
    expect(body.data[0]?.hash).toMatch(/^[0-9a-f]{64}$/)

    const regular = await fetch(`${server.url}/keys`, { headers: bearer(server.regularKey) })
    expect(regular.status).toBe(403)
    expect(((await regular.json()) as { error: { code: number } }).error.code).toBe(403)

    const models = await fetch(`${server.url}/videos/models`)
    expect(models.status).toBe(200)
  })

  it('prints a curl line that works as printed', async () => {
    const curl = /^ {2}curl -s (\S+) -H "Authorization: Bearer (\S+)"$/m.exec(server.cli.stdout())
    expect(curl).not.toBeNull()
    const [, url = '', key = ''] = curl ?? []
    expect(url).toBe(`${server.url}/keys`)
    expect(key).toBe(server.managementKey)
    const res = await fetch(url, { headers: bearer(key) })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0)
  })

  it('prints one pretty log line per request: time, method, path, status, operation and duration', async () => {
    await (await fetch(`${server.url}/keys?offset=0`, { headers: bearer(server.managementKey) })).arrayBuffer()
    await (await fetch(`${server.url}/keys?offset=1`, { headers: bearer(server.regularKey) })).arrayBuffer()
    const health = await fetch(`${server.origin}/__sim/health`)
    expect(await health.json()).toEqual({ status: 'ok' })
    await (await fetch(`${server.origin}/nowhere`)).arrayBuffer()
    await server.cli.waitFor(/ GET \/nowhere 404 /, 5_000)

    // Other tests' requests are logged too; these are the lines of this test's four.
    const lines = logOf(server.cli).filter((entry) => / (\/api\/v1\/keys\?offset=\d|\/__sim\/health|\/nowhere) /.test(entry))
    expect(lines).toHaveLength(4)
    const line = /^(\S+) (\S+) (\S+) (\S+) (\S+) (\d+(?:\.\d)?)ms$/
    const fields = lines.map((entry) => line.exec(entry)?.slice(1, 6))
    expect(fields).toEqual([
      [expect.any(String), 'GET', '/api/v1/keys?offset=0', '200', 'listKeys'],
      [expect.any(String), 'GET', '/api/v1/keys?offset=1', '403', 'listKeys'],
      [expect.any(String), 'GET', '/__sim/health', '200', 'control'],
      [expect.any(String), 'GET', '/nowhere', '404', '-'],
    ])
    for (const entry of fields) expect(Number.isNaN(Date.parse(entry?.[0] ?? ''))).toBe(false)
  })

  it('serves a world exported after changes through the control API with the same answers, from a file', async () => {
    const control = `${server.origin}/__sim`
    const listKeys = async (base: string): Promise<{ status: number; text: string }> => {
      const res = await fetch(`${base}/keys`, { headers: bearer(server.managementKey) })
      return { status: res.status, text: await res.text() }
    }
    const before = await listKeys(server.url)
    const handles = (await (await fetch(`${control}/world`)).json()) as { userId: string; apiKeyHash: string }

    const advanced = await fetch(`${control}/clock/advance`, { method: 'POST', body: JSON.stringify({ ms: 86_400_000 }), headers: JSON_TYPE })
    expect(advanced.status).toBe(200)
    const { now } = (await advanced.json()) as { now: string }
    const usage = await fetch(`${control}/usage`, { method: 'POST', body: JSON.stringify({ keyHash: handles.apiKeyHash, cost: 1.25 }), headers: JSON_TYPE })
    expect(usage.status).toBe(200)
    const created = await fetch(`${control}/keys`, { method: 'POST', body: JSON.stringify({ userId: handles.userId, name: 'Made over HTTP' }), headers: JSON_TYPE })
    expect(created.status).toBe(201)
    const after = await listKeys(server.url)
    expect(after.status).toBe(200)
    expect(after.text).not.toBe(before.text)
    expect(after.text).toContain('Made over HTTP')

    const exported = await fetch(`${control}/world/export`)
    expect(exported.status).toBe(200)
    const file = join(dir, 'exported.json')
    writeFileSync(file, await exported.text())

    const again = await serve(['--world', file])
    expect(again.managementKey).toBe(server.managementKey)
    expect(((await (await fetch(`${again.origin}/__sim/clock`)).json()) as { now: string }).now).toBe(now)
    const reloaded = await listKeys(again.url)
    expect(reloaded.status).toBe(200)
    expect(reloaded.text).toBe(after.text)
  })

  it('stops on SIGINT with exit code 0 within 2 seconds, and then refuses connections', async () => {
    // A kept-alive connection must not hold the server open.
    await (await fetch(`${server.url}/keys`, { headers: bearer(server.managementKey) })).arrayBuffer()
    const sent = performance.now()
    expect(server.cli.child.kill('SIGINT')).toBe(true)
    const exit = await exitWithin(server.cli, 5_000)
    expect(exit.at - sent).toBeLessThan(2_000)
    expect(exit).toMatchObject({ code: 0, signal: null })
    expect(await accepts(server.port)).toBe(false)
    await server.cli.closed
    expect(server.cli.stderr()).toBe('')
  })
})

describe('serve, a world whose handles name a disabled management key', () => {
  it('prints a management key that works: the first usable one of the world, not the disabled handle', async () => {
    const file = join(dir, 'disabled-admin.json')
    let handle = ''
    spoiledWorld(file, (world) => {
      handle = world.handles.managementKey
      const key = world.keys.find((k: { secret: string }) => k.secret === handle)
      key.disabled = true
    })
    const served = await serve(['--world', file, '--log', 'off'])
    expect(served.managementKey).not.toBe(handle)
    expect(served.managementKey).toMatch(/^sk-or-v1-/)
    expect((await fetch(`${served.url}/keys`, { headers: bearer(served.managementKey) })).status).toBe(200)
    expect((await fetch(`${served.url}/keys`, { headers: bearer(handle) })).status).toBe(401)
  })
})

describe('serve --log json', () => {
  let server: Served
  let readyFile = ''
  beforeAll(async () => {
    readyFile = join(dir, 'ready.json')
    writeFileSync(readyFile, '{"event":"ready","stale":"from an earlier run"}\n')
    server = await serve(['--log', 'json', '--ready-file', readyFile], 'suite')
  }, 30_000)

  it('prints a JSON ready line first, with the URL, the control URL, usable keys and the world handles, and writes it to --ready-file', async () => {
    const [first = ''] = server.cli.stdout().split('\n')
    const ready = JSON.parse(first) as Record<string, any>
    expect(Object.keys(ready).sort()).toEqual(['clock', 'controlUrl', 'event', 'handles', 'managementKey', 'pid', 'port', 'regularKey', 'url', 'version'])
    expect(ready).toMatchObject({
      event: 'ready',
      version: pkg.version,
      pid: server.cli.child.pid,
      url: `http://127.0.0.1:${server.port}/api/v1`,
      controlUrl: `http://127.0.0.1:${server.port}/__sim`,
      port: server.port,
      clock: { now: '2026-03-02T10:00:00.000Z', mode: 'virtual' },
    })
    const handles = await (await fetch(`${ready['controlUrl']}/world`)).json()
    expect(ready['handles']).toEqual(handles)
    expect(ready['managementKey']).toBe(handles.managementKey)
    expect(ready['regularKey']).toBe(handles.apiKey)
    expect((await fetch(`${ready['url']}/keys`, { headers: bearer(ready['managementKey']) })).status).toBe(200)
    // The file holds the same object, the stale one replaced; stdout holds no prose.
    expect(readFileSync(readyFile, 'utf8')).toBe(`${first}\n`)
    expect(server.cli.stdout()).not.toContain('Stop with Ctrl+C')
    // The next test reads the log from here on: its lines for these requests must be in first.
    await server.cli.waitFor(/"path":"\/api\/v1\/keys".*\n/, 5_000)
  })

  it('prints one JSON object per request with time, method, path, status, operation and ms', async () => {
    const earlier = logOf(server.cli).length
    await (await fetch(`${server.url}/keys`, { headers: bearer(server.managementKey) })).arrayBuffer()
    await (await fetch(`${server.url}/videos/models`)).arrayBuffer()
    await (await fetch(`${server.origin}/__sim/clock/advance`, { method: 'POST', body: '{"ms":1000}', headers: JSON_TYPE })).arrayBuffer()
    await server.cli.waitFor(/"path":"\/__sim\/clock\/advance"/, 5_000)

    const entries = logOf(server.cli)
      .slice(earlier)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(entries.map(({ method, path, status, operation }) => ({ method, path, status, operation }))).toEqual([
      { method: 'GET', path: '/api/v1/keys', status: 200, operation: 'listKeys' },
      { method: 'GET', path: '/api/v1/videos/models', status: 200, operation: 'listVideoModels' },
      { method: 'POST', path: '/__sim/clock/advance', status: 200, operation: 'control' },
    ])
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual(['method', 'ms', 'operation', 'path', 'status', 'time'])
      expect(typeof entry['time']).toBe('string')
      expect(new Date(entry['time'] as string).toISOString()).toBe(entry['time'])
      expect(typeof entry['ms']).toBe('number')
      expect(entry['ms']).toBeGreaterThanOrEqual(0)
    }
  })

  it('stops on SIGTERM with exit code 0 within 2 seconds, and then refuses connections', async () => {
    await (await fetch(`${server.url}/keys`, { headers: bearer(server.managementKey) })).arrayBuffer()
    const sent = performance.now()
    expect(server.cli.child.kill('SIGTERM')).toBe(true)
    const exit = await exitWithin(server.cli, 5_000)
    expect(exit.at - sent).toBeLessThan(2_000)
    expect(exit).toMatchObject({ code: 0, signal: null })
    expect(await accepts(server.port)).toBe(false)
    // A script that waits for the file must not find the last run's.
    expect(existsSync(readyFile)).toBe(false)
  })
})

describe('serve, stopping while large answers are written', { timeout: 60_000 }, () => {
  it('exits within 2 seconds of SIGTERM while clients that read nothing hold 40 MiB downloads and the journal', async () => {
    const server = await serve(['--log', 'off'])
    const post = async (path: string, body: unknown): Promise<any> => {
      const res = await fetch(`${server.origin}/__sim${path}`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(body) })
      expect(res.status, path).toBe(201)
      return res.json()
    }
    const user = await post('/users', { name: 'Big files' })
    await post('/files', { userId: user.id, id: 'file_big', origin: 'server', base64: Buffer.alloc(40 * 1024 * 1024, 7).toString('base64') })
    const stalled = (text: string): void => {
      const socket = createConnection({ host: '127.0.0.1', port: server.port })
      socket.pause()
      socket.on('error', ignoreError)
      socket.write(text)
    }
    for (let i = 0; i < 8; i++) {
      stalled(`GET /api/v1/files/file_big/content HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${server.managementKey}\r\n\r\n`)
    }
    stalled('GET /__sim/journal HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n')
    await new Promise((wait) => setTimeout(wait, 1_000))
    const sent = performance.now()
    server.cli.child.kill('SIGTERM')
    const exit = await exitWithin(server.cli, 10_000)
    expect(exit.at - sent).toBeLessThan(2_000)
    expect(exit.code).toBe(0)
    expect(await accepts(server.port)).toBe(false)
  })
})

describe('serve --host 0.0.0.0 (bound to 127.0.0.1 underneath: tests stay on loopback)', () => {
  it('warns on stderr, serves the operations, and keeps the control API off without a token', async () => {
    const server = await serve(['--host', '0.0.0.0'], 'test', ['--import', LOOPBACK_ONLY])
    expect(server.cli.stdout()).toContain('  control API:    off (bound beyond loopback without --control-token)')
    await vi.waitFor(() => expect(server.cli.stderr()).toMatch(/MODEL_ACCESS_SIM_EXPOSED.*bound to 0\.0\.0\.0, which other machines may reach/))
    const exported = await fetch(`${server.origin}/__sim/world/export`)
    expect(exported.status).toBe(403)
    expect(await exported.text()).not.toContain('sk-or-v1-')
    expect((await fetch(`${server.url}/keys`, { headers: bearer(server.managementKey) })).status).toBe(200)
  })

  it('answers control requests that carry the token given with --control-token', async () => {
    const token = 'cli-control-token-0123456789abcdef'
    const server = await serve(['--host', '0.0.0.0', '--log', 'json', '--control-token', token], 'test', ['--import', LOOPBACK_ONLY])
    expect((await fetch(`${server.origin}/__sim/health`)).status).toBe(401)
    expect((await fetch(`${server.origin}/__sim/health`, { headers: bearer(token) })).status).toBe(200)
  })

  it('takes the token from MODEL_ACCESS_SIM_CONTROL_TOKEN, which keeps it out of the process list', async () => {
    const token = 'env-control-token-0123456789abcdef'
    const server = await serve(['--log', 'json'], 'test', [], { MODEL_ACCESS_SIM_CONTROL_TOKEN: token })
    expect((await fetch(`${server.origin}/__sim/health`)).status).toBe(401)
    expect((await fetch(`${server.origin}/__sim/health`, { headers: bearer(token) })).status).toBe(200)
  })

  it('refuses a token too short to be one, naming the flag', async () => {
    const result = await run(['serve', '--port', '0', '--control-token', 'short'])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^model-access-sim: --control-token must be at least 16 printable characters/)
  })

  it('refuses a token too short from the environment, naming the variable it came from', async () => {
    const result = await run(['serve', '--port', '0'], 'test', { MODEL_ACCESS_SIM_CONTROL_TOKEN: 'short' })
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^model-access-sim: MODEL_ACCESS_SIM_CONTROL_TOKEN must be at least 16 printable characters/)
  })
})

describe('serve --log off --no-control', () => {
  it('serves no control API and prints no request log', async () => {
    const server = await serve(['--log', 'off', '--no-control'])
    expect(server.cli.stdout()).toContain('  control API:    off')
    const health = await fetch(`${server.origin}/__sim/health`)
    expect(health.status).toBe(404)
    await health.arrayBuffer()
    const keys = await fetch(`${server.url}/keys`, { headers: bearer(server.managementKey) })
    expect(keys.status).toBe(200)
    await keys.arrayBuffer()

    // Everything it wrote is in once it has exited: nothing after the banner.
    server.cli.child.kill('SIGTERM')
    expect(await server.cli.closed).toMatchObject({ code: 0 })
    expect(server.cli.stdout()).toMatch(/Stop with Ctrl\+C\.\n\n?$/)
    expect(logOf(server.cli)).toEqual([])
  })
})

describe('serve --no-cors', () => {
  it('answers a page\'s preflight by default, and with the flag sends no CORS header at all', async () => {
    const preflight = (served: Served) =>
      fetch(`${served.url}/chat/completions`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
      })
    const open = await preflight(await serve(['--log', 'off']))
    expect(open.status).toBe(204)
    expect(open.headers.get('access-control-allow-origin')).toBe('*')
    expect(open.headers.get('access-control-allow-headers')).toBe('authorization,content-type')

    const closed = await serve(['--log', 'off', '--no-cors'])
    const refused = await preflight(closed)
    expect(refused.status).toBe(404)
    await refused.arrayBuffer()
    expect([...refused.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([])
    const keys = await fetch(`${closed.url}/keys`, { headers: { ...bearer(closed.managementKey), origin: 'http://localhost:5173' } })
    expect(keys.status).toBe(200)
    await keys.arrayBuffer()
    expect(keys.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('serve --strict-requests', () => {
  it('refuses an inference request with an unknown field, naming it; without the flag it is accepted and journaled', async () => {
    const chat = async (served: Served, extra: object) => {
      const ready = JSON.parse(served.cli.stdout().split('\n')[0] ?? '') as { url: string; regularKey: string; handles: { models: { paid: string } } }
      const res = await fetch(`${ready.url}/chat/completions`, {
        method: 'POST',
        headers: { ...bearer(ready.regularKey), 'content-type': 'application/json' },
        body: JSON.stringify({ model: ready.handles.models.paid, messages: [{ role: 'user', content: 'Hi' }], ...extra }),
      })
      return { status: res.status, body: (await res.json()) as { error?: { message: string; metadata: { parameter: string } } } }
    }
    const strict = await serve(['--log', 'json', '--strict-requests'])
    const refused = await chat(strict, { temprature: 0.2 })
    expect(refused.status).toBe(400)
    expect(refused.body.error?.metadata.parameter).toBe('temprature')
    expect(refused.body.error?.message).toMatch(/^Invalid request parameters: temprature is not a field of this request/)

    const lenient = await serve(['--log', 'json'])
    expect((await chat(lenient, { temprature: 0.2 })).status).toBe(200)
    const journal = (await (await fetch(`${lenient.origin}/__sim/journal?hasIgnoredFields=true&bodies=false`)).json()) as { data: { ignoredFields: string[] }[] }
    expect(journal.data.map((e) => e.ignoredFields)).toEqual([['temprature']])
  })
})

describe('serve --tool-rounds', () => {
  it('passes --tool-rounds on: 0 answers text to tools with tool choice auto, the default a call', async () => {
    const call = async (served: Served) => {
      const ready = JSON.parse(served.cli.stdout().split('\n')[0] ?? '') as { url: string; regularKey: string; handles: { models: { paid: string } } }
      const res = await fetch(`${ready.url}/chat/completions`, {
        method: 'POST',
        headers: { ...bearer(ready.regularKey), 'content-type': 'application/json' },
        body: JSON.stringify({ model: ready.handles.models.paid, messages: [{ role: 'user', content: 'Hi' }], tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] }),
      })
      return ((await res.json()) as { choices: { finish_reason: string }[] }).choices[0]?.finish_reason
    }
    expect(await call(await serve(['--log', 'json', '--tool-rounds', '0']))).toBe('stop')
    expect(await call(await serve(['--log', 'json']))).toBe('tool_calls')
  })
})

describe('serve --journal-bytes', () => {
  it('passes --journal-bytes on: the oldest entries go once the bytes pass it', async () => {
    // Each GET /videos/models entry counts 256 + its path (14): two fit in 600, not three.
    const served = await serve(['--log', 'off', '--journal-bytes', '600'])
    for (let i = 0; i < 4; i++) expect((await fetch(`${served.url}/videos/models`)).status).toBe(200)
    const journal = (await (await fetch(`${served.origin}/__sim/journal?bodies=false`)).json()) as { data: { seq: number }[] }
    expect(journal.data.map((e) => e.seq)).toEqual([3, 4])
  })
})

describe('serve, refusing to start', { timeout: 60_000 }, () => {
  let blocked = 0
  const connections: number[] = []
  const badField = (): string => join(dir, 'bad-limit.json')
  const notJson = (): string => join(dir, 'not-json.json')
  const missing = (): string => join(dir, 'no-such-world.json')
  const results = prepare({
    portInUse: async () => {
      const own = createNetServer((socket) => {
        connections.push(Date.now())
        socket.destroy()
      })
      closers.push(() => new Promise<void>((resolveClose) => own.close(() => resolveClose())))
      await new Promise<void>((resolveListen) => own.listen(0, '127.0.0.1', resolveListen))
      blocked = (own.address() as AddressInfo).port
      return run(['serve', '--port', String(blocked)], 'suite')
    },
    badField: command(() => {
      spoiledWorld(badField(), (world) => {
        world.keys[0].limit = -1
      })
      return ['serve', '--world', badField(), '--port', '0']
    }),
    notJson: command(() => {
      writeFileSync(notJson(), '{ "format": "model-access-sim/world@1", ')
      return ['serve', '--world', notJson(), '--port', '0']
    }),
    missing: command(() => ['serve', '--world', missing(), '--port', '0']),
    port: command(() => ['serve', '--port', '70000']),
    clock: command(() => ['serve', '--port', '0', '--clock', 'sometimes']),
    rateLimit: command(() => ['serve', '--port', '0', '--rate-limit', '10']),
    zeroRateLimit: command(() => ['serve', '--port', '0', '--rate-limit', '0/1s']),
    log: command(() => ['serve', '--port', '0', '--log', 'loud']),
    now: command(() => ['serve', '--port', '0', '--now', 'yesterday']),
    journalBytes: command(() => ['serve', '--port', '0', '--journal-bytes', '1.5']),
    toolRounds: command(() => ['serve', '--port', '0', '--tool-rounds', 'many']),
    // parseArgs reads a negative number after a flag as a flag of its own.
    negativePort: command(() => ['serve', '--port', '-1']),
    negativeJournal: command(() => ['serve', '--port', '0', '--journal-limit', '-3']),
  })

  /** The one line a failed start writes to stderr; fails the test when there is not exactly one. */
  function oneLine(result: Ran): string {
    const lines = result.stderr.split('\n').filter((line) => line !== '')
    expect(lines, result.stderr).toHaveLength(1)
    expect(lines[0]).toMatch(/^model-access-sim: /)
    return lines[0] ?? ''
  }

  it('exits 1 on a port in use, naming the port on one line of stderr, and leaves only the other listener', async () => {
    const result = await results.portInUse
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    const line = oneLine(result)
    expect(line).toContain(`port ${blocked}`)
    expect(line).toContain('in use')
    // The port still accepts connections, and it is our own server that accepts them.
    expect(await accepts(blocked)).toBe(true)
    await new Promise((resolveWait) => setTimeout(resolveWait, 50))
    expect(connections).toHaveLength(1)
  })

  it('exits 1 on a world file with a bad field, naming the file and the JSON path of the field', async () => {
    const result = await results.badField
    expect(result.code).toBe(1)
    expect(result.stdout).not.toMatch(BANNER_URL)
    const line = oneLine(result)
    expect(line).toContain(badField())
    expect(line).toContain('world.keys[0].limit')
  })

  it('exits 1 on a world file that is not JSON, naming the file', async () => {
    const result = await results.notJson
    expect(result.code).toBe(1)
    expect(result.stdout).not.toMatch(BANNER_URL)
    const line = oneLine(result)
    expect(line).toContain(notJson())
    expect(line).toContain('not JSON')
  })

  it('exits 1 on a world file that does not exist, naming the file', async () => {
    const result = await results.missing
    expect(result.code).toBe(1)
    expect(result.stdout).not.toMatch(BANNER_URL)
    expect(oneLine(result)).toContain(missing())
  })

  it.each([
    ['--port', '70000', 'port'],
    ['--clock', 'sometimes', 'clock'],
    ['--rate-limit', '10', 'rateLimit'],
    ['--rate-limit', '0/1s', 'zeroRateLimit'],
    ['--log', 'loud', 'log'],
    ['--now', 'yesterday', 'now'],
    ['--journal-bytes', '1.5', 'journalBytes'],
    ['--tool-rounds', 'many', 'toolRounds'],
    ['--port', '-1', 'negativePort'],
    ['--journal-limit', '-3', 'negativeJournal'],
  ] as const)('exits 1 on the bad value %s %s, with one line naming the flag and the value', async (flag, value, name) => {
    const result = await results[name]
    expect(result.code).toBe(1)
    expect(result.stdout).not.toMatch(BANNER_URL)
    const line = oneLine(result)
    expect(line).toContain(flag)
    expect(line).toContain(JSON.stringify(value))
  })

  it('says what is wrong with a rate limit of the right shape: no requests at all', async () => {
    expect(oneLine(await results.zeroRateLimit)).toMatch(/--rate-limit needs at least 1 request per interval, got "0\/1s" \(leave the flag out for no rate limit\)$/)
  })
})

describe('usage', { timeout: 60_000 }, () => {
  const HELP = {
    main: ['--help'],
    serve: ['serve', '--help'],
    world: ['world', '--help'],
    generate: ['world', 'generate', '--help'],
    check: ['world', 'check', '-h'],
  } as const
  const results = prepare({
    main: command(() => [...HELP.main]),
    serve: command(() => [...HELP.serve]),
    world: command(() => [...HELP.world]),
    generate: command(() => [...HELP.generate]),
    check: command(() => [...HELP.check]),
    version: command(() => ['--version']),
    versionShort: command(() => ['-v']),
    unknownFlag: command(() => ['serve', '--bogus']),
    unknownCommand: command(() => ['launch']),
  })

  it.each([
    ['main', 'Commands:'],
    ['serve', '--rate-limit R/I'],
    ['serve', '--strict-requests'],
    ['serve', '--journal-bytes N'],
    ['serve', '--tool-rounds N'],
    ['world', 'world check PATH'],
    ['generate', '--size SIZE'],
    ['check', 'Lists every problem'],
  ] as const)('prints the %s usage for --help or -h on stdout, and exits 0', async (name, text) => {
    const result = await results[name]
    expect(result.code, HELP[name].join(' ')).toBe(0)
    expect(result.stdout).toMatch(/^Usage: model-access-sim/)
    expect(result.stdout).toContain(text)
    expect(result.stderr).toBe('')
  })

  it('prints the version of package.json for --version and -v', async () => {
    expect(await results.version).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' })
    expect(await results.versionShort).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' })
  })

  it('exits 2 on an unknown flag, with the message and the command\'s usage on stderr', async () => {
    const result = await results.unknownFlag
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^model-access-sim: .*--bogus/)
    expect(result.stderr).toContain('Usage: model-access-sim serve [options]')
  })

  it('exits 2 on an unknown command, with the message and the usage on stderr', async () => {
    const result = await results.unknownCommand
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^model-access-sim: unknown command "launch"/)
    expect(result.stderr).toContain('Usage: model-access-sim <command>')
  })
})

describe('world generate and world check', { timeout: 60_000 }, () => {
  const again = (): string => join(dir, 'small-7-again.json')
  const results = prepare({
    again: command(() => ['world', 'generate', '--seed', '7', '--size', 'small', '--out', again()]),
    stdout: command(() => ['world', 'generate', '--seed', '7', '--size', 'small']),
    valid: command(() => ['world', 'check', smallWorld]),
    spoiled: command(() => {
      const spoiled = join(dir, 'two-problems.json')
      spoiledWorld(spoiled, (world) => {
        world.keys[3].userId = 'user_nobody'
        world.models[1].id = 'not a model id'
      })
      return ['world', 'check', spoiled]
    }),
  })

  it('writes the same bytes for the same seed, to a file or to standard output', async () => {
    const written = await results.again
    expect(written.code).toBe(0)
    expect(written.stdout).toBe('')
    expect(written.stderr).toContain(again())
    const first = readFileSync(smallWorld)
    expect(readFileSync(again()).equals(first)).toBe(true)

    const printed = await results.stdout
    expect(printed.code).toBe(0)
    expect(printed.stdout).toBe(first.toString('utf8'))
    const spec = JSON.parse(printed.stdout) as { format: string; users: unknown[]; keys: unknown[] }
    expect(spec.format).toBe('model-access-sim/world@1')
    expect(spec.users).toHaveLength(2)
    expect(spec.keys).toHaveLength(12)

  })

  it('checks a generated world as valid, with its counts', async () => {
    const result = await results.valid
    expect(result.code).toBe(0)
    expect(result.stderr).toBe('')
    expect(result.stdout.startsWith(`${smallWorld}: a valid world: 2 users, `)).toBe(true)
    expect(result.stdout).toMatch(/ 12 keys, /)
    expect(result.stdout.split('\n').filter((line) => line !== '')).toHaveLength(1)
  })

  it('lists every problem of a spoiled world with its path, and exits 1', async () => {
    const result = await results.spoiled
    expect(result.code).toBe(1)
    const lines = result.stdout.split('\n').filter((line) => line !== '')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^world\.keys\[3\]\.userId: .*user_nobody/)
    expect(lines[1]).toMatch(/^world\.models\[1\]\.id: .*not a model id/)
    expect(result.stdout).not.toContain('a valid world')
    expect(result.stderr).toMatch(/^model-access-sim: .*2 problems\n$/)
  })
})
