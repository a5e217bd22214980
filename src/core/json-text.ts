// Response bodies as the wire carries them, made from JSON cached per record: a page of 100 keys is
// 100 cached strings joined, not 100 objects built and serialised again. The adapters send the
// text (with its byte length already known); `sim.handle()` callers and the journal get objects
// built from the same cached records, fresh each time.

/** A record's value and its JSON, cached together. The value is shared: hand out copies. */
export interface CachedJson<T> {
  readonly value: T
  readonly json: string
  /** UTF-8 bytes of `json`. */
  readonly bytes: number
}

/** The UTF-8 length of a string, without encoding it (a lone surrogate counts as U+FFFD, as TextEncoder writes it). */
export function utf8Length(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) continue
    if (code < 0x800) bytes += 1
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two UTF-16 units, four bytes.
      bytes += 2
      i++
    } else bytes += 2
  }
  return bytes
}

/** A JSON body whose text and value are both made from cached records. */
export interface JsonPayload {
  /** UTF-8 bytes of {@link JsonPayload.text}. */
  readonly byteLength: number
  /** The body as the wire carries it: `JSON.stringify(value())`, byte for byte. */
  text(): string
  /** The body as a fresh object. */
  value(): unknown
}

const DATA_OPEN = '{"data":'
const LIST_OPEN = '{"data":['

/** `{ "data": record }`. */
export function dataPayload<T>(entry: CachedJson<T>, copy: (value: T) => unknown): JsonPayload {
  return {
    byteLength: DATA_OPEN.length + entry.bytes + 1,
    text: () => `${DATA_OPEN}${entry.json}}`,
    value: () => ({ data: copy(entry.value) }),
  }
}

/** `{ "data": [records...] }`. */
export function listPayload<T>(entries: readonly CachedJson<T>[], copy: (value: T) => unknown): JsonPayload {
  let bytes = LIST_OPEN.length + 2 + Math.max(0, entries.length - 1)
  for (const entry of entries) bytes += entry.bytes
  return {
    byteLength: bytes,
    text: () => {
      let text = LIST_OPEN
      for (let i = 0; i < entries.length; i++) text += i === 0 ? (entries[i] as CachedJson<T>).json : `,${(entries[i] as CachedJson<T>).json}`
      return `${text}]}`
    },
    value: () => ({ data: entries.map((entry) => copy(entry.value)) }),
  }
}

const CACHE = Symbol('json')
type Holder<T> = T & { [CACHE]?: CachedJson<T> }

/**
 * The cached JSON of a record the store never changes (a model, a workspace, a video model): made on
 * first use and kept on the record under a symbol that spreads and structuredClone skip.
 */
export function cachedJson<T extends object>(record: T): CachedJson<T> {
  const holder = record as Holder<T>
  const cached = holder[CACHE]
  if (cached !== undefined) return cached
  const json = JSON.stringify(record)
  const entry: CachedJson<T> = { value: record, json, bytes: utf8Length(json) }
  Object.defineProperty(holder, CACHE, { value: entry, configurable: true, writable: true, enumerable: false })
  return entry
}
