// The import graph of src/: every relative import, type-only ones included, and its circles
// (strongly connected components). `npx tsx scripts/import-graph.ts` prints the circles and the
// re-exports outside the entry points; test/house/layout.test.ts holds the budget (docs/architecture.md).
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path))
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(path)
  }
  return out
}

function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined
  const base = resolve(dirname(from), specifier)
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]
  return candidates.find((c) => existsSync(c) && statSync(c).isFile())
}

/** The graph of the files under `srcDir`: file -> the files it imports (relative paths). */
export function importGraph(srcDir = join(root, 'src')): Map<string, string[]> {
  const files = sourceFiles(srcDir).sort()
  const edges = new Map<string, string[]>()
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    const targets = new Set<string>()
    for (const ref of info.importedFiles) {
      const target = resolveImport(file, ref.fileName)
      if (target !== undefined) targets.add(relative(root, target))
    }
    edges.set(relative(root, file), [...targets].sort())
  }
  return edges
}

/** Tarjan's strongly connected components of more than one file (or a file importing itself). */
export function circles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0
  const indices = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const out: string[][] = []
  const visit = (v: string): void => {
    indices.set(v, index)
    low.set(v, index)
    index += 1
    stack.push(v)
    onStack.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, indices.get(w) as number))
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop() as string
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || (edges.get(v) ?? []).includes(v)) out.push(component.sort())
    }
  }
  for (const v of edges.keys()) if (!indices.has(v)) visit(v)
  return out
}

/** The folder of a file (`src/core/store`), for telling whether a circle crosses folders. */
export const folderOf = (file: string): string => dirname(file)

/** The package's entry points: the only files of src/ that re-export what other files define. */
export const ENTRY_POINTS = ['src/index.ts', 'src/msw/index.ts', 'src/pricing/index.ts', 'src/fixtures/index.ts', 'src/arbitraries/index.ts', 'src/server/index.ts', 'src/vitest/index.ts', 'src/live/index.ts']

/** `file:line` of every `export ... from` (or `export { name }` of an imported name) outside the entry points. */
export function reExports(srcDir = join(root, 'src')): string[] {
  const found: string[] = []
  for (const file of sourceFiles(srcDir)) {
    const path = relative(root, file)
    if (ENTRY_POINTS.includes(path)) continue
    const source = readFileSync(file, 'utf8')
    const imported = new Set<string>()
    for (const m of source.matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}/gm)) for (const name of (m[1] as string).split(',')) imported.add(name.replace(/^\s*type\s+/, '').split(' as ').pop()!.trim())
    source.split('\n').forEach((line, i) => {
      const from = /^export\s+(?:type\s+)?(?:\{[^}]*\}|\*)\s+from\s/.test(line)
      const local = /^export\s+(?:type\s+)?\{([^}]*)\}\s*$/.exec(line)
      if (from || (local !== null && (local[1] as string).split(',').some((n) => imported.has(n.trim())))) found.push(`${path}:${i + 1}`)
    })
  }
  return found
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const edges = importGraph()
  const found = circles(edges)
  const inCircles = found.reduce((n, c) => n + c.length, 0)
  console.log(`${edges.size} files, ${found.length} circles, ${inCircles} files in circles`)
  for (const c of found) console.log(`- ${c.length} files${new Set(c.map(folderOf)).size > 1 ? ', across folders' : ''}:\n    ${c.join('\n    ')}`)
  const hubs = reExports()
  if (hubs.length > 0) console.log(`re-exports outside the entry points:\n    ${hubs.join('\n    ')}`)
}
