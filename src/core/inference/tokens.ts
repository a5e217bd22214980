// Step 6 of the money path: the one token estimator (decisions/0024). Real tokenizers differ per
// model; a test double needs a rule a test can compute by hand, so every count here is
// "a token per 4 characters, rounded up", plus fixed amounts for what is not text.
import type { ChatInput } from './request.js'

/** Characters per token. */
export const CHARS_PER_TOKEN = 4
/** Tokens each message adds for its role and framing. */
export const MESSAGE_OVERHEAD_TOKENS = 4
/** Tokens of each non-text part (an image, an audio clip, a file, a video). */
export const MEDIA_PART_TOKENS = 85

/** Tokens of a text: one per 4 characters (UTF-16 code units), rounded up; 0 for "". */
export function textTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN)
}

/**
 * Prompt tokens of a request: for each message 4 + its text's tokens + its tool calls' tokens +
 * 85 per non-text part, and the tools' JSON definitions counted as text.
 */
export function promptTokensOf(input: Pick<ChatInput, 'messages' | 'toolChars'>): number {
  let tokens = Math.ceil(input.toolChars / CHARS_PER_TOKEN)
  for (const message of input.messages) {
    tokens += MESSAGE_OVERHEAD_TOKENS + textTokens(message.text) + Math.ceil(message.toolCallChars / CHARS_PER_TOKEN) + message.mediaParts * MEDIA_PART_TOKENS
  }
  return tokens
}
