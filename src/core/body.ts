// Request bodies: the raw bytes or text an adapter hands over, read as JSON with a size cap, and a
// reader of its fields that names every refusal by the field's path (`messages[2].content`), the
// way query errors name their parameter (decisions/0020).
import { ApiError, ERROR_MESSAGES } from './errors.js'
import { deepFreeze } from './json-data.js'

/**
 * The largest request body the simulated service reads, in bytes: 413 over it. The real service's
 * cap is not published; 16 MiB holds any management body and a long chat history.
 */
export const MAX_BODY_BYTES = 16 * 1024 * 1024

/**
 * The deepest nesting of arrays and objects a body may have: deeper is a 400 naming `body`. No
 * request of the service nests past a few levels (a tool's JSON Schema the most); the cap is
 * serde_json's default recursion limit, and keeps every reader of the value off the call stack's
 * edge (decisions/0028).
 */
export const MAX_BODY_DEPTH = 128

const decoder = new TextDecoder('utf-8', { fatal: true })

/** Bytes read as UTF-8, or undefined when they are not UTF-8. */
export function strictUtf8(bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes)
  } catch {
    return undefined
  }
}

/** Whether a parsed JSON value nests arrays and objects deeper than `limit`, found without recursion. */
function nestedDeeperThan(value: object, limit: number): boolean {
  const pending: unknown[] = [value]
  const depths: number[] = [1]
  while (pending.length > 0) {
    const next = pending.pop() as object
    const depth = depths.pop() as number
    if (depth > limit) return true
    const children = Array.isArray(next) ? next : Object.values(next)
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        pending.push(child)
        depths.push(depth + 1)
      }
    }
  }
  return false
}

/**
 * Whether a JSON text has more than `limit` opening brackets: only then can it nest deeper than
 * `limit` (brackets inside strings count too, which errs on the side of looking).
 */
function mayNestDeeperThan(text: string, limit: number): boolean {
  if (text.length <= 2 * limit) return false
  let opened = 0
  for (let at = text.indexOf('{'); at !== -1 && opened <= limit; at = text.indexOf('{', at + 1)) opened++
  for (let at = text.indexOf('['); at !== -1 && opened <= limit; at = text.indexOf('[', at + 1)) opened++
  return opened > limit
}

/**
 * The 400 about one field of a body (or the body itself, `body`): its top-level `message` is the
 * service's wording with the path and the reason after it (`Invalid request parameters:
 * messages[2].content must be a string or an array of content parts`), because most clients show
 * only the message; `metadata` names the field as `parameter`, with the `reason` and the `value`
 * when there is one (decisions/0036).
 */
export function fieldError(parameter: string, reason: string, value?: string): ApiError {
  const metadata: Record<string, unknown> = value === undefined ? { parameter, reason } : { parameter, reason, value }
  return new ApiError(400, { message: `${ERROR_MESSAGES[400]}: ${parameter} ${reason}`, metadata })
}

/** The 400 about the body as a whole. */
export function badBody(reason: string): ApiError {
  return fieldError('body', reason)
}

/** UTF-8 bytes of a string body, without encoding it when it is plainly under the cap. */
function byteLength(body: string | Uint8Array): number {
  if (typeof body !== 'string') return body.byteLength
  // A UTF-16 unit is at most 3 UTF-8 bytes: only a long string needs counting.
  if (body.length * 3 <= MAX_BODY_BYTES) return body.length
  return new TextEncoder().encode(body).byteLength
}

/**
 * Whether a request's content type lets its body be read as JSON: none (undefined), an empty or
 * blank header (a client that sent `Content-Type:` with no value said nothing), `application/json`
 * or `application/<x>+json`, parameters allowed. The one rule of the service's operations and of
 * the control API.
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined || contentType === 'application/json') return true
  const type = (contentType.split(';')[0] as string).trim().toLowerCase()
  if (type === '' && !contentType.includes(';')) return true
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

/** Throws the 413 of a body over {@link MAX_BODY_BYTES} (`bytes`: its size when the caller knows it); any other body passes. */
export function refuseOverCap(body: string | Uint8Array, bytes?: number): void {
  if ((bytes ?? byteLength(body)) > MAX_BODY_BYTES) {
    throw new ApiError(413, { metadata: { parameter: 'body', reason: `is larger than the ${MAX_BODY_BYTES} bytes read at most`, limit: MAX_BODY_BYTES } })
  }
}

/**
 * The body as a JSON object. `contentType` undefined means the caller gave no headers at all (a
 * `sim.handle` call), read as JSON; a content type that is given must be JSON or empty
 * ({@link isJsonContentType}). An absent or empty
 * body, a body over {@link MAX_BODY_BYTES} (413), bytes that are not UTF-8, malformed JSON and a
 * JSON value that is not an object, and one nested deeper than {@link MAX_BODY_DEPTH} are each
 * refused, naming `body`.
 */
export function readJsonObject(body: string | Uint8Array | null | undefined, contentType: string | undefined, bytes?: number): Record<string, unknown> {
  if (body === null || body === undefined || (typeof body === 'string' ? body.trim() === '' : body.byteLength === 0)) {
    throw badBody('is required: a JSON object')
  }
  // `bytes`: the size of the bytes a string body was decoded from, when the caller decoded them.
  refuseOverCap(body, bytes)
  if (!isJsonContentType(contentType)) {
    throw badBody(`must be sent as content-type application/json, got ${JSON.stringify(contentType)}`)
  }
  let text: string
  if (typeof body === 'string') text = body
  else {
    try {
      text = decoder.decode(body)
    } catch {
      throw badBody('is not valid UTF-8')
    }
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw badBody(`is not valid JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badBody(`must be a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}`)
  }
  if (mayNestDeeperThan(text, MAX_BODY_DEPTH) && nestedDeeperThan(value, MAX_BODY_DEPTH)) throw badBody(`nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels`)
  return value as Record<string, unknown>
}

/**
 * Bodies read by {@link readSharedJsonObject}, by their text: a JSON text always parses to the same
 * value, so the value (frozen) holds nothing of any simulator or request and is shared by every
 * request sending the same text (decisions/0063). Bounded by {@link SHARED_TOTAL_CHARS} of text and
 * {@link SHARED_ENTRIES} entries, cleared when full rather than evicted in order.
 */
const sharedBodies = new Map<string, Readonly<Record<string, unknown>>>()
/** The values {@link readSharedJsonObject} made: deeply frozen, so a reader's result for one is a function of it alone. */
const sharedValues = new WeakSet<object>()
/** The longest body text kept (characters): longer ones are parsed each time. */
export const SHARED_MAX_CHARS = 64 * 1024
/** The characters of text kept at most, over every entry. */
export const SHARED_TOTAL_CHARS = 1024 * 1024
/** The entries kept at most. */
export const SHARED_ENTRIES = 4096
let sharedChars = 0

/**
 * The body as a JSON object, as {@link readJsonObject} reads it and refuses it, but deeply frozen and
 * shared by every request whose body is the same text: a repeated body (a test suite's fixture
 * prompt, a client's retry) is parsed once. For the inference readers, which only read their body;
 * {@link isSharedBody} tells their memo the value is one of these.
 */
export function readSharedJsonObject(body: string | Uint8Array | null | undefined, contentType: string | undefined, bytes?: number): Readonly<Record<string, unknown>> {
  const keep = typeof body === 'string' && body.length <= SHARED_MAX_CHARS
  // A kept text was a JSON object under the cap once; the content type is this request's, checked each time.
  if (keep && isJsonContentType(contentType)) {
    const known = sharedBodies.get(body)
    if (known !== undefined) return known
  }
  const value = readJsonObject(body, contentType, bytes)
  if (!keep) return value
  deepFreeze(value)
  sharedValues.add(value)
  if (sharedChars + body.length > SHARED_TOTAL_CHARS || sharedBodies.size >= SHARED_ENTRIES) {
    sharedBodies.clear()
    sharedChars = 0
  }
  sharedBodies.set(body, value)
  sharedChars += body.length
  return value
}

/** Whether `value` was made by {@link readSharedJsonObject}: deeply frozen, shared by the requests that sent its text. */
export function isSharedBody(value: object): boolean {
  return sharedValues.has(value)
}

/** What a reader gave for a shared body under each policy for unknown fields; see {@link readOnce}. */
export interface ReadMemo<T> {
  strict?: T
  lenient?: { result: T; ignored: readonly string[] }
}

/**
 * `read(value, unknownFields)`, made once per shared body ({@link isSharedBody}) and policy and
 * kept in `memo`; another value is read each time. Under a lenient policy the fields the first
 * read ignored are listed again in this request's `unknownFields.ignored`. A read that throws keeps
 * nothing (and lists the fields it ignored before it threw). The result is shared: its callers copy it to change it.
 */
export function readOnce<T>(memo: WeakMap<object, ReadMemo<T>>, value: Record<string, unknown>, unknownFields: UnknownFields, read: (value: Record<string, unknown>, unknownFields: UnknownFields) => T): T {
  if (!sharedValues.has(value)) return read(value, unknownFields)
  let entry = memo.get(value)
  if (unknownFields.strict) {
    if (entry?.strict !== undefined) return entry.strict
    const result = read(value, unknownFields)
    if (entry === undefined) memo.set(value, (entry = {}))
    entry.strict = result
    return result
  }
  let lenient = entry?.lenient
  if (lenient === undefined) {
    const policy = unknownFieldsPolicy(false)
    try {
      lenient = { result: read(value, policy), ignored: policy.ignored }
    } catch (error) {
      // A refused body still lists the fields read past before the refusal, as an unshared one does.
      for (let i = 0; i < policy.ignored.length; i++) unknownFields.ignored.push(policy.ignored[i] as string)
      throw error
    }
    if (entry === undefined) memo.set(value, (entry = {}))
    entry.lenient = lenient
  }
  for (let i = 0; i < lenient.ignored.length; i++) unknownFields.ignored.push(lenient.ignored[i] as string)
  return lenient.result
}

/** A JSON value as a refusal shows it: short, never a whole body. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing'
  const text = JSON.stringify(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/** What a number field must be. */
export interface NumberRule {
  integer?: boolean | undefined
  min?: number | undefined
  max?: number | undefined
  /** Whether `min` itself is refused (a limit of exactly 0 may be allowed; a price above 0 only). */
  exclusiveMin?: boolean | undefined
}

/**
 * What the readers of one request body do with a field they do not know (decisions/0036): refuse
 * it with a 400 naming it (`strict`), or accept it and add its path (`temprature`,
 * `messages[1].nmae`, `provider.ordr`) to `ignored`, in the order the body is read, for the
 * journal entry's `ignoredFields`.
 */
export interface UnknownFields {
  readonly strict: boolean
  readonly ignored: string[]
}

/**
 * Unknown fields refused: what every reader does unless handed another policy. Management bodies
 * (keys, workspaces, ...) always read so; inference requests under `strictRequests`.
 */
export const REFUSE_UNKNOWN: UnknownFields = Object.freeze({ strict: true, ignored: Object.freeze([]) as unknown as string[] })

/** A fresh policy for one request: unknown fields refused when `strict`, else accepted and listed. */
export function unknownFieldsPolicy(strict: boolean): UnknownFields {
  return strict ? REFUSE_UNKNOWN : { strict: false, ignored: [] }
}

/**
 * The fields of one JSON object in a request body, each read by name and refused with a 400 whose
 * metadata names its path. A field outside the names given to {@link BodyReader.known} is refused
 * or listed, as the reader's {@link UnknownFields} policy says: a management body refuses it (a
 * misspelt `limit_rest` must not make a key without a reset, decisions/0020); an inference request
 * accepts it and lists it unless strict (decisions/0036). Readers of nested objects made with
 * {@link BodyReader.child} or {@link BodyReader.optionalObject} share the policy.
 */
export class BodyReader {
  constructor(
    readonly value: Record<string, unknown>,
    /** The path of this object in the body: `''` for the body itself, `provider` for a nested one. */
    readonly path = '',
    /** What {@link BodyReader.known} does with a field it does not know. */
    readonly unknownFields: UnknownFields = REFUSE_UNKNOWN,
  ) {}

  /** A reader of a nested object at `path`, with this reader's policy for unknown fields. */
  child(value: Record<string, unknown>, path: string): BodyReader {
    return new BodyReader(value, path, this.unknownFields)
  }

  /** The path of a field of this object. */
  at(name: string | number): string {
    if (typeof name === 'number') return `${this.path}[${name}]`
    return this.path === '' ? name : `${this.path}.${name}`
  }

  /** A 400 naming `field` (a name in this object, or a path already made), in `message` too ({@link fieldError}). */
  fail(field: string, reason: string, value?: unknown): never {
    throw fieldError(field, reason, value === undefined ? undefined : shown(value))
  }

  /**
   * Checks that every field is in `names`. One that is not is refused, listing the known ones,
   * under a strict policy; otherwise it is accepted and its path listed in the policy's `ignored`.
   */
  known(names: ReadonlySet<string>): this {
    for (const name in this.value) {
      if (!Object.hasOwn(this.value, name) || names.has(name)) continue
      if (this.unknownFields.strict) this.fail(this.at(name), `is not a field of this request (known fields: ${[...names].join(', ')})`)
      this.unknownFields.ignored.push(this.at(name))
    }
    return this
  }

  /** Whether the field is present (a JSON null counts as present). */
  has(name: string): boolean {
    return Object.hasOwn(this.value, name) && this.value[name] !== undefined
  }

  raw(name: string): unknown {
    return Object.hasOwn(this.value, name) ? this.value[name] : undefined
  }

  /** A required field that is present and not null. */
  private required(name: string): unknown {
    const value = this.raw(name)
    if (value === undefined || value === null) this.fail(this.at(name), 'is required')
    return value
  }

  string(name: string, rule: { minLength?: number; maxLength?: number; pattern?: RegExp; expected?: string } = {}): string {
    return this.checkString(name, this.required(name), rule)
  }

  /** Absent: undefined. Null is refused unless `nullable`. */
  optionalString(name: string, rule: { minLength?: number; maxLength?: number; pattern?: RegExp; expected?: string; nullable?: false }): string | undefined
  optionalString(name: string, rule: { minLength?: number; maxLength?: number; pattern?: RegExp; expected?: string; nullable: true }): string | null | undefined
  optionalString(name: string, rule: { minLength?: number; maxLength?: number; pattern?: RegExp; expected?: string; nullable?: boolean } = {}): string | null | undefined {
    const value = this.raw(name)
    if (value === undefined) return undefined
    if (value === null) {
      if (rule.nullable) return null
      this.fail(this.at(name), 'must not be null')
    }
    return this.checkString(name, value, rule)
  }

  private checkString(name: string, value: unknown, rule: { minLength?: number; maxLength?: number; pattern?: RegExp; expected?: string }): string {
    const path = this.at(name)
    if (typeof value !== 'string') this.fail(path, `must be a string${rule.expected ? ` (${rule.expected})` : ''}`, value)
    if (rule.minLength !== undefined && value.length < rule.minLength) {
      this.fail(path, rule.minLength === 1 ? 'must not be empty' : `must be at least ${rule.minLength} characters`, value)
    }
    if (rule.maxLength !== undefined && value.length > rule.maxLength) this.fail(path, `must be at most ${rule.maxLength} characters`, value)
    if (rule.pattern !== undefined && !rule.pattern.test(value)) this.fail(path, `must be ${rule.expected ?? `a string matching ${rule.pattern}`}`, value)
    return value
  }

  optionalBoolean(name: string): boolean | undefined {
    const value = this.raw(name)
    if (value === undefined) return undefined
    if (typeof value !== 'boolean') this.fail(this.at(name), 'must be true or false', value)
    return value
  }

  number(name: string, rule: NumberRule = {}): number {
    return this.checkNumber(this.at(name), this.required(name), rule)
  }

  optionalNumber(name: string, rule: NumberRule & { nullable?: false }): number | undefined
  optionalNumber(name: string, rule: NumberRule & { nullable: true }): number | null | undefined
  optionalNumber(name: string, rule: NumberRule & { nullable?: boolean } = {}): number | null | undefined {
    const value = this.raw(name)
    if (value === undefined) return undefined
    if (value === null) {
      if (rule.nullable) return null
      this.fail(this.at(name), 'must not be null')
    }
    return this.checkNumber(this.at(name), value, rule)
  }

  /** Checks a number at `path` (also for the elements of an array). */
  checkNumber(path: string, value: unknown, rule: NumberRule): number {
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(path, `must be a${rule.integer ? 'n integer' : ' number'}`, value)
    if (rule.integer && !Number.isSafeInteger(value)) this.fail(path, 'must be an integer', value)
    if (rule.min !== undefined && (rule.exclusiveMin ? value <= rule.min : value < rule.min)) {
      this.fail(path, `must be ${rule.exclusiveMin ? 'greater than' : 'at least'} ${rule.min}`, value)
    }
    if (rule.max !== undefined && value > rule.max) this.fail(path, `must be at most ${rule.max}`, value)
    return value
  }

  optionalEnum<T extends string>(name: string, allowed: readonly T[], nullable: true): T | null | undefined
  optionalEnum<T extends string>(name: string, allowed: readonly T[], nullable?: false): T | undefined
  optionalEnum<T extends string>(name: string, allowed: readonly T[], nullable = false): T | null | undefined {
    const value = this.raw(name)
    if (value === undefined) return undefined
    if (value === null) {
      if (nullable) return null
      this.fail(this.at(name), 'must not be null')
    }
    if (!allowed.includes(value as T)) this.fail(this.at(name), `must be one of ${allowed.join(', ')}`, value)
    return value as T
  }

  /** A nested object, read by a reader of its own; absent: undefined. */
  optionalObject(name: string, nullable = false): BodyReader | null | undefined {
    const value = this.raw(name)
    if (value === undefined) return undefined
    if (value === null) {
      if (nullable) return null
      this.fail(this.at(name), 'must not be null')
    }
    if (typeof value !== 'object' || Array.isArray(value)) this.fail(this.at(name), 'must be an object', value)
    return this.child(value as Record<string, unknown>, this.at(name))
  }

  /** An array field; absent: undefined. */
  optionalArray(name: string, rule: { minLength?: number; maxLength?: number; nullable?: boolean } = {}): unknown[] | null | undefined {
    const value = this.raw(name)
    if (value === undefined) return undefined
    if (value === null) {
      if (rule.nullable) return null
      this.fail(this.at(name), 'must not be null')
    }
    if (!Array.isArray(value)) this.fail(this.at(name), 'must be an array', value)
    if (rule.minLength !== undefined && value.length < rule.minLength) this.fail(this.at(name), `must have at least ${rule.minLength} element${rule.minLength === 1 ? '' : 's'}`)
    if (rule.maxLength !== undefined && value.length > rule.maxLength) this.fail(this.at(name), `must have at most ${rule.maxLength} elements`)
    return value
  }
}
