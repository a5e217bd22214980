// The lists in the documentation that mirror the code (the operations, the control API's routes, the
// fault presets) are written by scripts/docs-lists.ts between `<!-- generated: NAME -->` and
// `<!-- /generated -->`. This fails, naming the file and the list, when a committed one differs from
// what the script would write now: run `npm run docs:lists` and commit the result.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { docFiles } from '../scripts/doc-files.js'
import { type CodeFacts, LISTS, readCode, rewrite } from '../scripts/docs-lists.js'
import { root } from './support/source-imports.js'

describe('generated lists in the documentation', () => {
  let facts: CodeFacts
  beforeAll(async () => {
    facts = await readCode()
  }, 60_000)

  it('reads every list from the code', () => {
    expect(facts.operations.length).toBeGreaterThanOrEqual(24)
    expect(facts.control.routes.length).toBeGreaterThanOrEqual(30)
    expect(facts.control.presets.map((p) => p.name)).toEqual(expect.arrayContaining(['providerDown', 'serviceUnavailable', 'internalError']))
    // Every list renders: a control route without a line in scripts/docs-lists.ts throws, naming it.
    for (const render of Object.values(LISTS)) expect(render(facts)).toMatch(/^\| /)
  })

  it('shows each list somewhere, in README.md or docs/', () => {
    const shown = docFiles().flatMap((file) => rewrite(file, readFileSync(join(root, file), 'utf8'), facts).blocks.map((b) => b.name))
    expect(Object.keys(LISTS).filter((name) => !shown.includes(name))).toEqual([])
  })

  it.each(docFiles())('%s: every generated list is as the code has it', (file) => {
    const { blocks } = rewrite(file, readFileSync(join(root, file), 'utf8'), facts)
    for (const block of blocks) {
      expect(block.committed, `${file}:${block.line}: the "${block.name}" list differs from the code; run \`npm run docs:lists\``).toBe(block.generated)
    }
  })
})
