import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { type RequestLogEntry, type SimulatorServer, startServer } from '../../src/server/index.js'

// A test in another language: a python3 script (standard library only) drives the server through
// the control API and the six operations, as a client outside JavaScript would (decisions/0013).

const SCRIPT = fileURLToPath(new URL('./python/control_client.py', import.meta.url))
const PYTHON_DIR = fileURLToPath(new URL('./python/', import.meta.url))
const CLI = fileURLToPath(new URL('../../src/server/cli-entry.ts', import.meta.url))
const SCRIPT_TIMEOUT_MS = 60_000

/** The lines the script prints, one per check, in order. */
const CHECK_LINES = [
  'ok - health answers ok',
  'ok - faults, latency and journal cleared',
  'ok - clock set to 2026-03-04T23:30:00.000Z',
  'ok - organisation created',
  'ok - management key and regular key created',
  'ok - workspace, file, model and video model created',
  'ok - listKeys lists the regular key for the management key',
  'ok - listKeys answers 403 to a regular key',
  'ok - listKeys answers 401 without a key',
  'ok - getKey reads the regular key',
  'ok - listEndpoints hides latency_last_30m from anonymous callers only',
  "ok - getFileContent returns the file's exact bytes",
  'ok - getWorkspace finds the workspace by slug',
  'ok - listVideoModels lists the video model',
  'ok - recorded usage shows as usage_daily 1.25',
  'ok - after midnight usage_daily is 0 and usage stays 1.25',
  'ok - a once fault answers 503 with retry-after once, then 200',
  'ok - the fault list shows it fired once',
  'ok - the journal has exactly one 503',
  'ok - a negative limit answers 400 naming limit',
  'ok - malformed JSON answers 400 naming body',
  'ok - after reset the organisation is gone and its management key gets 401',
]

interface ScriptRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/** Runs the script to its end, whatever its exit code; rejects only when python3 cannot be started. */
function runScript(args: readonly string[]): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    execFile(
      'python3',
      [SCRIPT, ...args],
      { timeout: SCRIPT_TIMEOUT_MS, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONOPTIMIZE: '' } },
      (error, stdout, stderr) => {
        if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
          reject(new Error('python3 is not on the PATH: this test runs a python3 client against the server and needs python3 installed (CI has it).'))
          return
        }
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
        resolve({ code, signal: error?.signal ?? null, stdout, stderr })
      },
    )
  })
}

describe('a python3 client of the server', () => {
  const sim = createSimulator({ world: 'empty', seed: 7 })
  const log: RequestLogEntry[] = []
  let server: SimulatorServer
  let run: ScriptRun

  beforeAll(async () => {
    server = await startServer(sim, { port: 0, onRequest: (entry) => log.push(entry) })
    run = await runScript([server.url, server.controlUrl])
  }, SCRIPT_TIMEOUT_MS + 10_000)

  afterAll(async () => {
    await server?.close()
  })

  it('passes every check of the script and exits 0', () => {
    const output = `exit code ${String(run.code)}, signal ${String(run.signal)}\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}`
    expect(run.code, output).toBe(0)
    const lines = run.stdout.split('\n').filter((line) => line !== '')
    expect(lines.filter((line) => line.startsWith('ok - ')), output).toEqual(CHECK_LINES)
    expect(lines.at(-1), output).toBe(`passed ${CHECK_LINES.length} checks`)
    expect(run.stdout + run.stderr, output).not.toContain('FAIL')
  })

  it('left in the simulator what only its requests could: the 401 after the reset, and nothing else', () => {
    // The reset emptied the journal; the one request after it is the old management key's 401.
    const journal = sim.journal.list()
    expect(journal.map((e) => [e.seq, e.method, e.path, e.operation, e.status, e.principal])).toEqual([[1, 'GET', '/keys', 'listKeys', 401, null]])
    expect(sim.users.list()).toEqual([])
    expect(sim.faults.list()).toEqual([])
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:00.000Z')
  })

  it('reached the server over HTTP for the operations and the control API alike', () => {
    const seen = (method: string, pathStart: string, status: number): number =>
      log.filter((e) => e.method === method && e.path.startsWith(pathStart) && e.status === status).length
    expect(seen('GET', '/__sim/health', 200)).toBe(1)
    expect(seen('POST', '/__sim/usage', 200)).toBe(1)
    expect(seen('POST', '/__sim/clock/advance', 200)).toBe(1)
    expect(seen('POST', '/__sim/reset', 204)).toBe(1)
    expect(seen('GET', '/api/v1/videos/models', 503)).toBe(1)
    expect(seen('GET', '/api/v1/videos/models', 200)).toBe(2)
    expect(seen('GET', '/api/v1/files/file_py_1/content', 200)).toBe(1)
    expect(new Set(log.filter((e) => e.operation !== 'control' && e.operation !== null).map((e) => e.operation))).toEqual(
      new Set(['listKeys', 'getKey', 'listEndpoints', 'getFileContent', 'getWorkspace', 'listVideoModels']),
    )
  })
})

/** The unittest example's tests, as `python3 -m unittest -v` names them on stderr. */
const UNITTEST_TESTS = [
  'test_a_once_fault_answers_503_then_the_service_recovers',
  'test_moving_the_clock_a_day_on',
  'test_the_control_api_refuses_a_body_that_is_not_declared_json',
  'test_the_log_has_a_line_per_request',
  'test_the_ready_line_names_working_keys',
]

describe('the Python unittest example that starts the server itself', () => {
  it('starts `serve --log json` on port 0, reads the ready line, passes every test, and stops the server', async () => {
    // The example runs `npx --no model-access-sim`; here the command runs the source, as the other tests do.
    const command = [process.execPath, '--import', fileURLToPath(import.meta.resolve('tsx')), CLI].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ')
    const run = await new Promise<ScriptRun>((resolve, reject) => {
      execFile(
        'python3',
        ['-m', 'unittest', '-v', 'test_with_server'],
        { cwd: PYTHON_DIR, timeout: SCRIPT_TIMEOUT_MS, env: { ...process.env, MODEL_ACCESS_SIM_COMMAND: command, PYTHONDONTWRITEBYTECODE: '1' } },
        (error, stdout, stderr) => {
          if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') return reject(new Error('python3 is not on the PATH: this test needs python3 installed (CI has it).'))
          resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, signal: error?.signal ?? null, stdout, stderr })
        },
      )
    })
    const output = `exit code ${String(run.code)}, signal ${String(run.signal)}\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}`
    expect(run.code, output).toBe(0)
    const passed = [...run.stderr.matchAll(/^(test_\w+) \(.*\) \.\.\. ok$/gm)].map((match) => match[1])
    expect(passed.sort(), output).toEqual(UNITTEST_TESTS)
    expect(run.stderr, output).toMatch(new RegExp(`^Ran ${UNITTEST_TESTS.length} tests in [\\d.]+s\n\nOK$`, 'm'))
  }, SCRIPT_TIMEOUT_MS + 10_000)
})
