import spec from './default-world.json' with { type: 'json' }

/**
 * The embedded default world's spec, as `npm run fixtures` wrote it. Built, this module is replaced
 * by one that keeps the JSON as text and parses it on the first call (`lazyJson` in tsup.config.ts,
 * decisions/0059): importing the package then parses nothing, and a simulator of another world
 * never pays for this one. Run from source (tests, tsx), the JSON module is already the object.
 * Every call answers the same object.
 */
export function defaultWorldSpec(): unknown {
  return spec
}

/** The default world in two parts: the spec without its models, and each model by id, read on demand. */
export interface DefaultWorldParts {
  /** The spec, its `models` an empty list. */
  spec: unknown
  /** Each model's id, in the spec's order, with what reads the model: the same object every call. */
  models: readonly (readonly [id: string, read: () => unknown])[]
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
