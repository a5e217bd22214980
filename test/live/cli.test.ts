// `model-access-sim import` and `check`, run from source as a user runs them, against the project's own server.
// The sources are bundled once for the file, as the published bin is (test/support/cli.ts says why).
import { execFile } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'
import { type BundledCli, bundleCli } from '../support/cli.js'

const ROOT = resolve(import.meta.dirname, '../..')

/** src/server/cli-entry.ts, bundled in the file's setup. */
let bundled: BundledCli | undefined
beforeAll(async () => {
  bundled = await bundleCli()
})
afterAll(() => bundled?.remove())

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    if (bundled === undefined) throw new Error('the CLI is not bundled yet')
    execFile(process.execPath, [bundled.path, ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

describe('model-access-sim import', () => {
  const live = createSimulator()
  let server: SimulatorServer
  let dir: string
  beforeAll(async () => {
    server = await startServer(live, { port: 0 })
    dir = mkdtempSync(join(tmpdir(), 'msim-import-'))
  })
  afterAll(async () => {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('writes a world that serve --world loads, prints fresh secrets on stderr, and never the key', async () => {
    const out = join(dir, 'world.json')
    const { code, stdout, stderr } = await cli(['import', '--base-url', server.url, '--models', `${live.world.models.paid},${live.world.models.free}`, '--files', live.world.files.report, '--out', out], {
      MODEL_ACCESS_SIM_KEY: live.world.managementKey,
    })
    expect(code, stderr).toBe(0)
    expect(stdout).toBe('')
    const text = readFileSync(out, 'utf8')
    const world = JSON.parse(text)
    const sim = createSimulator({ world })
    expect(sim.models.get(live.world.models.paid)).toEqual(live.models.get(live.world.models.paid))
    expect(stderr).toMatch(/GET \/keys\?include_disabled=true: \d+ keys/)
    expect(stderr).toMatch(/imported \d+ keys/)
    // Every imported key's fresh secret is on stderr, as HASH "NAME" SECRET.
    const lines = stderr.split('\n').filter((line) => /^[0-9a-f]{64} /.test(line))
    expect(lines.length).toBeGreaterThan(3)
    for (const line of lines) {
      const [hash, , secret] = [line.slice(0, 64), null, line.split(' ').at(-1) as string]
      expect(world.handles.keys[hash]).toBe(secret)
    }
    for (const output of [text, stdout, stderr]) expect(output).not.toContain(live.world.managementKey)
    // serve --world checks a file as world check does: the imported one passes.
    const checked = await cli(['world', 'check', out])
    expect(checked.code, checked.stdout + checked.stderr).toBe(0)
    expect(checked.stdout).toMatch(/a valid world: 1 users, \d+ workspaces, \d+ keys, 1 files, 2 models, \d+ video models/)
  })

  it('stops on an error naming the request, and writes no file', async () => {
    const out = join(dir, 'never.json')
    const { code, stderr } = await cli(['import', '--base-url', server.url, '--key', 'sk-or-v1-wrong-key-000', '--out', out])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^model-access-sim: import failed: GET \/keys\?include_disabled=true answered 401: /m)
    expect(stderr).not.toContain('sk-or-v1-wrong-key-000')
    expect(existsSync(out)).toBe(false)
  })

  it('asks for what it needs', async () => {
    const noBase = await cli(['import', '--key', 'sk-or-v1-abcdefgh'])
    expect(noBase.code).toBe(2)
    expect(noBase.stderr).toMatch(/import needs --base-url URL/)
    const noKey = await cli(['import', '--base-url', server.url], { MODEL_ACCESS_SIM_KEY: '' })
    expect(noKey.code).toBe(2)
    expect(noKey.stderr).toMatch(/a management key is needed/)
  })
})

describe('model-access-sim check', () => {
  const live = createSimulator()
  let server: SimulatorServer
  beforeAll(async () => {
    server = await startServer(live, { port: 0 })
  })
  afterAll(() => server.close())
  const keys = () => ({ MODEL_ACCESS_SIM_KEY: live.world.managementKey, MODEL_ACCESS_SIM_REGULAR_KEY: live.world.apiKey })

  it('finds no drift in the simulator itself: a table, exit 0, and no key printed', async () => {
    const { code, stdout, stderr } = await cli(['check', '--base-url', server.url, '--models', live.world.models.paid, '--files', live.world.files.report], keys())
    expect(code, stderr).toBe(0)
    expect(stdout).toMatch(/rule\s+simulator\s+live\s+verdict/)
    expect(stdout).toMatch(/shape GET \/keys\s/)
    expect(stdout).not.toMatch(/\bdrift\s*$/m)
    for (const output of [stdout, stderr]) {
      expect(output).not.toContain(live.world.managementKey)
      expect(output).not.toContain(live.world.apiKey)
    }
  })

  it('--json gives the same report as JSON', async () => {
    const { code, stdout } = await cli(['check', '--base-url', server.url, '--json'], keys())
    expect(code).toBe(0)
    const report = JSON.parse(stdout) as { drift: number; results: { rule: string; verdict: string }[] }
    expect(report.drift).toBe(0)
    expect(report.results.map((r) => r.rule)).toContain('401 no Authorization on GET /keys')
  })

  it('exits 1 on drift: a service that answers everything with an empty object', async () => {
    const odd = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json')
      res.end('{}')
    })
    await new Promise<void>((done) => odd.listen(0, '127.0.0.1', done))
    try {
      const url = `http://127.0.0.1:${(odd.address() as AddressInfo).port}/api/v1`
      const { code, stdout } = await cli(['check', '--base-url', url, '--json'], keys())
      expect(code).toBe(1)
      const report = JSON.parse(stdout) as { drift: number; results: { rule: string; verdict: string }[] }
      expect(report.drift).toBeGreaterThan(3)
      expect(report.results.find((r) => r.rule === '401 no Authorization on GET /keys')?.verdict).toBe('drift')
    } finally {
      await new Promise<void>((done) => odd.close(() => done()))
    }
  })
})
