// `#engine` outside Node (package.json "imports": `deno`, and every condition but `node`;
// decisions/0072): browsers, bundles for them, Deno and runtimes that cannot read a file beside
// the package. The engine is imported with the rest, as a module: its code is compiled at import.
import { ENGINE, type Engine } from '../core/engine.js'

/** The engine: the same object every call. */
export function loadEngine(): Engine {
  return ENGINE
}
