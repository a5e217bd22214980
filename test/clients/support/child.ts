// The vitest side of the real-client tests (decisions/0040): one child process per client runs all
// its cases (support/harness.ts prints a line per case and target), and each case becomes a vitest
// test here that fails with the child's own assertion message. Nothing is skipped: a missing Node 24,
// client package or Python venv fails every test of that client with a message saying what to install.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { node24Path } from '../../support/node24.js'
import { root } from '../../support/source-imports.js'
import { CASE_LINE, type CaseResult, TARGETS, type TargetName, VERSION_LINE } from './lines.js'

/** What a client's child process reported. */
export interface ClientRun {
  results: CaseResult[]
  versions: Map<string, string>
  /** Everything it printed, for a failure's message. */
  output: string
  exit: string
}

/** How long one client's whole run may take: every case, through MSW and the server. */
export const CLIENT_RUN_TIMEOUT_MS = 180_000

/** Runs a program to its end, whatever its exit code. */
export function runProgram(file: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string; exit: string }> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd: root, timeout: CLIENT_RUN_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, FORCE_COLOR: '0', ...env } }, (error, stdout, stderr) => {
      if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
        reject(new Error(`cannot start ${file}: it is not there (ENOENT)`))
        return
      }
      const exit = error === null ? 'exit 0' : error.killed ? `killed after ${CLIENT_RUN_TIMEOUT_MS} ms` : `exit ${String(error.code ?? error.signal)}`
      resolve({ stdout, stderr, exit })
    })
  })
}

/**
 * Reads a child's result lines. A child that reported no case at all failed before its first (a
 * package it could not import, a crash): that is an error saying what to install, with its output.
 */
export function parseRun(stdout: string, stderr: string, exit: string, install: string): ClientRun {
  const results: CaseResult[] = []
  const versions = new Map<string, string>()
  for (const line of stdout.split('\n')) {
    if (line.startsWith(CASE_LINE)) results.push(JSON.parse(line.slice(CASE_LINE.length)) as CaseResult)
    if (line.startsWith(VERSION_LINE)) {
      const { name, version } = JSON.parse(line.slice(VERSION_LINE.length)) as { name: string; version: string }
      versions.set(name, version)
    }
  }
  const output = `${exit}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`
  if (results.length === 0) throw new Error(`The client process ran no case (${exit}). ${install}\n${output}`)
  return { results, versions, output, exit }
}

/** Runs a client script (test/clients/NAME.client.ts) under Node 24 with tsx, in one child process. */
export async function runNodeClient(script: string): Promise<ClientRun> {
  const node = node24Path()
  const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs')
  const { stdout, stderr, exit } = await runProgram(node, [tsx, join(root, 'test', 'clients', script)])
  return parseRun(stdout, stderr, exit, 'The clients are devDependencies: run npm ci (on Node 20 it warns that they want Node 22+, and installs them).')
}

/**
 * Runs the client once for the file (in beforeAll) and returns a getter of its run. When the run
 * itself cannot start, every test that reads it fails with the reason.
 */
function useClientRun(start: () => Promise<ClientRun>): () => ClientRun {
  let run: ClientRun | undefined
  let failure: unknown
  beforeAll(async () => {
    try {
      run = await start()
    } catch (error) {
      failure = error
    }
    // The run, and before it a Python venv built from nothing (python-openai.test.ts), in minutes.
  }, 2 * CLIENT_RUN_TIMEOUT_MS + 60_000)
  return () => {
    if (run === undefined) throw failure instanceof Error ? failure : new Error(String(failure))
    return run
  }
}

/** Fails unless the child ran `name` through `target` and it passed; the failure carries the child's message. */
function expectCase(run: ClientRun, target: TargetName, name: string): void {
  const result = run.results.find((r) => r.target === target && r.case === name)
  if (result === undefined) throw new Error(`the client never reported "${name}" through ${target}:\n${run.output}`)
  if (!result.ok) throw new Error(`"${name}" through ${target} failed in the client:\n${result.error ?? ''}`)
  expect(result.ok).toBe(true)
}

/** The exact versions package.json pins for these devDependencies; fails on a range. */
export function devDependencyPins(names: readonly string[]): Record<string, string> {
  const json = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
  return Object.fromEntries(
    names.map((name) => {
      const version = json.devDependencies[name]
      if (version === undefined) throw new Error(`${name} is not a devDependency in package.json`)
      if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`${name} is "${version}" in package.json: a client under test is pinned to an exact version, bumped on purpose`)
      return [name, version]
    }),
  )
}

/** Fails unless the child loaded exactly the pinned versions, and reported every case. */
function expectPinnedRun(run: ClientRun, pins: Record<string, string>, cases: readonly string[], targets: readonly TargetName[]): void {
  for (const [name, version] of Object.entries(pins)) {
    expect(run.versions.get(name), `${name}: the version the client loaded\n${run.output}`).toBe(version)
  }
  const reported = run.results.map((r) => `${r.target}: ${r.case}`).sort()
  const expected = targets.flatMap((t) => cases.map((c) => `${t}: ${c}`)).sort()
  expect(reported, `the cases the client ran\n${run.output}`).toEqual(expected)
}

/**
 * A client's tests: one run of its child process for the file, a test that it loaded the pinned
 * versions and reported every case, and one test per case and target.
 */
export function describeClient(title: string, start: () => Promise<ClientRun>, pins: Record<string, string>, cases: readonly string[], targets: readonly TargetName[] = TARGETS): void {
  const run = useClientRun(start)
  describe(title, () => {
    it(`runs at the pinned versions, every case through ${targets.join(' and ')}`, () => {
      expectPinnedRun(run(), pins, cases, targets)
    })

    describe.each(targets)('through %s', (target) => {
      it.each(cases)('%s', (name) => expectCase(run(), target, name))
    })
  })
}
