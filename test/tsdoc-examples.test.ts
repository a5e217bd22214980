import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { format } from 'node:util'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { examples, isVitestExample } from './support/doc-examples.js'
import { entryPointFiles, root } from './support/source-imports.js'

const scratch = join(root, 'test', '.tsdoc-examples')

/** What console.log printed, with non-string values as JSON: the form `//=>` comments use. */
function printed(args: unknown[]): string {
  return args.length === 1 && typeof args[0] !== 'string' ? JSON.stringify(args[0]) : format(...args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))))
}

describe('TSDoc examples', () => {
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  it('documents every runtime export of the public entry points with an example', async () => {
    const documented = new Set(examples().flatMap((e) => [...e.code.matchAll(/import \{([^}]+)\}/g)].flatMap((m) => (m[1] as string).split(',').map((n) => n.trim()))))
    for (const entry of entryPointFiles) {
      const exports = Object.keys(await import(join(root, entry)))
      expect(exports.filter((name) => !documented.has(name)), entry).toEqual([])
    }
  })

  // model-access-sim/vitest's examples are test files: test/vitest/docs.test.ts runs them with vitest.
  it.each(examples().filter((e) => !isVitestExample(e.file)).map((e) => [e.name, e]))('%s prints what its //=> comments say', async (_, example) => {
    mkdirSync(scratch, { recursive: true })
    const path = join(scratch, `${example.name.replace(/\W+/g, '-')}.ts`)
    writeFileSync(path, `${example.code}\nexport {}\n`)
    const lines: string[] = []
    const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(...printed(args).split('\n')))
    try {
      await import(pathToFileURL(path).href)
    } finally {
      spy.mockRestore()
    }
    expect(example.expected.length).toBeGreaterThan(0)
    expect(lines).toEqual(example.expected)
  })
})
