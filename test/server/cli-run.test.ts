// The `model-access-sim` command in process: runCli with a recording CliIo (its streams, environment,
// signals, launcher and exit), so that every rule of the command is reached without a child process.
// test/server/cli.test.ts runs the same command as a user does, as a process; this file is what
// mutation testing runs against src/server/cli.ts (decisions/0058).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { type AddressInfo, createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import pkg from '../../package.json' with { type: 'json' }
import { createSimulator, validateWorld } from '../../src/index.js'
import { generateWorld } from '../../src/fixtures/index.js'
import { type CliIo, runCli } from '../../src/server/cli.js'
import type { Launcher } from '../../src/server/launcher.js'
import { type Recorder, recorder } from '../support/cli-io.js'
import { useHttpServer, useWildcardBindOnLoopback } from '../support/server.js'

interface Ran {
  code: number
  stdout: string
  stderr: string
}

/** Runs a command to its end. */
async function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const r = recorder({ env })
  const code = await runCli(args, r.io)
  return { code, stdout: r.stdout(), stderr: r.stderr() }
}

interface Served {
  r: Recorder
  /** The exit code, once it has stopped. */
  done: Promise<number>
  /** The banner, or the JSON ready line with `--log json`. */
  first: string
  url: string
  origin: string
  /** Signals it and waits for its exit code. */
  stop(): Promise<number>
}

const running = new Set<Served>()

/** Starts `serve --port 0` with the arguments and waits for its first output. */
async function serve(args: string[], options: { env?: Record<string, string>; launcher?: Launcher } = {}): Promise<Served> {
  const r = recorder(options)
  const done = runCli(['serve', '--port', '0', ...args], r.io)
  const code = await Promise.race([r.written.then(() => undefined), done])
  if (code !== undefined) throw new Error(`serve exited ${code} before its first output; stderr:\n${r.stderr()}`)
  const first = r.stdout()
  const url = first.startsWith('{') ? (JSON.parse(first) as { url: string }).url : (/ the model-access API at (\S+)$/m.exec(first)?.[1] ?? '')
  const served: Served = {
    r,
    done,
    first,
    url,
    origin: new URL(url).origin,
    stop: () => {
      r.signal()
      return done
    },
  }
  running.add(served)
  void done.then(() => running.delete(served))
  return served
}

afterEach(async () => {
  vi.useRealTimers()
  await Promise.all([...running].map((served) => served.stop()))
})

let dir = ''
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'model-access-sim-cli-run-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The small generated world of seed 7, changed by `change`, written to a file of its own. */
let worlds = 0
function worldFile(change: (world: any) => void = () => {}): { path: string; world: any } {
  const world = JSON.parse(JSON.stringify(generateWorld({ seed: 7, size: 'small' }))) as any
  change(world)
  const path = join(dir, `world-${++worlds}.json`)
  writeFileSync(path, JSON.stringify(world))
  return { path, world }
}

function lines(text: string): string[] {
  return text.split('\n')
}

const bearer = (secret: string): { authorization: string } => ({ authorization: `Bearer ${secret}` })

describe('usage and dispatch', () => {
  it('prints the main usage for no command, -h and --help, on stdout, and exits 0', async () => {
    for (const args of [[], ['-h'], ['--help']]) {
      const result = await cli(args)
      expect(result.code, args.join(' ')).toBe(0)
      expect(result.stdout).toMatch(/^Usage: model-access-sim <command> \[options\]\n\nCommands:\n {2}serve /)
      expect(result.stdout.endsWith('show the version\n')).toBe(true)
      expect(result.stderr).toBe('')
    }
  })

  it('prints the version for -v and --version', async () => {
    for (const args of [['-v'], ['--version']]) expect(await cli(args)).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' })
  })

  it.each([
    [['serve', '--help'], 'Usage: model-access-sim serve [options]'],
    [['serve', '-h'], 'Usage: model-access-sim serve [options]'],
    [['world'], 'Usage: model-access-sim world generate --seed N'],
    [['world', '-h'], 'Usage: model-access-sim world generate --seed N'],
    [['world', '--help'], 'Usage: model-access-sim world generate --seed N'],
    [['world', 'generate', '--help'], 'Writes generateWorld({ seed, size }) as JSON'],
    [['world', 'check', '--help'], 'Lists every problem of the world spec in PATH'],
    [['import', '--help'], 'Reads an account from a live service, with GETs only'],
    [['check', '--help'], 'Runs the simulator\'s rules against a live service'],
  ])('%j prints its usage on stdout and exits 0', async (args, text) => {
    const result = await cli(args)
    expect(result).toMatchObject({ code: 0, stderr: '' })
    expect(result.stdout).toContain(text)
  })

  it('exits 2 on an unknown command, an unknown world command and an unknown flag, with the message and the usage on stderr', async () => {
    expect(await cli(['launch'])).toEqual({ code: 2, stdout: '', stderr: expect.stringMatching(/^model-access-sim: unknown command "launch"\n\nUsage: model-access-sim <command> \[options\]\n/) })
    expect(await cli(['world', 'make'])).toEqual({ code: 2, stdout: '', stderr: expect.stringMatching(/^model-access-sim: unknown world command "make"\n\nUsage: model-access-sim world generate/) })
    const flag = await cli(['serve', '--bogus'])
    expect(flag.code).toBe(2)
    expect(flag.stderr).toMatch(/^model-access-sim: Unknown option '--bogus'.*\n\nUsage: model-access-sim serve \[options\]\n/)
    const value = await cli(['world', 'generate', '--seed'])
    expect(value.code).toBe(2)
    expect(value.stderr).toMatch(/^model-access-sim: Option '--seed <value>' argument missing\n\nUsage: model-access-sim world generate/)
  })

  it('exits 2 on an argument the command does not take, naming it', async () => {
    const { path } = worldFile()
    const result = await cli(['world', 'check', path, 'extra'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^model-access-sim: unexpected argument "extra"\n\nUsage: model-access-sim world check PATH\n/)
  })

  it('reports a failure it did not foresee with its stack, and exits 1', async () => {
    const io: CliIo = {
      ...recorder().io,
      stdout: () => {
        throw new Error('the terminal went away')
      },
    }
    let err = ''
    io.stderr = (text) => {
      err += text
    }
    expect(await runCli(['--version'], io)).toBe(1)
    expect(err).toMatch(/^model-access-sim: unexpected failure: Error: the terminal went away\n {4}at /)
    const thrown: CliIo = {
      ...io,
      stdout: () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error
        throw 'a string'
      },
    }
    err = ''
    expect(await runCli(['--version'], thrown)).toBe(1)
    expect(err).toBe('model-access-sim: unexpected failure: a string\n')
  })
})

describe('serve: its flags', () => {
  it.each([
    [['--port', '70000'], '--port must be an integer from 0 to 65535, got "70000"'],
    [['--port=-1'], '--port must be an integer from 0 to 65535, got "-1"'],
    [['--port', '1e3'], '--port must be an integer from 0 to 65535, got "1e3"'],
    [['--port', ' 80'], '--port must be an integer from 0 to 65535, got " 80"'],
    [['--port', '80 '], '--port must be an integer from 0 to 65535, got "80 "'],
    [['--port', '0x50'], '--port must be an integer from 0 to 65535, got "0x50"'],
    [['--seed', '9007199254740992'], '--seed must be an integer from -9007199254740991 to 9007199254740991, got "9007199254740992"'],
    [['--seed=-9007199254740992'], '--seed must be an integer from -9007199254740991 to 9007199254740991, got "-9007199254740992"'],
    [['--journal-limit=-1'], '--journal-limit must be an integer from 0 to 9007199254740991, got "-1"'],
    [['--journal-bytes', '1.5'], '--journal-bytes must be an integer from 0 to 9007199254740991, got "1.5"'],
    [['--tool-rounds', 'many'], '--tool-rounds must be an integer from 0 to 9007199254740991, got "many"'],
    [['--clock', 'sometimes'], '--clock must be one of virtual, real, got "sometimes"'],
    [['--log', 'loud'], '--log must be one of pretty, json, off, got "loud"'],
    ...['10', '10/1d', 'x10/1s', '10/1sx'].map((value) => [
      ['--rate-limit', value],
      `--rate-limit must be REQUESTS/INTERVAL with a unit (ms, s, m, h), such as 60/1m, got "${value}"`,
    ]),
    // The right shape, a value that is not: the message names the half that is wrong.
    [['--rate-limit', '0/1s'], '--rate-limit needs at least 1 request per interval, got "0/1s" (leave the flag out for no rate limit)'],
    [['--rate-limit', '99999999999999999/1s'], '--rate-limit takes at most 9007199254740991 requests per interval, got "99999999999999999/1s"'],
    ...['10/0s', '10/0.5ms'].map((value) => [['--rate-limit', value], `--rate-limit needs an interval of a whole number of milliseconds, at least 1ms, got "${value}"`]),
    [['--now', 'yesterday'], '--now must be an ISO 8601 instant with a time and an offset, such as 2026-03-02T10:00:00Z, got "yesterday"'],
    [['--control-token', 'short'], '--control-token must be at least 16 printable characters without spaces (a header value), such as the output of `openssl rand -hex 16`.'],
  ])('%j: exits 1 with one line naming the flag and the value', async (args, message) => {
    expect(await cli(['serve', '--port', '0', ...args])).toEqual({ code: 1, stdout: '', stderr: `model-access-sim: ${message}\n` })
  })

  it('takes the bounds of each range: seeds at the safe integers, any journal size, a port of 0', async () => {
    for (const args of [
      ['--seed', '9007199254740991', '--journal-limit', '9007199254740991'],
      ['--seed=-9007199254740991', '--journal-limit', '0', '--journal-bytes', '0', '--tool-rounds', '0'],
    ]) {
      const served = await serve(['--log', 'json', '--world', 'empty', ...args])
      expect(JSON.parse(served.first)).toMatchObject({ event: 'ready' })
      expect(await served.stop()).toBe(0)
    }
  })

  it('passes --seed on: the same seed makes the same keys, another seed others', async () => {
    const created = async (seed: string): Promise<string> => {
      const served = await serve(['--log', 'json', '--seed', seed])
      const handles = (JSON.parse(served.first) as { handles: { userId: string } }).handles
      const res = await fetch(`${served.origin}/__sim/keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userId: handles.userId }) })
      const body = (await res.json()) as { hash: string }
      await served.stop()
      return body.hash
    }
    const first = await created('5')
    expect(await created('5')).toBe(first)
    expect(await created('6')).not.toBe(first)
    expect(await created('42')).toBe(await created('42'))
  })

  it('passes --now and --clock on, to the banner and the ready line', async () => {
    const pretty = await serve(['--now', '2026-05-01T08:30:00Z', '--world', 'empty'])
    expect(lines(pretty.first)).toContain('  clock: 2026-05-01T08:30:00.000Z (virtual)')
    const real = await serve(['--now', '2026-05-01T08:30:00Z', '--clock', 'real', '--world', 'empty', '--log', 'json'])
    expect(JSON.parse(real.first).clock.mode).toBe('real')
    const json = await serve(['--log', 'json', '--world', 'empty'])
    expect(JSON.parse(json.first).clock).toEqual({ now: '2026-03-02T10:00:00.000Z', mode: 'virtual' })
  })

  it('passes --rate-limit on: R requests per interval I, then 429 with the seconds to wait', async () => {
    for (const [limit, requests, retryAfter] of [
      ['1/1h', 1, '3601'],
      ['2/1m', 2, '30'],
      ['1/90s', 1, '90'],
      ['3/1s', 3, '1'],
      ['12/1m', 12, '5'],
      ['1/1.25s', 1, '2'],
      ['1/2500ms', 1, '3'],
      ['1/1.5s', 1, '2'],
    ] as const) {
      const served = await serve(['--log', 'off', '--rate-limit', limit])
      const key = /^ {2}management key: (\S+)$/m.exec(served.first)?.[1] ?? ''
      for (let i = 0; i < requests; i++) expect((await fetch(`${served.url}/keys`, { headers: bearer(key) })).status, limit).toBe(200)
      const limited = await fetch(`${served.url}/keys`, { headers: bearer(key) })
      expect(limited.status, limit).toBe(429)
      expect(limited.headers.get('retry-after'), limit).toBe(retryAfter)
      await served.stop()
    }
  })

  it('passes --journal-limit, --strict-requests and --tool-rounds on', async () => {
    const served = await serve(['--log', 'json', '--journal-limit', '1', '--strict-requests', '--tool-rounds', '0'])
    const ready = JSON.parse(served.first) as { regularKey: string; handles: { models: { paid: string } } }
    const chat = (extra: object) =>
      fetch(`${served.url}/chat/completions`, {
        method: 'POST',
        headers: { ...bearer(ready.regularKey), 'content-type': 'application/json' },
        body: JSON.stringify({ model: ready.handles.models.paid, messages: [{ role: 'user', content: 'Hi' }], ...extra }),
      })
    expect((await chat({ temprature: 1 })).status).toBe(400)
    const answer = (await (await chat({ tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] })).json()) as { choices: { finish_reason: string }[] }
    expect(answer.choices[0]?.finish_reason).toBe('stop')
    const journal = (await (await fetch(`${served.origin}/__sim/journal?bodies=false`)).json()) as { data: unknown[] }
    expect(journal.data).toHaveLength(1)
    // Without the flags: lenient, a tool call first, and a journal of 1000.
    const lenient = await serve(['--log', 'json'])
    const plain = JSON.parse(lenient.first) as typeof ready
    const res = await fetch(`${lenient.url}/chat/completions`, {
      method: 'POST',
      headers: { ...bearer(plain.regularKey), 'content-type': 'application/json' },
      body: JSON.stringify({ model: plain.handles.models.paid, messages: [{ role: 'user', content: 'Hi' }], temprature: 1, tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] }),
    })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { choices: { finish_reason: string }[] }).choices[0]?.finish_reason).toBe('tool_calls')
    for (let i = 0; i < 3; i++) await (await fetch(`${lenient.url}/videos/models`)).arrayBuffer()
    expect(((await (await fetch(`${lenient.origin}/__sim/journal?bodies=false`)).json()) as { data: unknown[] }).data).toHaveLength(4)
  })

  it('passes --journal-bytes on: the oldest entries go once the bytes pass it', async () => {
    const served = await serve(['--log', 'off', '--journal-bytes', '600'])
    for (let i = 0; i < 4; i++) await (await fetch(`${served.url}/videos/models`)).arrayBuffer()
    const journal = (await (await fetch(`${served.origin}/__sim/journal?bodies=false`)).json()) as { data: { seq: number }[] }
    expect(journal.data.map((e) => e.seq)).toEqual([3, 4])
  })
})

describe('serve: world files', () => {
  it('names the file and the first problem, with a count of the others and the command that lists them', async () => {
    const two = worldFile((world) => {
      world.keys[0].limit = -1
      world.keys[1].limit = -2
    })
    const result = await cli(['serve', '--port', '0', '--world', two.path])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(
      new RegExp(`^model-access-sim: world file ${two.path} is not a valid world: world\\.keys\\[0\\]\\.limit: .+ \\(and 1 more problems: model-access-sim world check ${two.path} lists them\\)\\n$`),
    )
    const one = worldFile((world) => {
      world.keys[0].limit = -1
    })
    const single = await cli(['serve', '--port', '0', '--world', one.path])
    const [problem] = validateWorld(JSON.parse(readFileSync(one.path, 'utf8')))
    expect(single.stderr).toBe(`model-access-sim: world file ${one.path} is not a valid world: ${problem?.path}: ${problem?.message}\n`)
  })

  it('names a file that is missing, unreadable or not JSON', async () => {
    const missing = join(dir, 'missing.json')
    expect(await cli(['serve', '--port', '0', '--world', missing])).toEqual({ code: 1, stdout: '', stderr: `model-access-sim: cannot read world file ${missing}: no such file\n` })
    const directory = await cli(['serve', '--port', '0', '--world', dir])
    expect(directory.stderr).toBe(`model-access-sim: cannot read world file ${dir}: EISDIR: illegal operation on a directory, read\n`)
    const notJson = join(dir, 'not-json.json')
    writeFileSync(notJson, '{ "format": ')
    const parsed = await cli(['serve', '--port', '0', '--world', notJson])
    expect(parsed.code).toBe(1)
    expect(parsed.stderr).toMatch(new RegExp(`^model-access-sim: world file ${notJson} is not JSON: .*JSON.*\\n$`))
  })

  it('serves a world file, printing a key of each kind that works', async () => {
    const { path, world } = worldFile()
    const served = await serve(['--world', path, '--log', 'json'])
    const ready = JSON.parse(served.first) as { managementKey: string; regularKey: string }
    expect(ready.managementKey).toBe(world.handles.managementKey)
    expect(ready.regularKey).toBe(world.handles.apiKey)
    expect((await fetch(`${served.url}/keys`, { headers: bearer(ready.managementKey) })).status).toBe(200)
  })

  /** The keys the ready line names for the small world changed by `change`. */
  async function readyKeys(change: (world: any) => void): Promise<{ managementKey: string | null; regularKey: string | null; world: any }> {
    const { path, world } = worldFile(change)
    const served = await serve(['--world', path, '--log', 'json'])
    const ready = JSON.parse(served.first) as { managementKey: string | null; regularKey: string | null }
    await served.stop()
    return { ...ready, world }
  }

  it('prints the first usable key of a kind when the handle names a disabled or expired one', async () => {
    // keys[0] is the handles' management key, keys[8] the next; keys[1] the regular handle, keys[2]
    // disabled, keys[3] expired before the world's clock, keys[4] the first regular key after them.
    const disabled = await readyKeys((world) => {
      world.keys[0].disabled = true
    })
    expect(disabled.managementKey).toBe(disabled.world.keys[8].secret)
    const expired = await readyKeys((world) => {
      world.keys[1].expiresAt = '2026-03-01T00:00:00.000Z'
    })
    expect(expired.regularKey).toBe(expired.world.keys[4].secret)
    expect(expired.managementKey).toBe(expired.world.keys[0].secret)
    // Expiring at the clock's start is expired; a moment after it is not; no expiry at all is usable.
    const atStart = await readyKeys((world) => {
      world.keys[1].expiresAt = world.now
    })
    expect(atStart.regularKey).toBe(atStart.world.keys[4].secret)
    const later = await readyKeys((world) => {
      world.keys[1].expiresAt = new Date(Date.parse(world.now) + 1).toISOString()
    })
    expect(later.regularKey).toBe(later.world.keys[1].secret)
    const never = await readyKeys((world) => {
      delete world.keys[1].expiresAt
    })
    expect(never.regularKey).toBe(never.world.keys[1].secret)
  })

  it('prints the first usable key of a kind when the world names none in its handles', async () => {
    const unnamed = await readyKeys((world) => {
      delete world.handles.managementKey
      delete world.handles.apiKey
    })
    expect(unnamed.managementKey).toBe(unnamed.world.keys[0].secret)
    expect(unnamed.regularKey).toBe(unnamed.world.keys[1].secret)
    const regularFirst = await readyKeys((world) => {
      delete world.handles.managementKey
      delete world.handles.apiKey
      world.keys[1].disabled = true
    })
    expect(regularFirst.regularKey).toBe(regularFirst.world.keys[4].secret)
  })

  it('prints null keys, and says so in the banner, for a world without keys', async () => {
    const { path } = worldFile((world) => {
      world.keys = []
      world.handles = {}
      world.files = []
    })
    const json = await serve(['--world', path, '--log', 'json'])
    expect(JSON.parse(json.first)).toMatchObject({ managementKey: null, regularKey: null })
    const pretty = await serve(['--world', path])
    expect(lines(pretty.first)).toEqual(expect.arrayContaining(['  management key: none in this world (create one through the control API)', '  regular key:    none in this world']))
  })
})

describe('serve: the banner', () => {
  it('names the version and URL, a key of each kind, the clock and the control API, and commands that work as printed', async () => {
    const served = await serve([])
    const sim = createSimulator()
    const printed = lines(served.first)
    expect(printed[0]).toBe(`model-access-sim ${pkg.version}: the model-access API at ${served.url}`)
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/)
    expect(printed.slice(1, 5)).toEqual([
      '  clock: 2026-03-02T10:00:00.000Z (virtual)',
      `  management key: ${sim.world.managementKey}`,
      `  regular key:    ${sim.world.apiKey}`,
      `  control API:    ${served.origin}/__sim (GET ${served.origin}/__sim/health, POST ${served.origin}/__sim/reset, ...)`,
    ])
    // Sections, each after a blank line: the keys, Try it (curl, the SDK, Python), Spend, and how to stop.
    const sections = served.first.split('\n\n')
    expect(sections.map((section) => section.split('\n')[0])).toEqual([
      printed[0],
      'Try it:',
      '  // TypeScript, with the official SDK (@openrouter/sdk)',
      '  # Python, standard library only',
      'Spend: a priced completion (usage.cost is what the key is charged). This key has 0.000001 USD left',
      'Stop with Ctrl+C.',
    ])
    expect(served.first.endsWith('Stop with Ctrl+C.\n')).toBe(true)
    expect(sections[1]).toBe(`Try it:\n  curl -s ${served.url}/keys -H "Authorization: Bearer ${sim.world.managementKey}"`)
    expect(sections[2]).toBe(
      `  // TypeScript, with the official SDK (@openrouter/sdk)\n  const sdk = new OpenRouter({ apiKey: '${sim.world.managementKey}', serverURL: '${served.url}' })\n  console.log((await sdk.apiKeys.list()).data.length)`,
    )
    expect(sections[3]).toContain(`r.Request('${served.url}/keys', headers={'Authorization': 'Bearer ${sim.world.managementKey}'})`)
    expect(sections[3]).toContain(`print(len(json.load(r.urlopen(q))['data']), 'keys')`)
    const spend = lines(sections[4] ?? '')
    expect(spend[1]).toBe('of its daily limit, so the same command a second time answers 403 "Key limit exceeded":')
    const body = JSON.stringify({ model: sim.world.models.paid, messages: [{ role: 'user', content: 'Hello' }] })
    expect(spend[2]).toBe(`  curl -s ${served.url}/chat/completions -H "Authorization: Bearer ${sim.world.nearLimitKey}" -H 'content-type: application/json' -d '${body}'`)
  })

  it('for an empty world, prints a placeholder key and the control API calls that create a management key, which work as printed', async () => {
    const served = await serve(['--world', 'empty'])
    const sections = served.first.split('\n\n')
    expect(sections[1]).toBe(`Try it:\n  curl -s ${served.url}/keys -H "Authorization: Bearer sk-or-v1-…"`)
    expect(served.first).toContain("apiKey: 'sk-or-v1-…'")
    expect(served.first).not.toContain('Spend:')
    const create = sections.find((section) => section.startsWith('No key yet?'))
    expect(create).toBeDefined()
    const [, users = '', keys = ''] = lines(create ?? '')
    expect(users).toBe(`  curl -s -X POST ${served.origin}/__sim/users -H 'content-type: application/json' -d '{"name":"Acme"}'`)
    const user = (await (await fetch(`${served.origin}/__sim/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Acme"}' })).json()) as { id: string }
    const keyBody = /-d '(.*)'$/.exec(keys)?.[1]?.replace('USER_ID', user.id) ?? ''
    expect(keys.startsWith(`  curl -s -X POST ${served.origin}/__sim/keys -H 'content-type: application/json' -d `)).toBe(true)
    const key = (await (await fetch(`${served.origin}/__sim/keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: keyBody })).json()) as { secret: string }
    expect((await fetch(`${served.url}/keys`, { headers: bearer(key.secret) })).status).toBe(200)
  })

  it('prints no key-creating calls when the control API is off, and says it is off', async () => {
    const served = await serve(['--world', 'empty', '--no-control'])
    expect(lines(served.first)).toContain('  control API:    off')
    expect(served.first).not.toContain('No key yet?')
    expect((await fetch(`${served.origin}/__sim/health`)).status).toBe(404)
  })

  it('says a token is needed when --control-token or MODEL_ACCESS_SIM_CONTROL_TOKEN gives one, which the control API then needs', async () => {
    const token = 'cli-run-control-token-0123456789'
    for (const served of [await serve(['--world', 'empty', '--control-token', token]), await serve(['--world', 'empty'], { env: { MODEL_ACCESS_SIM_CONTROL_TOKEN: token } })]) {
      expect(lines(served.first)).toContain(`  control API:    ${served.origin}/__sim (send "authorization: Bearer <your control token>")`)
      expect(served.first).not.toContain('No key yet?')
      expect((await fetch(`${served.origin}/__sim/health`)).status).toBe(401)
      expect((await fetch(`${served.origin}/__sim/health`, { headers: bearer(token) })).status).toBe(200)
    }
    // An empty variable is no token.
    const open = await serve(['--world', 'empty', '--log', 'json'], { env: { MODEL_ACCESS_SIM_CONTROL_TOKEN: '' } })
    expect((await fetch(`${open.origin}/__sim/health`)).status).toBe(200)
  })

  it('names the host it was given in the URL', async () => {
    const served = await serve(['--host', 'localhost', '--world', 'empty'])
    expect(served.url).toMatch(/^http:\/\/localhost:\d+\/api\/v1$/)
    expect(lines(served.first)).toContain(`  control API:    ${served.origin}/__sim (GET ${served.origin}/__sim/health, POST ${served.origin}/__sim/reset, ...)`)
  })

  it('refuses a host that is empty, with the server\'s reason', async () => {
    const result = await cli(['serve', '--port', '0', '--host', ''])
    expect(result.code).toBe(1)
    expect(result.stderr).toBe('model-access-sim: cannot start the server: "host" must be a host name or address such as "127.0.0.1", got "".\n')
  })
})

describe('serve --host 0.0.0.0 (bound to 127.0.0.1 underneath: tests stay on loopback)', () => {
  useWildcardBindOnLoopback()

  it('without a token says the control API is off, gives no control URL, and no key-creating calls', async () => {
    const served = await serve(['--host', '0.0.0.0', '--world', 'empty'])
    expect(lines(served.first)).toContain('  control API:    off (bound beyond loopback without --control-token)')
    expect(served.first).not.toContain('No key yet?')
    const json = await serve(['--host', '0.0.0.0', '--log', 'json'])
    expect(JSON.parse(json.first).controlUrl).toBeNull()
    const token = await serve(['--host', '0.0.0.0', '--log', 'json', '--control-token', 'cli-run-control-token-0123456789'])
    expect(JSON.parse(token.first).controlUrl).toBe(`${token.origin}/__sim`)
  })
})

describe('serve --port, taken', () => {
  let taken: ReturnType<typeof createNetServer>
  let port = 0
  beforeAll(async () => {
    taken = createNetServer((socket) => socket.destroy())
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    port = (taken.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())))

  it('exits 1 naming the port, and removes a ready file left by an earlier run', async () => {
    const readyFile = join(dir, 'stale-ready.json')
    writeFileSync(readyFile, '{"event":"ready","stale":true}\n')
    const result = await cli(['serve', '--port', String(port), '--ready-file', readyFile])
    expect(result).toEqual({ code: 1, stdout: '', stderr: `model-access-sim: cannot start the server: port ${port} on 127.0.0.1 is already in use (EADDRINUSE).\n` })
    expect(existsSync(readyFile)).toBe(false)
  })
})

describe('serve: the request log', () => {
  it('prints one pretty line per request: time, method, path, status (dropped for none), operation (- for none) and milliseconds', async () => {
    const served = await serve(['--world', 'empty'])
    await (await fetch(`${served.url}/videos/models`)).arrayBuffer()
    await (await fetch(`${served.origin}/nowhere`)).arrayBuffer()
    const fault = await fetch(`${served.origin}/__sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ operation: 'listVideoModels', respond: 'network-error' }) })
    expect(fault.status).toBe(201)
    await expect(fetch(`${served.url}/videos/models`)).rejects.toThrow()
    await vi.waitFor(() => expect(served.r.stdout()).toContain(' dropped '))
    const log = served.r.stdout().slice(served.first.length).split('\n').filter((line) => line !== '')
    const pattern = /^(\S+) (\S+) (\S+) (\S+) (\S+) \d+\.\dms$/
    expect(log.map((line) => pattern.exec(line)?.slice(2, 6))).toEqual([
      ['GET', '/api/v1/videos/models', '200', 'listVideoModels'],
      ['GET', '/nowhere', '404', '-'],
      ['POST', '/__sim/faults', '201', 'control'],
      ['GET', '/api/v1/videos/models', 'dropped', 'listVideoModels'],
    ])
    for (const line of log) expect(new Date(line.split(' ')[0] ?? '').toISOString()).toBe(line.split(' ')[0])
  })

  it('prints one JSON object per request with --log json, after the ready line, and none with --log off', async () => {
    const served = await serve(['--world', 'empty', '--log', 'json'])
    await (await fetch(`${served.url}/videos/models`)).arrayBuffer()
    const [, entry = ''] = served.r.stdout().split('\n')
    expect(JSON.parse(entry)).toMatchObject({ method: 'GET', path: '/api/v1/videos/models', status: 200, operation: 'listVideoModels' })
    const quiet = await serve(['--world', 'empty', '--log', 'off'])
    await (await fetch(`${quiet.url}/videos/models`)).arrayBuffer()
    await quiet.stop()
    expect(quiet.r.stdout()).toBe(quiet.first)
  })
})

describe('serve: the ready line and the ready file', () => {
  it('prints the ready line first with --log json, and writes it whole to --ready-file, replacing an old one', async () => {
    const readyFile = join(dir, 'ready.json')
    writeFileSync(readyFile, '{"event":"ready","stale":true}\n')
    const served = await serve(['--log', 'json', '--ready-file', readyFile])
    const ready = JSON.parse(served.first) as Record<string, unknown>
    const sim = createSimulator()
    expect(ready).toEqual({
      event: 'ready',
      version: pkg.version,
      pid: process.pid,
      url: served.url,
      controlUrl: `${served.origin}/__sim`,
      port: Number(new URL(served.url).port),
      managementKey: sim.world.managementKey,
      regularKey: sim.world.apiKey,
      clock: { now: '2026-03-02T10:00:00.000Z', mode: 'virtual' },
      handles: JSON.parse(JSON.stringify(sim.world)),
    })
    expect(served.first).toBe(`${JSON.stringify(ready)}\n`)
    expect(readFileSync(readyFile, 'utf8')).toBe(served.first)
    // Written under another name first, then renamed: nothing else is left in the directory.
    expect(readdirSync(dir).filter((name) => name.startsWith('ready.json'))).toEqual(['ready.json'])
    expect(await served.stop()).toBe(0)
    expect(existsSync(readyFile)).toBe(false)
  })

  it('stops without a word when the ready file was removed meanwhile', async () => {
    const readyFile = join(dir, 'removed-ready.json')
    const served = await serve(['--log', 'json', '--world', 'empty', '--ready-file', readyFile])
    rmSync(readyFile)
    expect(await served.stop()).toBe(0)
    expect(served.r.stderr()).toBe('')
  })

  it('with --no-control, gives no control URL', async () => {
    const served = await serve(['--log', 'json', '--no-control', '--world', 'empty'])
    expect(JSON.parse(served.first).controlUrl).toBeNull()
  })

  it('exits 1 naming the ready file it cannot write, and stops serving', async () => {
    const readyFile = join(dir, 'no-such-dir', 'ready.json')
    const r = recorder()
    const code = await runCli(['serve', '--port', '0', '--log', 'json', '--ready-file', readyFile], r.io)
    expect(code).toBe(1)
    const ready = JSON.parse(r.stdout()) as { url: string }
    expect(r.stderr()).toMatch(new RegExp(`^model-access-sim: cannot write the ready file ${readyFile}: ENOENT: no such file or directory, open '${readyFile}\\.\\d+\\.partial'\\n$`))
    await expect(fetch(`${ready.url}/videos/models`)).rejects.toThrow()
    expect(r.listening()).toBe(0)
  })
})

describe('serve: stopping', () => {
  it('stops on a signal with exit code 0, closes the port, and stops listening for signals', async () => {
    const served = await serve(['--world', 'empty'])
    expect(served.r.listening()).toBe(1)
    expect(await served.stop()).toBe(0)
    await expect(fetch(`${served.url}/videos/models`)).rejects.toThrow()
    expect(served.r.listening()).toBe(0)
    expect(served.r.stderr()).toBe('')
    expect(served.r.exits).toEqual([])
  })

  it('takes a second signal while closing as the same stop', async () => {
    const served = await serve(['--world', 'empty'])
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    served.r.signal()
    served.r.signal()
    expect(served.r.listening()).toBe(1)
    vi.advanceTimersByTime(2_000)
    vi.useRealTimers()
    expect(served.r.stderr()).toBe('model-access-sim: connections still open 2000 ms after the stop; exiting without them\n')
    expect(served.r.exits).toEqual([0])
    expect(await served.done).toBe(0)
  })

  it('exits at once, saying so, when the close has not finished 2 seconds after the stop; not before, and not after a close that did', async () => {
    const served = await serve(['--world', 'empty'])
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    served.r.signal()
    vi.advanceTimersByTime(1_999)
    expect(served.r.exits).toEqual([])
    vi.advanceTimersByTime(1)
    expect(served.r.exits).toEqual([0])
    vi.useRealTimers()
    expect(await served.done).toBe(0)

    const closed = await serve(['--world', 'empty'])
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    closed.r.signal()
    expect(await closed.done).toBe(0)
    vi.advanceTimersByTime(2_000)
    vi.useRealTimers()
    expect(closed.r.exits).toEqual([])
    expect(closed.r.stderr()).toBe('')
  })

  /** A launcher whose watch the test ends by calling `gone`. */
  function fakeLauncher(goneAtOnce?: string): Launcher & { gone: ((why: string) => void) | undefined; watching: boolean; calls: number } {
    const launcher = {
      watched: [4242],
      watching: false,
      calls: 0,
      gone: undefined as ((why: string) => void) | undefined,
      watch(onGone: (why: string) => void) {
        launcher.calls++
        launcher.watching = true
        launcher.gone = onGone
        if (goneAtOnce !== undefined) onGone(goneAtOnce)
        return () => {
          launcher.watching = false
        }
      },
    }
    return launcher
  }

  it('stops when its launcher goes, saying why on stderr, and ends the watch', async () => {
    const launcher = fakeLauncher()
    const served = await serve(['--world', 'empty'], { launcher })
    expect(launcher.watching).toBe(true)
    launcher.gone?.('process 4242, which started this server, has exited')
    expect(await served.done).toBe(0)
    expect(served.r.stderr()).toBe('model-access-sim: process 4242, which started this server, has exited; stopping\n')
    expect(launcher.watching).toBe(false)
    await expect(fetch(`${served.url}/videos/models`)).rejects.toThrow()
    // A signal stops it as well, and ends the watch.
    const signalled = fakeLauncher()
    const other = await serve(['--world', 'empty'], { launcher: signalled })
    expect(await other.stop()).toBe(0)
    expect(signalled.watching).toBe(false)
  })

  it('stops at once when its launcher had gone before it listened', async () => {
    const launcher = fakeLauncher('the process that started this server exited while it was starting')
    const r = recorder({ launcher })
    expect(await runCli(['serve', '--port', '0', '--world', 'empty'], r.io)).toBe(0)
    expect(r.stderr()).toBe('model-access-sim: the process that started this server exited while it was starting; stopping\n')
  })

  it('does not watch its launcher with --no-exit-with-launcher', async () => {
    const launcher = fakeLauncher()
    const served = await serve(['--world', 'empty', '--no-exit-with-launcher'], { launcher })
    expect(launcher.calls).toBe(0)
    expect(await served.stop()).toBe(0)
  })
})

describe('world generate', () => {
  it('writes the generated world of the seed and size to stdout, seed 42 and the default size unless told', async () => {
    const small = await cli(['world', 'generate', '--seed', '7', '--size', 'small'])
    expect(small).toMatchObject({ code: 0, stderr: '' })
    expect(small.stdout).toBe(`${JSON.stringify(generateWorld({ seed: 7, size: 'small' }), null, 2)}\n`)
    const defaults = await cli(['world', 'generate'])
    expect(defaults.code).toBe(0)
    expect(defaults.stdout).toBe(`${JSON.stringify(generateWorld({ seed: 42, size: 'default' }), null, 2)}\n`)
  })

  it('writes to --out, saying what it wrote on stderr', async () => {
    const out = join(dir, 'generated.json')
    expect(await cli(['world', 'generate', '--seed', '7', '--size', 'small', '--out', out])).toEqual({
      code: 0,
      stdout: '',
      stderr: `model-access-sim: wrote a small world (seed 7) to ${out}\n`,
    })
    expect(readFileSync(out, 'utf8')).toBe(`${JSON.stringify(generateWorld({ seed: 7, size: 'small' }), null, 2)}\n`)
  })

  it('exits 1 naming a file it cannot write, and a size or seed it does not know', async () => {
    const out = join(dir, 'no-such-dir', 'world.json')
    expect(await cli(['world', 'generate', '--size', 'small', '--out', out])).toEqual({
      code: 1,
      stdout: '',
      stderr: `model-access-sim: cannot write ${out}: ENOENT: no such file or directory, open '${out}'\n`,
    })
    expect(await cli(['world', 'generate', '--size', 'huge'])).toEqual({ code: 1, stdout: '', stderr: 'model-access-sim: --size must be one of small, default, large, got "huge"\n' })
    expect((await cli(['world', 'generate', '--seed', 'x'])).stderr).toBe('model-access-sim: --seed must be an integer from -9007199254740991 to 9007199254740991, got "x"\n')
  })

  it('says how to install @faker-js/faker when the generator cannot load', async () => {
    vi.doMock('../../src/fixtures/index.js', () => {
      throw new Error('Cannot find package \'@faker-js/faker\'')
    })
    try {
      const result = await cli(['world', 'generate', '--size', 'small'])
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(/^model-access-sim: world generate needs @faker-js\/faker: npm install --save-dev @faker-js\/faker \(.+\)\n$/)
    } finally {
      vi.doUnmock('../../src/fixtures/index.js')
    }
  })
})

describe('world check', () => {
  it('prints the counts of a valid world, 0 for a list it does not have', async () => {
    const { path } = worldFile()
    expect(await cli(['world', 'check', path])).toEqual({
      code: 0,
      stdout: `${path}: a valid world: 2 users, 4 workspaces, 12 keys, 5 files, 11 models, 2 video models\n`,
      stderr: '',
    })
    const bare = join(dir, 'bare.json')
    writeFileSync(bare, JSON.stringify({ format: 'model-access-sim/world@1' }))
    expect((await cli(['world', 'check', bare])).stdout).toBe(`${bare}: a valid world: 0 users, 0 workspaces, 0 keys, 0 files, 0 models, 0 video models\n`)
  })

  it('lists every problem with its path on stdout, and counts them on stderr', async () => {
    const one = worldFile((world) => {
      world.keys[3].userId = 'user_nobody'
    })
    const single = await cli(['world', 'check', one.path])
    expect(single.code).toBe(1)
    expect(single.stdout).toMatch(/^world\.keys\[3\]\.userId: .*user_nobody.*\n$/)
    expect(single.stderr).toBe(`model-access-sim: ${one.path}: 1 problem\n`)
    const two = worldFile((world) => {
      world.keys[3].userId = 'user_nobody'
      world.models[1].id = 'not a model id'
    })
    const both = await cli(['world', 'check', two.path])
    expect(both.code).toBe(1)
    expect(lines(both.stdout)).toHaveLength(3)
    expect(both.stderr).toBe(`model-access-sim: ${two.path}: 2 problems\n`)
  })

  it('exits 2 without a PATH, and 1 on a file it cannot read', async () => {
    expect(await cli(['world', 'check'])).toEqual({ code: 2, stdout: '', stderr: expect.stringMatching(/^model-access-sim: world check needs the PATH of a world spec\n\nUsage: model-access-sim world check PATH\n/) })
    const missing = join(dir, 'absent.json')
    expect(await cli(['world', 'check', missing])).toEqual({ code: 1, stdout: '', stderr: `model-access-sim: cannot read world file ${missing}: no such file\n` })
  })
})

describe('import and check against a live service (the project\'s own server)', () => {
  const live = createSimulator()
  const server = useHttpServer(live)
  afterEach(() => live.faults.clear())

  it('import writes the account as a world that serve loads, and prints the fresh secrets on stderr', async () => {
    const out = join(dir, 'imported.json')
    const result = await cli(['import', '--base-url', server.url, '--models', ` ${live.world.models.paid}, ,${live.world.models.free} `, '--files', live.world.files.report, '--out', out], {
      MODEL_ACCESS_SIM_KEY: live.world.managementKey,
    })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe('')
    const world = JSON.parse(readFileSync(out, 'utf8'))
    expect(world.models.map((m: { id: string }) => m.id).sort()).toEqual([live.world.models.free, live.world.models.paid].sort())
    expect(world.files.map((f: { id: string }) => f.id)).toEqual([live.world.files.report])
    const err = lines(result.stderr)
    expect(err).toContain(
      `model-access-sim: imported ${world.keys.length} keys (a fresh management key included), ${world.workspaces.length} more workspaces besides the default, 2 models, ${world.videoModels.length} video models, 1 files to ${out}`,
    )
    expect(err).toContain(`model-access-sim: fresh secrets (HASH NAME SECRET); the management key: ${world.handles.managementKey}`)
    const secrets = err.filter((line) => /^[0-9a-f]{64} /.test(line))
    expect(secrets.length).toBe(world.keys.length - 1)
    for (const line of secrets) {
      const [, hash = '', name = '', secret = ''] = /^(\S+) (".*") (\S+)$/.exec(line) ?? []
      const key = world.keys.find((k: { hash: string }) => k.hash === hash)
      expect(key.secret).toBe(secret)
      expect(JSON.parse(name)).toBe(key.name)
    }
    expect(err.some((line) => line.startsWith('model-access-sim: GET /keys'))).toBe(true)
    expect(result.stderr).not.toContain(live.world.managementKey)
    expect((await cli(['world', 'check', out])).code).toBe(0)
  })

  it('import prints the world on stdout without --out, and takes the key from --key', async () => {
    const result = await cli(['import', '--base-url', server.url, '--key', live.world.managementKey, '--workspaces', 'production'])
    expect(result.code, result.stderr).toBe(0)
    const world = JSON.parse(result.stdout)
    expect(world.format).toBe('model-access-sim/world@1')
    expect(lines(result.stderr).find((line) => line.includes(' imported '))).toMatch(/, 0 models, \d+ video models, 0 files$/)
  })

  it('import exits 2 without a base URL or a key, and 1 naming what failed or the file it cannot write', async () => {
    expect(await cli(['import', '--key', 'k'])).toEqual({ code: 2, stdout: '', stderr: expect.stringMatching(/^model-access-sim: import needs --base-url URL\n\nUsage: model-access-sim import /) })
    for (const env of [{}, { MODEL_ACCESS_SIM_KEY: '' }]) {
      expect(await cli(['import', '--base-url', server.url], env)).toEqual({
        code: 2,
        stdout: '',
        stderr: expect.stringMatching(/^model-access-sim: a management key is needed: --key KEY, or the environment variable MODEL_ACCESS_SIM_KEY\n\nUsage: model-access-sim import /),
      })
    }
    const refused = await cli(['import', '--base-url', server.url, '--key', live.world.apiKey])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/^model-access-sim: import failed: .*403/m)
    expect(refused.stderr).not.toContain(live.world.apiKey)
    const out = join(dir, 'no-such-dir', 'imported.json')
    const unwritable = await cli(['import', '--base-url', server.url, '--key', live.world.managementKey, '--out', out])
    expect(unwritable.code).toBe(1)
    expect(lines(unwritable.stderr)).toContain(`model-access-sim: cannot write ${out}: ENOENT: no such file or directory, open '${out}'`)
  })

  it('check prints a table with no drift and exits 0; as JSON with --json', async () => {
    const table = await cli(['check', '--base-url', server.url, '--key', live.world.managementKey, '--regular-key', live.world.apiKey, '--models', live.world.models.paid])
    expect(table.code, table.stdout).toBe(0)
    expect(table.stdout).toMatch(/rule/i)
    expect(table.stdout).not.toContain(live.world.managementKey)
    const json = await cli(['check', '--base-url', server.url, '--json', '--timeout', '600000'], { MODEL_ACCESS_SIM_KEY: live.world.managementKey, MODEL_ACCESS_SIM_REGULAR_KEY: live.world.apiKey })
    expect(json.code).toBe(0)
    const report = JSON.parse(json.stdout) as { drift: number; results: { rule: string; verdict: string }[] }
    expect(report.drift).toBe(0)
  })

  it('check exits 1 on drift', async () => {
    live.faults.add({ operation: 'listKeys', respond: { status: 418 } })
    const result = await cli(['check', '--base-url', server.url, '--key', live.world.managementKey, '--json'])
    expect(result.code).toBe(1)
    expect((JSON.parse(result.stdout) as { drift: number }).drift).toBeGreaterThan(0)
  })

  it('check exits 2 without a base URL or a key, and 1 on a bad timeout or a failure it names', async () => {
    expect(await cli(['check', '--key', 'k'])).toEqual({ code: 2, stdout: '', stderr: expect.stringMatching(/^model-access-sim: check needs --base-url URL\n\nUsage: model-access-sim check /) })
    expect((await cli(['check', '--base-url', server.url])).stderr).toMatch(/^model-access-sim: a management key is needed: .*\n\nUsage: model-access-sim check /)
    for (const timeout of ['0', '600001']) {
      expect(await cli(['check', '--base-url', server.url, '--key', 'k', '--timeout', timeout])).toEqual({
        code: 1,
        stdout: '',
        stderr: `model-access-sim: --timeout must be an integer from 1 to 600000, got "${timeout}"\n`,
      })
    }
    const failed = await cli(['check', '--base-url', 'ftp://example.invalid', '--key', live.world.managementKey])
    expect(failed.code).toBe(1)
    expect(failed.stderr).toMatch(/^model-access-sim: check failed: .*baseUrl.*must be an http\(s\) URL/)
  })
})
