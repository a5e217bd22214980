import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { docFiles } from '../scripts/doc-files.js'
import { type DocExample, docExamples } from './support/doc-examples.js'
import { node24Path } from './support/node24.js'
import { root, toSourceImports } from './support/source-imports.js'

const scratch = join(root, 'test', '.readme-examples')

/** The msw major installed here: the examples tagged for it run, with the untagged ones. */
const MSW_MAJOR = Number((createRequire(import.meta.url)('msw/package.json') as { version: string }).version.split('.')[0])

/** The msw majors the package supports, from its peer range (`^2.7.0 || ^3.0.0` gives 2 and 3). */
const mswPeerRange = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> }).peerDependencies['msw'] ?? ''
const SUPPORTED_MAJORS = [...new Set([...mswPeerRange.matchAll(/(?:^|\|\|)\s*[\^~>=]*\s*(\d+)/g)].map((m) => Number(m[1])))]

/**
 * The runnable examples of the README and of every guide in docs/ (test/support/doc-examples.ts
 * reads them): ```ts blocks whose first line is `// readme-example` or `// example: NAME`. A NAME
 * ending in ` (msw 2)` or ` (msw 3)` is for that msw major only (what differs between them, such as
 * `onUnhandledRequest` and msw 3's `onUnhandledFrame`), and has a twin of the same NAME in the same
 * file for the other. test/pack/readme-examples.sh reads the same files by the same rules, and runs
 * every example against the packed tarball with msw 2 on Node 20 and with msw 3 on Node 24.
 */
function examples(): (DocExample & { source: string })[] {
  return docExamples()
    .filter((e) => e.kind === 'example')
    .map((e) => ({ ...e, source: toSourceImports(e.code) }))
}

/** The examples that run against the msw installed here. */
const runnable = (): ReturnType<typeof examples> => examples().filter((e) => e.major === undefined || e.major === MSW_MAJOR)

describe('README and docs/ examples', () => {
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  it('has runnable examples, one of them the packed-tarball example', () => {
    const all = examples()
    // test/pack/run.sh runs the README's one `// readme-example` block with msw 2; it must suit every major.
    expect(all.filter((e) => e.name === 'readme-example')).toEqual([expect.objectContaining({ file: 'README.md', major: undefined })])
    const every = docExamples()
    expect(new Set(every.map((e) => e.label)).size, 'example names are unique in each file').toBe(every.length)
    expect(runnable().length).toBeGreaterThanOrEqual(4)
    // Every guide in docs/ is read, and the README still shows examples of its own.
    expect(docFiles().length).toBeGreaterThan(1)
    expect(all.filter((e) => e.file === 'README.md').length).toBeGreaterThanOrEqual(2)
  })

  it('names, under Tested clients, the exact versions the repository pins for the clients CI runs', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const section = /^## Tested clients\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? ''
    const rows = [...section.matchAll(/^\| `([^`]+)`([^|]*)\| ([^|]+) \|$/gm)].map((m) => [`${m[1]}${m[2]?.includes('for Python') ? ' (Python)' : ''}`, m[3]?.trim()])
    const dev = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies
    const python = readFileSync(join(root, 'test', 'clients', 'python', 'requirements.txt'), 'utf8')
    const pinned = (name: string): string | undefined => (name.endsWith(' (Python)') ? new RegExp(`^${name.split(' ')[0]}==(\\S+)$`, 'm').exec(python)?.[1] : dev[name])
    const clients = ['openai', 'ai', '@openrouter/ai-sdk-provider', '@langchain/openai', '@langchain/openrouter', '@langchain/core', 'openai (Python)', '@openrouter/sdk']
    expect(rows.map(([name]) => name).sort()).toEqual([...clients].sort())
    expect(rows).toEqual(rows.map(([name]) => [name, pinned(name ?? '')]))
  })

  it('tags an msw-specific example for a supported major, and gives it a twin for each other one', () => {
    expect(SUPPORTED_MAJORS.length).toBeGreaterThanOrEqual(1)
    expect(SUPPORTED_MAJORS, `the installed msw ${MSW_MAJOR} is one the peer range admits`).toContain(MSW_MAJOR)
    const all = examples()
    const problems: string[] = []
    for (const example of all.filter((e) => e.major !== undefined)) {
      const here = all.filter((e) => e.file === example.file)
      if (!SUPPORTED_MAJORS.includes(example.major as number)) problems.push(`"${example.label}" is for msw ${example.major}, not in the peer range`)
      for (const major of SUPPORTED_MAJORS.filter((m) => m !== example.major)) {
        if (!here.some((e) => e.base === example.base && e.major === major)) problems.push(`"${example.label}" has no twin "${example.base} (msw ${major})" in ${example.file}`)
      }
      if (here.some((e) => e.name === example.base)) problems.push(`"${example.base}" is both untagged and tagged in ${example.file}`)
    }
    expect(problems).toEqual([])
  })

  it.each(runnable().map((e) => [e.label, e.source, e.node]))('runs the %s example as written', async (name, code, node) => {
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, `${name.replace(/\W+/g, '-')}.ts`)
    writeFileSync(file, `${code}\nexport {}\n`)
    if (node === 24) {
      // A client whose engines need Node 22+ (decisions/0040): run by tsx on Node 24, in a child.
      const run = spawnSync(node24Path(), [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), file], { cwd: root, encoding: 'utf8', timeout: 120_000 })
      const output = `exit ${String(run.status ?? run.signal)}\n${run.stdout}${run.stderr}`
      expect(run.status, output).toBe(0)
      expect(run.stderr, output).toBe('')
      return
    }
    // Each example asserts with node:assert; importing it runs it, and a failed assertion rejects.
    // What it prints as an error is kept off the test output and checked: only an example about
    // unhandled requests may print, and then only MSW's own message about one.
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      await expect(import(pathToFileURL(file).href)).resolves.toBeDefined()
      const errors = printed.mock.calls.map((args) => args.map(String).join(' '))
      if (/unhandled requests/.test(name)) for (const error of errors) expect(error).toMatch(/\[MSW\] Error: intercepted a request without a matching request handler/)
      else expect(errors).toEqual([])
    } finally {
      printed.mockRestore()
    }
  })
})
