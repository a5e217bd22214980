// Step 5 of the money path: the text a simulated model answers with when no responder does. It is
// a function of the simulator's seed, the model and the messages alone, so the same request gets
// the same reply whatever came before it (decisions/0024).
import type { ChatInput } from './request.js'

const WORDS = [
  'the', 'simulated', 'model', 'answers', 'your', 'request', 'with', 'a', 'short', 'reply', 'that', 'is',
  'stable', 'for', 'this', 'seed', 'and', 'these', 'messages', 'so', 'tests', 'can', 'rely', 'on', 'it',
  'every', 'time', 'they', 'run', 'here', 'are', 'some', 'words', 'about', 'costs', 'tokens', 'limits',
  'keys', 'routing', 'providers', 'fallbacks', 'prices', 'windows', 'usage', 'budgets', 'streams', 'in',
  'order', 'of', 'arrival', 'without', 'surprises', 'or', 'network', 'calls', 'at', 'all', 'today',
  'now', 'then', 'again', 'later', 'soon', 'always',
] as const

/** FNV-1a over the text, 32 bits. */
function hash(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/**
 * The default reply to a request for `model`: 12 to 47 words drawn from a fixed list by a hash of
 * the seed, the model and every message's role and text, as one sentence.
 */
export function defaultReply(seed: number, model: string, input: Pick<ChatInput, 'messages'>): string {
  let state = hash(`${model}\u0000${input.messages.map((m) => `${m.role}\u0001${m.text}`).join('\u0000')}`, seed) || 1
  const next = (): number => {
    // xorshift32: a small, fixed stream from the hash.
    state ^= state << 13
    state >>>= 0
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    return state
  }
  const count = 12 + (next() % 36)
  const words: string[] = []
  for (let i = 0; i < count; i++) words.push(WORDS[next() % WORDS.length] as string)
  const text = words.join(' ')
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`
}
