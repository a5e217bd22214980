// The structural check: a request's schema read once into Nodes, each keyword checked where it
// stands so that a refusal names its full path (decisions/0046). Keywords this engine does not know
// (title, description, default, examples, x-*, $schema, strict...) are ignored, as validators do.
import { type Node, type Pattern, type TypeName, TYPE_NAMES } from './node.js'

/** A structural fault at `path`; index.ts turns it into the public SchemaError. */
export class Refusal {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {}
}

type Raw = Record<string, unknown>

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const
const LENGTHS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains'] as const
const TYPE_LIST = TYPE_NAMES.join(', ')

function isRaw(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

/** Compiles `root` (checked first by the caller to be a schema) into its Node; throws a Refusal. */
export function compileRoot(root: unknown, path: string): Node {
  return new Compiler(root, path).node(root, path)
}

class Compiler {
  /** Nodes by the schema object they were made from: a $ref back up a tree is the same Node, a cycle. */
  private readonly made = new Map<object, Node>()

  constructor(
    private readonly root: unknown,
    private readonly rootPath: string,
  ) {}

  node(raw: unknown, path: string): Node {
    if (typeof raw === 'boolean') return { always: raw }
    if (!isRaw(raw)) throw new Refusal(path, 'must be a schema object or boolean')
    const known = this.made.get(raw)
    if (known !== undefined) return known
    const node: Node = {}
    this.made.set(raw, node)
    this.fill(node, raw, path)
    return node
  }

  private fill(node: Node, raw: Raw, path: string): void {
    const at = (keyword: string): string => `${path}.${keyword}`
    for (const map of SCHEMA_MAPS) {
      const value = raw[map]
      if (value === undefined) continue
      if (!isRaw(value)) throw new Refusal(at(map), 'must be an object whose values are schemas')
      const compiled = new Map<string, Node>()
      for (const [key, sub] of Object.entries(value)) compiled.set(key, this.node(sub, `${at(map)}.${key}`))
      if (map === 'properties') node.properties = compiled
      else if (map === 'dependentSchemas') node.dependentSchemas = compiled
      else if (map === 'patternProperties') {
        node.patternProperties = [...compiled].map(([source, sub]) => ({ pattern: this.pattern(source, `${at(map)}.${source}`), node: sub }))
      }
    }

    if (raw['type'] !== undefined) node.types = this.types(raw['type'], at('type'))
    if (raw['nullable'] === true && node.types !== undefined && !node.types.includes('null')) node.types.push('null')

    const one = (keyword: string): Node | undefined => (raw[keyword] === undefined ? undefined : this.node(raw[keyword], at(keyword)))
    const setOne = (keyword: 'additional' | 'contains' | 'not' | 'if' | 'then' | 'else' | 'propertyNames' | 'unevaluatedProperties', name: string): void => {
      const sub = one(name)
      if (sub !== undefined) node[keyword] = sub
    }
    setOne('additional', 'additionalProperties')
    setOne('contains', 'contains')
    setOne('not', 'not')
    setOne('if', 'if')
    setOne('then', 'then')
    setOne('else', 'else')
    setOne('propertyNames', 'propertyNames')
    setOne('unevaluatedProperties', 'unevaluatedProperties')

    const prefix = raw['prefixItems']
    if (prefix !== undefined) node.prefixItems = this.list(prefix, at('prefixItems'))
    const items = raw['items']
    if (Array.isArray(items)) {
      // The draft 2019 tuple: items as an array, additionalItems for the rest.
      node.prefixItems = this.list(items, at('items'))
      const rest = one('additionalItems')
      if (rest !== undefined) node.items = rest
    } else if (items !== undefined) node.items = this.node(items, at('items'))

    for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
      if (raw[keyword] !== undefined) node[keyword] = this.list(raw[keyword], at(keyword))
    }

    const required = raw['required']
    if (required !== undefined) {
      if (!Array.isArray(required) || !required.every((r) => typeof r === 'string')) throw new Refusal(at('required'), 'must be an array of strings')
      node.required = [...new Set(required as string[])]
    }
    this.dependencies(node, raw, path)

    if (raw['enum'] !== undefined) {
      if (!Array.isArray(raw['enum'])) throw new Refusal(at('enum'), 'must be an array')
      if (raw['enum'].length === 0) throw new Refusal(at('enum'), 'must not be empty')
      node.enum = raw['enum']
    }
    if ('const' in raw) node.const = { value: raw['const'] }

    for (const keyword of LENGTHS) {
      const value = raw[keyword]
      if (value === undefined) continue
      if (!isNumber(value) || !Number.isInteger(value) || value < 0) throw new Refusal(at(keyword), 'must be a non-negative integer')
      node[keyword] = value
    }
    for (const keyword of ['minimum', 'maximum'] as const) {
      const value = raw[keyword]
      if (value === undefined) continue
      if (!isNumber(value)) throw new Refusal(at(keyword), 'must be a number')
      node[keyword] = value
    }
    for (const [keyword, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
      const value = raw[keyword]
      if (value === undefined) continue
      if (typeof value === 'boolean') {
        // Draft 4: a flag on minimum/maximum rather than a bound of its own.
        if (value && node[bound] !== undefined) {
          node[keyword] = node[bound]
          delete node[bound]
        }
        continue
      }
      if (!isNumber(value)) throw new Refusal(at(keyword), 'must be a number (or, in the draft 4 form, a boolean)')
      node[keyword] = value
    }
    if (raw['multipleOf'] !== undefined) {
      const value = raw['multipleOf']
      if (!isNumber(value) || value <= 0) throw new Refusal(at('multipleOf'), 'must be a number greater than 0')
      node.multipleOf = value
    }
    if (raw['pattern'] !== undefined) {
      if (typeof raw['pattern'] !== 'string') throw new Refusal(at('pattern'), 'must be a string')
      node.pattern = this.pattern(raw['pattern'], at('pattern'))
    }
    if (raw['format'] !== undefined) {
      if (typeof raw['format'] !== 'string') throw new Refusal(at('format'), 'must be a string')
      node.format = raw['format']
    }
    if (raw['uniqueItems'] !== undefined) {
      if (typeof raw['uniqueItems'] !== 'boolean') throw new Refusal(at('uniqueItems'), 'must be a boolean')
      node.uniqueItems = raw['uniqueItems']
    }
    if (raw['$ref'] !== undefined) node.ref = this.ref(raw['$ref'], at('$ref'))
  }

  private types(value: unknown, path: string): TypeName[] {
    const list = Array.isArray(value) ? value : [value]
    if (list.length === 0) throw new Refusal(path, `must be a type name or a non-empty array of them (${TYPE_LIST})`)
    for (const type of list) {
      if (!TYPE_NAMES.includes(type as TypeName)) {
        throw new Refusal(path, `${JSON.stringify(type)} is not a type; a type is one of ${TYPE_LIST}`)
      }
    }
    return [...new Set(list as TypeName[])]
  }

  private list(value: unknown, path: string): Node[] {
    if (!Array.isArray(value) || value.length === 0) throw new Refusal(path, 'must be a non-empty array of schemas')
    return value.map((sub, i) => this.node(sub, `${path}[${i}]`))
  }

  private pattern(source: string, path: string): Pattern {
    try {
      return { source, re: new RegExp(source, 'u') }
    } catch (e) {
      throw new Refusal(path, `is not a valid regular expression: ${(e as Error).message}`)
    }
  }

  /** dependentRequired, and draft 7's dependencies (arrays of names or schemas). */
  private dependencies(node: Node, raw: Raw, path: string): void {
    for (const keyword of ['dependentRequired', 'dependencies'] as const) {
      const value = raw[keyword]
      if (value === undefined) continue
      const at = `${path}.${keyword}`
      if (!isRaw(value)) throw new Refusal(at, 'must be an object')
      for (const [key, dep] of Object.entries(value)) {
        if (Array.isArray(dep)) {
          if (!dep.every((d) => typeof d === 'string')) throw new Refusal(`${at}.${key}`, 'must be an array of strings')
          ;(node.dependentRequired ??= new Map()).set(key, dep as string[])
        } else if (keyword === 'dependencies') {
          ;(node.dependentSchemas ??= new Map()).set(key, this.node(dep, `${at}.${key}`))
        } else throw new Refusal(`${at}.${key}`, 'must be an array of strings')
      }
    }
  }

  private ref(value: unknown, path: string): Node {
    if (typeof value !== 'string') throw new Refusal(path, 'must be a string')
    if (!value.startsWith('#')) {
      const remote = /^[a-z][a-z0-9+.-]*:/i.test(value) ? 'a remote reference' : 'a reference outside this document'
      throw new Refusal(path, `${JSON.stringify(value)} is not resolvable: ${remote} cannot be resolved offline`)
    }
    let fragment: string
    try {
      fragment = decodeURIComponent(value.slice(1))
    } catch {
      throw new Refusal(path, `${JSON.stringify(value)} is not a valid URI fragment`)
    }
    if (fragment !== '' && !fragment.startsWith('/')) {
      const found = findAnchor(this.root, fragment, this.rootPath)
      if (found === undefined) throw new Refusal(path, `${JSON.stringify(value)} is not resolvable: no $anchor ${JSON.stringify(fragment)} in this document`)
      return this.node(found.raw, found.path)
    }
    let target: unknown = this.root
    let targetPath = this.rootPath
    for (const token of fragment === '' ? [] : fragment.slice(1).split('/')) {
      const key = token.replace(/~1/g, '/').replace(/~0/g, '~')
      if (Array.isArray(target) && /^(0|[1-9][0-9]*)$/.test(key) && Number(key) < target.length) {
        target = target[Number(key)]
        targetPath = `${targetPath}[${key}]`
      } else if (isRaw(target) && Object.prototype.hasOwnProperty.call(target, key)) {
        target = target[key]
        targetPath = `${targetPath}.${key}`
      } else throw new Refusal(path, `${JSON.stringify(value)} is not resolvable within this document`)
    }
    if (typeof target !== 'boolean' && !isRaw(target)) throw new Refusal(path, `${JSON.stringify(value)} does not point at a schema`)
    return this.node(target, targetPath)
  }
}

/** The schema object with `$anchor: name` (first found, depth first), and its path. */
function findAnchor(raw: unknown, name: string, path: string): { raw: Raw; path: string } | undefined {
  if (Array.isArray(raw)) {
    for (let i = 0; i < raw.length; i++) {
      const found = findAnchor(raw[i], name, `${path}[${i}]`)
      if (found) return found
    }
    return undefined
  }
  if (!isRaw(raw)) return undefined
  if (raw['$anchor'] === name) return { raw, path }
  for (const [key, value] of Object.entries(raw)) {
    // enum and const hold data, not schemas: an `$anchor` in them is not one.
    if (key === 'enum' || key === 'const' || key === 'examples' || key === 'default') continue
    const found = findAnchor(value, name, `${path}.${key}`)
    if (found) return found
  }
  return undefined
}
