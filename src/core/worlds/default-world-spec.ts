import spec from './default-world.json' with { type: 'json' }
import type { DefaultWorldParts } from './default-world-texts.js'

/**
 * The embedded default world's spec, as `npm run fixtures` wrote it. Run from source (tests, tsx),
 * the JSON module is already the object. Built, this module is not in the package: its importer
 * gets src/world-data/built.ts instead (`defaultWorldImport` in tsup.config.ts), whose texts come
 * from `#default-world`: on Node a file beside the build, elsewhere string literals, both parsed on
 * the first call (decisions/0059, 0067): importing the package then parses nothing, and
 * a simulator of another world never pays for this one. Every call answers the same object.
 */
export function defaultWorldSpec(): unknown {
  return spec
}

let parts: DefaultWorldParts | undefined

/**
 * The default world as a load of it reads it (decisions/0066): built, the spec without its models
 * is parsed from a text of its own, and each model from its span of the models' text, when it is
 * first read. A test that reads two models parses two. Every call answers the same parts.
 */
export function defaultWorldParts(): DefaultWorldParts {
  return (parts ??= { spec: { ...spec, models: [] }, models: spec.models.map((model) => [model.id, () => model] as const) })
}
