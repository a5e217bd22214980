// `#default-world` on Node (package.json "imports", the `node` condition; decisions/0067): the
// default world's texts are read from `default-world.jsonl` beside the build on the first load of
// the default world, instead of scanned as string literals at import and again on that load. Not
// part of the source tree's graph: run from source, the world is its JSON module.
import type { DefaultWorldTexts } from '../core/worlds/default-world-texts.js'

/**
 * The file the build writes beside its modules (`npm run build`). The ES module build finds it by
 * `import.meta.url`; the CJS build, where tsup defines `import.meta.url` as `undefined`, by the
 * module's own `__dirname`. Never by a global `__dirname`: `node -e`, the REPL and bundlers' shims
 * define one that is not this module's directory.
 */
const FILE = import.meta.url !== undefined ? new URL('./default-world.jsonl', import.meta.url) : `${__dirname}/default-world.jsonl`

/** The default world's texts, read on the first call: the same object every call. */
export function defaultWorldTexts(): DefaultWorldTexts {
  return (texts ??= read())
}

let texts: DefaultWorldTexts | undefined

function read(): DefaultWorldTexts {
  let text: string
  try {
    // Not an `import` of node:fs: the ES module facade of node:fs costs 2-3 ms at import, and
    // only a load of the default world needs it (decisions/0067).
    text = process.getBuiltinModule('node:fs').readFileSync(FILE, 'utf8')
  } catch (error) {
    throw new Error(
      `model-access-sim could not read its default world from ${typeof FILE === 'string' ? FILE : FILE.href} (${(error as NodeJS.ErrnoException).code ?? String(error)}). ` +
        'On Node the package reads this file, which it ships beside its modules. A bundle of the package for Node must copy ' +
        'dist/default-world.jsonl beside its output; or resolve the package without the "node" condition, which embeds the world.',
      { cause: error },
    )
  }
  return worldTextsFromFile(text, `model-access-sim's default world file ${typeof FILE === 'string' ? FILE : FILE.href}`)
}

/** The texts back from `worldFileText`'s file (src/core/worlds/default-world-texts.ts); throws naming what is wrong with it. */
export function worldTextsFromFile(text: string, what = 'the default world file'): DefaultWorldTexts {
  const first = text.indexOf('\n')
  const second = first < 0 ? -1 : text.indexOf('\n', first + 1)
  const end = second < 0 ? -1 : text.indexOf('\n', second + 1)
  if (end < 0 || end !== text.length - 1) throw new Error(`${what} is not three JSON lines (spec, spans, models): reinstall the package`)
  return { spec: text.slice(0, first), spans: text.slice(first + 1, second), models: text.slice(second + 1, end) }
}
