// The generator: a value valid against a compiled schema, every choice drawn from the caller's
// source (decisions/0046). A schema is first flattened: its allOf and $ref folded into one set of
// constraints (types intersected, bounds tightened, properties and required united); anyOf/oneOf
// pick a branch into that set, and what flattening cannot promise (oneOf's exclusivity, not,
// if/then/else) is checked with the validator and drawn again. What still fails is a warning.
import type { Draw } from './draw.js'
import { formatValid, makeDate, makeEmail, makeFormat, makesFormat, makeUuid } from './formats.js'
import { childPath, codePoints, jsonEqual, type Node, type Pattern, reachesRef, type TypeName } from './node.js'
import { type ParsedPattern, parsePattern, shortestFromPattern, stringFromPattern } from './regex.js'
import { isMultiple, isValid } from './validate.js'
import { FIRST_NAMES, LAST_NAMES, numberHint, singular, stringHint, WORDS } from './words.js'

/** Deeper than this (objects and arrays), no optional property, minItems items, the branch without a $ref. */
const SOFT_DEPTH = 3
/** Deeper than this, recursion that a schema requires is cut short, with a warning. */
const HARD_DEPTH = 24
/** Draws of one schema with oneOf/not/if before giving up on it. */
const ATTEMPTS = 6
/** Checked draws in one generateValue call, all schemas together: nested oneOfs do not multiply. */
const BUDGET = 400

/**
 * zod's formats whose whole meaning is the pattern `z.toJSONSchema` writes beside them, so that a
 * value the patterns match is one zod's own check accepts. zod's string checks (`.startsWith()`,
 * `.endsWith()`, `.includes()`) are a string test their pattern restates exactly (`^ab.*`, `.*yz$`,
 * `mm`), whatever it is. Its formats of a fixed pattern (nanoid, cuid, the hashes, `.lowercase()`...)
 * are checked by that pattern (base64 and base64url by a test their exact pattern restates), which
 * zod writes whole (`^...$`): one such pattern must stand beside the format. Not credit_card or iban
 * (a checksum the pattern leaves out), cidrv6 (checked by parsing), nor a format the schema names
 * itself (`z.stringFormat()`), whose pattern may say less than its name.
 */
const CHECK_FORMATS: ReadonlySet<string> = new Set(['starts_with', 'ends_with', 'includes'])
const PATTERN_FORMATS: ReadonlySet<string> = new Set([
  'lowercase', 'uppercase', 'nanoid', 'cuid', 'cuid2', 'ulid', 'xid', 'ksuid', 'e164', 'emoji', 'mac', 'cidrv4', 'base64', 'base64url', 'hex', 'currency_code',
  ...['md5', 'sha1', 'sha256', 'sha384', 'sha512'].flatMap((alg) => ['hex', 'base64', 'base64url'].map((enc) => `${alg}_${enc}`)),
])

/** Whether `format` means no more than `patterns` say (see {@link PATTERN_FORMATS}). */
function carriedByPatterns(format: string, patterns: readonly Pattern[]): boolean {
  if (CHECK_FORMATS.has(format)) return patterns.length > 0
  return PATTERN_FORMATS.has(format) && patterns.some((p) => p.source.startsWith('^') && /(?:^|[^\\])(?:\\\\)*\$$/.test(p.source))
}

interface ObjectPart {
  declared: Map<string, Node> | undefined
  patterns: Array<{ pattern: Pattern; node: Node }>
  additional: Node | undefined
}

interface ArrayPart {
  prefix: Node[]
  items: Node | undefined
}

/** The constraints of a schema with its allOf and $ref folded in. */
interface Flat {
  never: boolean
  types: TypeName[] | undefined
  objects: ObjectPart[]
  required: Set<string>
  dependentRequired: Array<Map<string, string[]>>
  propertyNames: Node[]
  minProperties: number | undefined
  maxProperties: number | undefined
  arrays: ArrayPart[]
  contains: Node[]
  minContains: number | undefined
  minItems: number | undefined
  maxItems: number | undefined
  uniqueItems: boolean
  minLength: number | undefined
  maxLength: number | undefined
  patterns: Pattern[]
  formats: string[]
  minimum: number | undefined
  maximum: number | undefined
  exclusiveMinimum: number | undefined
  exclusiveMaximum: number | undefined
  multipleOf: number[]
  enum: unknown[] | undefined
  /** Values a `not` with a const or enum forbids: left out of every draw, not only found by a check after it. */
  excluded: unknown[]
  /** Types a `not` names (`not: {type: 'string'}`): a value of another type meets the not. */
  excludedTypes: TypeName[]
  anyOf: Node[][]
  oneOf: Node[][]
  checks: number
  conditionals: Node[]
  contradictions: string[]
}

function emptyFlat(): Flat {
  return {
    never: false, types: undefined, objects: [], required: new Set(), dependentRequired: [], propertyNames: [], minProperties: undefined,
    maxProperties: undefined, arrays: [], contains: [], minContains: undefined, minItems: undefined, maxItems: undefined, uniqueItems: false,
    minLength: undefined, maxLength: undefined, patterns: [], formats: [], minimum: undefined, maximum: undefined, exclusiveMinimum: undefined,
    exclusiveMaximum: undefined, multipleOf: [], enum: undefined, excluded: [], excludedTypes: [], anyOf: [], oneOf: [], checks: 0, conditionals: [], contradictions: [],
  }
}

function intersectTypes(a: readonly TypeName[], b: readonly TypeName[]): TypeName[] {
  const out = new Set<TypeName>()
  for (const t of a) {
    if (b.includes(t)) out.add(t)
    else if (t === 'integer' && b.includes('number')) out.add('integer')
    else if (t === 'number' && b.includes('integer')) out.add('integer')
  }
  return [...out]
}

const tighterMin = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined ? b : b === undefined ? a : Math.max(a, b))
const tighterMax = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined ? b : b === undefined ? a : Math.min(a, b))

/** Folds `node` (its allOf and $ref too) into `flat`. */
function flatten(node: Node, flat: Flat, seen: Set<Node> = new Set()): void {
  if (node.always !== undefined) {
    if (!node.always) flat.never = true
    return
  }
  if (seen.has(node)) return
  seen.add(node)
  if (node.types !== undefined) {
    if (flat.types === undefined) flat.types = [...node.types]
    else {
      const both = intersectTypes(flat.types, node.types)
      if (both.length === 0) flat.contradictions.push(`allOf asks for ${flat.types.join('/')} and ${node.types.join('/')}`)
      else flat.types = both
    }
  }
  if (node.properties !== undefined || node.patternProperties !== undefined || node.additional !== undefined) {
    flat.objects.push({ declared: node.properties, patterns: node.patternProperties ?? [], additional: node.additional })
  }
  for (const key of node.required ?? []) flat.required.add(key)
  if (node.dependentRequired !== undefined) flat.dependentRequired.push(node.dependentRequired)
  if (node.propertyNames !== undefined) flat.propertyNames.push(node.propertyNames)
  flat.minProperties = tighterMin(flat.minProperties, node.minProperties)
  flat.maxProperties = tighterMax(flat.maxProperties, node.maxProperties)
  if (node.prefixItems !== undefined || node.items !== undefined) flat.arrays.push({ prefix: node.prefixItems ?? [], items: node.items })
  if (node.contains !== undefined) flat.contains.push(node.contains)
  flat.minContains = tighterMin(flat.minContains, node.minContains)
  flat.minItems = tighterMin(flat.minItems, node.minItems)
  flat.maxItems = tighterMax(flat.maxItems, node.maxItems)
  if (node.uniqueItems === true) flat.uniqueItems = true
  flat.minLength = tighterMin(flat.minLength, node.minLength)
  flat.maxLength = tighterMax(flat.maxLength, node.maxLength)
  if (node.pattern !== undefined) flat.patterns.push(node.pattern)
  if (node.format !== undefined && !flat.formats.includes(node.format)) flat.formats.push(node.format)
  flat.minimum = tighterMin(flat.minimum, node.minimum)
  flat.maximum = tighterMax(flat.maximum, node.maximum)
  flat.exclusiveMinimum = tighterMin(flat.exclusiveMinimum, node.exclusiveMinimum)
  flat.exclusiveMaximum = tighterMax(flat.exclusiveMaximum, node.exclusiveMaximum)
  if (node.multipleOf !== undefined) flat.multipleOf.push(node.multipleOf)
  const values = node.const !== undefined ? [node.const.value] : node.enum
  if (values !== undefined) {
    if (flat.enum === undefined) flat.enum = values
    else {
      const kept = flat.enum.filter((v) => values.some((w) => jsonEqual(v, w)))
      if (kept.length === 0) flat.contradictions.push('enum and const values that no value satisfies together')
      else flat.enum = kept
    }
  }
  if (node.anyOf !== undefined) flat.anyOf.push(node.anyOf)
  if (node.oneOf !== undefined) flat.oneOf.push(node.oneOf)
  if (node.not !== undefined || node.dependentSchemas !== undefined || node.unevaluatedProperties !== undefined) flat.checks++
  // A value the not's const or enum names is never drawn (the check after the draw still judges the
  // rest of the not): `{minimum: 0, maximum: 5, not: {const: 5}}` drew 5 six times in a row once in
  // about 50,000 values, and warned.
  if (node.not !== undefined) flat.excluded.push(...(node.not.const !== undefined ? [node.not.const.value] : (node.not.enum ?? [])))
  if (node.not?.types !== undefined) flat.excludedTypes.push(...node.not.types)
  if (node.if !== undefined) flat.conditionals.push(node)
  for (const sub of node.allOf ?? []) flatten(sub, flat, seen)
  if (node.ref !== undefined) flatten(node.ref, flat, seen)
}

/**
 * Each node folded once: a compiled schema's nodes never change, and most nodes (no anyOf, oneOf,
 * not or conditionals) are generated from their fold as it is. Keyed by node, so it holds nothing
 * but what compiled schemas hold, and goes with them.
 */
const folds = new WeakMap<Node, Flat>()
function flatOf(node: Node): Flat {
  let flat = folds.get(node)
  if (flat === undefined) {
    flat = emptyFlat()
    flatten(node, flat)
    folds.set(node, flat)
  }
  return flat
}

/** `true` when the value only ever comes from a `{type: 'null'}` branch: one a nullable field rarely takes. */
function onlyNull(node: Node): boolean {
  return node.types !== undefined && node.types.length === 1 && node.types[0] === 'null'
}

function allOf(nodes: Node[]): Node {
  if (nodes.length === 1) return nodes[0] as Node
  if (nodes.length === 0) return {}
  return { allOf: nodes }
}

function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  // A plain assignment of "__proto__" would set the prototype instead of a property.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

export class Generator {
  private warnings = new Set<string>()
  private budget = BUDGET

  constructor(private readonly draw: Draw) {}

  /** A value for `root`, and what could not be satisfied. */
  run(root: Node): { value: unknown; warnings: string[] } {
    let value: unknown
    for (let attempt = 0; attempt < 3; attempt++) {
      this.warnings.clear()
      value = this.value(root, '$', '', 0)
      if (this.warnings.size > 0 || isValid(root, value)) break
    }
    if (this.warnings.size === 0 && !isValid(root, value)) {
      // Not expected: what the generator makes, the validator accepts. A warning rather than a silent invalid value.
      this.warnings.add(`$: the generated value is not valid against the schema`)
    }
    return { value, warnings: [...this.warnings] }
  }

  private warn(path: string, text: string): void {
    this.warnings.add(`${path}: ${text}`)
  }

  value(node: Node, path: string, name: string, depth: number): unknown {
    if (depth > HARD_DEPTH) {
      this.warn(path, `recursion deeper than ${HARD_DEPTH} levels cut short`)
      return null
    }
    const folded = flatOf(node)
    const checked = folded.oneOf.length > 0 || folded.checks > 0 || folded.conditionals.length > 0 || folded.anyOf.length > 0
    // choose() takes the branch groups out of the flat it is given: a node with groups folds afresh.
    let base = folded
    if (checked) {
      base = emptyFlat()
      flatten(node, base)
    }
    const unmet = checked ? describeUnmet(base) : '' // before choose() takes the groups out of base
    const first = this.draw.u32()
    // What a failed draw warned of is dropped when a later draw succeeds.
    const before = [...this.warnings]
    let value: unknown
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (attempt > 0) this.warnings = new Set(before)
      const flat = attempt === 0 ? base : emptyFlat()
      if (attempt > 0) flatten(node, flat)
      this.choose(flat, depth, first + attempt, attempt)
      value = this.build(flat, node, path, name, depth)
      if (!checked || this.budget <= 0) return value
      this.budget--
      if (isValid(node, value)) return value
    }
    this.warn(path, unmet)
    return value
  }

  /** Picks a branch of each anyOf/oneOf (and of if/then/else) into `flat`; a branch may bring more. */
  private choose(flat: Flat, depth: number, seed: number, attempt: number): void {
    const seen = new Set<Node>()
    for (let done = 0; done < 16; done++) {
      const group = flat.anyOf.shift() ?? flat.oneOf.shift()
      if (group !== undefined) {
        const pick = this.branch(group, depth, seed + done, attempt)
        const extra = emptyFlat()
        flatten(pick, extra, seen)
        merge(flat, extra)
        continue
      }
      const conditional = flat.conditionals.shift()
      if (conditional === undefined) return
      const extra = emptyFlat()
      if (attempt % 2 === 0) {
        flatten(conditional.if as Node, extra, seen)
        if (conditional.then !== undefined) flatten(conditional.then, extra, seen)
      } else if (conditional.else !== undefined) flatten(conditional.else, extra, seen)
      merge(flat, extra)
    }
  }

  private branch(group: Node[], depth: number, seed: number, attempt: number): Node {
    let options = group.map((_, i) => i)
    if (depth > SOFT_DEPTH) {
      const flat = options.filter((i) => !reachesRef(group[i] as Node))
      if (flat.length > 0) options = flat
      // Deep in a recursion a null ends it: prefer the null branch there.
      const nulls = options.filter((i) => onlyNull(group[i] as Node))
      if (nulls.length > 0) options = nulls
    } else if (attempt === 0) {
      // A nullable field is mostly not null.
      const values = options.filter((i) => !onlyNull(group[i] as Node))
      if (values.length > 0 && values.length < options.length && this.draw.chance(7 / 8)) options = values
    }
    return group[options[(seed >>> 0) % options.length] as number] as Node
  }

  private build(flat: Flat, node: Node, path: string, name: string, depth: number): unknown {
    for (const c of flat.contradictions) this.warn(path, c)
    if (flat.never) {
      this.warn(path, 'the schema allows no value (false)')
      return null
    }
    if (flat.enum !== undefined) {
      const fit = flat.enum.filter((v) => isValid(node, v))
      if (fit.length === 0) this.warn(path, 'no enum/const value satisfies the rest of the schema')
      return this.draw.pick(fit.length > 0 ? fit : flat.enum)
    }
    const types = withoutExcludedTypes(flat, flat.types ?? [inferType(flat, name)])
    if (types.length === 0) return null
    const values = types.filter((t) => t !== 'null')
    const nullAllowed = !isExcluded(flat, null)
    let type: TypeName
    if (values.length === 0) type = 'null'
    else if (values.length < types.length && nullAllowed && (depth > SOFT_DEPTH || this.draw.chance(1 / 8))) type = 'null'
    else type = this.draw.pick(values)
    switch (type) {
      case 'null':
        return null
      case 'boolean': {
        const booleans = [true, false].filter((b) => !isExcluded(flat, b))
        return booleans.length === 1 ? booleans[0] : this.draw.chance(0.5)
      }
      case 'string':
        return this.string(flat, path, name)
      case 'integer':
      case 'number':
        return this.number(flat, type === 'integer' || (values.includes('integer') && !values.includes('number')), path, name)
      case 'object':
        return this.object(flat, path, depth)
      case 'array':
        return this.array(flat, path, name, depth)
    }
  }

  private string(flat: Flat, path: string, name: string): string {
    const min = flat.minLength ?? 0
    let max = flat.maxLength ?? Infinity
    if (min > max) {
      this.warn(path, `minLength ${min} is greater than maxLength ${max}`)
      max = min
    }
    const fits = (s: string): boolean => {
      const n = codePoints(s)
      return n >= min && n <= max && flat.patterns.every((p) => p.re.test(s)) && flat.formats.every((f) => formatValid(f, s) !== false) && !isExcluded(flat, s)
    }
    for (const format of flat.formats) {
      for (let i = 0; i < 3; i++) {
        const s = makeFormat(format, this.draw)
        if (s !== undefined && fits(s)) return s
      }
    }
    // A format it neither makes nor checks gets whatever string fits the rest, which a client's own check may refuse: say so.
    // Not of a format the patterns beside it carry whole (zod's starts_with, nanoid...): the value meets them, or the patterns' warning says so.
    for (const format of flat.formats) {
      if (makesFormat(format) || carriedByPatterns(format, flat.patterns)) continue
      this.warn(path, `format ${JSON.stringify(format)} is not one the generator makes: the value is a plain string`)
    }
    const hinted = this.hintString(name)
    if (hinted !== undefined && fits(hinted)) return hinted
    if (flat.patterns.length > 0) {
      const parsed = flat.patterns.map(parsePattern)
      // A string made from each pattern in turn, padded after the match when short. With one
      // pattern this is the whole search as it always was, and draws the same values.
      let last = ''
      for (let attempt = 0; attempt < 12; attempt++) {
        const extra = attempt < 4 ? 3 : attempt < 8 ? 0 : Math.min(max === Infinity ? min + 3 : max, 64)
        for (const one of parsed) {
          const s = stringFromPattern(one, this.draw, extra)
          last = s
          if (fits(s)) return s
          const padded = codePoints(s) < min ? this.padTo(s, min) : undefined
          if (padded !== undefined && fits(padded)) return padded
        }
      }
      // Then strings the patterns meet together: their strings joined in each order, padded inside
      // rather than after an anchored suffix (which a lone `^ab.*yz$` needs too).
      const together = this.joinPatterns(flat.patterns, parsed, min, max, fits)
      if (together !== undefined) return together
      const look = flat.patterns.find((_, i) => (parsed[i] as ParsedPattern).lookaround)
      this.warn(
        path,
        look !== undefined
          ? `pattern ${JSON.stringify(look.source)} uses a lookaround, which the generator cannot satisfy`
          : `could not make a string that matches ${flat.patterns.map((p) => JSON.stringify(p.source)).join(' and ')} within the length bounds`,
      )
      return last
    }
    if (flat.formats.some(makesFormat)) this.warn(path, `could not make a ${flat.formats.join('/')} within the length bounds`)
    return this.words(min, max)
  }

  /**
   * A string every pattern matches, from strings each pattern makes (the shortest ones first, then
   * drawn ones), joined in each order (all orders of up to four patterns, in a drawn sequence): each
   * next one left out where what is before it already matches its pattern (`^[a-z]+$` after `ab`),
   * else after it, overlapping its end (`ab` `bc` as `abc`), or laid over its end or its start
   * (`^x.*` over a fixed-length id). The joins every pattern already matches are tried first, padded
   * to `minLength` at a seam rather than after an anchored suffix; then the rest, padded. `^ab.*`,
   * `mm` and `.*yz$` give `abmmyz`; with minLength 8, `abmmqxyz`.
   */
  private joinPatterns(patterns: Pattern[], parsed: ParsedPattern[], min: number, max: number, fits: (s: string) => boolean): string | undefined {
    const k = parsed.length
    const orders = k <= 4 ? permutations(k) : [parsed.map((_, i) => i), parsed.map((_, i) => k - 1 - i)]
    let budget = JOIN_BUDGET
    const tries = (s: string): boolean => budget-- > 0 && fits(s)
    for (let round = 0; round < 4 && budget > 0; round++) {
      const pieces = parsed.map((p) => [...(round === 0 ? shortestFromPattern(p, this.draw) : stringFromPattern(p, this.draw, round === 1 ? 0 : 3))])
      const all: Joined[] = []
      for (const order of this.shuffled(orders)) {
        let joined: Joined[] = [{ chars: pieces[order[0] as number] as string[], seams: [] }]
        for (const i of order.slice(1)) {
          const re = (patterns[i] as Pattern).re
          joined = uniqueJoins(joined.flatMap((j) => [...(re.test(j.chars.join('')) ? [j] : []), ...joinWays(j, pieces[i] as string[])])).slice(0, 16)
        }
        all.push(...joined.filter((j) => j.chars.length <= max))
      }
      const candidates = uniqueJoins(all)
      const matched = new Set(candidates.filter((j) => budget-- > 0 && patterns.every((p) => p.re.test(j.chars.join('')))))
      for (const j of [...matched, ...candidates.filter((c) => !matched.has(c))]) {
        if (budget <= 0) return undefined
        if (j.chars.length >= min) {
          if (tries(j.chars.join(''))) return j.chars.join('')
          continue
        }
        const padded = this.padInside(j, min, tries)
        if (padded !== undefined) return padded
      }
    }
    return undefined
  }

  /**
   * `j` padded to `length` code points where the patterns still match: at each inner seam (in a
   * drawn order), then the end, then the start, then other places inside (all of a short string,
   * else four drawn); with drawn letters, then
   * with characters drawn from `j` itself (which its patterns' classes allowed).
   */
  private padInside(j: Joined, length: number, fits: (s: string) => boolean): string | undefined {
    const chars = j.chars
    const places: number[] = []
    const add = (at: number): void => {
      if (!places.includes(at)) places.push(at)
    }
    for (const at of this.shuffled(j.seams.filter((at) => at > 0 && at < chars.length))) add(at)
    add(chars.length)
    add(0)
    const inner = Array.from({ length: Math.max(0, chars.length - 1) }, (_, i) => i + 1)
    for (const at of inner.length <= 6 ? this.shuffled(inner) : [0, 1, 2, 3].map(() => this.draw.int(1, chars.length - 1))) add(at)
    for (const alphabet of [LETTERS, [...new Set(chars)]]) {
      if (alphabet.length === 0) continue
      for (const at of places) {
        const fill: string[] = []
        for (let i = chars.length; i < length; i++) fill.push(this.draw.pick(alphabet))
        const s = [...chars.slice(0, at), ...fill, ...chars.slice(at)].join('')
        if (fits(s)) return s
      }
    }
    return undefined
  }

  /** `items` in a drawn order (Fisher-Yates on the generator's source). */
  private shuffled<T>(items: readonly T[]): T[] {
    const out = [...items]
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.draw.int(0, i)
      ;[out[i], out[j]] = [out[j] as T, out[i] as T]
    }
    return out
  }

  /** `s` with letters added after it (patterns are unanchored: a match inside a longer string still matches). */
  private padTo(s: string, length: number): string {
    let out = s
    while (codePoints(out) < length) out += 'abcdefghijklmnopqrstuvwxyz'[this.draw.int(0, 25)] as string
    return out
  }

  private hintString(name: string): string | undefined {
    const hint = stringHint(name)
    if (hint === undefined) return undefined
    const d = this.draw
    switch (hint.kind) {
      case 'list':
        return d.pick(hint.values)
      case 'email':
        return makeEmail(d)
      case 'name': {
        const first = d.pick(FIRST_NAMES)
        const last = d.pick(LAST_NAMES)
        if (hint.part === 'first') return first
        if (hint.part === 'last') return last
        if (hint.part === 'user') return `${first.toLowerCase()}${d.int(1, 99)}`
        return `${first} ${last}`
      }
      case 'url':
        return `https://example.com/${d.pick(WORDS)}`
      case 'uuid':
        return makeUuid(d)
      case 'date':
        return makeDate(d)
      case 'date-time':
        return makeFormat('date-time', d)
      case 'number':
        return undefined
    }
  }

  /** Words from the list, fitted to [min, max] code points. */
  private words(min: number, max: number): string {
    const target = max === Infinity && min === 0 ? -1 : this.draw.int(Math.min(min, max), Math.min(max, Math.max(min, 8) + 16))
    if (target === 0) return ''
    const words: string[] = []
    const count = target < 0 ? this.draw.int(1, 4) : Infinity
    let text = ''
    while (words.length < count && (target < 0 || text.length < target)) {
      words.push(this.draw.pick(WORDS))
      text = words.join(' ')
    }
    if (target < 0) return text
    text = text.slice(0, target)
    return text.endsWith(' ') ? `${text.slice(0, -1)}s` : text
  }

  private number(flat: Flat, integer: boolean, path: string, name: string): number {
    let lo = flat.minimum ?? -Infinity
    let hi = flat.maximum ?? Infinity
    const exLo = flat.exclusiveMinimum
    const exHi = flat.exclusiveMaximum
    const fits = (v: number): boolean =>
      Number.isFinite(v) &&
      (!integer || Number.isInteger(v)) &&
      v >= lo && v <= hi &&
      (exLo === undefined || v > exLo) &&
      (exHi === undefined || v < exHi) &&
      flat.multipleOf.every((m) => isMultiple(v, m)) &&
      !isExcluded(flat, v)
    let step = this.step(flat, integer, path)
    if (integer && step === undefined) step = 1
    if (exLo !== undefined && exLo >= lo) lo = exLo
    if (exHi !== undefined && exHi <= hi) hi = exHi
    // The window to draw from: the name's hint where it meets the bounds, else [0, 100] where it does.
    const hint = numberHint(name)
    const window = (a: number, b: number): [number, number] | undefined => {
      const wl = Math.max(a, lo)
      const wh = Math.min(b, hi)
      return wl <= wh ? [wl, wh] : undefined
    }
    const [wl, wh] =
      (hint !== undefined ? window(hint.min, hint.max) : undefined) ??
      window(0, 100) ??
      (Number.isFinite(lo) ? [lo, Math.min(hi, lo + 100 * Math.max(step ?? 1, 1))] : [Math.max(lo, hi - 100 * Math.max(step ?? 1, 1)), hi])
    if (lo > hi || (lo === hi && (lo === exLo || hi === exHi))) {
      this.warn(path, `the bounds leave no number (between ${lo} and ${hi})`)
      return lo
    }
    if (step !== undefined) {
      const kLo = Math.ceil(wl / step)
      const kHi = Math.floor(wh / step)
      for (let i = 0; i < 24; i++) {
        const k = i < 16 ? this.draw.int(Math.min(kLo, kHi), Math.max(kLo, kHi)) : kLo + (i - 16)
        // k * 0.1 is often 39.300000000000004: the short form when it is still a multiple, as ajv checks it.
        const v = k * step
        const short = Number(v.toPrecision(12))
        if (fits(short)) return short === 0 ? 0 : short
        if (i >= 12 && fits(v)) return v === 0 ? 0 : v
      }
      // The whole bounded range, from its low end, before giving up.
      const aLo = Math.ceil(lo / step)
      for (let k = aLo; k < aLo + 50 && Number.isFinite(k); k++) if (fits(k * step)) return k * step
      this.warn(path, `no ${integer ? 'integer' : 'number'} satisfies the bounds and multipleOf together`)
      return kLo * step
    }
    const decimals = hint?.decimals ?? 2
    const scale = 10 ** Math.max(decimals, 0)
    for (let i = 0; i < 8; i++) {
      const raw = wl + this.draw.float() * (wh - wl)
      const v = Math.round(raw * scale) / scale
      if (fits(v)) return v
      if (fits(raw)) return raw
    }
    const mid = (Math.max(lo, -1e300) + Math.min(hi, 1e300)) / 2
    if (fits(mid)) return mid
    this.warn(path, `no number satisfies the bounds`)
    return Number.isFinite(lo) ? lo : Number.isFinite(hi) ? hi : 0
  }

  /** The step values are drawn on: one multipleOf every multipleOf divides, made whole for an integer. */
  private step(flat: Flat, integer: boolean, path: string): number | undefined {
    const ms = flat.multipleOf
    if (ms.length === 0) return undefined
    let step = ms.find((m) => ms.every((o) => isMultiple(m, o)))
    if (step === undefined && ms.every((m) => Number.isInteger(m))) step = ms.reduce((a, b) => (a * b) / gcd(a, b))
    if (step === undefined) {
      this.warn(path, `no common multiple of ${ms.join(', ')} found`)
      step = ms[0] as number
    }
    if (integer && !Number.isInteger(step)) {
      const s = step
      let whole: number | undefined
      for (let j = 1; j <= 1000 && whole === undefined; j++) {
        const r = Math.round(j * s)
        if (Math.abs(r - j * s) < 1e-9 && r > 0 && isMultiple(r, s)) whole = r
      }
      if (whole === undefined) this.warn(path, `no integer is a multiple of ${s}`)
      step = whole ?? 1
    }
    return step
  }

  private object(flat: Flat, path: string, depth: number): Record<string, unknown> {
    const parts = flat.objects
    const nodesFor = (key: string): Node[] => {
      const nodes: Node[] = []
      for (const part of parts) {
        const own: Node[] = []
        const declared = part.declared?.get(key)
        if (declared !== undefined) own.push(declared)
        for (const p of part.patterns) if (p.pattern.re.test(key)) own.push(p.node)
        if (own.length === 0 && part.additional !== undefined) own.push(part.additional)
        nodes.push(...own)
      }
      return nodes
    }
    const allowed = (key: string): boolean =>
      !nodesFor(key).some((n) => n.always === false) && flat.propertyNames.every((n) => isValid(n, key))
    const declared: string[] = []
    for (const part of parts) for (const key of part.declared?.keys() ?? []) if (!declared.includes(key)) declared.push(key)
    const required = [...flat.required]
    for (const key of required) if (!allowed(key)) this.warn(path, `the required property ${JSON.stringify(key)} is not allowed by the schema`)
    const optional = declared.filter((key) => !flat.required.has(key) && allowed(key))
    const max = flat.maxProperties ?? Infinity
    const min = flat.minProperties ?? 0
    if (required.length > max) this.warn(path, `${required.length} required properties exceed maxProperties ${max}`)
    let chosen = [...required]
    const room = Math.max(0, max - chosen.length)
    const wanted = depth > SOFT_DEPTH ? Math.max(0, min - chosen.length) : optional.length
    chosen.push(...optional.slice(0, Math.min(room, wanted)))
    // dependentRequired: a property present brings the ones it needs.
    for (const deps of flat.dependentRequired) {
      for (const [key, needs] of deps) if (chosen.includes(key)) for (const need of needs) if (!chosen.includes(need)) chosen.push(need)
    }
    for (let n = 1; chosen.length < min && n <= min * 4 + 8; n++) {
      const key = this.extraKey(flat, n)
      if (key !== undefined && !chosen.includes(key) && allowed(key)) chosen.push(key)
    }
    if (chosen.length < min) this.warn(path, `could not reach minProperties ${min}`)
    const ordered = [...declared.filter((k) => chosen.includes(k)), ...chosen.filter((k) => !declared.includes(k))]
    chosen = ordered
    const out: Record<string, unknown> = {}
    for (const key of chosen) setKey(out, key, this.value(allOf(nodesFor(key)), childPath(path, key), key, depth + 1))
    return out
  }

  /** A name for an undeclared property: one a patternProperties or propertyNames pattern allows, else `field_n`. */
  private extraKey(flat: Flat, n: number): string | undefined {
    const withPatterns = flat.objects.flatMap((part) => part.patterns)
    const source = withPatterns[n % Math.max(withPatterns.length, 1)]
    if (source !== undefined && n % 2 === 1) return stringFromPattern(parsePattern(source.pattern), this.draw, 3)
    const names = flat.propertyNames[0]
    if (names !== undefined) {
      const key = this.value(names, '$', '', HARD_DEPTH)
      return typeof key === 'string' ? key : undefined
    }
    return `${this.draw.pick(WORDS)}_${n}`
  }

  private array(flat: Flat, path: string, name: string, depth: number): unknown[] {
    const parts = flat.arrays
    let max = flat.maxItems ?? Infinity
    const min = flat.minItems ?? 0
    const prefix = Math.max(0, ...parts.map((p) => p.prefix.length))
    for (const part of parts) if (part.items?.always === false) max = Math.min(max, part.prefix.length)
    if (min > max) this.warn(path, `minItems ${min} is greater than the items allowed (${max})`)
    const needed = flat.contains.length > 0 ? (flat.minContains ?? 1) : 0
    let lo = Math.min(Math.max(min, needed, depth > SOFT_DEPTH ? 0 : prefix > 0 ? prefix : 1), max)
    if (lo < min) lo = min
    const hi = depth > SOFT_DEPTH || prefix > 0 ? lo : Math.min(max, lo + 2)
    const length = this.draw.int(lo, Math.max(lo, hi))
    const itemName = singular(name)
    const out: unknown[] = []
    for (let i = 0; i < length; i++) {
      const nodes: Node[] = []
      for (const part of parts) {
        const sub = i < part.prefix.length ? part.prefix[i] : part.items
        if (sub !== undefined) nodes.push(sub)
      }
      if (i < needed) nodes.push(...flat.contains)
      const node = allOf(nodes)
      let item = this.value(node, childPath(path, i), itemName, depth + 1)
      if (flat.uniqueItems) {
        for (let tries = 0; tries < 8 && out.some((o) => jsonEqual(o, item)); tries++) item = this.value(node, childPath(path, i), itemName, depth + 1)
        if (out.some((o) => jsonEqual(o, item))) {
          if (i >= min) break
          this.warn(path, `could not make ${min} unique items`)
        }
      }
      out.push(item)
    }
    return out
  }
}

/** Every type a value may take, in the order one is taken for a schema that names none. */
const ANY_TYPE: readonly TypeName[] = ['string', 'number', 'boolean', 'object', 'array', 'null']

/**
 * `types` without those a `not` names (an integer is a number too); a schema that named no type
 * and whose inferred one is named gets the first other type. Named types a `not` leaves none of
 * stay, for the check after the draw to report.
 */
function withoutExcludedTypes(flat: Flat, types: TypeName[]): TypeName[] {
  const out = flat.excludedTypes
  if (out.length === 0) return types
  const allowed = (t: TypeName): boolean => !out.includes(t) && !(t === 'integer' && out.includes('number'))
  const kept = types.filter(allowed)
  if (kept.length > 0) return kept
  if (flat.types !== undefined) return types
  const other = ANY_TYPE.find(allowed)
  return other === undefined ? types : [other]
}

/** Whether a `not` const or enum of the schema names `value`. */
function isExcluded(flat: Flat, value: unknown): boolean {
  return flat.excluded.length > 0 && flat.excluded.some((e) => jsonEqual(e, value))
}

/** Every order of `0..n-1`, the identity first. */
function permutations(n: number): number[][] {
  if (n <= 1) return [Array.from({ length: n }, (_, i) => i)]
  const out: number[][] = []
  for (const rest of permutations(n - 1)) for (let at = rest.length; at >= 0; at--) out.push([...rest.slice(0, at), n - 1, ...rest.slice(at)])
  return out
}

/** Strings made from several patterns, joined: code points, and where padding may go between them. */
interface Joined {
  chars: string[]
  seams: number[]
}

/** Strings one join of patterns checks, at most: a few milliseconds where none fits. */
const JOIN_BUDGET = 400
const LETTERS = [...'abcdefghijklmnopqrstuvwxyz']

/** The ways `next` joins `j`: after it, overlapping its end, laid over its end, laid over its start. */
function joinWays(j: Joined, next: string[]): Joined[] {
  const { chars, seams } = j
  const n = chars.length
  const m = next.length
  const ways: Joined[] = [{ chars: [...chars, ...next], seams: [...seams, n] }]
  let k = Math.min(n, m)
  while (k > 0 && !next.slice(0, k).every((c, i) => c === chars[n - k + i])) k--
  if (k > 0) ways.push({ chars: [...chars, ...next.slice(k)], seams: seams.filter((at) => at <= n - k) })
  if (m > 0 && m < n) {
    ways.push({ chars: [...chars.slice(0, n - m), ...next], seams: [...seams.filter((at) => at < n - m), n - m] })
    ways.push({ chars: [...next, ...chars.slice(m)], seams: [m, ...seams.filter((at) => at > m)] })
  }
  return ways
}

function uniqueJoins(list: Joined[]): Joined[] {
  const seen = new Set<string>()
  return list.filter((j) => {
    const key = j.chars.join('')
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b)
}

/** Folds what a chosen branch brings into the flat it was chosen for. */
function merge(into: Flat, extra: Flat): void {
  if (extra.never) into.never = true
  if (extra.types !== undefined) {
    if (into.types === undefined) into.types = extra.types
    else {
      const both = intersectTypes(into.types, extra.types)
      if (both.length === 0) into.contradictions.push(`a chosen branch asks for ${extra.types.join('/')} where ${into.types.join('/')} is required`)
      else into.types = both
    }
  }
  into.objects.push(...extra.objects)
  for (const key of extra.required) into.required.add(key)
  into.dependentRequired.push(...extra.dependentRequired)
  into.propertyNames.push(...extra.propertyNames)
  into.minProperties = tighterMin(into.minProperties, extra.minProperties)
  into.maxProperties = tighterMax(into.maxProperties, extra.maxProperties)
  into.arrays.push(...extra.arrays)
  into.contains.push(...extra.contains)
  into.minContains = tighterMin(into.minContains, extra.minContains)
  into.minItems = tighterMin(into.minItems, extra.minItems)
  into.maxItems = tighterMax(into.maxItems, extra.maxItems)
  into.uniqueItems ||= extra.uniqueItems
  into.minLength = tighterMin(into.minLength, extra.minLength)
  into.maxLength = tighterMax(into.maxLength, extra.maxLength)
  into.patterns.push(...extra.patterns)
  for (const f of extra.formats) if (!into.formats.includes(f)) into.formats.push(f)
  into.minimum = tighterMin(into.minimum, extra.minimum)
  into.maximum = tighterMax(into.maximum, extra.maximum)
  into.exclusiveMinimum = tighterMin(into.exclusiveMinimum, extra.exclusiveMinimum)
  into.exclusiveMaximum = tighterMax(into.exclusiveMaximum, extra.exclusiveMaximum)
  into.multipleOf.push(...extra.multipleOf)
  if (extra.enum !== undefined) {
    const values = extra.enum
    into.enum = into.enum === undefined ? values : into.enum.filter((v) => values.some((w) => jsonEqual(v, w)))
  }
  into.excluded.push(...extra.excluded)
  into.excludedTypes.push(...extra.excludedTypes)
  into.anyOf.push(...extra.anyOf)
  into.oneOf.push(...extra.oneOf)
  into.checks += extra.checks
  into.conditionals.push(...extra.conditionals)
  into.contradictions.push(...extra.contradictions)
}

/** The type of a schema without `type`: the one its keywords speak of, else by the name, else a string. */
function inferType(flat: Flat, name: string): TypeName {
  if (flat.objects.length > 0 || flat.required.size > 0 || flat.minProperties !== undefined || flat.maxProperties !== undefined) return 'object'
  if (flat.arrays.length > 0 || flat.contains.length > 0 || flat.minItems !== undefined || flat.maxItems !== undefined) return 'array'
  if (flat.patterns.length > 0 || flat.formats.length > 0 || flat.minLength !== undefined || flat.maxLength !== undefined) return 'string'
  if (flat.minimum !== undefined || flat.maximum !== undefined || flat.exclusiveMinimum !== undefined || flat.exclusiveMaximum !== undefined || flat.multipleOf.length > 0) {
    return 'number'
  }
  return numberHint(name) !== undefined && stringHint(name) === undefined ? 'number' : 'string'
}

function describeUnmet(flat: Flat): string {
  const what: string[] = []
  if (flat.oneOf.length > 0) what.push('a oneOf no branch of which could be made exclusive')
  if (flat.anyOf.length > 0) what.push('anyOf')
  if (flat.checks > 0) what.push('not/dependentSchemas/unevaluatedProperties')
  if (flat.conditionals.length > 0) what.push('if/then/else')
  return `could not satisfy ${what.join(', ') || 'the schema'} after ${ATTEMPTS} draws`
}
