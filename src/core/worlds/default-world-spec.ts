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
