// `model-access-sim import`, run from source as a user runs it, against the project's own server.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'

const ROOT = resolve(import.meta.dirname, '../..')

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
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
