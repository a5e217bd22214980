// Reading an intercepted request's body as text, without its stream where the runtime allows.
//
// `request.text()` runs the body's ReadableStream: a reader, a read loop and a promise per chunk,
// which cost about 60 µs a request in a cold process on Node 20, as much as half of what the
// simulator itself spends on a chat completion (decisions/0064). Node's fetch up to Node 22
// (undici) keeps the text or bytes a Request was made from beside its stream, under a symbol
// described "state", and the copies MSW makes of a request share them. Where that is there and the
// body is still unread, the text is taken from it and decoded exactly as `text()` would; anywhere
// else (Node 24's fetch keeps it in private fields, browsers, a streamed or multipart body) the
// stream is read. Reading the source does not use up the body.

/** The symbol Node's `Request` keeps its state under, once a request has shown it. */
let stateKey: symbol | undefined

/** Decodes bytes as `text()` does: UTF-8, a leading byte order mark dropped, bad bytes as U+FFFD. */
let decoder: TextDecoder | undefined

interface BodyState {
  body?: { source?: unknown; length?: unknown } | null
}

/**
 * The text `request.text()` would give, when the request's runtime keeps the body's source and the
 * body is unread; otherwise undefined: then read the stream, as `answer` (route.ts) does.
 */
export function bodySource(request: Request): string | undefined {
  const stream = request.body
  if (stream === null || stream.locked || request.bodyUsed) return undefined
  const body = stateOf(request)?.body
  const source = body?.source
  if (typeof source === 'string') {
    // `text()` decodes the string's UTF-8 bytes, which drops a leading U+FEFF as a byte order mark:
    // such text takes the stream. (Lone surrogates need nothing: fetch made the string a USVString,
    // with U+FFFD for each, when the request was built.)
    return source.charCodeAt(0) === 0xfeff ? undefined : source
  }
  // Bytes are handed to the stream itself when it is first pulled, which empties them: a copy of the
  // request read before this one (a listener reading `request.clone()`) leaves them at length 0,
  // short of the length fetch wrote down for the body.
  if (source instanceof Uint8Array && source.byteLength === body?.length) return (decoder ??= new TextDecoder()).decode(source)
  return undefined
}

function stateOf(request: Request): BodyState | undefined {
  if (stateKey !== undefined) {
    const state = (request as unknown as Record<symbol, unknown>)[stateKey]
    if (typeof state === 'object' && state !== null) return state as BodyState
  }
  for (const key of Object.getOwnPropertySymbols(request)) {
    if (key.description !== 'state') continue
    const state = (request as unknown as Record<symbol, unknown>)[key]
    if (typeof state !== 'object' || state === null) return undefined
    stateKey = key
    return state as BodyState
  }
  return undefined
}
