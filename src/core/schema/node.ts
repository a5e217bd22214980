// The compiled form of a JSON Schema: one Node per schema object, its keywords checked and
// normalised (old forms read as their 2020-12 equivalents), and every $ref already pointing at the
// Node it names, so recursion is a cycle of Nodes rather than a lookup at each step.

export type TypeName = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null'

export const TYPE_NAMES: readonly TypeName[] = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']

/** A `pattern` (or a patternProperties key): its source and the RegExp ajv would compile (flag u). */
export interface Pattern {
  readonly source: string
  readonly re: RegExp
  /** The parsed pattern, made at the first generation from it (regex.ts). */
  parsed?: unknown
}

/** A checked schema. A boolean schema is a Node with `always` set and nothing else. */
export interface Node {
  /** true: anything is valid; false: nothing is. Undefined for a schema object. */
  always?: boolean
  types?: TypeName[]
  ref?: Node
  properties?: Map<string, Node>
  required?: string[]
  additional?: Node
  patternProperties?: Array<{ pattern: Pattern; node: Node }>
  propertyNames?: Node
  dependentRequired?: Map<string, string[]>
  dependentSchemas?: Map<string, Node>
  unevaluatedProperties?: Node
  minProperties?: number
  maxProperties?: number
  prefixItems?: Node[]
  items?: Node
  contains?: Node
  minContains?: number
  maxContains?: number
  minItems?: number
  maxItems?: number
  uniqueItems?: boolean
  minLength?: number
  maxLength?: number
  pattern?: Pattern
  format?: string
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  multipleOf?: number
  enum?: unknown[]
  /** `const`, boxed so that `const: null` is told from no const. */
  const?: { value: unknown }
  allOf?: Node[]
  anyOf?: Node[]
  oneOf?: Node[]
  not?: Node
  if?: Node
  then?: Node
  else?: Node
  /** Whether a $ref is reachable from here without following one (memo for `reaches`). */
  hasRef?: boolean
}

/** Whether this node, or a subschema of it (not following $refs), holds a $ref: a way back into recursion. */
export function reachesRef(node: Node, seen: Set<Node> = new Set()): boolean {
  if (node.hasRef !== undefined) return node.hasRef
  if (node.ref !== undefined) return (node.hasRef = true)
  if (seen.has(node)) return false
  seen.add(node)
  let found = false
  for (const child of children(node)) if (reachesRef(child, seen)) found = true
  node.hasRef = found
  return found
}

function children(node: Node): Node[] {
  const out: Node[] = []
  if (node.properties) out.push(...node.properties.values())
  if (node.patternProperties) for (const p of node.patternProperties) out.push(p.node)
  if (node.dependentSchemas) out.push(...node.dependentSchemas.values())
  if (node.prefixItems) out.push(...node.prefixItems)
  for (const list of [node.allOf, node.anyOf, node.oneOf]) if (list) out.push(...list)
  for (const one of [node.additional, node.items, node.contains, node.not, node.if, node.then, node.else]) if (one) out.push(one)
  return out
}

/** Deep equality of JSON values, as ajv's uniqueItems, enum and const use it (1 equals 1.0). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b)) return false
  const ka = Object.keys(a)
  if (ka.length !== Object.keys(b).length) return false
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false
    if (!jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false
  }
  return true
}

/** The JSON type of a value as `type` names it ('integer' for whole numbers, which are numbers too). */
export function typeOf(value: unknown): TypeName | undefined {
  if (value === null) return 'null'
  switch (typeof value) {
    case 'string':
      return 'string'
    case 'boolean':
      return 'boolean'
    case 'number':
      if (!Number.isFinite(value)) return undefined
      return Number.isInteger(value) ? 'integer' : 'number'
    case 'object':
      return Array.isArray(value) ? 'array' : 'object'
    default:
      return undefined
  }
}

/** The length of a string in Unicode code points, as JSON Schema counts it. */
export function codePoints(text: string): number {
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    n++
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
  }
  return n
}

/** An instance path for messages: `$`, `$.city`, `$.items[0]`, `$["a key"]`. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`
}
