// The curl examples of the README and docs/: every ```sh block whose first line is
// `# curl-example: NAME` runs with bash against a fresh server of the default world on port 0,
// its `http://127.0.0.1:4010` pointed at that server. curl fails the block on any HTTP error
// (`--fail-with-body`), so an example that would get a 415 or a 404 fails here, naming its file.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'
import { docFiles } from '../../scripts/doc-files.js'
import { root } from '../support/source-imports.js'

interface ShellExample {
  name: string
  code: string
}

/** The tagged sh blocks of the README and every guide, named `FILE: NAME`. */
function shellExamples(): ShellExample[] {
  return docFiles().flatMap((file) => {
    const text = readFileSync(join(root, file), 'utf8')
    return [...text.matchAll(/^```sh\n# curl-example: ([^\n]+)\n([\s\S]*?)^```$/gm)].map((m) => ({ name: `${file}: ${(m[1] as string).trim()}`, code: m[2] as string }))
  })
}

/** Every curl fails on an HTTP error, shows it, and ends its output with a new line. */
const PRELUDE = `set -euo pipefail
curl() { command curl --silent --show-error --fail-with-body "$@"; echo; }
`

function run(code: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', PRELUDE + code], { timeout: 30_000, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr })
    })
  })
}

const servers: SimulatorServer[] = []
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
})

describe('curl examples of the README and docs/', () => {
  const examples = shellExamples()

  it('finds the tagged blocks', () => {
    expect(examples.map((e) => e.name)).toEqual(
      expect.arrayContaining(['docs/spending.md: keys and credits over HTTP', 'docs/server.md: the control API from a shell', 'docs/wire.md: workspaces over HTTP']),
    )
  })

  it.each(examples)('$name runs against a fresh server, every request answered without an error', async ({ code }) => {
    const sim = createSimulator()
    const server = await startServer(sim, { port: 0 })
    servers.push(server)
    const origin = new URL(server.url).origin
    const result = await run(code.replaceAll('http://127.0.0.1:4010', origin), { MANAGEMENT_KEY: sim.world.managementKey })
    expect(result.code, `exit ${String(result.code)}\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`).toBe(0)
    expect(result.stderr).toBe('')
  })

  it('fails a block whose request gets an error', async () => {
    const sim = createSimulator()
    const server = await startServer(sim, { port: 0 })
    servers.push(server)
    const origin = new URL(server.url).origin
    const refused = await run(`curl -s -X POST ${origin}/__sim/credits -d '{"userId":"x","amount":1}'`, {})
    expect(refused.code).not.toBe(0)
    expect(refused.stdout).toContain('unsupported_content_type')
  })
})
