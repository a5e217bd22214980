/**
 * Runs every benchmark, one after another, each in a child process of its own (never in parallel:
 * they time themselves), streams their output, collects benchmarks/results/<name>.json and writes
 * benchmarks/RESULTS.md: the machine, the versions, one table of every figure against its target,
 * and a "Where the time goes" section kept by hand (benchmarks/NOTES.md).
 *
 *   npm run bench                 every benchmark
 *   npm run bench -- msw state    a subset, by name
 *
 * Exits 1 when a benchmark exits non-zero, writes no figures, or misses a target.
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { node24Path } from '../test/support/node24.js'
import { type BenchmarkResults, machine as describeMachine, machineLine, machineMarkdown, table } from './support.js'

interface Benchmark {
  /** Its results files: results/<name>.md and .json. */
  name: string
  script: string
  /** Node flags, as its npm script gives them to tsx. */
  flags: string[]
  /** Other names it answers to on the command line. */
  aliases?: string[]
  /** Runs on the npm registry's node@24 (npx) rather than this process's Node. */
  node24?: boolean
}

const BENCHMARKS: readonly Benchmark[] = [
  { name: 'pricing', script: 'pricing.ts', flags: [] },
  { name: 'usage', script: 'usage.ts', flags: [] },
  { name: 'keys-paging', script: 'keys-paging.ts', flags: [], aliases: ['paging'] },
  { name: 'world', script: 'world.ts', flags: ['--expose-gc'] },
  { name: 'state', script: 'state.ts', flags: ['--expose-gc'] },
  { name: 'msw', script: 'msw.ts', flags: ['--expose-gc'] },
  { name: 'server', script: 'server.ts', flags: [] },
  { name: 'load', script: 'load.ts', flags: [] },
  { name: 'provisioning', script: 'provisioning.ts', flags: [] },
  { name: 'embeddings', script: 'embeddings.ts', flags: [] },
  { name: 'chat', script: 'chat.ts', flags: [] },
  { name: 'per-test', script: 'per-test.ts', flags: ['--expose-gc'] },
  // The same figures on Node 24 (issue 38 asks for them reported there too).
  { name: 'per-test-node24', script: 'per-test.ts', flags: ['--expose-gc'], node24: true },
  { name: 'million', script: 'million.ts', flags: ['--expose-gc'] },
]

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const resultsDir = join(here, 'results')

interface Outcome {
  benchmark: Benchmark
  /** False for a benchmark this invocation did not run: its figures are an earlier run's, if any. */
  ranNow: boolean
  exitCode: number | null
  signal: string | null
  seconds: number
  results: BenchmarkResults | undefined
  /** Why the results could not be read, if they could not. */
  problem: string | undefined
}

function select(args: readonly string[]): Benchmark[] {
  if (args.length === 0) return [...BENCHMARKS]
  const unknown = args.filter((a) => !BENCHMARKS.some((b) => b.name === a || b.aliases?.includes(a)))
  if (unknown.length > 0) {
    console.error(`unknown benchmark${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}`)
    process.exit(2)
  }
  return BENCHMARKS.filter((b) => args.some((a) => a === b.name || b.aliases?.includes(a)))
}

const jsonPath = (name: string): string => join(resultsDir, `${name}.json`)

function readResults(name: string): { results: BenchmarkResults | undefined; problem: string | undefined } {
  const path = jsonPath(name)
  if (!existsSync(path)) return { results: undefined, problem: 'wrote no results/<name>.json' }
  try {
    const results = JSON.parse(readFileSync(path, 'utf8')) as BenchmarkResults
    if (!Array.isArray(results.figures)) return { results: undefined, problem: `${name}.json has no figures` }
    return { results, problem: results.figures.length === 0 ? 'no figures' : undefined }
  } catch (error) {
    return { results: undefined, problem: `${name}.json does not parse: ${error instanceof Error ? error.message : String(error)}` }
  }
}

function run(benchmark: Benchmark): Promise<Outcome> {
  // A stale file from an earlier run must not pass for this run's figures.
  rmSync(jsonPath(benchmark.name), { force: true })
  const args = [...benchmark.flags, '--import', 'tsx', join(here, benchmark.script)]
  console.log(`\n${'='.repeat(100)}\n${benchmark.name}: node ${args.map((a) => a.replace(`${root}/`, '')).join(' ')}\n${'='.repeat(100)}`)
  const started = performance.now()
  return new Promise((resolve) => {
    const child = spawn(benchmark.node24 === true ? node24Path() : process.execPath, args, { cwd: root, stdio: 'inherit' })
    const finish = (exitCode: number | null, signal: string | null): void => {
      const seconds = (performance.now() - started) / 1000
      const { results, problem } = readResults(benchmark.name)
      console.log(`\n${benchmark.name}: exit ${exitCode ?? signal}, ${seconds.toFixed(1)} s`)
      resolve({ benchmark, ranNow: true, exitCode, signal, seconds, results, problem })
    }
    child.once('error', (error) => {
      console.error(`${benchmark.name}: could not start: ${error.message}`)
      finish(null, 'spawn error')
    })
    child.once('exit', finish)
  })
}

function version(path: string): string {
  try {
    return (JSON.parse(readFileSync(join(root, path), 'utf8')) as { version: string }).version
  } catch {
    return 'not installed'
  }
}

/** Escapes what would break a Markdown table cell. */
const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

function markdown(outcomes: readonly Outcome[], startedAt: Date, totalSeconds: number, args: readonly string[], load: { start: number; end: number }): string {
  const m = describeMachine()
  const versions = {
    sim: version('package.json'),
    msw: version('node_modules/msw/package.json'),
    typescript: version('node_modules/typescript/package.json'),
    aimock: version('node_modules/@copilotkit/aimock/package.json'),
  }
  const subset = args.length > 0 ? ` -- ${args.join(' ')}` : ''
  const missed = (o: Outcome): number => o.results?.figures.filter((f) => !f.pass).length ?? 0
  const failedRun = (o: Outcome): boolean => o.ranNow && (o.problem !== undefined || (o.exitCode !== 0 && missed(o) === 0))
  const status = (o: Outcome): string => {
    if (!o.ranNow) return o.results ? `not run now: figures of ${o.results.generatedAt}` : 'not run now, no earlier figures'
    if (o.problem !== undefined) return `**${cell(o.problem)}**`
    if (o.exitCode !== 0) return missed(o) > 0 ? 'targets missed' : '**exited non-zero**'
    return 'ok'
  }

  const runRows = outcomes.map((o) => [
    `[${o.benchmark.name}](results/${o.benchmark.name}.md)`,
    `\`${[...o.benchmark.flags, o.benchmark.script].join(' ')}\``,
    o.ranNow ? o.seconds.toFixed(1) : '—',
    !o.ranNow ? '—' : o.exitCode === null ? `signal ${o.signal}` : String(o.exitCode),
    o.results ? String(o.results.figures.length) : '—',
    o.results ? String(missed(o)) : '—',
    status(o),
  ])
  const runs = table(['benchmark', 'script', 'seconds', 'exit', 'figures', 'missed', 'run'], runRows, ['l', 'l', 'r', 'r', 'r', 'r', 'l'])

  const figureRows = outcomes.flatMap((o) =>
    (o.results?.figures ?? []).map((f) => [
      `[${o.benchmark.name}](results/${o.benchmark.name}.md)${o.ranNow ? '' : ' (earlier run)'}`,
      cell(f.what),
      `${cell(f.display)}${typeof f.runs === 'number' ? ` (of ${f.runs})` : ''}`,
      cell(f.target),
      f.pass ? 'pass' : '**FAIL**',
    ]),
  )
  const figures = table(['benchmark', 'what', 'measured (median)', 'target', 'result'], figureRows, ['l', 'l', 'r', 'l', 'l'])
  const failed = outcomes.reduce((n, o) => n + missed(o), 0)
  const total = outcomes.reduce((n, o) => n + (o.results?.figures.length ?? 0), 0)
  const brokenRuns = outcomes.filter(failedRun).length
  const earlier = outcomes.filter((o) => !o.ranNow && o.results).map((o) => o.benchmark.name)

  const notesPath = join(here, 'NOTES.md')
  const notes = existsSync(notesPath) ? `\n${readFileSync(notesPath, 'utf8').trim()}\n` : ''

  return `# Benchmark results

${
    outcomes.some((o) => o.ranNow)
      ? `Generated by \`npm run bench${subset}\` (\`tsx benchmarks/run-all.ts\`) on ${startedAt.toISOString()}, in ${totalSeconds.toFixed(0)} s.
Each benchmark ran alone, one after another, in a child process of its own.`
      : `Collected by \`tsx benchmarks/run-all.ts --collect\` on ${startedAt.toISOString()}: no benchmark ran; each figure is its benchmark's last run, on the date its results file gives.`
  }

${machineMarkdown(m, [
  ['model-access-sim', versions.sim],
  ['msw', versions.msw],
  ['typescript', versions.typescript],
  ['@copilotkit/aimock (bench:chat)', versions.aimock],
  ['Load average (1 min)', `${load.start.toFixed(2)} at the start, ${load.end.toFixed(2)} at the end${Math.max(load.start, load.end) > m.cores ? ` (above ${m.cores}: other processes competed for the CPU)` : ''}`],
])}

## Summary

${total - failed} of ${total} figures meet their targets${failed > 0 ? `; **${failed} missed**` : ''}.${brokenRuns > 0 ? ` **${brokenRuns} benchmark run${brokenRuns > 1 ? 's' : ''} failed** (see "Runs").` : ''}${
    earlier.length > 0 ? `\nThis invocation ran a subset: the figures of ${earlier.join(', ')} are from earlier runs (marked "earlier run"), and do not count towards its exit code.` : ''
  }

## Figures

Every measured value is a median; "(of N)" is how many runs or batches. The link leads to the benchmark's detailed results and method.

${figures.markdown}

## Runs

${runs.markdown}

## Where the time goes

<!-- notes: kept by hand, see benchmarks/NOTES.md -->
${notes}`
}

async function main(): Promise<void> {
  // `--collect`: run nothing, and write RESULTS.md from the results files as they are (after one
  // benchmark was run on its own, `tsx benchmarks/chat.ts`, say).
  const collect = process.argv.includes('--collect')
  const args = process.argv.slice(2).filter((a) => a !== '--' && a !== '--collect')
  const selected = collect ? [] : select(args)
  const startedAt = new Date()
  const loadAtStart = os.loadavg()[0] as number
  console.log(`run-all — ${machineLine(describeMachine())}; ${selected.map((b) => b.name).join(', ')}`)
  const ran = new Map<string, Outcome>()
  for (const benchmark of selected) ran.set(benchmark.name, await run(benchmark))
  const totalSeconds = (Date.now() - startedAt.getTime()) / 1000
  // Every benchmark appears in RESULTS.md; those not run now with their earlier figures, if any.
  const outcomes: Outcome[] = BENCHMARKS.map(
    (benchmark) => ran.get(benchmark.name) ?? { benchmark, ranNow: false, exitCode: null, signal: null, seconds: Number.NaN, ...readResults(benchmark.name) },
  )
  const current = outcomes.filter((o) => o.ranNow)

  const out = join(here, 'RESULTS.md')
  writeFileSync(out, markdown(outcomes, startedAt, totalSeconds, args, { start: loadAtStart, end: os.loadavg()[0] as number }))

  console.log(`\n${'='.repeat(100)}\n`)
  const summary = table(
    ['benchmark', 'seconds', 'exit', 'missed targets'],
    current.map((o) => [o.benchmark.name, o.seconds.toFixed(1), String(o.exitCode ?? o.signal), o.results ? String(o.results.figures.filter((f) => !f.pass).length) : (o.problem ?? '?')]),
    ['l', 'r', 'r', 'l'],
  )
  console.log(summary.text)
  let bad = false
  for (const o of current) {
    if (o.exitCode !== 0) {
      bad = true
      console.error(`${o.benchmark.name}: exited ${o.exitCode ?? `on signal ${o.signal}`}`)
    }
    if (o.problem !== undefined) {
      bad = true
      console.error(`${o.benchmark.name}: ${o.problem}`)
    }
    for (const f of o.results?.figures ?? []) {
      if (!f.pass) {
        bad = true
        console.error(`target missed: ${o.benchmark.name}: ${f.what}: measured ${f.display}, target ${f.target}`)
      }
    }
  }
  console.log(`\nwrote ${out} (${totalSeconds.toFixed(0)} s)`)
  process.exitCode = bad ? 1 : 0
}

await main()
