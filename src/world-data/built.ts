// The default world's module in the built package (decisions/0067): the build resolves the
// source's `./default-world-spec.js` here (`defaultWorldImport` in tsup.config.ts), and this
// module's `./texts.js` to `#default-world` (package.json "imports"), left to the runtime: on Node
// the texts are read from a file beside the build (./node.ts), elsewhere they are string literals
// (./texts.ts). Either is read on the first load of the default world, a model at a time.
import { defaultWorldSource } from '../core/worlds/default-world-texts.js'
import { defaultWorldTexts } from './texts.js'

export const { defaultWorldSpec, defaultWorldParts } = defaultWorldSource(defaultWorldTexts)
