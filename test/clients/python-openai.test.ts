import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createSimulator } from '../../src/index.js'
import { startServer } from '../../src/server/index.js'
import { root } from '../support/source-imports.js'
import { type ClientRun, describeClient, parseRun, runProgram } from './support/child.js'

// Python's openai client, unchanged, in a venv (scripts/python-clients-venv.sh, which .ci/run runs
// after npm ci, and this file when the venv is missing), against a local server over a socket
// (decisions/0040). The script sets up each case through the control API, as a Python test would.
const CASES = [
  'chat',
  'stream with its usage (stream_options.include_usage)',
  'a manual tool loop with a scripted tool call',
  'structured output with parse and Pydantic',
  'parse with a nested Pydantic model and no rule: message.parsed an instance',
  'beta.chat.completions.parse and no rule: message.parsed an instance',
  'tool_choice="required" with pydantic_function_tool and no rule: the named tool, arguments the model validates',
  'a streamed tool call with no rule: arguments in pieces, parsed to the model',
  'a manual tool loop with no rule: one call, then text',
  'responses.parse with text_format and no rule: output_parsed an instance',
  'embeddings',
  'usage.cost in the raw usage, charged to the key',
  '400 as BadRequestError naming the field',
  '402 as an APIStatusError with status 402',
  '403 as PermissionDeniedError',
  "a guardrail's 403 as PermissionDeniedError naming the guardrail, nothing charged",
]

/** The venv's python, creating the venv first when it is missing or out of date. */
function venvPython(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', [join(root, 'scripts', 'python-clients-venv.sh')], { cwd: root, timeout: 300_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`scripts/python-clients-venv.sh failed (${error.message}): Python's openai client is not installed, so its tests cannot run.\n${stderr}`))
      else resolve(stdout.trim().split('\n').at(-1) ?? '')
    })
  })
}

async function runPythonClient(): Promise<ClientRun> {
  const python = await venvPython()
  const server = await startServer(createSimulator(), { port: 0 })
  try {
    const { stdout, stderr, exit } = await runProgram(python, [join(root, 'test', 'clients', 'python', 'openai_client.py'), server.url, server.controlUrl], { PYTHONDONTWRITEBYTECODE: '1' })
    return parseRun(stdout, stderr, exit, `Python's openai client runs in the venv of scripts/python-clients-venv.sh (${python}).`)
  } finally {
    await server.close()
  }
}

/** The versions requirements.txt pins for these packages. */
function requirementPins(names: readonly string[]): Record<string, string> {
  const pins = new Map([...readFileSync(join(root, 'test', 'clients', 'python', 'requirements.txt'), 'utf8').matchAll(/^([\w.-]+)==(\S+)$/gm)].map((m) => [m[1], m[2]]))
  return Object.fromEntries(names.map((name) => [name, pins.get(name) ?? assert.fail(`${name} is not pinned with == in test/clients/python/requirements.txt`)]))
}

describeClient("Python's openai client", runPythonClient, requirementPins(['openai', 'pydantic']), CASES, ['server'])
