// The assistant message of a non-streamed chat completion, as the service sends it
// (decisions/0039): one place, for the money path (chat.ts) and the records made from drawn parts
// (assemble.ts), so the two cannot drift apart.
import type { ChatAssistantMessage, ChatToolCall } from './wire.js'

/**
 * The message of a reply: `content` null when the reply is tool calls and no text, `refusal` null,
 * `reasoning` the reasoning or null (an empty reasoning is none), `reasoning_details` one
 * `reasoning.text` entry only when there is reasoning, `tool_calls` only when there are calls.
 */
export function assistantMessage(content: string | null, reasoning: string | null, toolCalls: readonly ChatToolCall[]): ChatAssistantMessage {
  const thought = reasoning === '' ? null : reasoning
  // Optional fields set after, not spread in: spreads here showed in profiles of every completion.
  const message: ChatAssistantMessage = { role: 'assistant', content: toolCalls.length > 0 && (content ?? '') === '' ? null : content, refusal: null, reasoning: thought }
  if (thought !== null) message.reasoning_details = [{ type: 'reasoning.text', text: thought, format: 'unknown', index: 0 }]
  if (toolCalls.length > 0) message.tool_calls = toolCalls as ChatToolCall[]
  return message
}
