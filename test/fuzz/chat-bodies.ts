// Chat bodies for the fuzz suite (chat-fuzz.test.ts): valid `POST /chat/completions` requests over a
// world's models and providers (every message role, tools, provider preferences, streamed or not),
// and hostile mutations of them (wrong types, huge numbers, NaN-like strings, deep nesting, unknown
// fields, prototype-pollution keys, invalid UTF-8, enormous strings within the body cap). Each body
// is the bytes a client sends; `describe` gives text to replay it.
import { Buffer } from 'node:buffer'
import fc from 'fast-check'

/** What the valid requests are made of: the world's model ids and provider names. */
export interface ChatFacts {
  models: readonly string[]
  providers: readonly string[]
}

/** A body as sent: its bytes, and a short description of how it was made (for failure messages). */
export interface ChatBody {
  bytes: Uint8Array
  how: string
}

/** A body that fast-check prints as its replay text rather than as every byte. */
export function body(bytes: Uint8Array, how: string): ChatBody {
  const made: ChatBody = { bytes, how }
  Object.defineProperty(made, fc.toStringMethod, { value: () => `body(${describeBody(made)})`, enumerable: false })
  return made
}

const weighted = <T>(weight: number, arbitrary: fc.Arbitrary<T>): fc.WeightedArbitrary<T> => ({ weight, arbitrary })

/** A number written as raw JSON text (`1e999`, `-0`, `1E-400`): JSON.stringify cannot write these. */
class Raw {
  constructor(readonly text: string) {}
}

/** Short words for message text, so that the estimator's counts stay small and the requests cheap. */
const word = fc.constantFrom('refund', 'price', 'hello', 'why', 'tokens', 'é', '日本', '🎉', 'null', '', ' ', '\n', 'a'.repeat(50))
const text = fc.array(word, { maxLength: 12 }).map((words) => words.join(' '))

const toolCall = fc.record({
  id: fc.constantFrom('call_1', 'call_2', 'x'),
  type: fc.constant('function'),
  function: fc.record({ name: fc.constantFrom('lookup', 'refund', 'f'), arguments: fc.constantFrom('{}', '{"id":1}', 'not json') }),
})

const part = fc.oneof(
  weighted(4, text.map((t) => ({ type: 'text', text: t }))),
  weighted(1, fc.constant({ type: 'image_url', image_url: { url: 'https://example.com/a.png' } })),
  weighted(1, fc.constant({ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } })),
)

/** A message of every role the SDK knows, in the shapes each role takes. */
const message = fc.oneof(
  weighted(2, fc.record({ role: fc.constantFrom('system', 'developer'), content: text })),
  weighted(6, fc.record({ role: fc.constant('user'), content: fc.oneof(text, fc.array(part, { minLength: 1, maxLength: 3 })) })),
  weighted(2, fc.oneof(fc.record({ role: fc.constant('assistant'), content: text }), fc.record({ role: fc.constant('assistant'), content: fc.constant(null), tool_calls: fc.array(toolCall, { minLength: 1, maxLength: 2 }) }))),
  weighted(1, fc.record({ role: fc.constant('tool'), tool_call_id: fc.constantFrom('call_1', 'call_2'), content: text })),
)

const tool = fc.record({ type: fc.constant('function'), function: fc.record({ name: fc.constantFrom('lookup', 'refund'), description: text, parameters: fc.constant({ type: 'object', properties: { id: { type: 'integer' } } }) }) })

function providerPrefs(providers: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const names = providers.length === 0 ? fc.constant([] as string[]) : fc.subarray([...providers, 'Nobody'], { maxLength: 3 })
  return fc.record(
    {
      order: names,
      only: names,
      ignore: names,
      allow_fallbacks: fc.boolean(),
      sort: fc.constantFrom('price', 'throughput', 'latency', 'exacto'),
      data_collection: fc.constantFrom('allow', 'deny'),
      require_parameters: fc.boolean(),
      quantizations: fc.subarray(['int4', 'int8', 'fp8', 'fp16', 'bf16', 'unknown']),
      max_price: fc.record({ prompt: fc.constantFrom(0, 0.5, 5, 100, '1', '0.0001'), completion: fc.constantFrom(0, 1, 10, 1000, '20') }, { requiredKeys: [] }),
    },
    { requiredKeys: [] },
  )
}

/**
 * A valid chat request over the world: a model of it and messages of every role, plain (streamed or
 * not, maybe capped) most of the time, else with a fallback list, tools, sampling parameters and
 * provider preferences, which may leave no endpoint (a 404 is a valid answer to a valid request).
 */
export function validChatRequest(facts: ChatFacts): fc.Arbitrary<Record<string, unknown>> {
  const model = fc.constantFrom(...facts.models)
  const messages = fc.array(message, { minLength: 1, maxLength: 4 })
  const plain = fc.record({ model, messages, stream: fc.boolean(), max_tokens: fc.integer({ min: 1, max: 300 }) }, { requiredKeys: ['model', 'messages', 'stream'] })
  const rich = fc.record(
    {
      model,
      models: fc.array(model, { minLength: 1, maxLength: 3 }),
      messages,
      stream: fc.boolean(),
      max_tokens: fc.integer({ min: 1, max: 300 }),
      max_completion_tokens: fc.integer({ min: 1, max: 300 }),
      temperature: fc.double({ min: 0, max: 2, noNaN: true }),
      top_p: fc.constantFrom(0.1, 0.9, 1),
      seed: fc.integer(),
      stop: fc.oneof(fc.constant('\n'), fc.array(fc.constantFrom('\n\n', 'END'), { maxLength: 2 })),
      tools: fc.array(tool, { maxLength: 2 }),
      tool_choice: fc.constantFrom('auto', 'none', 'required'),
      provider: providerPrefs(facts.providers),
      user: fc.constantFrom('customer-1', ''),
      session_id: fc.constantFrom('session-1', 's'),
      metadata: fc.constant({ ticket: 'T-1' }),
      stream_options: fc.constant({ include_usage: true }),
    },
    { requiredKeys: ['model', 'messages'] },
  )
  return fc.oneof(weighted(4, plain), weighted(2, rich))
}

/** JSON values as hostile as JSON carries: wrong types, huge and tiny numbers, NaN-like strings, odd text. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2, Number.MIN_VALUE, '', ' ', 'NaN', 'Infinity', '-Infinity', '-0', '1e999', '0x10', 'null',
    'undefined', 'true', '\u0000', '\ud800', 'é'.repeat(100), [], {}, [null], [[]], [{}], { role: 'user' }, { type: 'function' },
    new Raw('1e999'), new Raw('-1e999'), new Raw('-0'), new Raw('1E-400'), new Raw('123456789012345678901234567890'),
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 20 }),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constant(null)), { maxLength: 3 }),
)

/** Names no object of a chat request has, misspellings of ones it has, and prototype-pollution keys. */
const unknownName = fc.constantFrom('modle', 'Model', 'messages ', 'max_token', 'provider_', 'x', '', '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf')

type Json = unknown

/** Every path into a JSON value (arrays by index), the root excluded. */
function pathsOf(value: Json, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (Array.isArray(value)) value.forEach((v, i) => (out.push([...prefix, i]), pathsOf(v, [...prefix, i], out)))
  else if (typeof value === 'object' && value !== null && !(value instanceof Raw)) for (const [k, v] of Object.entries(value)) (out.push([...prefix, k]), pathsOf(v, [...prefix, k], out))
  return out
}

/** Every object (not array) in a JSON value, the root included, as paths. */
function objectPaths(value: Json): (string | number)[][] {
  return [[], ...pathsOf(value)].filter((path) => {
    const found = path.reduce<Json>((v, k) => (v as Record<string | number, Json>)[k], value)
    return typeof found === 'object' && found !== null && !Array.isArray(found) && !(found instanceof Raw)
  })
}

/** Sets an own property, even one named `__proto__` (an assignment would set the prototype instead). */
const define = (target: Record<string, unknown>, name: string, value: unknown): void => {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true })
}
const copyOf = (source: Record<string, unknown>): Record<string, unknown> => {
  const copy: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(source)) define(copy, k, v)
  return copy
}

/** A deep copy with `path` set to `replacement` (or deleted when `replacement` is `DELETE`). */
const DELETE = Symbol('delete')
function setAt(value: Json, path: readonly (string | number)[], replacement: unknown): Json {
  if (path.length === 0) return replacement
  const [head, ...rest] = path as [string | number, ...(string | number)[]]
  if (Array.isArray(value)) {
    const copy = [...value]
    if (rest.length === 0 && replacement === DELETE) copy.splice(head as number, 1)
    else copy[head as number] = setAt(copy[head as number], rest, replacement)
    return copy
  }
  const copy = copyOf(value as Record<string, unknown>)
  if (rest.length === 0 && replacement === DELETE) delete copy[head as string]
  else define(copy, head as string, setAt(copy[head as string], rest, replacement))
  return copy
}

/** JSON text of a value holding Raw numbers, and own properties named `__proto__` written as keys. */
function jsonText(value: Json): string {
  const marks: string[] = []
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Raw) {
      marks.push(v.text)
      return `\u0001RAW${marks.length - 1}\u0001`
    }
    return v
  })
  return text.replace(/"\\u0001RAW(\d+)\\u0001"/g, (_, i: string) => marks[Number(i)] as string)
}

/** A mutation of a valid request's JSON value, or of its bytes. */
type Mutation =
  | { kind: 'set'; pick: number; value: unknown }
  | { kind: 'delete'; pick: number }
  | { kind: 'unknown'; pick: number; name: string; value: unknown }
  | { kind: 'pollute'; pick: number; name: '__proto__' | 'constructor' }
  | { kind: 'deep'; pick: number; depth: number; open: '[' | '{"a":' }
  | { kind: 'utf8'; at: number; bytes: readonly number[] }
  | { kind: 'huge'; pick: number; length: number; unit: string }
  | { kind: 'syntax'; cut: number }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  weighted(6, fc.record({ kind: fc.constant('set' as const), pick: fc.nat(), value: hostileValue })),
  weighted(2, fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() })),
  weighted(2, fc.record({ kind: fc.constant('unknown' as const), pick: fc.nat(), name: unknownName, value: hostileValue })),
  weighted(2, fc.record({ kind: fc.constant('pollute' as const), pick: fc.nat(), name: fc.constantFrom('__proto__' as const, 'constructor' as const) })),
  weighted(1, fc.record({ kind: fc.constant('deep' as const), pick: fc.nat(), depth: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.constantFrom(1_000, 10_000, 100_000)), open: fc.constantFrom('[' as const, '{"a":' as const) })),
  weighted(2, fc.record({ kind: fc.constant('utf8' as const), at: fc.nat(), bytes: fc.constantFrom([0xff], [0xfe, 0xff], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80], [0x00]) })),
  weighted(1, fc.record({ kind: fc.constant('huge' as const), pick: fc.nat(), length: fc.constantFrom(100_000, 1_000_000, 3_000_000), unit: fc.constantFrom('a', 'é', '🎉', '"', '\\', ' ') })),
  weighted(1, fc.record({ kind: fc.constant('syntax' as const), cut: fc.nat() })),
)

const encoder = new TextEncoder()
const short = (value: unknown): string => {
  const t = value instanceof Raw ? value.text : JSON.stringify(value)
  return t === undefined ? String(value) : t.length > 40 ? `${t.slice(0, 40)}...(${t.length})` : t
}

/** Applies one mutation to a request; the bytes to send and what was done. */
function mutate(request: Record<string, unknown>, m: Mutation): ChatBody {
  const paths = pathsOf(request)
  const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T
  switch (m.kind) {
    case 'set': {
      const path = pick(paths, m.pick)
      return body(encoder.encode(jsonText(setAt(request, path, m.value))), `set ${path.join('.')} to ${short(m.value)}`)
    }
    case 'delete': {
      const path = pick(paths, m.pick)
      return body(encoder.encode(jsonText(setAt(request, path, DELETE))), `deleted ${path.join('.')}`)
    }
    case 'unknown':
    case 'pollute': {
      const at = pick(objectPaths(request), m.pick)
      const value = m.kind === 'pollute' ? (m.name === '__proto__' ? { polluted: true, role: 'user' } : { prototype: { polluted: true } }) : m.value
      const target = at.reduce<Json>((v, k) => (v as Record<string | number, Json>)[k], request) as Record<string, unknown>
      const next = copyOf(target)
      define(next, m.name, value)
      return body(encoder.encode(jsonText(setAt(request, at, next))), `added ${JSON.stringify(m.name)}: ${short(value)} at ${at.join('.') || 'the top'}`)
    }
    case 'deep': {
      const path = pick(paths, m.pick)
      const close = m.open === '[' ? ']' : '}'
      const marker = '\u0002DEEP\u0002'
      const text = jsonText(setAt(request, path, marker)).replace(JSON.stringify(marker), `${m.open.repeat(m.depth)}1${close.repeat(m.depth)}`)
      return body(encoder.encode(text), `nested ${m.depth} deep at ${path.join('.')}`)
    }
    case 'utf8': {
      const bytes = encoder.encode(jsonText(request))
      // Inside a string: after an opening quote, so that the bad bytes are in a value or a name.
      const quotes: number[] = []
      bytes.forEach((b, i) => b === 0x22 && quotes.push(i + 1))
      const at = pick(quotes.length === 0 ? [1] : quotes, m.at)
      const out = new Uint8Array(bytes.length + m.bytes.length)
      out.set(bytes.subarray(0, at))
      out.set(m.bytes, at)
      out.set(bytes.subarray(at), at + m.bytes.length)
      return body(out, `bytes [${m.bytes.map((b) => b.toString(16)).join(' ')}] at ${at}`)
    }
    case 'huge': {
      const path = pick(paths, m.pick)
      const value = m.unit.repeat(Math.floor(m.length / Math.max(1, Buffer.byteLength(m.unit))))
      return body(encoder.encode(jsonText(setAt(request, path, value))), `a ${m.length}-byte string of ${JSON.stringify(m.unit)} at ${path.join('.')}`)
    }
    case 'syntax': {
      const text = jsonText(request)
      return body(encoder.encode(text.slice(0, m.cut % Math.max(1, text.length))), `cut at ${m.cut % Math.max(1, text.length)}`)
    }
  }
}

/**
 * Chat bodies over a world: valid requests (about a third), and valid requests with one to three
 * hostile mutations applied one after the other.
 */
export function chatBody(facts: ChatFacts): fc.Arbitrary<ChatBody> {
  const valid = validChatRequest(facts)
  return fc.oneof(
    weighted(4, valid.map((request) => body(encoder.encode(JSON.stringify(request)), 'valid'))),
    weighted(
      5,
      fc.tuple(valid, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([request, mutations]) => {
        let made = body(encoder.encode(JSON.stringify(request)), 'valid')
        let current: Record<string, unknown> | null = request
        const hows: string[] = []
        for (const m of mutations) {
          if (current === null) break
          made = mutate(current, m)
          hows.push(made.how)
          // Mutations chain while the body is still JSON text of an object; raw bytes end the chain.
          try {
            const parsed: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(made.bytes))
            current = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && !hows.at(-1)?.startsWith('nested') ? (parsed as Record<string, unknown>) : null
          } catch {
            current = null
          }
        }
        return body(made.bytes, hows.join('; '))
      }),
    ),
  )
}

/** A JavaScript expression of a body, to replay it (long runs written as `.repeat(n)`). */
export function describeBody(body: ChatBody): string {
  const textual = (() => {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(body.bytes)
    } catch {
      return undefined
    }
  })()
  if (textual === undefined) return `new Uint8Array([${[...body.bytes.slice(0, 200)].join(',')}${body.bytes.length > 200 ? ',...' : ''}]) (${body.how})`
  // Runs of one character as <"c" xN>, found by a loop (a back-reference regex overflows on megabytes).
  let compact = ''
  for (let i = 0; i < textual.length && compact.length < 700; ) {
    let j = i + 1
    while (j < textual.length && textual[j] === textual[i]) j++
    compact += j - i >= 40 ? `<${JSON.stringify(textual[i])} x${j - i}>` : textual.slice(i, j)
    i = j
  }
  return `${JSON.stringify(compact.length > 600 ? `${compact.slice(0, 600)}...` : compact)} (${body.how})`
}
