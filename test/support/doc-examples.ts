// The documentation's runnable examples: TSDoc `@example` blocks in src/ and the README's blocks.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
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

/** The README's vitest test files: ```ts blocks whose first line is `// vitest-example: name`. */
export function readmeVitestExamples(): { name: string; code: string }[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  return [...readme.matchAll(/```ts\n\/\/ vitest-example: ([^\n]+)\n([\s\S]*?)```/g)].map((m) => ({ name: m[1] as string, code: toSourceImports(m[2] as string) }))
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
