// Helpers shared by the benchmark scripts: timing, formatting, tables and the machine description.
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** mulberry32: a tiny seeded PRNG for a benchmark's own inputs. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

export const nowNs = (): bigint => process.hrtime.bigint()
export const msSince = (start: bigint): number => Number(nowNs() - start) / 1e6
export const gc = (): void => (globalThis as { gc?: () => void }).gc?.()

export const fmtInt = (n: number): string => n.toLocaleString('en-US')
export const fmtNs = (ns: number): string => fmtInt(Math.round(ns))
export const fmtMs = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2))
export const fmtRatio = (r: number): string => `${r.toFixed(2)}×`

/** The spread of per-round ratios, `min×–max×`: every ratio figure is reported with it. */
export const ratioSpread = (ratios: readonly number[]): string => `${fmtRatio(Math.min(...ratios))}–${fmtRatio(Math.max(...ratios))}`

/** The same rows as aligned text for the terminal and as a Markdown table for the results file. */
export function table(header: string[], rows: string[][], align: ('l' | 'r')[]): { text: string; markdown: string } {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)))
  const pad = (cell: string, i: number): string => (align[i] === 'r' ? cell.padStart(widths[i] as number) : cell.padEnd(widths[i] as number))
  const text = [header.map(pad).join('  '), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map((r) => r.map(pad).join('  '))].join('\n')
  const markdown = [
    `| ${header.join(' | ')} |`,
    `|${align.map((a) => (a === 'r' ? '---:' : ':---')).join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n')
  return { text, markdown }
}

export interface Machine {
  cpu: string
  cores: number
  memoryGB: number
  node: string
  platform: string
  gcExposed: boolean
}

export function machine(): Machine {
  const cpus = os.cpus()
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGB: os.totalmem() / 2 ** 30,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
  }
}

export function machineLine(m: Machine): string {
  return `${m.cpu}, ${m.cores} cores, ${m.memoryGB.toFixed(1)} GiB, Node ${m.node}`
}

/**
 * The machine as the two-column Markdown table every results file starts with; `rows` replace the
 * last line (whether `global.gc` is exposed), which a summary of several processes has no use for.
 */
export function machineMarkdown(m: Machine, rows: readonly (readonly [string, string])[] = [['`global.gc` exposed', m.gcExposed ? 'yes' : 'no (GC not forced between phases)']]): string {
  const lines: (readonly [string, string])[] = [['CPU', m.cpu], ['Cores', String(m.cores)], ['Memory', `${m.memoryGB.toFixed(1)} GiB`], ['Node', m.node], ['Platform', m.platform], ...rows]
  return ['| | |', '|:---|:---|', ...lines.map(([name, value]) => `| ${name} | ${value} |`)].join('\n')
}

/** Writes benchmarks/results/<name>.md and says where. */
export function writeResults(name: string, markdown: string): void {
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', `${name}.md`)
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, markdown)
  console.log(`\nwrote ${out}`)
}

// ---------------------------------------------------------------------------------------------
// The common result protocol: every benchmark writes benchmarks/results/<name>.json beside its
// .md, and exits 1 when a figure misses its target. benchmarks/run-all.ts collects the JSON files
// into benchmarks/RESULTS.md.

/** Units a figure is measured in. */
export type FigureUnit = 'ms' | 'ns' | 'x' | 'MiB' | 'ops/s' | 'req/s' | 'entries'

/** One measured figure with its target, as written to results/<name>.json. */
export interface Figure {
  /** Stable identifier within the benchmark: `keys-ratio`, `reset-ms`... */
  id: string
  /** What was measured, in words. */
  what: string
  /** The median (NaN, written as null, when it could not be measured). */
  measured: number
  unit: FigureUnit
  /** The measured value as shown: `1.23×`, `4.56 ms`. */
  display: string
  /** The target as text: `<= 1.25x`. */
  target: string
  pass: boolean
  /** How many runs or batches the median is over. */
  runs: number
}

export interface BenchmarkResults {
  name: string
  generatedAt: string
  figures: Figure[]
}

const UNIT_SUFFIX: Record<FigureUnit, string> = { ms: ' ms', ns: ' ns', x: 'x', MiB: ' MiB', 'ops/s': ' ops/s', 'req/s': ' req/s', entries: ' entries' }

/** Formats a value in its unit, for `display`. */
export function fmtUnit(value: number, unit: FigureUnit): string {
  if (!Number.isFinite(value)) return 'not measured'
  switch (unit) {
    case 'ms':
      return `${fmtMs(value)} ms`
    case 'ns':
      return `${fmtNs(value)} ns`
    case 'x':
      return fmtRatio(value)
    case 'MiB':
      return `${value.toFixed(value >= 10 ? 1 : 2)} MiB`
    default:
      return `${fmtInt(Math.round(value))}${UNIT_SUFFIX[unit]}`
  }
}

/**
 * A figure checked against its target: `measured <= bound` (or `>=`). A measurement that is not a
 * finite number never passes. `display` defaults to the value formatted in its unit.
 */
export function figure(spec: {
  id: string
  what: string
  measured: number
  unit: FigureUnit
  runs: number
  op: '<=' | '>='
  bound: number
  display?: string
}): Figure {
  const { id, what, measured, unit, runs, op, bound } = spec
  const pass = Number.isFinite(measured) && (op === '<=' ? measured <= bound : measured >= bound)
  const boundText = unit === 'x' ? `${bound}x` : `${bound.toLocaleString('en-US')}${UNIT_SUFFIX[unit]}`
  let display = spec.display ?? fmtUnit(measured, unit)
  // A ratio that rounds to its bound but misses it: show the digit that decides.
  if (spec.display === undefined && unit === 'x' && !pass && Number.isFinite(measured) && measured.toFixed(2) === bound.toFixed(2)) display = `${measured.toFixed(3)}×`
  return { id, what, measured, unit, display, target: `${op} ${boundText}`, pass, runs }
}

/** The figures as a Markdown table (and aligned text), with a pass / **FAIL** column. */
export function figuresTable(figures: readonly Figure[]): { text: string; markdown: string } {
  return table(
    ['figure', 'measured (median)', 'runs', 'target', 'result'],
    figures.map((f) => [f.what, f.display, String(f.runs), f.target, f.pass ? 'pass' : '**FAIL**']),
    ['l', 'r', 'r', 'l', 'l'],
  )
}

/**
 * Writes benchmarks/results/<name>.json, prints the figures, and for each figure that misses its
 * target prints `target missed: ...` to stderr and sets process.exitCode to 1.
 */
export function writeFigures(name: string, figures: readonly Figure[]): void {
  const results: BenchmarkResults = { name, generatedAt: new Date().toISOString(), figures: [...figures] }
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', `${name}.json`)
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`)
  console.log(`\n${figuresTable(figures).text}`)
  console.log(`\nwrote ${out}`)
  for (const f of figures) {
    if (!f.pass) {
      console.error(`target missed: ${name}: ${f.what}: measured ${f.display}, target ${f.target}`)
      process.exitCode = 1
    }
  }
}

/** The results file and the figures file together; the Markdown gets a "Targets" section with the figures. */
export function writeReport(name: string, markdown: string, figures: readonly Figure[]): void {
  writeResults(name, `${markdown.trimEnd()}\n\n## Targets\n\nEach measured value is a median; "runs" is how many runs or batches it is the median of.\n\n${figuresTable(figures).markdown}\n`)
  writeFigures(name, figures)
}
