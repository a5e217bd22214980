// The documentation's runnable examples: TSDoc `@example` blocks in src/, and the blocks of the README
// and of every guide in docs/.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { docFiles } from '../../scripts/doc-files.js'
import { root, toSourceImports } from './source-imports.js'

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** Every `@example` in src/, with the file it documents and the lines its `//=>` comments promise. */
export function examples(): { name: string; file: string; code: string; expected: string[] }[] {
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

/** Whether an example documents model-access-sim/vitest: a test file, for vitest itself to run. */
export function isVitestExample(file: string): boolean {
  return relative(root, file).startsWith(join('src', 'vitest'))
}


/** A runnable block of README.md or a guide in docs/. */
export interface DocExample {
  /** The file it is in, relative to the root (`docs/spending.md`). */
  file: string
  /** Its first line's name: `readme-example`, or NAME of `// example: NAME` or `// vitest-example: NAME`, its tag included. */
  name: string
  /** The file and the name (`docs/spending.md: embeddings`): what tests and scripts report, unique. */
  label: string
  /** NAME without its tag, which a block's twins (in the same file) share. */
  base: string
  /** The msw major of a NAME ending in ` (msw N)`; undefined for an example of every major. */
  major: number | undefined
  /**
   * 24 for a NAME ending in ` (node 24)`: an example of a client whose engines need Node 22+, run on
   * Node 24 (in a child process under vitest, in the Node 24 project of test/pack/readme-examples.sh).
   */
  node: 24 | undefined
  /** `example` runs as a script (node:assert); `vitest` is a test file, for vitest to run. */
  kind: 'example' | 'vitest'
  /** The block's first line, 1-based. */
  line: number
  /** The block as written, its first line included, with the package's imports. */
  code: string
}

/**
 * Every runnable block of the documentation: ```ts blocks whose first line is `// readme-example`,
 * `// example: NAME` or `// vitest-example: NAME`, up to the closing ``` line. A NAME ending in
 * ` (msw 2)` or ` (msw 3)` is for that msw major only, and has a twin of the same NAME in the same
 * file for the other; one ending in ` (node 24)` runs on Node 24 only. test/pack/readme-examples.sh
 * reads the same files by the same rules.
 */
export function docExamples(): DocExample[] {
  return docFiles().flatMap((file) => {
    const lines = readFileSync(join(root, file), 'utf8')
      .split('\n')
      .map((line) => line.replace(/\r$/, ''))
    const found: DocExample[] = []
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
      const head = /^\/\/ (readme-example|example: (.+)|vitest-example: (.+))$/.exec((lines[start] ?? '').trimEnd())
      if (head === null) continue
      const name = head[1] === 'readme-example' ? 'readme-example' : (head[2] ?? head[3] ?? '').trim()
      const tag = / \(msw (\d+)\)$/.exec(name)
      const node = name.endsWith(' (node 24)') ? 24 : undefined
      found.push({
        file,
        name,
        label: `${file}: ${name}`,
        base: tag === null ? name : name.slice(0, tag.index),
        major: tag === null ? undefined : Number(tag[1]),
        node,
        kind: head[3] === undefined ? 'example' : 'vitest',
        line: start + 1,
        code: lines.slice(start, end).join('\n'),
      })
    }
    return found
  })
}

/** The documentation's vitest test files (`// vitest-example: NAME` blocks), unbuilt, named by file and name. */
export function docVitestExamples(): { name: string; code: string }[] {
  return docExamples()
    .filter((e) => e.kind === 'vitest')
    .map((e) => ({ name: e.label, code: toSourceImports(e.code) }))
}

export interface VitestRun {
  /** Full name of every test, with its state: passed, failed, skipped... */
  tests: { name: string; status: string; messages: string[] }[]
  output: string
}

/**
 * Runs test files with vitest in a child process (a test file cannot declare tests inside a
 * running test): each `files` entry is written to a scratch directory and run there.
 */
export function runVitest(scratchName: string, files: { name: string; code: string }[]): VitestRun {
  const dir = join(root, 'test', scratchName)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  try {
    for (const file of files) writeFileSync(join(dir, `${file.name.replace(/\W+/g, '-')}.example.ts`), file.code)
    writeFileSync(join(dir, 'vitest.config.mjs'), "export default { test: { include: ['*.example.ts'], testTimeout: 30000 } }\n")
    const report = join(dir, 'report.json')
    const run = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', dir, '--reporter=json', `--outputFile=${report}`], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, FORCE_COLOR: '0' },
    })
    const output = `${run.stdout}${run.stderr}`
    let parsed: { testResults?: { assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[] } = {}
    try {
      parsed = JSON.parse(readFileSync(report, 'utf8'))
    } catch {
      // No report: the run itself failed; the output says why.
    }
    const tests = (parsed.testResults ?? []).flatMap((file) => file.assertionResults.map((t) => ({ name: t.fullName, status: t.status, messages: t.failureMessages })))
    return { tests, output }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
