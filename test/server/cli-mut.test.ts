// `model-access-sim` in process (runCli with a recording CliIo, as cli-run.test.ts does), for what
// mutation testing found unchecked: world files whose handles name a secret the file does not hold,
// or only one of the two things the Spend lines need; the blank line after the key-creating calls;
// a --now that shifts a world's instants out of range; unknown flags of import and check; and the
// options import and check pass on (--workspaces, --regular-key, --allow-extra-fields, --allow-writes).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { generateWorld } from '../../src/fixtures/index.js'
import { runCli } from '../../src/server/cli.js'
import { recorder } from '../support/cli-io.js'
import { useHttpServer } from '../support/server.js'

/** Runs a command to its end. */
async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = recorder({ env })
  const code = await runCli(args, r.io)
  return { code, stdout: r.stdout(), stderr: r.stderr() }
}

const running = new Set<() => Promise<number>>()
afterEach(async () => {
  await Promise.all([...running].map((stop) => stop()))
  running.clear()
})

/** Starts `serve --port 0` with the arguments and resolves to its first output (the banner, or the ready line). */
async function served(args: string[]): Promise<string> {
  const r = recorder()
  const done = runCli(['serve', '--port', '0', ...args], r.io)
  running.add(() => {
    r.signal()
    return done
  })
  const code = await Promise.race([r.written.then(() => undefined), done])
  if (code !== undefined) throw new Error(`serve exited ${code} before its first output; stderr:\n${r.stderr()}`)
  return r.stdout()
}

let dir = ''
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'model-access-sim-cli-mut-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let files = 0
function write(world: unknown): string {
  const path = join(dir, `world-${++files}.json`)
  writeFileSync(path, JSON.stringify(world))
  return path
}

const FORMAT = 'model-access-sim/world@1'

describe('serve: handles that name what the world file does not hold', () => {
  it('a world file without keys whose handles name a management key: printed as it is given', async () => {
    const path = write({ format: FORMAT, handles: { managementKey: 'sk-or-v1-named-but-not-held-0001', apiKey: 'sk-or-v1-named-but-not-held-0002' } })
    const ready = JSON.parse(await served(['--world', path, '--log', 'json'])) as { managementKey: string | null; regularKey: string | null }
    expect(ready).toMatchObject({ managementKey: 'sk-or-v1-named-but-not-held-0001', regularKey: 'sk-or-v1-named-but-not-held-0002' })
  })

  it('a world file with keys whose handles name a secret none of them has: printed as it is given', async () => {
    const world = JSON.parse(JSON.stringify(generateWorld({ seed: 7, size: 'small' }))) as any
    world.handles.managementKey = 'sk-or-v1-named-but-not-held-0003'
    const ready = JSON.parse(await served(['--world', write(world), '--log', 'json'])) as { managementKey: string | null; regularKey: string | null }
    expect(ready.managementKey).toBe('sk-or-v1-named-but-not-held-0003')
    expect(ready.regularKey).toBe(world.handles.apiKey)
  })
})

describe('serve: the Spend lines need both a near-limit key and a paid model', () => {
  it.each([
    ['a near-limit key without a paid model', { nearLimitKey: 'sk-or-v1-near-limit-key-00001' }],
    ['a paid model without a near-limit key', { models: { paid: 'acme/paid' } }],
    ['a paid model that is not a string', { nearLimitKey: 'sk-or-v1-near-limit-key-00001', models: { paid: 7 } }],
  ])('%s: no Spend lines', async (_, handles) => {
    const banner = await served(['--world', write({ format: FORMAT, handles })])
    expect(banner).not.toContain('Spend:')
    expect(banner).not.toContain('/chat/completions')
    expect(banner).not.toContain('undefined')
  })

  it('both: the Spend lines name them', async () => {
    const banner = await served(['--world', write({ format: FORMAT, handles: { nearLimitKey: 'sk-or-v1-near-limit-key-00001', models: { paid: 'acme/paid' } } })])
    expect(banner).toContain('Spend: a priced completion')
    expect(banner).toContain(`-H "Authorization: Bearer sk-or-v1-near-limit-key-00001" -H 'content-type: application/json' -d '{"model":"acme/paid",`)
  })
})

describe('serve: the banner of a world without keys', () => {
  it('ends its key-creating calls with a blank line, then how to stop', async () => {
    const banner = await served(['--world', 'empty'])
    expect(banner.endsWith(`-d '{"userId":"USER_ID","management":true}'\n\nStop with Ctrl+C.\n`)).toBe(true)
  })
})

describe('serve --now', () => {
  it("that shifts a world file's instants out of range: the world's message, not the one for a malformed --now", async () => {
    const world = generateWorld({ seed: 7, size: 'small' })
    const result = await cli(['serve', '--port', '0', '--world', write(world), '--now=-271821-04-20T00:00:00Z'])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^model-access-sim: Failed to load world: world\.users\[0\]: .*"createdAt" is not a valid instant/)
    expect(result.stderr).not.toContain('--now')
  })
})

describe('world check', () => {
  it('takes its PATH as an argument', async () => {
    const path = write({ format: FORMAT })
    expect(await cli(['world', 'check', path])).toEqual({ code: 0, stdout: `${path}: a valid world: 0 users, 0 workspaces, 0 keys, 0 files, 0 models, 0 video models\n`, stderr: '' })
  })
})

describe('import and check: unknown flags are usage errors', () => {
  it.each([
    ['import', /^model-access-sim: Unknown option '--bogus'.*\n\nUsage: model-access-sim import /],
    ['check', /^model-access-sim: Unknown option '--bogus'.*\n\nUsage: model-access-sim check /],
  ])('%s --bogus exits 2 naming the flag', async (command, message) => {
    const result = await cli([command, '--bogus'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(message)
  })
})

describe('import and check against the project\'s own server', () => {
  const live = createSimulator()
  const server = useHttpServer(live)

  it('import --workspaces reads each workspace given: one that does not exist fails the import, named', async () => {
    const result = await cli(['import', '--base-url', server.url, '--key', live.world.managementKey, '--workspaces', 'no-such-workspace'])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^model-access-sim: import failed: GET \/workspaces\/no-such-workspace answered 404/m)
  })

  interface Report {
    keys: { management: string; regular: string | null }
    requests: string[]
    drift: number
    results: { rule: string; verdict: string }[]
  }
  const report = (stdout: string): Report => JSON.parse(stdout) as Report

  it('check takes the regular key from --regular-key, or else from MODEL_ACCESS_SIM_REGULAR_KEY, an empty one being none', async () => {
    const flag = await cli(['check', '--base-url', server.url, '--key', live.world.managementKey, '--regular-key', live.world.apiKey, '--json'])
    expect(flag.code, flag.stderr).toBe(0)
    expect(report(flag.stdout).keys.regular).not.toBeNull()
    const env = await cli(['check', '--base-url', server.url, '--key', live.world.managementKey, '--json'], { MODEL_ACCESS_SIM_REGULAR_KEY: live.world.apiKey })
    expect(env.code, env.stderr).toBe(0)
    expect(report(env.stdout).keys.regular).toBe(report(flag.stdout).keys.regular)
    const empty = await cli(['check', '--base-url', server.url, '--key', live.world.managementKey, '--json'], { MODEL_ACCESS_SIM_REGULAR_KEY: '' })
    expect(empty.code, empty.stderr).toBe(0)
    expect(report(empty.stdout).keys.regular).toBeNull()
  })

  it('check sends GETs only unless --allow-writes, which also creates, changes and deletes a throwaway key', async () => {
    const reads = await cli(['check', '--base-url', server.url, '--key', live.world.managementKey, '--json'])
    expect(reads.code, reads.stderr).toBe(0)
    expect(report(reads.stdout).requests.every((request) => request.startsWith('GET '))).toBe(true)
    const writes = await cli(['check', '--base-url', server.url, '--key', live.world.managementKey, '--allow-writes', '--json'])
    expect(writes.code, writes.stderr).toBe(0)
    const methods = new Set(report(writes.stdout).requests.map((request) => request.split(' ')[0]))
    expect([...methods].sort()).toEqual(['DELETE', 'GET', 'PATCH', 'POST'])
  })

  describe('a service that adds a field to GET /credits', () => {
    let proxy: ReturnType<typeof createServer>
    let url = ''
    beforeAll(async () => {
      proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
        void (async () => {
          const target = new URL(req.url ?? '/', new URL(server.url).origin)
          const headers = Object.fromEntries(Object.entries(req.headers).filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== 'host'))
          const upstream = await fetch(target, { method: req.method ?? 'GET', headers, redirect: 'manual' })
          let body = Buffer.from(await upstream.arrayBuffer())
          if (target.pathname === '/api/v1/credits' && upstream.status === 200) {
            const json = JSON.parse(body.toString('utf8')) as { data: Record<string, unknown> }
            body = Buffer.from(JSON.stringify({ ...json, data: { ...json.data, extra_field: 1 } }))
          }
          const out: Record<string, string> = {}
          upstream.headers.forEach((value, name) => {
            if (name !== 'content-length' && name !== 'content-encoding' && name !== 'transfer-encoding') out[name] = value
          })
          res.writeHead(upstream.status, out).end(body)
        })().catch((error: unknown) => res.writeHead(502).end(String(error)))
      })
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
      url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v1`
    })
    afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())))

    it('is drift without --allow-extra-fields, and the same with it', async () => {
      const strict = await cli(['check', '--base-url', url, '--key', live.world.managementKey, '--json'])
      expect(strict.code, strict.stderr).toBe(1)
      const shape = (stdout: string) => report(stdout).results.find((r) => r.rule === 'shape GET /credits')?.verdict
      expect(shape(strict.stdout)).toBe('drift')
      expect(report(strict.stdout).drift).toBe(1)
      const lenient = await cli(['check', '--base-url', url, '--key', live.world.managementKey, '--allow-extra-fields', '--json'])
      expect(lenient.code, lenient.stderr).toBe(0)
      expect(shape(lenient.stdout)).toBe('same')
    })
  })
})
