// Strings from a `pattern`: a small generator for the subset of JavaScript regular expressions
// (flag u) that schemas use (decisions/0046). Literals, escapes, classes, `.`, groups, alternation
// and quantifiers are generated; anchors and \b are accepted and ignored; a backreference repeats
// what its group produced; a lookaround is skipped, so the caller's final RegExp test decides, and
// warns when it fails. No npm library: randexp, the one candidate, is unmaintained since 2018.
import type { Draw } from './draw.js'
import type { Pattern } from './node.js'

type Range = readonly [number, number]

type RNode =
  | { t: 'alt'; alts: RNode[][] }
  | { t: 'set'; ranges: Range[] }
  | { t: 'pool'; test: RegExp; chars?: string[] }
  | { t: 'group'; body: RNode; index: number | undefined; name: string | undefined }
  | { t: 'repeat'; node: RNode; min: number; max: number }
  | { t: 'look' }
  | { t: 'dot' }
  | { t: 'empty' }
  | { t: 'backref'; ref: number | string }

/** A parsed pattern and whether it holds a lookaround (which the generator cannot honour). */
export interface ParsedPattern {
  root: RNode
  lookaround: boolean
}

const DIGIT: Range[] = [[48, 57]]
const WORD: Range[] = [[97, 122], [65, 90], [48, 57], [95, 95]]
const SPACE: Range[] = [[32, 32]]
/** What a negated class or escape draws from: printable ASCII and a few letters beyond it. */
const POOL = ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~éßЖ中'
const DOT = 'abcdefghijklmnopqrstuvwxyz0123456789'

/**
 * The quantifier at `i` of a pattern (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, lazy or not): its
 * counts and where it ends, or null when none stands there (a `{` that is no quantifier included).
 */
export function readQuantifier(s: string, i: number): { min: number; max: number; end: number } | null {
  const c = s[i]
  let min: number
  let max: number
  let end = i + 1
  if (c === '*') [min, max] = [0, Infinity]
  else if (c === '+') [min, max] = [1, Infinity]
  else if (c === '?') [min, max] = [0, 1]
  else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(i))
    if (m === null) return null
    min = Number(m[1])
    max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3])
    end = i + m[0].length
  } else return null
  if (s[end] === '?') end++
  return { min, max, end }
}

/** The code units of the escapes of one control character (`\n`...). */
export const CONTROL_ESCAPES: Readonly<Record<string, number>> = { n: 10, t: 9, r: 13, f: 12, v: 11, '0': 0 }

class Parser {
  i = 0
  groups = 0
  lookaround = false

  constructor(private readonly s: string) {}

  private peek(): string {
    return this.s[this.i] ?? ''
  }

  alt(): RNode {
    const alts: RNode[][] = [this.seq()]
    while (this.peek() === '|') {
      this.i++
      alts.push(this.seq())
    }
    return alts.length === 1 && alts[0]?.length === 1 ? (alts[0][0] as RNode) : { t: 'alt', alts }
  }

  private seq(): RNode[] {
    const items: RNode[] = []
    while (this.i < this.s.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.atom()
      items.push(this.quantified(atom))
    }
    return items
  }

  private quantified(atom: RNode): RNode {
    const q = readQuantifier(this.s, this.i)
    if (q === null) return atom
    this.i = q.end // lazy: the same strings
    return { t: 'repeat', node: atom, min: q.min, max: q.max }
  }

  private atom(): RNode {
    const c = this.peek()
    this.i++
    switch (c) {
      case '(':
        return this.group()
      case '[':
        return this.klass()
      case '.':
        return { t: 'dot' }
      case '^':
      case '$':
        return { t: 'empty' }
      case '\\':
        return this.escape(false)
      default: {
        const cp = this.s.codePointAt(this.i - 1) as number
        if (cp > 0xffff) this.i++
        return { t: 'set', ranges: [[cp, cp]] }
      }
    }
  }

  private group(): RNode {
    let index: number | undefined
    let name: string | undefined
    let look = false
    if (this.s.startsWith('?:', this.i)) this.i += 2
    else if (/^\?<?[=!]/.test(this.s.slice(this.i, this.i + 3))) {
      look = true
      this.i += this.s[this.i + 1] === '<' ? 3 : 2
    } else if (this.s.startsWith('?<', this.i)) {
      const end = this.s.indexOf('>', this.i)
      name = this.s.slice(this.i + 2, end)
      this.i = end + 1
      index = ++this.groups
    } else index = ++this.groups
    const body = this.alt()
    this.i++ // ')'
    if (look) {
      this.lookaround = true
      return { t: 'look' }
    }
    return { t: 'group', body, index, name }
  }

  /** An escape; in a class, \b is a backspace and there are no backreferences. */
  private escape(inClass: boolean): RNode {
    const c = this.peek()
    this.i++
    switch (c) {
      case 'd':
        return { t: 'set', ranges: DIGIT }
      case 'w':
        return { t: 'set', ranges: WORD }
      case 's':
        return { t: 'set', ranges: SPACE }
      case 'D':
        return { t: 'pool', test: /^\D$/u }
      case 'W':
        return { t: 'pool', test: /^\W$/u }
      case 'S':
        return { t: 'pool', test: /^\S$/u }
      case 'b':
        return inClass ? lit(8) : { t: 'empty' }
      case 'B':
        return { t: 'empty' }
      case 'n':
      case 't':
      case 'r':
      case 'f':
      case 'v':
      case '0':
        return lit(CONTROL_ESCAPES[c] as number)
      case 'c':
        return lit((this.s.charCodeAt(this.i++) % 32) as number)
      case 'x': {
        const hex = this.s.slice(this.i, this.i + 2)
        this.i += 2
        return lit(parseInt(hex, 16))
      }
      case 'u':
        return lit(this.unicodeEscape())
      case 'p':
      case 'P': {
        const end = this.s.indexOf('}', this.i)
        const source = `\\${c}${this.s.slice(this.i, end + 1)}`
        this.i = end + 1
        return { t: 'pool', test: new RegExp(`^${source}$`, 'u') }
      }
      case 'k': {
        const end = this.s.indexOf('>', this.i)
        const name = this.s.slice(this.i + 1, end)
        this.i = end + 1
        return { t: 'backref', ref: name }
      }
      default: {
        if (!inClass && c >= '1' && c <= '9') {
          const m = /^\d*/.exec(this.s.slice(this.i)) as RegExpExecArray
          this.i += m[0].length
          return { t: 'backref', ref: Number(c + m[0]) }
        }
        return lit(this.s.codePointAt(this.i - 1) as number)
      }
    }
  }

  /** After `\u`: XXXX (a surrogate pair of two such escapes read as one code point) or {X...}. */
  private unicodeEscape(): number {
    if (this.peek() === '{') {
      const end = this.s.indexOf('}', this.i)
      const cp = parseInt(this.s.slice(this.i + 1, end), 16)
      this.i = end + 1
      return cp
    }
    const hi = parseInt(this.s.slice(this.i, this.i + 4), 16)
    this.i += 4
    const m = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(this.s.slice(this.i))
    if (hi >= 0xd800 && hi <= 0xdbff && m !== null) {
      this.i += 6
      return 0x10000 + ((hi - 0xd800) << 10) + (parseInt(m[1] as string, 16) - 0xdc00)
    }
    return hi
  }

  private klass(): RNode {
    const start = this.i - 1
    const negated = this.peek() === '^'
    if (negated) this.i++
    const ranges: Range[] = []
    let simple = !negated
    while (this.i < this.s.length && this.peek() !== ']') {
      const from = this.classAtom()
      if (from.t !== 'set') simple = false
      if (this.peek() === '-' && this.s[this.i + 1] !== ']' && from.t === 'set' && from.ranges.length === 1) {
        this.i++
        const to = this.classAtom()
        const lo = (from.ranges[0] as Range)[0]
        if (to.t === 'set' && to.ranges.length === 1) ranges.push([lo, (to.ranges[0] as Range)[0]])
        continue
      }
      if (from.t === 'set') ranges.push(...from.ranges)
    }
    this.i++ // ']'
    if (simple && ranges.length > 0) return { t: 'set', ranges }
    return { t: 'pool', test: new RegExp(`^${this.s.slice(start, this.i)}$`, 'u') }
  }

  private classAtom(): RNode {
    const c = this.peek()
    this.i++
    if (c === '\\') return this.escape(true)
    const cp = this.s.codePointAt(this.i - 1) as number
    if (cp > 0xffff) this.i++
    return lit(cp)
  }
}

function lit(cp: number): RNode {
  return { t: 'set', ranges: [[cp, cp]] }
}

/** The parse of a pattern (checked by the compiler to be a valid RegExp with flag u), memoised on it. */
export function parsePattern(pattern: Pattern): ParsedPattern {
  if (pattern.parsed !== undefined) return pattern.parsed as ParsedPattern
  const parser = new Parser(pattern.source)
  const root = parser.alt()
  const parsed: ParsedPattern = { root, lookaround: parser.lookaround }
  pattern.parsed = parsed
  return parsed
}

/**
 * One string the pattern matches (when it has no lookaround). An unbounded repeat is drawn with at
 * most `extra` more than its minimum; a bounded one with at most `extra + 5` more.
 */
export function stringFromPattern(parsed: ParsedPattern, draw: Draw, extra: number): string {
  const captures = new Map<number | string, string>()
  const out: string[] = []
  emit(parsed.root, draw, extra, captures, out)
  return out.join('')
}

/**
 * One of the shortest strings the pattern's generator makes: every repeat at its minimum, an
 * alternation's shortest branch (drawn among equals), each character drawn. What joins several
 * patterns into one string starts from these (a prefix, an infix and a suffix meet as `ab` `mm` `yz`).
 */
export function shortestFromPattern(parsed: ParsedPattern, draw: Draw): string {
  const captures = new Map<number | string, string>()
  const out: string[] = []
  emit(parsed.root, draw, 0, captures, out, true)
  return out.join('')
}

/** The fewest characters `node` emits (a backreference counted as none). */
function leastLength(node: RNode): number {
  switch (node.t) {
    case 'alt':
      return Math.min(...node.alts.map(seqLength))
    case 'set':
    case 'dot':
    case 'pool':
      return 1
    case 'group':
      return leastLength(node.body)
    case 'repeat':
      return node.min === 0 ? 0 : node.min * leastLength(node.node)
    case 'backref':
    case 'look':
    case 'empty':
      return 0
  }
}

const seqLength = (seq: RNode[]): number => seq.reduce((n, item) => n + leastLength(item), 0)

function emit(node: RNode, draw: Draw, extra: number, captures: Map<number | string, string>, out: string[], shortest = false): void {
  switch (node.t) {
    case 'alt': {
      let alts = node.alts
      if (shortest) {
        const least = Math.min(...alts.map(seqLength))
        alts = alts.filter((seq) => seqLength(seq) === least)
      }
      const seq = draw.pick(alts)
      for (const item of seq) emit(item, draw, extra, captures, out, shortest)
      return
    }
    case 'set': {
      let total = 0
      for (const [lo, hi] of node.ranges) total += hi - lo + 1
      let k = draw.int(0, total - 1)
      for (const [lo, hi] of node.ranges) {
        if (k <= hi - lo) {
          out.push(String.fromCodePoint(lo + k))
          return
        }
        k -= hi - lo + 1
      }
      return
    }
    case 'pool': {
      // The pool's characters the class allows, found once per parsed pattern.
      node.chars ??= [...POOL].filter((ch) => node.test.test(ch))
      if (node.chars.length > 0) out.push(draw.pick(node.chars))
      return
    }
    case 'group': {
      const start = out.length
      emit(node.body, draw, extra, captures, out, shortest)
      const text = out.slice(start).join('')
      if (node.index !== undefined) captures.set(node.index, text)
      if (node.name !== undefined) captures.set(node.name, text)
      return
    }
    case 'repeat': {
      const cap = node.max === Infinity ? node.min + extra : Math.min(node.max, node.min + extra + 5)
      const count = shortest ? node.min : draw.int(node.min, cap)
      for (let i = 0; i < count; i++) emit(node.node, draw, extra, captures, out, shortest)
      return
    }
    case 'dot':
      out.push(DOT[draw.int(0, DOT.length - 1)] as string)
      return
    case 'backref':
      out.push(captures.get(node.ref) ?? '')
      return
    case 'look':
    case 'empty':
      return
  }
}
