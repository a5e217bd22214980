// The layout's rules (docs/architecture.md, decisions/0034): imports point down, no re-export hubs,
// and the core stays pure. Each rule is read off the source, so a change that breaks one fails here
// naming the files. The documentation's maps of the repository are held to it too: the code map, and
// the commands table's benchmarks.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { circles, folderOf, importGraph, reExports } from '../../scripts/import-graph.js'
import { root } from '../support/source-imports.js'

const graph = importGraph()

describe('the import graph of src/ (type imports count)', () => {
  it('has no circle that crosses a folder', () => {
    const crossing = circles(graph).filter((circle) => new Set(circle.map(folderOf)).size > 1)
    expect(crossing).toEqual([])
  })

  it('has at most 6 files in circles', () => {
    const inCircles = circles(graph).flat()
    expect(inCircles.length, `files in circles: ${inCircles.join(', ')}`).toBeLessThanOrEqual(6)
  })

  it('sees every import, type-only ones included', () => {
    // A sample of the graph the rules above read: a type import, a value import, an index file.
    expect(graph.get('src/core/store/state.ts')).toContain('src/core/inference/wire.ts')
    expect(graph.get('src/core/router.ts')).toEqual(expect.arrayContaining(['src/core/protocol.ts', 'src/core/operations/index.ts', 'src/core/faults.ts']))
    expect(graph.get('src/core/protocol.ts')).toEqual([])
  })

  it('finds a circle when there is one', () => {
    const edges = new Map([
      ['a/x.ts', ['b/y.ts']],
      ['b/y.ts', ['a/x.ts', 'b/z.ts']],
      ['b/z.ts', []],
    ])
    expect(circles(edges)).toEqual([['a/x.ts', 'b/y.ts']])
  })

  it('keeps the store below the layers that use it: nothing in core/store imports from outside the store but the low modules', () => {
    const low = /^src\/core\/(store\/|protocol|types|errors|clock|time|describe|random|json-text|memo|json-data|sorted-index|usage|base64|pricing\/|inference\/wire)/
    const upward = [...graph].flatMap(([file, targets]) => (file.startsWith('src/core/store/') ? targets.filter((t) => !low.test(t)).map((t) => `${file} -> ${t}`) : []))
    expect(upward).toEqual([])
  })
})

describe('where things are defined', () => {
  it('has no re-exports outside the package entry points', () => {
    expect(reExports()).toEqual([])
  })

  it('keeps src/core pure: no msw, faker, fast-check or node: import', () => {
    const impure = [...graph.keys()]
      .filter((file) => file.startsWith('src/core/'))
      .filter((file) => /from '(msw|@faker-js\/faker|fast-check|node:[^']+)'|import\('(msw|node:)/.test(readFileSync(join(root, file), 'utf8')))
    expect(impure).toEqual([])
  })
})

describe('the code map of docs/architecture.md', () => {
  const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8')
  const map = /<!-- code-map -->([\s\S]*?)<!-- \/code-map -->/.exec(doc)?.[1] ?? ''
  const paths = [...map.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1] as string)

  it('names paths that exist', () => {
    expect(paths.length).toBeGreaterThan(20)
    expect(paths.filter((path) => !existsSync(join(root, path)))).toEqual([])
  })

  it('names every folder of src/ and src/core/', () => {
    const folders = ['src/', 'src/core/']
      .flatMap((dir) => readdirSync(join(root, dir), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `${dir}${e.name}/`))
    expect(folders.filter((folder) => !paths.includes(folder))).toEqual([])
  })
})

describe('the commands table of docs/development.md', () => {
  const doc = readFileSync(join(root, 'docs', 'development.md'), 'utf8')
  const scripts = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts)

  it('names every benchmark script of package.json', () => {
    const benchmarks = scripts.filter((name) => name.startsWith('bench:'))
    expect(benchmarks.length).toBeGreaterThan(10)
    expect(benchmarks.filter((name) => !doc.includes(`\`npm run ${name}\``))).toEqual([])
  })
})
