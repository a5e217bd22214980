import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { root, toSourceImports } from './support/source-imports.js'

const scratch = join(root, 'test', '.readme-examples')

/** The msw major installed here: the examples tagged for it run, with the untagged ones. */
const MSW_MAJOR = Number((createRequire(import.meta.url)('msw/package.json') as { version: string }).version.split('.')[0])

/** The msw majors the package supports, from its peer range (`^2.7.0 || ^3.0.0` gives 2 and 3). */
const mswPeerRange = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> }).peerDependencies['msw'] ?? ''
const SUPPORTED_MAJORS = [...new Set([...mswPeerRange.matchAll(/(?:^|\|\|)\s*[\^~>=]*\s*(\d+)/g)].map((m) => Number(m[1])))]

interface Example {
  /** The first line's name: `readme-example`, or NAME of `// example: NAME`, its tag included. */
  name: string
  /** NAME without its tag, which a block's twins share. */
  base: string
  /** The msw major of a NAME ending in ` (msw N)`; undefined for an example of every major. */
  major: number | undefined
  code: string
}

/**
 * The README's runnable examples: ```ts blocks whose first line is `// readme-example` or
 * `// example: NAME`, up to the closing ``` line. A NAME ending in ` (msw 2)` or ` (msw 3)` is for
 * that msw major only (what differs between them, such as `onUnhandledRequest` and msw 3's
 * `onUnhandledFrame`), and has a twin of the same NAME for the other. test/pack/readme-examples.sh
 * reads the README by the same rules, and runs every example against the packed tarball with msw 2
 * on Node 20 and with msw 3 on Node 24.
 */
function examples(): Example[] {
  const lines = readFileSync(join(root, 'README.md'), 'utf8')
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
  const found: Example[] = []
  for (let i = 0; i < lines.length; i++) {
    const fence = (lines[i] as string).trimEnd()
    if (fence !== '```ts') {
      if (fence.startsWith('```')) while (++i < lines.length && (lines[i] as string).trimEnd() !== '```');
      continue
    }
    const start = i + 1
    let end = start
    while (end < lines.length && (lines[end] as string).trimEnd() !== '```') end++
    i = end
    const head = /^\/\/ (readme-example|example: (.+))$/.exec((lines[start] ?? '').trimEnd())
    if (head === null) continue
    const name = head[2] === undefined ? 'readme-example' : head[2].trim()
    const tag = / \(msw (\d+)\)$/.exec(name)
    found.push({
      name,
      base: tag === null ? name : name.slice(0, tag.index),
      major: tag === null ? undefined : Number(tag[1]),
      code: toSourceImports(lines.slice(start, end).join('\n')),
    })
  }
  return found
}

/** The examples that run against the msw installed here. */
const runnable = (): Example[] => examples().filter((e) => e.major === undefined || e.major === MSW_MAJOR)

describe('README examples', () => {
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  it('has runnable examples, one of them the packed-tarball example', () => {
    const all = examples()
    // test/pack/run.sh runs the one `// readme-example` block with msw 2; it must suit every major.
    expect(all.filter((e) => e.name === 'readme-example')).toEqual([expect.objectContaining({ major: undefined })])
    expect(new Set(all.map((e) => e.name)).size, 'example names are unique').toBe(all.length)
    expect(runnable().length).toBeGreaterThanOrEqual(4)
  })

  it('tags an msw-specific example for a supported major, and gives it a twin for each other one', () => {
    expect(SUPPORTED_MAJORS.length).toBeGreaterThanOrEqual(1)
    expect(SUPPORTED_MAJORS, `the installed msw ${MSW_MAJOR} is one the peer range admits`).toContain(MSW_MAJOR)
    const all = examples()
    const problems: string[] = []
    for (const example of all.filter((e) => e.major !== undefined)) {
      if (!SUPPORTED_MAJORS.includes(example.major as number)) problems.push(`"${example.name}" is for msw ${example.major}, not in the peer range`)
      for (const major of SUPPORTED_MAJORS.filter((m) => m !== example.major)) {
        if (!all.some((e) => e.base === example.base && e.major === major)) problems.push(`"${example.name}" has no twin "${example.base} (msw ${major})"`)
      }
      if (all.some((e) => e.name === example.base)) problems.push(`"${example.base}" is both untagged and tagged`)
    }
    expect(problems).toEqual([])
  })

  it.each(runnable().map((e) => [e.name, e.code]))('runs the %s example as written', async (name, code) => {
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, `${name.replace(/\W+/g, '-')}.ts`)
    writeFileSync(file, `${code}\nexport {}\n`)
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
