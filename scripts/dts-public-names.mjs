// After tsup: the declaration chunks rollup shares between entry points export their types under
// one-letter names (`type ApiKey as A`), and those are the names a consumer's type errors and
// hovers show (`import(".../types-uK25rwnQ").A`). This renames every chunk export back to the name
// it is declared with, and every import and re-export of it, so declarations name public types
// by their public names. A name rollup had to suffix (`Foo$1`) keeps its alias.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'

const dist = resolve(process.argv[2] ?? 'dist')
const files = (function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : /\.d\.c?ts$/.test(e.name) ? [join(dir, e.name)] : []))
})(dist)

// A chunk: a file rollup named `<name>-<hash>.d.ts`; entry points are `index.d.ts`, `cli.d.ts`.
const isChunk = (file) => /-[A-Za-z0-9_-]{8}\.d\.c?ts$/.test(basename(file)) && dirname(file) === dist
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Per chunk: its exported (minified) name -> the name it is declared with. */
const originals = new Map()
for (const file of files.filter(isChunk)) {
  let text = readFileSync(file, 'utf8')
  const names = new Map()
  text = text.replace(/^export (type )?\{([^}]*)\};$/gm, (_, typeOnly = '', list) => {
    const specifiers = list.split(',').map((s) => s.trim()).filter(Boolean).map((specifier) => {
      const m = /^(type )?(\S+) as (\S+)$/.exec(specifier)
      if (!m) return specifier
      const [, type = '', local, exported] = m
      if (!IDENTIFIER.test(local)) return specifier
      names.set(exported, local)
      return `${type}${local}`
    })
    return `export ${typeOnly}{ ${specifiers.join(', ')} };`
  })
  originals.set(basename(file), names)
  writeFileSync(file, text)
}

// Imports and re-exports of a chunk use the declared names.
for (const file of files) {
  const text = readFileSync(file, 'utf8')
  const next = text.replace(/^(import|export) (type )?\{([^}]*)\} from '([^']+)';$/gm, (whole, keyword, typeOnly = '', list, from) => {
    const names = originals.get(basename(from).replace(/\.c?js$/, '') + (file.endsWith('.d.cts') ? '.d.cts' : '.d.ts'))
    if (!names) return whole
    const specifiers = list.split(',').map((s) => s.trim()).filter(Boolean).map((specifier) => {
      const m = /^(type )?(\S+)(?: as (\S+))?$/.exec(specifier)
      if (!m) return specifier
      const [, type = '', imported, alias = imported] = m
      const original = names.get(imported) ?? imported
      return original === alias ? `${type}${alias}` : `${type}${original} as ${alias}`
    })
    return `${keyword} ${typeOnly}{ ${specifiers.join(', ')} } from '${from}';`
  })
  if (next !== text) writeFileSync(file, next)
}
console.log(`dts-public-names: ${originals.size} shared declaration chunks, exports named as declared`)
