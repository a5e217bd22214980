// `#engine` on Node (package.json "imports", the `node` condition; decisions/0072): the engine's
// code is read from `engine.script.js` beside the build and compiled on the first call, when the
// first simulator is made, instead of at import. The script is the engine bundled without the
// modules it shares with the entry points (errors, pricing, protocol, ...): it is given the
// entry points' own copies of those (the kernel's table, `shared()`), so a `SimulatorError` it
// throws is the class the root exports. Not part of the source tree's graph: run from source, the
// engine is a module.
import type { Engine } from '../core/engine.js'
import { shared } from './shared.js'

/**
 * The file the build writes beside its modules (`npm run build`). The ES module build finds it by
 * `import.meta.url`; the CJS build, where tsup defines `import.meta.url` as `undefined`, by the
 * module's own `__dirname` (as src/world-data/node.ts does).
 */
const FILE = import.meta.url !== undefined ? new URL('./engine.script.js', import.meta.url) : `${__dirname}/engine.script.js`

/** The engine, read and compiled on the first call: the same object every call. */
export function loadEngine(): Engine {
  return (engine ??= load())
}

let engine: Engine | undefined

function load(): Engine {
  const where = typeof FILE === 'string' ? FILE : FILE.href
  let text: string
  try {
    // Not an `import` of node:fs: its ES module facade costs 2-3 ms at import (decisions/0067).
    text = process.getBuiltinModule('node:fs').readFileSync(FILE, 'utf8')
  } catch (error) {
    throw new Error(
      `model-access-sim could not read its engine from ${where} (${(error as NodeJS.ErrnoException).code ?? String(error)}). ` +
        'On Node the package reads this file, which it ships beside its modules, on the first createSimulator(). A bundle of the package for Node must copy ' +
        'dist/engine.script.js beside its output; or resolve the package without the "node" condition, which imports the engine as a module.',
      { cause: error },
    )
  }
  const module: { exports: Record<string, unknown> } = { exports: {} }
  // An indirect eval, on one line with the script's first, so that a stack trace names the file
  // and its lines. It compiles in the realm this module runs in (a Jest or vitest sandbox's own),
  // so the engine's objects, arrays and errors are that realm's.
  const wrapped = `(function (module, exports, __shared) {${text}\n})\n//# sourceURL=${where}`
  let run: (module: { exports: Record<string, unknown> }, exports: Record<string, unknown>, shared: Readonly<Record<string, object>>) => void
  try {
    run = (0, eval)(wrapped) as typeof run
  } catch (error) {
    throw new Error(
      `model-access-sim could not compile its engine from ${where}: ${String(error)}. ` +
        'On Node the package compiles the engine from that file on the first createSimulator(), which a process started with ' +
        '--disallow-code-generation-from-strings refuses; resolve the package without the "node" condition to import it as a module.',
      { cause: error },
    )
  }
  run(module, module.exports, shared())
  return (module.exports as { ENGINE: Engine }).ENGINE
}
