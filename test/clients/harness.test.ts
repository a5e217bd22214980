import { describe, expect, it } from 'vitest'
import { parseRun, runNodeClient } from './support/child.js'
import { CASE_LINE, VERSION_LINE } from './support/lines.js'

// The harness the real-client tests stand on (decisions/0040): what a child reports, and what its
// silence means.
describe('the real-client harness', () => {
  it('reads the case and version lines of a child, and nothing else it prints', () => {
    const stdout = [
      `${VERSION_LINE}{"name":"openai","version":"7.59.0"}`,
      'a line the client printed',
      `${CASE_LINE}{"target":"msw","case":"chat","ok":true,"ms":3}`,
      `${CASE_LINE}{"target":"server","case":"chat","ok":false,"error":"AssertionError: no","ms":4}`,
    ].join('\n')
    const run = parseRun(stdout, '', 'exit 0', 'run npm ci')
    expect(run.versions).toEqual(new Map([['openai', '7.59.0']]))
    expect(run.results.map((r) => [r.target, r.case, r.ok])).toEqual([
      ['msw', 'chat', true],
      ['server', 'chat', false],
    ])
  })

  it('fails a child that ran no case, saying what to install and what it printed', () => {
    expect(() => parseRun('', "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'openai'", 'exit 1', 'Run npm ci.')).toThrow(
      /ran no case \(exit 1\)\. Run npm ci\.[\s\S]*Cannot find package 'openai'/,
    )
  })

  it('runs every case through MSW and the server on Node 24, a failing case failing alone with its message', async () => {
    const run = await runNodeClient('support/self-check.client.ts')
    expect(run.results.map((r) => [r.target, r.case, r.ok])).toEqual([
      ['msw', 'reaches the simulator', true],
      ['msw', 'fails on purpose', false],
      ['server', 'reaches the simulator', true],
      ['server', 'fails on purpose', false],
    ])
    expect(run.results[1]?.error).toMatch(/^AssertionError: a failing case/)
  })
})
