import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { format } from 'node:util'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { entryPointFiles, root, toSourceImports } from './support/source-imports.js'

const scratch = join(root, 'test', '.tsdoc-examples')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** Every `@example` in src/, with the file it documents and the lines its `//=>` comments promise. */
function examples(): { name: string; file: string; code: string; expected: string[] }[] {
  return sourceFiles(join(root, 'src')).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/@example\n([\s\S]*?)(?=\n \*\/| \* @)/g)].map((m, i) => {
      const code = toSourceImports(
        (m[1] as string)
          .split('\n')
          .map((line) => line.replace(/^ \* ?/, ''))
          .join('\n'),
      ).replace(/from '(\.{1,2}\/[^']+)'/g, (_, rel: string) => `from '${resolve(dirname(file), rel).replace(/\.js$/, '.ts')}'`)
      const expected = [...code.matchAll(/^\s*\/\/=> (.*)$/gm)].map((e) => e[1] as string)
      return { name: `${relative(root, file)} #${i + 1}`, file, code, expected }
    }),
  )
}

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

  it.each(examples().map((e) => [e.name, e]))('%s prints what its //=> comments say', async (_, example) => {
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
