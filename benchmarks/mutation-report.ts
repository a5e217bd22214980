/**
 * Mutation scores per file, from the reports StrykerJS wrote (reports/mutation/*.json), as
 * benchmarks/MUTATION.md: date, machine, versions, and for each mutated file of src/core the
 * mutants killed, timed out, survived and not covered, its score and, where it has one, its
 * target. Targets: at least 90% on src/core/pricing/ (as a whole; its files are shown), auth.ts,
 * usage.ts, params.ts, router.ts, faults.ts and store/rate-limits.ts.
 *
 *   npm run mutation          (stryker run, then this script)
 *   npm run mutation:report   (this script alone, on the last run's report)
 *
 * The score is Stryker's: (killed + timed out) / (killed + timed out + survived + no coverage).
 * Mutants Stryker ignores (static ones, decisions/0018) and those that do not compile are not
 * counted. Exits 1 when a file with a target is below it or was not part of the run.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { machine, machineMarkdown, table } from './support.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const REPORTS = join(ROOT, 'reports/mutation')
const OUT = join(ROOT, 'benchmarks/MUTATION.md')
const TARGET = 90
/** Files (and one directory, as a whole) with a target. */
const TARGETS = ['src/core/pricing/', 'src/core/auth.ts', 'src/core/usage.ts', 'src/core/params.ts', 'src/core/router.ts', 'src/core/faults.ts', 'src/core/store/rate-limits.ts']

type Status = 'Killed' | 'Timeout' | 'Survived' | 'NoCoverage' | 'Ignored' | 'CompileError' | 'RuntimeError' | 'Pending'
interface Report {
  files: Record<string, { mutants: { status: Status }[] }>
}
interface Counts {
  killed: number
  timeout: number
  survived: number
  noCoverage: number
  ignored: number
  errors: number
}

const empty = (): Counts => ({ killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, errors: 0 })
function add(into: Counts, status: Status): void {
  if (status === 'Killed') into.killed++
  else if (status === 'Timeout') into.timeout++
  else if (status === 'Survived') into.survived++
  else if (status === 'NoCoverage') into.noCoverage++
  else if (status === 'Ignored') into.ignored++
  else into.errors++
}
const detected = (c: Counts): number => c.killed + c.timeout
const valid = (c: Counts): number => detected(c) + c.survived + c.noCoverage
const score = (c: Counts): number | undefined => (valid(c) === 0 ? undefined : (100 * detected(c)) / valid(c))
const fmtScore = (s: number | undefined): string => (s === undefined ? 'n/a' : `${s.toFixed(2)}%`)

function version(name: string): string {
  const require = createRequire(join(ROOT, 'package.json'))
  return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version
}

function main(): number {
  // Every report in the directory, oldest first, so that a file takes its latest run's results: a run
  // of a few files (`npm run mutation -- --mutate src/core/auth.ts`) updates those and keeps the rest.
  // Stryker writes mutation.json afresh on each run: kept as run-<time>.json so a later partial run does not lose it.
  const latest = join(REPORTS, 'mutation.json')
  if (existsSync(latest)) copyFileSync(latest, join(REPORTS, `run-${Math.round(statSync(latest).mtimeMs)}.json`))
  const reports = readdirSync(REPORTS)
    .filter((name) => /^run-[\w-]+\.json$/.test(name))
    .map((name) => join(REPORTS, name))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)
  if (reports.length === 0) {
    console.error(`no report in ${REPORTS}: run \`npm run mutation\` first`)
    return 1
  }
  const files = new Map<string, Counts>()
  for (const file of reports) {
    const report = JSON.parse(readFileSync(file, 'utf8')) as Report
    for (const [name, result] of Object.entries(report.files)) {
      const path = name.replace(/\\/g, '/').replace(/^.*?(src\/core\/)/, '$1')
      // A test kept beside its code (`validate.test.ts`) is not code under test: a `--mutate` glob
      // that reaches it (`src/core/pricing/**/*.ts`) must not count its mutants.
      if (path.endsWith('.test.ts')) continue
      const counts = empty()
      for (const mutant of result.mutants) add(counts, mutant.status)
      files.set(path, counts)
    }
  }
  const rows: string[][] = []
  const misses: string[] = []
  const targetOf = (path: string): string | undefined => TARGETS.find((t) => path === t || (t.endsWith('/') && path.startsWith(t)))
  for (const [path, c] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    const s = score(c)
    // A directory's target is on the directory as a whole (its row below); its files are shown for information.
    const target = TARGETS.find((t) => t === path)
    const verdict = target === undefined ? '' : s !== undefined && s >= TARGET ? 'pass' : '**FAIL**'
    if (verdict === '**FAIL**') misses.push(`${path}: ${fmtScore(s)}`)
    rows.push([`\`${path}\``, String(c.killed), String(c.timeout), String(c.survived), String(c.noCoverage), String(c.ignored), fmtScore(s), target === undefined ? '' : `>= ${TARGET}%`, verdict])
  }
  // Directory targets as a whole, and targets the run did not reach.
  for (const target of TARGETS) {
    const members = [...files].filter(([path]) => targetOf(path) === target)
    if (members.length === 0) {
      misses.push(`${target}: not part of this run`)
      rows.push([`\`${target}\``, '', '', '', '', '', 'not run', `>= ${TARGET}%`, '**FAIL**'])
      continue
    }
    if (!target.endsWith('/')) continue
    const total = empty()
    for (const [, c] of members) for (const key of Object.keys(total) as (keyof Counts)[]) total[key] += c[key]
    const s = score(total)
    const verdict = s !== undefined && s >= TARGET ? 'pass' : '**FAIL**'
    if (verdict === '**FAIL**') misses.push(`${target} (all files): ${fmtScore(s)}`)
    rows.push([`\`${target}\` (all files)`, String(total.killed), String(total.timeout), String(total.survived), String(total.noCoverage), String(total.ignored), fmtScore(s), `>= ${TARGET}%`, verdict])
  }
  const all = empty()
  for (const c of files.values()) for (const key of Object.keys(all) as (keyof Counts)[]) all[key] += c[key]
  rows.push(['all mutated files', String(all.killed), String(all.timeout), String(all.survived), String(all.noCoverage), String(all.ignored), fmtScore(score(all)), '', ''])

  const t = table(['file', 'killed', 'timeout', 'survived', 'no coverage', 'ignored (static)', 'score', 'target', 'result'], rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'l'])
  const m = machine()
  const markdown = [
    '# Mutation scores',
    '',
    `Generated by \`npm run mutation\` (StrykerJS, then \`tsx benchmarks/mutation-report.ts\`) on ${new Date().toISOString()}, from the run's report.`,
    '',
    machineMarkdown(m, [
      ['StrykerJS', version('@stryker-mutator/core')],
      ['vitest', version('vitest')],
      ['TypeScript', version('typescript')],
    ]),
    '',
    '## Method',
    '',
    '- `stryker.config.mjs`: the vitest runner with per-test coverage, so each mutant runs only the tests that reach it; the tests of',
    '  `vitest.mutation.config.ts` (every in-process test that reaches the core, without the child-process, fuzz and generator tests).',
    '  The run sets `TZ=Asia/Kolkata` for the test runners, so a window computed in the machine\'s zone fails.',
    '- Score: (killed + timed out) / (killed + timed out + survived + no coverage). Static mutants (module-level code, run once at',
    '  import) are ignored, as decisions/0018 explains; the equivalent survivors it lists are counted as survived here.',
    `- Target: at least ${TARGET}% on \`src/core/pricing/\` (the directory as a whole; its files are shown for information), \`auth.ts\`, \`usage.ts\`, \`params.ts\`, \`router.ts\`, \`faults.ts\` and \`store/rate-limits.ts\`.`,
    '',
    '## Scores',
    '',
    t.markdown,
    '',
    misses.length === 0 ? 'Every file with a target meets it.' : `Missed: ${misses.join('; ')}.`,
    '',
  ].join('\n')
  writeFileSync(OUT, markdown)
  console.log(t.text)
  console.log(misses.length === 0 ? '\nevery target met' : `\ntargets missed: ${misses.join('; ')}`)
  console.log(`wrote ${OUT}`)
  return misses.length === 0 ? 0 : 1
}

process.exitCode = main()
