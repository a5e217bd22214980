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

/** The machine as the two-column Markdown table every results file starts with. */
export function machineMarkdown(m: Machine): string {
  return `| | |
|:---|:---|
| CPU | ${m.cpu} |
| Cores | ${m.cores} |
| Memory | ${m.memoryGB.toFixed(1)} GiB |
| Node | ${m.node} |
| Platform | ${m.platform} |
| \`global.gc\` exposed | ${m.gcExposed ? 'yes' : 'no (GC not forced between phases)'} |`
}

/** Writes benchmarks/results/<name>.md and says where. */
export function writeResults(name: string, markdown: string): void {
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', `${name}.md`)
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, markdown)
  console.log(`\nwrote ${out}`)
}
