// `#default-world` outside Node (package.json "imports": `deno`, and every condition but `node`;
// decisions/0067): browsers, bundles for them, Deno (which would need --allow-read for a file) and
// runtimes that cannot read a file beside the package. Built, this module is replaced by one whose
// texts are string literals inside the function (`embeddedWorld` in tsup.config.ts), which V8 only
// scans at import. As source it splits the world's JSON module into the same texts, for the tests
// that compare the two.
import spec from '../core/worlds/default-world.json' with { type: 'json' }
import { type DefaultWorldTexts, worldTexts } from '../core/worlds/default-world-texts.js'

/** The default world's texts: the same object every call. */
export function defaultWorldTexts(): DefaultWorldTexts {
  return (texts ??= worldTexts(spec))
}

let texts: DefaultWorldTexts | undefined
