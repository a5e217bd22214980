// The assistant message of a non-streamed chat completion, as the service sends it
// (decisions/0039): one place, for the money path (chat.ts) and the records made from drawn parts
// (assemble.ts), so the two cannot drift apart. Reasoning details take the shapes the model's
// provider sends (decisions/0048).
import { toBase64 } from '../base64.js'
import { uint32Source } from '../schema/index.js'
import type { ReasoningStyle } from './compose.js'
import type { ChatAssistantMessage, ChatReasoningDetail, ChatToolCall } from './wire.js'

/** Opaque bytes of a reasoning's seal, as base64: an encrypted block or a signature stands for reasoning the caller cannot read. */
export function sealText(seal: number, salt: number, bytes: number): string {
  const next = uint32Source((seal ^ salt) >>> 0)
  const out = new Uint8Array(bytes)
  for (let i = 0; i < bytes; i++) out[i] = next() & 0xff
  return toBase64(out)
}

/**
 * The `reasoning_details` of a reasoning text: one `reasoning.text` entry of format `unknown`
 * without a style (a responder's reasoning); with one, as its provider sends it: a summary
 * (OpenAI), a signed text (Anthropic) or a text, then an encrypted block where the provider sends one.
 */
export function reasoningDetails(text: string, style: ReasoningStyle | null): ChatReasoningDetail[] {
  if (style === null) return [{ type: 'reasoning.text', text, format: 'unknown', index: 0 }]
  const details: ChatReasoningDetail[] = [
    style.kind === 'summary'
      ? { type: 'reasoning.summary', summary: text, format: style.format, index: 0 }
      : style.signed
        ? { type: 'reasoning.text', text, format: style.format, index: 0, signature: sealText(style.seal, 0x5167, 64) }
        : { type: 'reasoning.text', text, format: style.format, index: 0 },
  ]
  if (style.encrypted) details.push(encryptedDetail(style))
  return details
}

/** The opaque block that follows the readable reasoning of a provider that sends one. */
export function encryptedDetail(style: ReasoningStyle): ChatReasoningDetail {
  return { type: 'reasoning.encrypted', data: sealText(style.seal, 0xe4c, 96), format: style.format, index: 1 }
}

/**
 * The message of a reply: `content` null when the reply is tool calls and no text, `refusal` null,
 * `reasoning` the reasoning or null (an empty reasoning is none), `reasoning_details` only when there
 * is reasoning, `tool_calls` only when there are calls.
 */
export function assistantMessage(content: string | null, reasoning: string | null, toolCalls: readonly ChatToolCall[], style: ReasoningStyle | null = null): ChatAssistantMessage {
  const thought = reasoning === '' ? null : reasoning
  // Optional fields set after, not spread in: spreads here showed in profiles of every completion.
  const message: ChatAssistantMessage = { role: 'assistant', content: toolCalls.length > 0 && (content ?? '') === '' ? null : content, refusal: null, reasoning: thought }
  if (thought !== null) message.reasoning_details = reasoningDetails(thought, style)
  if (toolCalls.length > 0) message.tool_calls = toolCalls as ChatToolCall[]
  return message
}
