// The validator: the keywords the generator covers, checked as ajv (2020-12, ajv-formats) checks
// them, so that a value this accepts is one a client's validator accepts too. One pass over the
// value; a subschema under anyOf/oneOf/not/if is checked for a yes or no, its messages dropped.
import { formatValid } from './formats.js'
import { childPath, codePoints, jsonEqual, type Node, typeOf, type TypeName } from './node.js'

/** The errors of `value` against `node`, each naming its instance path; [] when valid. */
export function validate(node: Node, value: unknown, path = '$'): string[] {
  const errors: string[] = []
  check(node, value, path, errors, 0)
  return errors
}

/** Whether `value` is valid against `node`. */
export function isValid(node: Node, value: unknown): boolean {
  return validate(node, value).length === 0
}

/** Deeper than this, a $ref that consumes no data (a: {$ref: a}) is taken as a loop and refused. */
const MAX_DEPTH = 200

function hasType(types: readonly TypeName[], value: unknown): boolean {
  const actual = typeOf(value)
  if (actual === undefined) return false
  return types.includes(actual) || (actual === 'integer' && types.includes('number'))
}

function check(node: Node, value: unknown, path: string, errors: string[], depth: number): void {
  if (node.always !== undefined) {
    if (!node.always) errors.push(`${path}: no value is allowed here (schema false)`)
    return
  }
  if (depth > MAX_DEPTH) {
    errors.push(`${path}: $ref recursion does not end`)
    return
  }
  if (node.ref !== undefined) check(node.ref, value, path, errors, depth + 1)
  if (node.types !== undefined && !hasType(node.types, value)) {
    errors.push(`${path}: must be ${node.types.join(' or ')}`)
    return
  }
  if (node.const !== undefined && !jsonEqual(node.const.value, value)) errors.push(`${path}: must be equal to the constant ${JSON.stringify(node.const.value)}`)
  if (node.enum !== undefined && !node.enum.some((e) => jsonEqual(e, value))) errors.push(`${path}: must be one of the enum values`)

  if (typeof value === 'string') checkString(node, value, path, errors)
  else if (typeof value === 'number') checkNumber(node, value, path, errors)
  else if (Array.isArray(value)) checkArray(node, value, path, errors, depth)
  else if (typeof value === 'object' && value !== null) checkObject(node, value as Record<string, unknown>, path, errors, depth)

  if (node.allOf !== undefined) for (const sub of node.allOf) check(sub, value, path, errors, depth + 1)
  if (node.anyOf !== undefined && !node.anyOf.some((sub) => passes(sub, value, depth))) errors.push(`${path}: must match a schema in anyOf`)
  if (node.oneOf !== undefined) {
    const matched = node.oneOf.filter((sub) => passes(sub, value, depth)).length
    if (matched !== 1) errors.push(`${path}: must match exactly one schema in oneOf (matches ${matched})`)
  }
  if (node.not !== undefined && passes(node.not, value, depth)) errors.push(`${path}: must not be valid against the schema in not`)
  if (node.if !== undefined) {
    const branch = passes(node.if, value, depth) ? node.then : node.else
    if (branch !== undefined) check(branch, value, path, errors, depth + 1)
  }
  if (node.unevaluatedProperties !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const seen = evaluated(node, value as Record<string, unknown>, depth)
    for (const [key, v] of Object.entries(value)) {
      if (!seen.has(key)) check(node.unevaluatedProperties, v, childPath(path, key), errors, depth + 1)
    }
  }
}

function passes(node: Node, value: unknown, depth: number): boolean {
  const errors: string[] = []
  check(node, value, '$', errors, depth + 1)
  return errors.length === 0
}

function checkString(node: Node, value: string, path: string, errors: string[]): void {
  if (node.minLength !== undefined || node.maxLength !== undefined) {
    const length = codePoints(value)
    if (node.minLength !== undefined && length < node.minLength) errors.push(`${path}: must have at least ${node.minLength} characters`)
    if (node.maxLength !== undefined && length > node.maxLength) errors.push(`${path}: must have at most ${node.maxLength} characters`)
  }
  if (node.pattern !== undefined && !node.pattern.re.test(value)) errors.push(`${path}: must match the pattern ${JSON.stringify(node.pattern.source)}`)
  if (node.format !== undefined && formatValid(node.format, value) === false) errors.push(`${path}: must be a valid ${node.format}`)
}

/** multipleOf as ajv checks it: the quotient, in floating point, is a whole number (below 1e21). */
export function isMultiple(value: number, of: number): boolean {
  const q = value / of
  return Number.isInteger(q) && Math.abs(q) < 1e21
}

function checkNumber(node: Node, value: number, path: string, errors: string[]): void {
  if (node.minimum !== undefined && value < node.minimum) errors.push(`${path}: must be >= ${node.minimum}`)
  if (node.maximum !== undefined && value > node.maximum) errors.push(`${path}: must be <= ${node.maximum}`)
  if (node.exclusiveMinimum !== undefined && value <= node.exclusiveMinimum) errors.push(`${path}: must be > ${node.exclusiveMinimum}`)
  if (node.exclusiveMaximum !== undefined && value >= node.exclusiveMaximum) errors.push(`${path}: must be < ${node.exclusiveMaximum}`)
  if (node.multipleOf !== undefined && !isMultiple(value, node.multipleOf)) errors.push(`${path}: must be a multiple of ${node.multipleOf}`)
}

function checkArray(node: Node, value: unknown[], path: string, errors: string[], depth: number): void {
  if (node.minItems !== undefined && value.length < node.minItems) errors.push(`${path}: must have at least ${node.minItems} items`)
  if (node.maxItems !== undefined && value.length > node.maxItems) errors.push(`${path}: must have at most ${node.maxItems} items`)
  const prefix = node.prefixItems ?? []
  for (let i = 0; i < value.length; i++) {
    const sub = i < prefix.length ? prefix[i] : node.items
    if (sub !== undefined) check(sub, value[i], childPath(path, i), errors, depth + 1)
  }
  if (node.uniqueItems === true) {
    outer: for (let i = 1; i < value.length; i++) {
      for (let j = 0; j < i; j++) {
        if (jsonEqual(value[i], value[j])) {
          errors.push(`${path}: must not have duplicate items (items ${j} and ${i} are equal)`)
          break outer
        }
      }
    }
  }
  if (node.contains !== undefined) {
    const contains = node.contains
    const count = value.filter((item) => passes(contains, item, depth)).length
    const min = node.minContains ?? 1
    if (count < min) errors.push(`${path}: must contain at least ${min} valid item(s)`)
    if (node.maxContains !== undefined && count > node.maxContains) errors.push(`${path}: must contain at most ${node.maxContains} valid item(s)`)
  }
}

function checkObject(node: Node, value: Record<string, unknown>, path: string, errors: string[], depth: number): void {
  const keys = Object.keys(value)
  if (node.minProperties !== undefined && keys.length < node.minProperties) errors.push(`${path}: must have at least ${node.minProperties} properties`)
  if (node.maxProperties !== undefined && keys.length > node.maxProperties) errors.push(`${path}: must have at most ${node.maxProperties} properties`)
  if (node.required !== undefined) {
    for (const key of node.required) if (!Object.prototype.hasOwnProperty.call(value, key)) errors.push(`${path}: must have the required property ${JSON.stringify(key)}`)
  }
  if (node.dependentRequired !== undefined) {
    for (const [key, needs] of node.dependentRequired) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue
      for (const need of needs) if (!Object.prototype.hasOwnProperty.call(value, need)) errors.push(`${path}: must have ${JSON.stringify(need)} when ${JSON.stringify(key)} is present`)
    }
  }
  for (const key of keys) {
    const at = childPath(path, key)
    const v = value[key]
    if (node.propertyNames !== undefined && !passes(node.propertyNames, key, depth)) errors.push(`${at}: the property name is not valid`)
    const declared = node.properties?.get(key)
    let matched = declared !== undefined
    if (declared !== undefined) check(declared, v, at, errors, depth + 1)
    for (const p of node.patternProperties ?? []) {
      if (p.pattern.re.test(key)) {
        matched = true
        check(p.node, v, at, errors, depth + 1)
      }
    }
    if (!matched && node.additional !== undefined) {
      if (node.additional.always === false) errors.push(`${at}: must not be present (additionalProperties is false)`)
      else check(node.additional, v, at, errors, depth + 1)
    }
  }
  if (node.dependentSchemas !== undefined) {
    for (const [key, sub] of node.dependentSchemas) if (Object.prototype.hasOwnProperty.call(value, key)) check(sub, value, path, errors, depth + 1)
  }
}

/** The properties of `value` some keyword of `node` (or of a subschema that applies) evaluates, for unevaluatedProperties. */
function evaluated(node: Node, value: Record<string, unknown>, depth: number, into: Set<string> = new Set()): Set<string> {
  if (node.always !== undefined || depth > MAX_DEPTH) return into
  const keys = Object.keys(value)
  if (node.additional !== undefined || node.unevaluatedProperties !== undefined) {
    for (const key of keys) into.add(key)
    return into
  }
  for (const key of keys) {
    if (node.properties?.has(key) === true || (node.patternProperties ?? []).some((p) => p.pattern.re.test(key))) into.add(key)
  }
  if (node.ref !== undefined) evaluated(node.ref, value, depth + 1, into)
  for (const sub of node.allOf ?? []) evaluated(sub, value, depth + 1, into)
  for (const sub of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) if (passes(sub, value, depth)) evaluated(sub, value, depth + 1, into)
  if (node.if !== undefined) {
    if (passes(node.if, value, depth)) {
      evaluated(node.if, value, depth + 1, into)
      if (node.then !== undefined) evaluated(node.then, value, depth + 1, into)
    } else if (node.else !== undefined) evaluated(node.else, value, depth + 1, into)
  }
  for (const [key, sub] of node.dependentSchemas ?? []) if (Object.prototype.hasOwnProperty.call(value, key)) evaluated(sub, value, depth + 1, into)
  return into
}
