// Response bodies as the wire carries them, made from JSON cached per record: a page of 100 keys is
// 100 cached strings joined, not 100 objects built and serialised again. The adapters send the
// text (with its byte length already known); `sim.handle()` callers and the journal get objects
// built from the same cached records, fresh each time.

import { memoByRecord } from './memo.js'

/** A record's value and its JSON, cached together. The value is shared: hand out copies. */
export interface CachedJson<T> {
  readonly value: T
  readonly json: string
  /** UTF-8 bytes of `json`. */
  readonly bytes: number
  /** `{"data":json}`, once a response has been made of this record alone. */
  dataText?: string
}

/**
 * The last text of each list response (a page of keys, the video models), kept while the same
 * records make it up: an unchanged page is sent as the very string sent last time. One per
 * simulator; at most a few hundred lists are kept.
 */
export class ListTexts {
  private readonly texts = new Map<string, { entries: readonly CachedJson<unknown>[]; text: string }>()

  text(list: string, entries: readonly CachedJson<unknown>[]): string {
    const kept = this.texts.get(list)
    if (kept !== undefined && kept.entries.length === entries.length && kept.entries.every((entry, i) => entry === entries[i])) return kept.text
    const text = joinList(entries)
    if (this.texts.size >= 256) this.texts.clear()
    this.texts.set(list, { entries, text })
    return text
  }
}

/**
 * One copy: the brackets go into the first and last parts, so `join` makes the whole body as one
 * flat string (a template around the join would make a rope, flattened by a second copy when sent).
 */
function joinList(entries: readonly CachedJson<unknown>[]): string {
  const last = entries.length - 1
  if (last < 0) return `${LIST_OPEN}]}`
  const parts = new Array<string>(entries.length)
  for (let i = 0; i <= last; i++) parts[i] = (entries[i] as CachedJson<unknown>).json
  parts[0] = LIST_OPEN + (parts[0] as string)
  parts[last] = (parts[last] as string) + ']}'
  return parts.join(',')
}

const NON_ASCII = /[^\x00-\x7f]/

/** The UTF-8 length of a string, without encoding it (a lone surrogate counts as U+FFFD, as TextEncoder writes it). */
export function utf8Length(text: string): number {
  // Most JSON the simulator writes is ASCII: one regular-expression scan (four times faster than
  // the loop below) says so, and then its length is its size.
  if (!NON_ASCII.test(text)) return text.length
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
  /**
   * The UTF-8 bytes of {@link JsonPayload.text}, for a payload that has them without encoding
   * the text (a large answer made from kept bytes): the adapters send these when given.
   */
  bytes?(): Uint8Array
}

const DATA_OPEN = '{"data":'
const LIST_OPEN = '{"data":['

// Classes, not closures: a payload is made on every request.

/** `{ "data": record }`. */
class DataPayload<T> implements JsonPayload {
  readonly byteLength: number

  constructor(
    private readonly entry: CachedJson<T>,
    private readonly copy: (value: T) => unknown,
  ) {
    this.byteLength = DATA_OPEN.length + entry.bytes + 1
  }

  text(): string {
    return (this.entry.dataText ??= `${DATA_OPEN}${this.entry.json}}`)
  }

  value(): unknown {
    return { data: this.copy(this.entry.value) }
  }
}

/** `{ "data": [records...] }`. */
class ListPayload<T> implements JsonPayload {
  readonly byteLength: number

  constructor(
    private readonly entries: readonly CachedJson<T>[],
    private readonly copy: (value: T) => unknown,
    private readonly memo?: { texts: ListTexts; list: string },
  ) {
    let bytes = LIST_OPEN.length + 2 + Math.max(0, entries.length - 1)
    for (const entry of entries) bytes += entry.bytes
    this.byteLength = bytes
  }

  text(): string {
    return this.memo === undefined ? joinList(this.entries) : this.memo.texts.text(this.memo.list, this.entries)
  }

  value(): unknown {
    const data = new Array<unknown>(this.entries.length)
    for (let i = 0; i < data.length; i++) data[i] = this.copy((this.entries[i] as CachedJson<T>).value)
    return { data }
  }
}

/** `{ "data": record, "key": secret }`: the answer to `POST /keys`, the record's cached JSON reused. */
class CreatedPayload<T> implements JsonPayload {
  readonly byteLength: number
  private readonly tail: string

  constructor(
    private readonly entry: CachedJson<T>,
    private readonly copy: (value: T) => unknown,
    private readonly key: string,
  ) {
    this.tail = `,"key":${JSON.stringify(key)}}`
    this.byteLength = DATA_OPEN.length + entry.bytes + utf8Length(this.tail)
  }

  text(): string {
    return DATA_OPEN + this.entry.json + this.tail
  }

  value(): unknown {
    return { data: this.copy(this.entry.value), key: this.key }
  }
}

export const dataPayload = <T>(entry: CachedJson<T>, copy: (value: T) => unknown): JsonPayload => new DataPayload(entry, copy)
/** `{ "data": record, "key": secret }`, as `POST /keys` answers. */
export const createdPayload = <T>(entry: CachedJson<T>, copy: (value: T) => unknown, key: string): JsonPayload => new CreatedPayload(entry, copy, key)
/** `memo`: where the list's last text is kept, and under what name (a page: its workspace, filter and offset). */
export const listPayload = <T>(entries: readonly CachedJson<T>[], copy: (value: T) => unknown, memo?: { texts: ListTexts; list: string }): JsonPayload =>
  new ListPayload(entries, copy, memo)

const cachedJsonOf = memoByRecord((record: object): CachedJson<object> => {
  const json = JSON.stringify(record)
  return { value: record, json, bytes: utf8Length(json) }
})

/**
 * The cached JSON of a record the store never changes (a model, a workspace, a video model): made on
 * first use and kept beside the record (a WeakMap: the default world's shared models are frozen).
 */
export const cachedJson = <T extends object>(record: T): CachedJson<T> => cachedJsonOf(record) as CachedJson<T>
