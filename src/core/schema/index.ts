// JSON Schemas a request carries (a tool's parameters, response_format's json_schema): checked and
// compiled once, then values generated from them and checked against them, so that the default
// reply's tool-call arguments and structured output are valid for the client (decisions/0046).
import { compileRoot, Refusal } from './compile.js'
import { Draw, uint32Source as xorshift32 } from './draw.js'
import { Generator } from './generate.js'
import type { Node } from './node.js'
import { validate } from './validate.js'

/** A JSON Schema as a request carries it. */
export type JsonSchema = boolean | Record<string, unknown>

/** A schema checked and compiled once: ready to generate values from and to validate against. Opaque to callers. */
export interface CompiledSchema {
  /** @internal */
  readonly root: Node
}

/** A structurally invalid schema: `path` is the full location of the offending keyword, `reason` says what is wrong. */
export class SchemaError extends Error {
  override readonly name = 'SchemaError'

  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path} ${reason}`)
  }
}

/**
 * Compiled schemas by their JSON text. A compiled schema is a function of its text alone (the path
 * only names errors, and errors are not cached), so the cache holds nothing of any simulator; it
 * spares a repeated tool definition the check. Cleared when full rather than evicted in order.
 */
const compiled = new Map<string, CompiledSchema>()
const CACHE_LIMIT = 256

/**
 * Checks a schema's structure and compiles it. `path` is the location prefix for errors, e.g.
 * 'tools[0].function.parameters' -> an error names 'tools[0].function.parameters.properties.city.type'.
 * Compiled schemas are cached by their JSON text (256 entries, cleared when full); `json`, when
 * given, must be `JSON.stringify(schema)`.
 * @throws SchemaError naming the offending keyword's path.
 */
export function compileSchema(schema: unknown, path: string, json?: string): CompiledSchema {
  // `json`: the schema's JSON text, when the caller has it already (a request's tool definitions are read once).
  let text: string | undefined = json
  if (text === undefined) {
    try {
      text = JSON.stringify(schema)
    } catch {
      text = undefined // a cycle or a BigInt: not JSON, and not cached
    }
  }
  const known = text === undefined ? undefined : compiled.get(text)
  if (known !== undefined) return known
  let root: Node
  try {
    root = compileRoot(schema, path)
  } catch (e) {
    if (e instanceof Refusal) throw new SchemaError(e.path, e.reason)
    throw e
  }
  const result: CompiledSchema = { root }
  if (text !== undefined) {
    if (compiled.size >= CACHE_LIMIT) compiled.clear()
    compiled.set(text, result)
  }
  return result
}

/**
 * A value valid against the schema, drawn deterministically from `next` (a source of uint32
 * integers: same sequence -> same value). `warnings` lists what could not be satisfied (a
 * contradictory allOf, an unsupported regex feature, a oneOf no branch of which could be made
 * exclusive...); then the value is a best effort. Each warning names the instance path (`$.city`).
 */
export function generateValue(schema: CompiledSchema, next: () => number): { value: unknown; warnings: string[] } {
  return new Generator(new Draw(next)).run(schema.root)
}

/** Errors of `value` against the schema (each a short text naming the instance path, `$.items[0]: must be string`), [] when valid. */
export function validateValue(schema: CompiledSchema, value: unknown): string[] {
  return validate(schema.root, value)
}

/** A uint32 source seeded from a number: xorshift32 (state 0 replaced by 1). Convenience for callers and tests. */
export function uint32Source(seed: number): () => number {
  return xorshift32(seed)
}
