// The money path's bodies against the project's own wire description (the live drift check's) and
// the SDK's schemas, for replies of every kind: text, tool calls, reasoning, truncated, streamed.
import { ChatResult$inboundSchema } from '@openrouter/sdk/models/chatresult.js'
import { ChatStreamChunk$inboundSchema } from '@openrouter/sdk/models/chatstreamchunk.js'
import { GenerationResponse$inboundSchema } from '@openrouter/sdk/models/generationresponse.js'
import { describe, expect, it } from 'vitest'
import { RESPONSE_SHAPES, validateShape } from '../../src/core/wire-shapes.js'
import type { ResponderRule } from '../../src/index.js'
import { MODEL, chat, chatWorld, generation } from './support.js'

const replies: [string, ResponderRule | undefined, Record<string, unknown>][] = [
  ['the default reply', undefined, {}],
  ['tool calls', { reply: { toolCalls: [{ name: 'lookup', arguments: '{"id":1}' }, { name: 'other', arguments: '{}', id: 'call_x' }] } }, {}],
  ['reasoning and text', { reply: { reasoning: 'Thinking it over.', content: 'Done.' } }, {}],
  ['a truncated reply', { reply: { content: 'y'.repeat(100) } }, { max_tokens: 3 }],
  ['a null content', { reply: { content: null, finishReason: 'content_filter' } }, { session_id: 'abc' }],
]

describe('the bodies of the money path', () => {
  it.each(replies)('fit their wire description and the SDK schemas, for %s', (_, rule, extra) => {
    const { sim, key } = chatWorld()
    if (rule !== undefined) sim.inference.respond(rule)
    const answer = chat(sim, key, { model: MODEL, ...extra })
    expect(answer.status).toBe(200)
    expect(validateShape(RESPONSE_SHAPES.createChatCompletion, answer.body)).toEqual([])
    expect(ChatResult$inboundSchema.safeParse(answer.body).success).toBe(true)
    const found = generation(sim, key, answer.body.id).body
    expect(validateShape(RESPONSE_SHAPES.getGeneration, found)).toEqual([])
    expect(GenerationResponse$inboundSchema.safeParse(found).success).toBe(true)

    const streamed = chat(sim, key, { model: MODEL, stream: true, ...extra })
    const chunks = (streamed.body as { data: string }[]).filter((f) => f.data.startsWith('data: {')).map((f) => JSON.parse(f.data.slice(6)))
    for (const chunk of chunks) expect(ChatStreamChunk$inboundSchema.safeParse(chunk).success, JSON.stringify(chunk)).toBe(true)
  })
})
