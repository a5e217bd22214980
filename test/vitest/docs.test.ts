// The documentation of model-access-sim/vitest is test files: the `// vitest-example:` blocks of the
// README and of docs/, and the TSDoc examples of src/vitest, run here by vitest in a child process.
import { describe, expect, it } from 'vitest'
import { examples, isVitestExample, docVitestExamples, runVitest } from '../support/doc-examples.js'

describe('model-access-sim/vitest documentation', () => {
  it('the README and docs/ test files and the TSDoc examples pass under vitest', () => {
    const readme = docVitestExamples()
    const tsdoc = examples().filter((e) => isVitestExample(e.file))
    expect(readme.length).toBeGreaterThanOrEqual(1)
    expect(tsdoc.length).toBeGreaterThanOrEqual(2)
    const run = runVitest('.vitest-examples', [...readme.map((e) => ({ name: `doc ${e.name}`, code: e.code })), ...tsdoc])
    // Every `simTest(` / `Test(` call in them is one test that ran and passed.
    const declared = [...readme, ...tsdoc].reduce((n, e) => n + [...e.code.matchAll(/^\s*\w*[Tt]est(?:\.concurrent)?\(/gm)].length, 0)
    expect(run.tests.length, run.output).toBe(declared)
    expect(run.tests.filter((t) => t.status !== 'passed'), run.output).toEqual([])
    // A whole vitest run in a child process: 20 s on an idle 2-core machine, more when it is shared.
  }, 180_000)
})
