#!/usr/bin/env node
// The import graph of src/: every relative import, type-only ones included, and its circles
// (strongly connected components). `node scripts/import-graph.mjs` prints the circles;
// `--json` prints { files, edges, circles } for a test to check.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

function sourceFiles(dir) {
  const out = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path))
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(path)
  }
  return out
}

function resolveImport(from, specifier) {
  if (!specifier.startsWith('.')) return undefined
  const base = resolve(dirname(from), specifier)
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]
  return candidates.find((c) => existsSync(c) && statSync(c).isFile())
}

/** The graph of the files under `srcDir`: file -> the files it imports (relative paths). */
export function importGraph(srcDir = join(root, 'src')) {
  const files = sourceFiles(srcDir).sort()
  const edges = new Map()
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    const targets = new Set()
    for (const ref of info.importedFiles) {
      const target = resolveImport(file, ref.fileName)
      if (target !== undefined) targets.add(relative(root, target))
    }
    edges.set(relative(root, file), [...targets].sort())
  }
  return edges
}

/** Tarjan's strongly connected components of more than one file (or a file importing itself). */
export function circles(edges) {
  let index = 0
  const indices = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const out = []
  const visit = (v) => {
    indices.set(v, index)
    low.set(v, index)
    index += 1
    stack.push(v)
    onStack.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v), low.get(w)))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indices.get(w)))
    }
    if (low.get(v) === indices.get(v)) {
      const component = []
      let w
      do {
        w = stack.pop()
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || (edges.get(v) ?? []).includes(v)) out.push(component.sort())
    }
  }
  for (const v of edges.keys()) if (!indices.has(v)) visit(v)
  return out
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const edges = importGraph()
  const found = circles(edges)
  if (process.argv.includes('--json')) {
    process.stdout.write(JSON.stringify({ files: edges.size, circles: found }, null, 2) + '\n')
  } else {
    const inCircles = found.reduce((n, c) => n + c.length, 0)
    console.log(`${edges.size} files, ${found.length} circles, ${inCircles} files in circles`)
    for (const c of found) console.log(`- ${c.length} files:\n    ${c.join('\n    ')}`)
  }
}
