// Log probabilities of a reply's tokens (decisions/0048), for a request that asks (`logprobs`,
// `top_logprobs`) of an endpoint that gives them. Tokens are the estimator's: 4 characters each
// (tokens.ts), so they join to the content and their number is its completion tokens. Each value
// is drawn from the reply's hash and the token's place: the same reply, the same figures.
import { fold } from './reply.js'
import { CHARS_PER_TOKEN } from './tokens.js'

/** An alternative at a token's place. */
export interface TopLogprob {
  token: string
  logprob: number
  bytes: number[]
}

/** One token of the content, its log probability, its UTF-8 bytes and the most likely alternatives, most likely first. */
export interface TokenLogprob extends TopLogprob {
  top_logprobs: TopLogprob[]
}

/** `choices[].logprobs` of a completion, or of a chunk for the tokens it carries. */
export interface ChatLogprobs {
  content: TokenLogprob[] | null
  refusal: null
}

/** Tokens the alternatives are drawn from. */
const ALTERNATIVES = [' the', ' a', ' and', ' to', ' of', ' in', ' is', ' it', ' that', ' for', ' on', ' with', ' as', ' this', ' be', ' at', ' by', ' or', ' an', ' so', ' we', ' can', ' not', ' all', '.', ',', ' you', ' are'] as const

const encoder = new TextEncoder()
const bytesOf = (token: string): number[] => Array.from(encoder.encode(token))

/** A log probability in (-3, 0], to 5 decimals, from a hash: most tokens are likely, some are not. */
function logprobOf(h: number): number {
  const x = (h % 100_000) / 100_000
  const value = -Math.round(x * x * 3 * 100_000) / 100_000
  return value === 0 ? 0 : value
}

/** The log probabilities of `content`'s tokens with `top` alternatives each (0 to 20), drawn from `h`. */
export function tokenLogprobs(content: string, top: number, h: number): TokenLogprob[] {
  const out: TokenLogprob[] = []
  for (let i = 0, place = 0; i < content.length; i += CHARS_PER_TOKEN, place++) {
    const token = content.slice(i, i + CHARS_PER_TOKEN)
    const drawn = fold(h, `${place}\u0000${token}`)
    const logprob = logprobOf(drawn)
    const alternatives: TopLogprob[] = []
    if (top > 0) alternatives.push({ token, logprob, bytes: bytesOf(token) })
    let below = logprob
    for (let k = 1, pick = drawn; alternatives.length < top; k++) {
      pick = fold(pick, String(k))
      const candidate = ALTERNATIVES[pick % ALTERNATIVES.length] as string
      if (alternatives.some((a) => a.token === candidate)) {
        // Past the list's distinct tokens, numbered ones: `top` may be 20, more than a sentence's likely words.
        if (k > ALTERNATIVES.length * 2) alternatives.push(alternative(`<${k}>`, (below = step(below, pick))))
        continue
      }
      below = step(below, pick)
      alternatives.push(alternative(candidate, below))
    }
    out.push({ token, logprob, bytes: bytesOf(token), top_logprobs: alternatives })
  }
  return out
}

const alternative = (token: string, logprob: number): TopLogprob => ({ token, logprob, bytes: bytesOf(token) })

/** The next lower log probability: 0.25 to 1.25 below. */
const step = (logprob: number, h: number): number => Math.round((logprob - 0.25 - (h % 1000) / 1000) * 100_000) / 100_000

/** The answer's `logprobs`: null when not asked (or not given); `content` null for a reply without text. */
export function chatLogprobs(entries: TokenLogprob[] | null, content: string | null): ChatLogprobs | null {
  if (entries === null) return null
  return { content: content === null ? null : entries, refusal: null }
}
