// The content filters of guardrails (decisions/0051): a guardrail's `content_filters` (a user's
// regular expression) and `content_filter_builtins` (nine named detectors) compiled into filters
// that find spans of a text, and the scan of a request's messages with them: a block refuses the
// request, a redaction rewrites the text with the filter's label, a flag records the match. Pure:
// the request path (another module) decides what a block answers and where a redaction goes.
// `unboundedBacktracking` is the static check that keeps a user's pattern from hanging the
// simulator: every prompt runs through it.
import { CONTROL_ESCAPES, readQuantifier } from '../schema/regex.js'
import { GUARDRAIL_BUILTINS } from '../store/guardrails.js'
import type { GuardrailRules } from '../store/state.js'

export type FilterAction = 'block' | 'redact' | 'flag'

/** A builtin content filter's slug. */
export type GuardrailBuiltin = (typeof GUARDRAIL_BUILTINS)[number]

/** One filter ready to run, from one guardrail. */
export interface CompiledFilter {
  guardrailId: string
  guardrailName: string
  /** The rule as a refusal names it: `content_filters[0]` or `content_filter_builtins[2] (email)`. */
  rule: string
  action: FilterAction
  /** What a redaction writes: the filter's label, else `[REDACTED]` for a custom filter, `[EMAIL]`... for builtins. */
  label: string
  /** user_only: user messages only; all_messages: every message. Custom filters: all_messages. Builtins: their scan_scope, default user_only. */
  scope: 'user_only' | 'all_messages'
  /** Finds the spans to act on in a text: [start, end) pairs, in order, not overlapping, never empty. */
  find(text: string): Array<[number, number]>
}

export interface FilterFlag {
  guardrailId: string
  guardrailName: string
  rule: string
  label: string
  message: number
  matches: number
}

export interface FilterBlock {
  guardrailId: string
  guardrailName: string
  rule: string
  label: string
  message: number
}

/** The outcome of running filters over messages (role + text). */
export interface ScanOutcome {
  /** The first block (in filter order, then message order); when set, nothing else matters. */
  block: FilterBlock | null
  /** The texts after every redaction, one per message; the same array object as the given texts when nothing was redacted. */
  texts: readonly string[]
  /** Redactions made: one entry per (filter, message) with matches. */
  redactions: FilterFlag[]
  /** Flags: one entry per (flag filter, message) with matches. */
  flags: FilterFlag[]
}

// ---------------------------------------------------------------------------------------------
// Finding spans

type Span = [number, number]

/** How a builtin finds its spans: a global regex, the capture group that is the span (else the match), and a check of the span's text. */
interface Detector {
  re: RegExp
  group?: number
  /** How much of a match's text to keep as the span (0: none); all of it when absent. */
  keep?: (span: string) => number
}

/** The non-empty spans of `re`'s matches (or of their group `group`), cut to what `keep` keeps. A match of no characters is no span. */
function spansOf({ re, group, keep }: Detector, text: string): Span[] {
  const spans: Span[] = []
  for (const match of text.matchAll(re)) {
    let start = match.index
    let end = start + match[0].length
    if (group !== undefined) {
      const at = match.indices?.[group]
      if (at === undefined) continue
      ;[start, end] = at
    }
    if (keep !== undefined) end = start + keep(text.slice(start, end))
    if (end > start) spans.push([start, end])
  }
  return spans
}

/** The digits of a text. */
const digitsOf = (text: string): string => text.replace(/\D/g, '')

/** Whether a string of digits passes the Luhn check. */
export function luhnValid(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

/**
 * The length of the card number a run of digits (single spaces or dashes between them) begins
 * with: the longest of the whole run and its prefixes ending before a separator that has 13 to 19
 * digits and passes the Luhn check (a card number followed by another number is still found), or 0.
 */
function cardLength(run: string): number {
  const ends = [run.length, ...[...run.matchAll(/[ -]/g)].map((m) => m.index).reverse()]
  for (const end of ends) {
    const digits = digitsOf(run.slice(0, end))
    if (digits.length >= 13 && digits.length <= 19 && luhnValid(digits)) return end
  }
  return 0
}

/** A word matched in any letter case: `[Mm][Yy]`, spaces becoming one to three blanks. */
function anyCase(words: string): string {
  return [...words].map((c) => (c === ' ' ? '[ \\t]{1,3}' : c.toLowerCase() === c.toUpperCase() ? c : `[${c.toUpperCase()}${c.toLowerCase()}]`)).join('')
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)'
const H = '[0-9A-Fa-f]{1,4}'
const IPV6 = [`(?:${H}:){7}${H}`, `(?:${H}:){1,7}:`, `(?:${H}:){1,6}:${H}`, `(?:${H}:){1,5}(?::${H}){1,2}`, `(?:${H}:){1,4}(?::${H}){1,3}`, `(?:${H}:){1,3}(?::${H}){1,4}`, `(?:${H}:){1,2}(?::${H}){1,5}`, `${H}:(?::${H}){1,6}`, `:(?::${H}){1,7}`]

const NAME_WORD = '\\p{Lu}\\p{Ll}{1,30}(?:-\\p{Lu}\\p{Ll}{1,30})?'
const STREET_SUFFIXES = ['Street', 'St', 'Avenue', 'Ave', 'Road', 'Rd', 'Boulevard', 'Blvd', 'Lane', 'Ln', 'Drive', 'Dr', 'Court', 'Ct', 'Way', 'Place', 'Pl', 'Terrace', 'Highway', 'Hwy']

/** The phrases regex-prompt-injection looks for: [as documented, regex source]. Words are separated by any whitespace. */
const INJECTION_PHRASES: ReadonlyArray<readonly [string, string]> = [
  ['ignore (all) (the) previous|prior|above|earlier instructions|prompts|rules|directions', 'ignore (?:all )?(?:the )?(?:previous|prior|above|earlier) (?:instructions|prompts?|rules|directions)'],
  ['ignore your instructions|rules|guidelines|programming', 'ignore your (?:instructions|rules|guidelines|programming)'],
  ['disregard (all|any) (the|your) (previous|prior|above|earlier|system) instructions|prompts|rules|guidelines', 'disregard (?:all |any )?(?:the |your )?(?:previous |prior |above |earlier |system )?(?:instructions|prompts?|rules|guidelines)'],
  ['forget everything|all, then: you were told|you have been told|above|before|your instructions|previous instructions|prior instructions', 'forget (?:everything|all) (?:you (?:were|have been) told|above|before|(?:your|previous|prior) instructions)'],
  ['you are now (in) DAN|developer mode', 'you are now (?:in )?(?:DAN|developer mode)\\b'],
  ['enable|activate developer mode', '(?:enable|activate) developer mode\\b'],
  ['reveal your|the (system|initial|hidden) prompt|instructions', 'reveal (?:your|the) (?:system |initial |hidden )?(?:prompt|instructions)\\b'],
  ['print|show|repeat your (system|initial) prompt', '(?:print|show|repeat) your (?:system |initial )?prompt\\b'],
  ['jailbreak, jailbroken', 'jailbr(?:eak|oken)'],
  ['act as a|an unrestricted|unfiltered|uncensored', 'act as an? (?:unrestricted|unfiltered|uncensored)\\b'],
  ['do anything now', 'do anything now\\b'],
  ['override your|the rules|instructions|guidelines|safety', 'override (?:your|the) (?:rules|instructions|guidelines|safety)\\b'],
  ['pretend (that) you have no rules|restrictions|limits|guidelines|filters', 'pretend (?:that )?you have no (?:rules|restrictions|limits|guidelines|filters)\\b'],
  ['bypass your|the|all safety|content filters|restrictions|guidelines', 'bypass (?:your |the |all )?(?:safety |content )?(?:filters|restrictions|guidelines)\\b'],
  ['you are no longer bound by', 'you are no longer bound by\\b'],
  ['system prompt:', 'system prompt\\s{0,3}:'],
  ['new instructions:', 'new instructions\\s{0,3}:'],
  ['<system>, </system>', '<\\/?system>'],
]

/**
 * The builtins' detectors. Every quantifier is bounded or stands alone, and each starts behind a
 * lookbehind, so a scan is linear in the text. Made on the first guardrail that uses one, not at
 * import: reading the five patterns built with `new RegExp` was a third of a millisecond of every
 * import of the package, paid by suites that never set a guardrail.
 */
let detectors: Readonly<Record<GuardrailBuiltin, Detector>> | undefined
const builtinDetectors = (): Readonly<Record<GuardrailBuiltin, Detector>> => (detectors ??= {
  email: { re: /(?<![\w.%+-])[\w.%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}(?![\w-])/g },
  phone: {
    re: /(?<![\d+])(?:(?:\+?1[ .-]?)?(?:\(\d{3}\)[ .-]?|\d{3}[ .-])\d{3}[ .-]\d{4}|\+\d{1,3}(?:[ .-]\d{1,4}){2,5})(?!\d)/g,
    keep: (span) => (digitsOf(span).length >= 10 && digitsOf(span).length <= 15 ? span.length : 0),
  },
  ssn: { re: /(?<!\d-?)(?!000|666|9)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?!-?\d)/g },
  'credit-card': { re: /(?<![\d-])\d(?:[ -]?\d){12,18}(?!\d)/g, keep: cardLength },
  'ip-address': { re: new RegExp(`(?<![\\d.])(?:${OCTET}\\.){3}${OCTET}(?!\\.?\\d)|(?<![\\w:])(?:${IPV6.join('|')})(?![\\w:])`, 'g') },
  secrets: {
    re: new RegExp(
      '(?<![A-Za-z0-9_-])(?:' +
        [
          'sk-(?:or-v1-[0-9a-f]{64}|proj-[A-Za-z0-9_-]{20,300}|ant-[A-Za-z0-9_-]{20,300}|[A-Za-z0-9]{20,300})',
          '(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Za-z])',
          'gh[pousr]_[A-Za-z0-9]{36,255}',
          'github_pat_[A-Za-z0-9_]{22,255}',
          'xox[abpr]-[A-Za-z0-9-]{10,255}',
          '-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----(?:[^-]|-(?!----)){1,16384}-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----',
          'eyJ[A-Za-z0-9_-]{5,4096}\\.eyJ[A-Za-z0-9_-]{5,4096}\\.[A-Za-z0-9_-]{10,4096}',
          'AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])',
        ].join('|') +
        ')',
      'g',
    ),
  },
  'person-name': {
    re: new RegExp(`(?:(?<![\\p{L}])(?:Mrs|Mr|Ms|Dr|Prof)\\.?[ \\t]{1,3}|\\b(?:${anyCase('my name is')}|${anyCase('i am')}|[Ii]['’][Mm])[ \\t]{1,3})(${NAME_WORD}(?:[ \\t]${NAME_WORD}){1,2})(?![\\p{L}])`, 'gdu'),
    group: 1,
  },
  address: { re: new RegExp(`(?<![\\p{L}\\d])\\d{1,6}(?:[ \\t]{1,3}(?:\\p{Lu}\\p{Ll}{0,30}|\\d{1,3}(?:st|nd|rd|th))){1,4}[ \\t]{1,3}(?:${STREET_SUFFIXES.join('|')})(?![\\p{L}\\d])\\.?`, 'gu') },
  'regex-prompt-injection': { re: new RegExp(INJECTION_PHRASES.map(([, source]) => `${/^\w/.test(source) ? '(?<!\\w)' : ''}${source.replace(/ /g, '\\s{1,5}')}`).join('|'), 'gi') },
})

/** For docs: each builtin's default label and the rule it applies, as one sentence. */
export const BUILTIN_RULES: Readonly<Record<GuardrailBuiltin, { label: string; rule: string }>> = {
  email: { label: '[EMAIL]', rule: 'A local part of 1 to 64 letters, digits or `._%+-`, an `@`, one to eight domain labels each followed by a dot, and a top-level domain of 2 to 24 letters.' },
  phone: {
    label: '[PHONE]',
    rule: 'A North-American number (`415-555-0132`, `(415) 555-0132`, `415.555.0132`, with an optional `+1` or `1` before it) or an international one (`+`, a country code of 1 to 3 digits, then 2 to 5 groups of 1 to 4 digits each after a space, dot or dash), of 10 to 15 digits in all, not inside a longer run of digits.',
  },
  ssn: { label: '[SSN]', rule: 'A US social security number written `123-45-6789`, whose area is not 000, 666 or 900-999, whose group is not 00 and whose serial is not 0000, not inside a longer run of digits.' },
  'credit-card': { label: '[CREDIT_CARD]', rule: 'A run of 13 to 19 digits, single spaces or dashes allowed between them, not inside a longer run of digits, that passes the Luhn check (when a longer spaced run fails it, its longest such prefix ending at a space or dash is taken).' },
  'ip-address': { label: '[IP_ADDRESS]', rule: 'An IPv4 address of four dotted octets each 0 to 255 (not part of a longer dotted run), or an IPv6 address of eight hexadecimal groups or a `::`-compressed form of them (an IPv4 tail is not read).' },
  secrets: {
    label: '[SECRET]',
    rule: 'A key of a common shape: `sk-` keys (`sk-or-v1-` and 64 hexadecimal digits, `sk-proj-`, `sk-ant-`, or `sk-` and 20 or more letters and digits), AWS access key ids (`AKIA` or `ASIA` and 16 capitals or digits), GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` and 36 or more letters and digits, `github_pat_`), Slack tokens (`xoxa-`, `xoxb-`, `xoxp-`, `xoxr-`), a `-----BEGIN ... PRIVATE KEY-----` block to its `-----END ... PRIVATE KEY-----`, a JWT (`eyJ...` `.eyJ...` `.` signature) and Google API keys (`AIza` and 35 characters).',
  },
  'person-name': {
    label: '[PERSON_NAME]',
    rule: 'Two or three capitalised words (a hyphenated word counts as one) after an honorific `Mr`, `Mrs`, `Ms`, `Dr` or `Prof` (with an optional dot), or after `my name is`, `I am` or `I\'m` in any letter case; the span is the name only.',
  },
  address: { label: '[ADDRESS]', rule: `A house number of 1 to 6 digits, one to four capitalised or ordinal (\`5th\`) words, then a street suffix (${STREET_SUFFIXES.map((s) => `\`${s}\``).join(', ')}) with an optional dot.` },
  'regex-prompt-injection': {
    label: '[PROMPT_INJECTION]',
    rule: `Any of these phrases in any letter case, words separated by any whitespace, parenthesised words optional: ${INJECTION_PHRASES.map(([phrase]) => `"${phrase}"`).join('; ')}.`,
  },
}

// ---------------------------------------------------------------------------------------------
// Compiling a guardrail's filters

const CUSTOM_LABEL = '[REDACTED]'
const compiled = new WeakMap<object, { id: string; filters: readonly CompiledFilter[] }>()

/** The filters of one guardrail's rules: its content_filters, then its builtins, in their order (cached per rules object). */
export function compileFilters(guardrail: { id: string; rules: GuardrailRules }): readonly CompiledFilter[] {
  const cached = compiled.get(guardrail.rules)
  if (cached !== undefined && cached.id === guardrail.id) return cached.filters
  const { rules } = guardrail
  const base = { guardrailId: guardrail.id, guardrailName: rules.name }
  const filters: CompiledFilter[] = []
  for (const [i, filter] of (rules.content_filters ?? []).entries()) {
    const detector: Detector = { re: new RegExp(filter.pattern, 'g') }
    filters.push({ ...base, rule: `content_filters[${i}]`, action: filter.action, label: filter.label ?? CUSTOM_LABEL, scope: 'all_messages', find: (text) => spansOf(detector, text) })
  }
  for (const [i, filter] of (rules.content_filter_builtins ?? []).entries()) {
    const slug = filter.slug as GuardrailBuiltin
    const detector = builtinDetectors()[slug]
    if (detector === undefined) continue // the reader admits only known slugs
    filters.push({ ...base, rule: `content_filter_builtins[${i}] (${slug})`, action: filter.action, label: filter.label ?? BUILTIN_RULES[slug].label, scope: filter.scan_scope ?? 'user_only', find: (text) => spansOf(detector, text) })
  }
  Object.freeze(filters)
  compiled.set(guardrail.rules, { id: guardrail.id, filters })
  return filters
}

// ---------------------------------------------------------------------------------------------
// Scanning messages

const inScope = (filter: CompiledFilter, role: string): boolean => filter.scope === 'all_messages' || role === 'user'

function entry(filter: CompiledFilter, message: number): FilterBlock {
  return { guardrailId: filter.guardrailId, guardrailName: filter.guardrailName, rule: filter.rule, label: filter.label, message }
}

/** `text` with each span replaced by `label`. */
function replaceSpans(text: string, spans: readonly Span[], label: string): string {
  let out = ''
  let at = 0
  for (const [start, end] of spans) {
    out += text.slice(at, start) + label
    at = end
  }
  return out + text.slice(at)
}

/**
 * Runs filters over messages. Block beats redact beats flag: the first block filter (in filter
 * order, then message order) with a match in a message of its scope is the outcome alone; else each
 * redact filter in turn replaces its spans in the text the earlier ones left, and each flag filter
 * is run on the original text. `texts` (default: the messages' texts) is returned as it is when
 * nothing was redacted.
 */
export function scanMessages(filters: readonly CompiledFilter[], messages: readonly { role: string; text: string }[], texts: readonly string[] = messages.map((m) => m.text)): ScanOutcome {
  for (const filter of filters) {
    if (filter.action !== 'block') continue
    for (const [i, message] of messages.entries()) {
      if (inScope(filter, message.role) && filter.find(message.text).length > 0) return { block: entry(filter, i), texts, redactions: [], flags: [] }
    }
  }
  let redacted: string[] | null = null
  const redactions: FilterFlag[] = []
  const flags: FilterFlag[] = []
  for (const filter of filters) {
    if (filter.action === 'block') continue
    for (const [i, message] of messages.entries()) {
      if (!inScope(filter, message.role)) continue
      const current = filter.action === 'redact' ? (redacted?.[i] ?? message.text) : message.text
      const spans = filter.find(current)
      if (spans.length === 0) continue
      const record = { ...entry(filter, i), matches: spans.length }
      if (filter.action === 'flag') {
        flags.push(record)
        continue
      }
      redacted ??= messages.map((m) => m.text)
      redacted[i] = replaceSpans(current, spans, filter.label)
      redactions.push(record)
    }
  }
  return { block: null, texts: redacted ?? texts, redactions, flags }
}

// ---------------------------------------------------------------------------------------------
// The backtracking check

/** Code-unit ranges, inclusive. */
type CharSet = ReadonlyArray<readonly [number, number]>

const MAX_UNIT = 0xffff
const ANY: CharSet = [[0, MAX_UNIT]]
const DIGITS: CharSet = [[48, 57]]
const WORDS: CharSet = [[48, 57], [65, 90], [95, 95], [97, 122]]
const SPACES: CharSet = [[9, 13], [32, 32], [160, 160], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]]

function complement(set: CharSet): CharSet {
  const sorted = [...set].sort((a, b) => a[0] - b[0])
  const out: Array<[number, number]> = []
  let next = 0
  for (const [lo, hi] of sorted) {
    if (lo > next) out.push([next, lo - 1])
    next = Math.max(next, hi + 1)
  }
  if (next <= MAX_UNIT) out.push([next, MAX_UNIT])
  return out
}

const intersects = (a: CharSet, b: CharSet): boolean => a.some(([lo, hi]) => b.some(([lo2, hi2]) => lo <= hi2 && lo2 <= hi))

/** A parsed pattern: `from`/`to` are its place in the source. */
type RNode = { from: number; to: number } & (
  | { t: 'chars'; set: CharSet }
  | { t: 'zero' } // ^ $ \b \B
  | { t: 'look'; body: RNode }
  | { t: 'group'; body: RNode }
  | { t: 'alt'; alts: RNode[] }
  | { t: 'seq'; items: RNode[] }
  | { t: 'repeat'; node: RNode; min: number; max: number }
  | { t: 'backref' }
)

/** A tokenizer of JavaScript patterns without flag u (as `new RegExp(pattern, 'g')` reads them), for the check only: lenient, never throws. */
class PatternParser {
  i = 0
  constructor(private readonly s: string) {}

  alt(): RNode {
    const from = this.i
    const alts = [this.seq()]
    while (this.s[this.i] === '|') {
      this.i++
      alts.push(this.seq())
    }
    return alts.length === 1 ? (alts[0] as RNode) : { t: 'alt', alts, from, to: this.i }
  }

  private seq(): RNode {
    const from = this.i
    const items: RNode[] = []
    while (this.i < this.s.length && this.s[this.i] !== '|' && this.s[this.i] !== ')') items.push(this.quantified(this.atom()))
    return { t: 'seq', items, from, to: this.i }
  }

  private quantified(node: RNode): RNode {
    const q = readQuantifier(this.s, this.i)
    if (q === null) return node
    this.i = q.end
    return this.quantified({ t: 'repeat', node, min: q.min, max: q.max, from: node.from, to: this.i })
  }

  private atom(): RNode {
    const from = this.i
    const c = this.s[this.i++] as string
    const at = <T extends object>(node: T): T & { from: number; to: number } => ({ ...node, from, to: this.i })
    switch (c) {
      case '(':
        return this.group(from)
      case '[':
        return at({ t: 'chars' as const, set: this.klass() })
      case '.':
        return at({ t: 'chars' as const, set: ANY })
      case '^':
      case '$':
        return at({ t: 'zero' as const })
      case '\\':
        return at(this.escape())
      default:
        return at({ t: 'chars' as const, set: [[c.charCodeAt(0), c.charCodeAt(0)]] })
    }
  }

  private group(from: number): RNode {
    let look = false
    const rest = this.s.slice(this.i, this.i + 4)
    if (/^\?<?[=!]/.test(rest)) {
      look = true
      this.i += rest[1] === '<' ? 3 : 2
    } else if (rest.startsWith('?<')) this.i = Math.max(this.s.indexOf('>', this.i), this.i) + 1
    else if (rest.startsWith('?')) this.i = Math.max(this.s.indexOf(':', this.i), this.i) + 1 // (?: and (?ims-ims:
    const body = this.alt()
    if (this.s[this.i] === ')') this.i++
    return look ? { t: 'look', body, from, to: this.i } : { t: 'group', body, from, to: this.i }
  }

  /** After a backslash outside a class. */
  private escape(): { t: 'chars'; set: CharSet } | { t: 'zero' } | { t: 'backref' } {
    const c = this.s[this.i] ?? ''
    if (c === 'b' || c === 'B') {
      this.i++
      return { t: 'zero' }
    }
    if (/[1-9]/.test(c)) {
      this.i += /^\d+/.exec(this.s.slice(this.i))?.[0].length ?? 1
      return { t: 'backref' }
    }
    if (c === 'k' && this.s[this.i + 1] === '<') {
      this.i = Math.max(this.s.indexOf('>', this.i), this.i) + 1
      return { t: 'backref' }
    }
    return { t: 'chars', set: this.escapedSet() }
  }

  /** The characters of an escape that stands for characters (the backslash behind, `this.i` on its letter). */
  private escapedSet(): CharSet {
    const c = this.s[this.i++] ?? ''
    const one = (code: number): CharSet => [[code, code]]
    switch (c) {
      case 'd':
        return DIGITS
      case 'D':
        return complement(DIGITS)
      case 'w':
        return WORDS
      case 'W':
        return complement(WORDS)
      case 's':
        return SPACES
      case 'S':
        return complement(SPACES)
      case 'x':
      case 'u': {
        const hex = new RegExp(`^[0-9A-Fa-f]{${c === 'x' ? 2 : 4}}`).exec(this.s.slice(this.i))?.[0]
        if (hex === undefined) return one(c.charCodeAt(0))
        this.i += hex.length
        return one(parseInt(hex, 16))
      }
      case 'c':
        if (/[A-Za-z]/.test(this.s[this.i] ?? '')) return one(this.s.charCodeAt(this.i++) % 32)
        return one(92)
      default:
        return c === '' ? one(92) : one(CONTROL_ESCAPES[c] ?? c.charCodeAt(0))
    }
  }

  /** After `[`: the class's characters. */
  private klass(): CharSet {
    const negated = this.s[this.i] === '^'
    if (negated) this.i++
    const set: Array<readonly [number, number]> = []
    while (this.i < this.s.length && this.s[this.i] !== ']') {
      const from = this.classAtom()
      if (this.s[this.i] === '-' && this.s[this.i + 1] !== ']' && this.i + 1 < this.s.length && from.length === 1 && from[0]?.[0] === from[0]?.[1]) {
        this.i++
        const to = this.classAtom()
        const lo = (from[0] as readonly [number, number])[0]
        if (to.length === 1 && to[0]?.[0] === to[0]?.[1] && (to[0] as readonly [number, number])[0] >= lo) set.push([lo, (to[0] as readonly [number, number])[0]])
        else set.push(...from, ...to, [45, 45])
        continue
      }
      set.push(...from)
    }
    this.i++ // ']'
    return negated ? complement(set) : set
  }

  private classAtom(): CharSet {
    const c = this.s[this.i++] as string
    if (c !== '\\') return [[c.charCodeAt(0), c.charCodeAt(0)]]
    if (this.s[this.i] === 'b') {
      this.i++
      return [[8, 8]]
    }
    return this.escapedSet()
  }
}

/** The characters a node's matches can start with, and whether it can match the empty string. */
function firstOf(node: RNode): { set: CharSet; nullable: boolean } {
  switch (node.t) {
    case 'chars':
      return { set: node.set, nullable: false }
    case 'zero':
    case 'look':
      return { set: [], nullable: true }
    case 'backref':
      return { set: ANY, nullable: true }
    case 'group':
      return firstOf(node.body)
    case 'repeat': {
      const inner = firstOf(node.node)
      return { set: inner.set, nullable: inner.nullable || node.min === 0 }
    }
    case 'alt': {
      const firsts = node.alts.map(firstOf)
      return { set: firsts.flatMap((f) => f.set), nullable: firsts.some((f) => f.nullable) }
    }
    case 'seq': {
      const set: Array<readonly [number, number]> = []
      for (const item of node.items) {
        const first = firstOf(item)
        set.push(...first.set)
        if (!first.nullable) return { set, nullable: false }
      }
      return { set, nullable: true }
    }
  }
}

/** Repeats more than this many times count as unbounded. */
const BOUND = 10

/** A quantifier with a choice of unbounded reach: `*`, `+`, `{n,}`, `{n,m}` with m over 10 (a fixed `{n}` offers no choice). */
const unboundedChoice = (node: { min: number; max: number }): boolean => node.max === Infinity || (node.max > BOUND && node.max !== node.min)

/**
 * Why a user pattern could backtrack without bound (a sentence naming the construct), or null
 * when it cannot. A conservative static check. It refuses: a backreference; a quantifier with
 * unbounded reach (`*`, `+`, `{n,}`, `{n,m}` with m over 10) inside a group repeated more than 10
 * times in all (nested quantifiers, as in `(a+)+` or `((a+){5}){3}`); and, inside any group
 * repeated more than once, an alternation two of whose alternatives can start with the same
 * character (`(a|ab)*`; an alternative that can match nothing counts as starting with any),
 * or a quantifier with a choice of count whose characters can also start what follows it
 * (`(\w{1,3})*`, `(?:[ab]a?)+`, `(a?)+`, `(.+){3}`: a text then splits into repetitions in many
 * ways). Polynomial backtracking outside groups (`\w+@` on a long word, `a*a*a*$`) is not refused.
 */
export function unboundedBacktracking(pattern: string): string | null {
  const parser = new PatternParser(pattern)
  const root = parser.alt()
  const src = (node: RNode): string => `"${pattern.slice(node.from, node.to)}"`
  /** The innermost repeat of `outer` that, with those inside it, repeats more than `bound` times. */
  const repeatedBeyond = (outer: readonly RNode[], bound = BOUND): RNode | undefined => {
    let times = 1
    for (let k = outer.length - 1; k >= 0; k--) {
      const node = outer[k] as RNode & { t: 'repeat' }
      times *= node.max
      if (times > bound) return node
    }
    return undefined
  }
  /** The innermost repeat of `outer` that repeats at all. */
  const repeatedAtAll = (outer: readonly RNode[]): RNode | undefined => repeatedBeyond(outer, 1)
  /** `follow`: the characters that can come right after `node` within the repetitions around it (a repeat's body is followed by its own start). */
  const visit = (node: RNode, outer: RNode[], follow: CharSet): string | null => {
    switch (node.t) {
      case 'backref':
        return `the backreference ${src(node)} can make matching take exponential time`
      case 'chars':
      case 'zero':
        return null
      case 'look':
      case 'group':
        return visit(node.body, outer, follow)
      case 'seq': {
        const follows: CharSet[] = []
        let after = follow
        for (let k = node.items.length - 1; k >= 0; k--) {
          follows[k] = after
          const first = firstOf(node.items[k] as RNode)
          after = first.nullable ? [...first.set, ...after] : first.set
        }
        for (const [k, item] of node.items.entries()) {
          const found = visit(item, outer, follows[k] as CharSet)
          if (found !== null) return found
        }
        return null
      }
      case 'alt': {
        const repeated = repeatedAtAll(outer)
        if (repeated !== undefined) {
          const firsts = node.alts.map(firstOf).map((f) => (f.nullable ? ANY : f.set))
          for (let a = 0; a < firsts.length; a++) {
            for (let b = a + 1; b < firsts.length; b++) {
              if (intersects(firsts[a] as CharSet, firsts[b] as CharSet)) {
                return `the repeated group ${src(repeated)} holds the alternation ${src(node)}, whose alternatives ${src(node.alts[a] as RNode)} and ${src(node.alts[b] as RNode)} can start with the same character`
              }
            }
          }
        }
        for (const alt of node.alts) {
          const found = visit(alt, outer, follow)
          if (found !== null) return found
        }
        return null
      }
      case 'repeat': {
        const beyondBound = repeatedBeyond(outer)
        if (beyondBound !== undefined && unboundedChoice(node)) return `the repeated group ${src(beyondBound)} holds the unbounded quantifier ${src(node)} (nested quantifiers)`
        const first = firstOf(node.node).set
        const repeated = repeatedAtAll(outer)
        if (repeated !== undefined && node.max > node.min && intersects(first, follow)) {
          return `the repeated group ${src(repeated)} holds the quantifier ${src(node)}, which can stop where what follows it starts, so its repetitions can split a text in many ways`
        }
        return visit(node.node, [...outer, node], node.max > 1 ? [...first, ...follow] : follow)
      }
    }
  }
  return visit(root, [], [])
}
