// Step 5 of the money path: the text a simulated model answers with when no responder does. It is
// a function of the simulator's seed, the model and the messages alone, so the same request gets
// the same reply whatever came before it (decisions/0024).
import type { ChatInput } from './request.js'
import { uint32Source } from '../schema/index.js'

/** The words default replies are drawn from (exported for the tests' reference reply). */
export const REPLY_WORDS = [
  'the', 'simulated', 'model', 'answers', 'your', 'request', 'with', 'a', 'short', 'reply', 'that', 'is',
  'stable', 'for', 'this', 'seed', 'and', 'these', 'messages', 'so', 'tests', 'can', 'rely', 'on', 'it',
  'every', 'time', 'they', 'run', 'here', 'are', 'some', 'words', 'about', 'costs', 'tokens', 'limits',
  'keys', 'routing', 'providers', 'fallbacks', 'prices', 'windows', 'usage', 'budgets', 'streams', 'in',
  'order', 'of', 'arrival', 'without', 'surprises', 'or', 'network', 'calls', 'at', 'all', 'today',
  'now', 'then', 'again', 'later', 'soon', 'always',
] as const

/** FNV-1a, 32 bits: `h` folded with the text's UTF-16 units. */
export function fold(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

const NUL = '\u0000'
const SOH = '\u0001'

/**
 * Replies by the hash they are made from. A reply is a function of its hash alone, so the cache
 * holds no state of any simulator; it only spares the words' draw and join for a repeated request.
 */
const made = new Map<number, string>()
const MADE_LIMIT = 1_024

/**
 * Replies by the text their hash is made of (the seed, the model and the messages joined as the
 * hash reads them), for requests no longer than SEEN_TEXT characters: a request seen before is
 * answered without hashing it again, a loop over every character that runs before the JIT has
 * compiled it in most of a test suite's requests (decisions/0033). Same text, same hash, same reply.
 */
const seen = new Map<string, string>()
const SEEN_TEXT = 1_024

/**
 * The default reply to a request for `model`: 12 to 47 words drawn from a fixed list by a hash of
 * the seed, the model and every message's role and text, as one sentence. The hash is FNV-1a over
 * `model`, NUL, then each message's role, SOH and text, with a NUL between messages.
 */
export function defaultReply(seed: number, model: string, input: Pick<ChatInput, 'messages'>): string {
  const messages = input.messages
  let length = model.length
  for (let i = 0; i < messages.length; i++) length += (messages[i] as (typeof messages)[number]).text.length
  let joined: string | undefined
  if (length <= SEEN_TEXT) {
    joined = `${seed}${NUL}${model}`
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i] as (typeof messages)[number]
      joined += `${NUL}${m.role}${SOH}${m.text}`
    }
    const known = seen.get(joined)
    if (known !== undefined) return known
  }
  // Folded piece by piece: the same hash as over the joined text, without building it.
  const reply = replyOfHash(replyHash(seed, model, messages))
  if (joined !== undefined) {
    if (seen.size >= MADE_LIMIT) seen.clear()
    seen.set(joined, reply)
  }
  return reply
}

/**
 * The hash a default reply is made from (see defaultReply), for the parts of a reply made beside
 * its text (compose.ts): the same request, the same hash.
 */
export function replyHash(seed: number, model: string, messages: ChatInput['messages']): number {
  let h = fold(fold((0x811c9dc5 ^ seed) >>> 0, model), NUL)
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as (typeof messages)[number]
    if (i > 0) h = fold(h, NUL)
    h = fold(fold(fold(h, m.role), SOH), m.text)
  }
  return h
}

/** The reply a hash makes (see defaultReply). */
function replyOfHash(h: number): string {
  const key = h || 1
  const cached = made.get(key)
  if (cached !== undefined) return cached
  // xorshift32: a small, fixed stream from the hash, the schema generator's source too.
  const next = uint32Source(key)
  const count = 12 + (next() % 36)
  const words: string[] = []
  for (let i = 0; i < count; i++) words.push(REPLY_WORDS[next() % REPLY_WORDS.length] as string)
  const text = words.join(' ')
  const reply = `${text.charAt(0).toUpperCase()}${text.slice(1)}.`
  if (made.size >= MADE_LIMIT) made.clear()
  made.set(key, reply)
  return reply
}
