/**
 * Mutation scores per file, from the reports StrykerJS wrote, as benchmarks/MUTATION.md: date,
 * machine, versions, and for each mutated file the mutants killed, timed out, survived and not
 * covered, its score and, where it has one, its target. Two suites, each a section of the file:
 * - the core (`npm run mutation`, reports/mutation, decisions/0018): at least 90% on
 *   src/core/pricing/ (as a whole; its files are shown), auth.ts, usage.ts, params.ts, router.ts,
 *   faults.ts and store/rate-limits.ts;
 * - the adapters (`npm run mutation:adapters`, reports/mutation-adapters, decisions/0058): at least
 *   85% on every file it mutates, and every mutant left alive listed with the reason it is kept,
 *   read from benchmarks/mutation-kept.json.
 *
 *   npm run mutation:report   (this script alone, on the last runs' reports)
 *
 * A suite with no report on this machine keeps its section of MUTATION.md as it was. The score is
 * Stryker's: (killed + timed out) / (killed + timed out + survived + no coverage). Mutants Stryker
 * ignores (static ones, decisions/0018) and those that do not compile are not counted. Exits 1 when
 * a file with a target is below it, was not part of the run, or an adapter survivor has no reason.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { machine, machineMarkdown, table } from './support.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const OUT = join(ROOT, 'benchmarks/MUTATION.md')
const KEPT = join(ROOT, 'benchmarks/mutation-kept.json')

type Status = 'Killed' | 'Timeout' | 'Survived' | 'NoCoverage' | 'Ignored' | 'CompileError' | 'RuntimeError' | 'Pending'
interface Mutant {
  status: Status
  mutatorName: string
  replacement?: string
  location: { start: { line: number; column: number } }
}
interface Report {
  files: Record<string, { mutants: Mutant[]; source?: string }>
}
interface Counts {
  killed: number
  timeout: number
  survived: number
  noCoverage: number
  ignored: number
  errors: number
}

interface Suite {
  id: 'core' | 'adapters'
  title: string
  command: string
  dir: string
  target: number
  /** Files (and directories, as a whole) with a target; `every` gives every mutated file one. */
  targets: string[] | 'every'
  method: string[]
  /** List every survivor with its reason from mutation-kept.json. */
  listSurvivors: boolean
  /** Files the suite must report on, whether or not a run reached them (a file no run reached fails). */
  expected?: () => string[]
}

const SUITES: Suite[] = [
  {
    id: 'core',
    title: 'The core',
    command: 'npm run mutation',
    dir: join(ROOT, 'reports/mutation'),
    target: 90,
    targets: ['src/core/pricing/', 'src/core/auth.ts', 'src/core/usage.ts', 'src/core/params.ts', 'src/core/router.ts', 'src/core/faults.ts', 'src/core/store/rate-limits.ts'],
    method: [
      '- `stryker.config.mjs`: the vitest runner with per-test coverage, so each mutant runs only the tests that reach it; the tests of',
      '  `vitest.mutation.config.ts` (every in-process test that reaches the core, without the child-process, fuzz and generator tests).',
      "  The run sets `TZ=Asia/Kolkata` for the test runners, so a window computed in the machine's zone fails.",
      '- Static mutants (module-level code, run once at import) are ignored, as decisions/0018 explains; the equivalent survivors it',
      '  lists are counted as survived here.',
      '- Target: at least 90% on `src/core/pricing/` (the directory as a whole; its files are shown for information), `auth.ts`, `usage.ts`,',
      '  `params.ts`, `router.ts`, `faults.ts` and `store/rate-limits.ts`.',
    ],
    listSurvivors: false,
  },
  {
    id: 'adapters',
    title: 'The adapters',
    command: 'npm run mutation:adapters',
    dir: join(ROOT, 'reports/mutation-adapters'),
    target: 85,
    targets: 'every',
    method: [
      '- `stryker.adapters.config.mjs`: the server, its CLI and launcher, the MSW handlers, the vitest fixture, the live-service import and',
      '  check, and the control API, against the in-process tests of `vitest.mutation-adapters.config.ts` (decisions/0058). Process entry',
      '  points of a few lines, which only a child process runs, are left out and listed there.',
      '- Static mutants are ignored, as in the core (decisions/0018).',
      '- Target: at least 85% on every file. Every mutant left alive is listed below with why it is kept (benchmarks/mutation-kept.json).',
    ],
    listSurvivors: true,
    // What stryker.adapters.config.mjs mutates, less the process entry point it leaves out.
    expected: () => [
      ...['src/server', 'src/msw', 'src/vitest', 'src/live'].flatMap((dir) =>
        readdirSync(join(ROOT, dir))
          .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
          .map((name) => `${dir}/${name}`),
      ),
      'src/core/control-api.ts',
    ].filter((path) => path !== 'src/server/cli-entry.ts' && !reExportsOnly(path)),
  },
]

/** A module of re-exports alone (`export { x } from './y.js'`) has nothing to mutate, and no run reports it. */
function reExportsOnly(path: string): boolean {
  const code = readFileSync(join(ROOT, path), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => line.replace(/\/\/.*$/, '').trim())
    .filter((line) => line !== '')
  return code.every((line) => /^export (type )?(\*|\{[^}]*\}) from ['"][^'"]+['"]$/.test(line))
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

/** A survivor's key in mutation-kept.json: file, line and mutator, such as `src/msw/route.ts:42 StringLiteral`. */
export const keptKey = (path: string, mutant: Mutant): string => `${path}:${mutant.location.start.line} ${mutant.mutatorName}`

const begin = (id: string): string => `<!-- suite:${id} -->`
const end = (id: string): string => `<!-- /suite:${id} -->`

/** The suite's section, or undefined when no run of it left a report here. */
function section(suite: Suite, kept: Record<string, string>, misses: string[]): string | undefined {
  if (!existsSync(suite.dir)) return undefined
  // Every report in the directory, oldest first, so that a file takes its latest run's results: a run
  // of a few files (`npm run mutation -- --mutate src/core/auth.ts`) updates those and keeps the rest.
  // Stryker writes mutation.json afresh on each run: kept as run-<time>.json so a later partial run does not lose it.
  const latest = join(suite.dir, 'mutation.json')
  if (existsSync(latest)) copyFileSync(latest, join(suite.dir, `run-${Math.round(statSync(latest).mtimeMs)}.json`))
  const reports = readdirSync(suite.dir)
    .filter((name) => /^run-[\w-]+\.json$/.test(name))
    .map((name) => join(suite.dir, name))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)
  if (reports.length === 0) return undefined
  const files = new Map<string, { counts: Counts; alive: Mutant[]; span: string }>()
  for (const file of reports) {
    const report = JSON.parse(readFileSync(file, 'utf8')) as Report
    for (const [name, result] of Object.entries(report.files)) {
      const path = name.replace(/\\/g, '/').replace(/^.*?(src\/)/, '$1')
      // A test kept beside its code (`validate.test.ts`) is not code under test: a `--mutate` glob
      // that reaches it (`src/core/pricing/**/*.ts`) must not count its mutants.
      if (path.endsWith('.test.ts')) continue
      const counts = empty()
      for (const mutant of result.mutants) add(counts, mutant.status)
      // Where its mutants are, of how many lines: a run of a line range (--mutate file:10-200) shows as part of the file.
      const lines = result.mutants.map((m) => m.location.start.line)
      const span = lines.length === 0 ? '' : `${Math.min(...lines)}–${Math.max(...lines)} of ${result.source === undefined ? '?' : result.source.split('\n').length}`
      files.set(path, { counts, alive: result.mutants.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage'), span })
    }
  }
  const targets = suite.targets === 'every' ? [...new Set([...files.keys(), ...(suite.expected?.() ?? [])])] : suite.targets
  const rows: string[][] = []
  const targetOf = (path: string): string | undefined => targets.find((t) => path === t || (t.endsWith('/') && path.startsWith(t)))
  for (const [path, { counts: c, span }] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    const s = score(c)
    // A directory's target is on the directory as a whole (its row below); its files are shown for information.
    const target = targets.find((t) => t === path)
    // A file with no mutant to count (re-exports only) has nothing to miss.
    const verdict = target === undefined ? '' : s === undefined ? 'no mutants' : s >= suite.target ? 'pass' : '**FAIL**'
    if (verdict === '**FAIL**') misses.push(`${path}: ${fmtScore(s)}`)
    rows.push([`\`${path}\``, span, String(c.killed), String(c.timeout), String(c.survived), String(c.noCoverage), String(c.ignored), fmtScore(s), target === undefined ? '' : `>= ${suite.target}%`, verdict])
  }
  for (const target of targets) {
    const members = [...files].filter(([path]) => targetOf(path) === target)
    if (members.length === 0) {
      misses.push(`${target}: not part of this run`)
      rows.push([`\`${target}\``, '', '', '', '', '', '', 'not run', `>= ${suite.target}%`, '**FAIL**'])
      continue
    }
    if (!target.endsWith('/')) continue
    const total = empty()
    for (const [, { counts: c }] of members) for (const key of Object.keys(total) as (keyof Counts)[]) total[key] += c[key]
    const s = score(total)
    const verdict = s !== undefined && s >= suite.target ? 'pass' : '**FAIL**'
    if (verdict === '**FAIL**') misses.push(`${target} (all files): ${fmtScore(s)}`)
    rows.push([`\`${target}\` (all files)`, '', String(total.killed), String(total.timeout), String(total.survived), String(total.noCoverage), String(total.ignored), fmtScore(s), `>= ${suite.target}%`, verdict])
  }
  const all = empty()
  for (const { counts: c } of files.values()) for (const key of Object.keys(all) as (keyof Counts)[]) all[key] += c[key]
  rows.push(['all mutated files', '', String(all.killed), String(all.timeout), String(all.survived), String(all.noCoverage), String(all.ignored), fmtScore(score(all)), '', ''])
  const t = table(['file', 'mutant lines', 'killed', 'timeout', 'survived', 'no coverage', 'ignored (static)', 'score', 'target', 'result'], rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'l'])
  console.log(`${suite.title}:\n${t.text}`)
  const lines = [begin(suite.id), `## ${suite.title}`, '', `\`${suite.command}\`, last run ${new Date(statSync(reports[reports.length - 1] as string).mtimeMs).toISOString()}.`, '', '### Method', '', ...suite.method, '', '### Scores', '', t.markdown, '']
  if (suite.listSurvivors) {
    const alive: string[][] = []
    for (const [path, { alive: mutants }] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
      for (const mutant of mutants.sort((a, b) => a.location.start.line - b.location.start.line)) {
        const key = keptKey(path, mutant)
        const why = kept[key]
        if (why === undefined) misses.push(`${key}: survived with no reason in benchmarks/mutation-kept.json`)
        const replacement = (mutant.replacement ?? '').replace(/\s+/g, ' ').slice(0, 60).replace(/\|/g, '\\|').replace(/`/g, "'")
        alive.push([`\`${key}\``, mutant.status === 'NoCoverage' ? 'no coverage' : 'survived', replacement === '' ? '' : `\`${replacement}\``, why ?? '**no reason recorded**'])
      }
    }
    lines.push('### Mutants left alive, and why', '')
    lines.push(alive.length === 0 ? 'None.' : table(['mutant (file:line mutator)', 'status', 'replacement', 'why it is kept'], alive, ['l', 'l', 'l', 'l']).markdown)
    lines.push('')
  }
  lines.push(end(suite.id))
  return lines.join('\n')
}

function main(): number {
  const kept = existsSync(KEPT) ? (JSON.parse(readFileSync(KEPT, 'utf8')) as Record<string, string>) : {}
  const previous = existsSync(OUT) ? readFileSync(OUT, 'utf8') : ''
  const misses: string[] = []
  const sections: string[] = []
  for (const suite of SUITES) {
    mkdirSync(dirname(OUT), { recursive: true })
    const made = section(suite, kept, misses)
    if (made !== undefined) {
      sections.push(made)
      continue
    }
    // Not run here: the section as the last run wrote it.
    const from = previous.indexOf(begin(suite.id))
    const to = previous.indexOf(end(suite.id))
    if (from !== -1 && to !== -1) sections.push(previous.slice(from, to + end(suite.id).length))
    else misses.push(`${suite.title.toLowerCase()}: no report (run \`${suite.command}\`)`)
  }
  const m = machine()
  const markdown = [
    '# Mutation scores',
    '',
    'Generated by `tsx benchmarks/mutation-report.ts` (run after `npm run mutation` and `npm run mutation:adapters`) from the runs\' reports.',
    `Written ${new Date().toISOString()} on:`,
    '',
    machineMarkdown(m, [
      ['StrykerJS', version('@stryker-mutator/core')],
      ['vitest', version('vitest')],
      ['TypeScript', version('typescript')],
    ]),
    '',
    'Score: (killed + timed out) / (killed + timed out + survived + no coverage).',
    '',
    ...sections.flatMap((s) => [s, '']),
    misses.length === 0 ? 'Every file with a target meets it.' : `Missed: ${misses.join('; ')}.`,
    '',
  ].join('\n')
  writeFileSync(OUT, markdown)
  console.log(misses.length === 0 ? '\nevery target met' : `\ntargets missed:\n${misses.join('\n')}`)
  console.log(`wrote ${OUT}`)
  return misses.length === 0 ? 0 : 1
}

process.exitCode = main()
