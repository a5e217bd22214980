// The Python example of testing code that spends (docs/spending.md): test/server/python/test_spending.py, run
// with `python3 -m unittest` against the server that test_with_server.py starts, as the other Python
// example is run (test/server/python.test.ts). The guide shows the file's tests verbatim.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { docFiles } from '../../scripts/doc-files.js'
import { root } from '../support/source-imports.js'

const PYTHON_DIR = fileURLToPath(new URL('./python/', import.meta.url))
const CLI = fileURLToPath(new URL('../../src/server/cli-entry.ts', import.meta.url))
const TIMEOUT_MS = 60_000

const TESTS = [
  'test_a_completion_charges_its_exact_cost_to_the_key',
  'test_a_key_at_its_limit_is_refused_with_403',
  'test_a_scripted_reply_is_priced_from_its_tokens',
  'test_an_organisation_out_of_credits_gets_402',
]

describe('the Python example of testing code that spends', () => {
  it('passes every test against a server it starts on port 0', async () => {
    const command = [process.execPath, '--import', fileURLToPath(import.meta.resolve('tsx')), CLI].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ')
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      execFile(
        'python3',
        ['-m', 'unittest', '-v', 'test_spending'],
        { cwd: PYTHON_DIR, timeout: TIMEOUT_MS, env: { ...process.env, MODEL_ACCESS_SIM_COMMAND: command, PYTHONDONTWRITEBYTECODE: '1' } },
        (error, stdout, stderr) => {
          if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') return reject(new Error('python3 is not on the PATH: this test needs python3 installed (CI has it).'))
          resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr })
        },
      )
    })
    const output = `exit code ${String(run.code)}\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}`
    expect(run.code, output).toBe(0)
    const passed = [...run.stderr.matchAll(/^(test_\w+) \(.*\) \.\.\. ok$/gm)].map((match) => match[1])
    expect(passed.sort(), output).toEqual(TESTS)
    expect(run.stderr, output).toMatch(new RegExp(`^Ran ${TESTS.length} tests in [\\d.]+s\n\nOK$`, 'm'))
  }, TIMEOUT_MS + 10_000)

  it('is shown in the documentation as the file has it', () => {
    const blocks = docFiles().flatMap((file) => [...readFileSync(join(root, file), 'utf8').matchAll(/```python\n(# example: test_spending\.py\n[\s\S]*?)```/g)].map((m) => m[1] as string))
    expect(blocks, 'one ```python block starting with "# example: test_spending.py", in README.md or docs/').toHaveLength(1)
    expect(readFileSync(`${PYTHON_DIR}test_spending.py`, 'utf8')).toContain(blocks[0] as string)
  })
})
