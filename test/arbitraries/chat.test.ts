// The arbitraries of the money path's wire records, each parsed by the official SDK, each agreeing
// with itself, and shrinking to small values.
import fc from 'fast-check'
import { ChatResult$inboundSchema } from '@openrouter/sdk/models/chatresult.js'
import { ChatStreamChunk$inboundSchema } from '@openrouter/sdk/models/chatstreamchunk.js'
import { GenerationResponse$inboundSchema } from '@openrouter/sdk/models/generationresponse.js'
import { describe, expect, it } from 'vitest'
import { chatChunk, chatCompletion, generation } from '../../src/arbitraries/index.js'
import { simulatorErrorOf } from '../support/server.js'
import { SERVICE_TIMESTAMP, expectSdkParses, sampleOf, settings, shrunk } from './support.js'

describe('chatCompletion', () => {
  it('every completion is one the SDK parses, its token counts agreeing', () => {
    fc.assert(
      fc.property(chatCompletion(), (completion) => {
        expectSdkParses(ChatResult$inboundSchema, completion)
        const { usage } = completion
        expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens)
        expect(usage.completion_tokens_details.reasoning_tokens).toBeLessThanOrEqual(usage.completion_tokens)
        expect(usage.prompt_tokens_details.cached_tokens).toBeLessThanOrEqual(usage.prompt_tokens)
        expect(usage.cost).toBeGreaterThanOrEqual(0)
      }),
      settings,
    )
  })

  it('leans to the edges (no tokens, null content, every finish reason) and shrinks to a small completion', () => {
    const samples = sampleOf(chatCompletion(), 500)
    expect(samples.some((c) => c.usage.prompt_tokens === 0 && c.usage.completion_tokens === 0)).toBe(true)
    expect(samples.some((c) => c.choices[0]?.message.content === null)).toBe(true)
    expect(new Set(samples.map((c) => c.choices[0]?.finish_reason)).size).toBe(5)
    const small = shrunk(chatCompletion(), (c) => c.usage.cost > 0)
    expect(small.usage.prompt_tokens + small.usage.completion_tokens).toBeLessThanOrEqual(2)
  })

  it('honours finishReason and refuses unknown constraints', () => {
    expect(sampleOf(chatCompletion({ finishReason: 'tool_calls' }), 50).every((c) => c.choices[0]?.finish_reason === 'tool_calls')).toBe(true)
    expect(simulatorErrorOf(() => chatCompletion({ finishReason: 'done' } as never)).argument).toBe('finishReason')
    expect(simulatorErrorOf(() => chatCompletion({ stream: true } as never)).argument).toBe('stream')
  })
})

describe('chatChunk', () => {
  it('every chunk is one the SDK parses', () => {
    fc.assert(fc.property(chatChunk(), (chunk) => expectSdkParses(ChatStreamChunk$inboundSchema, chunk)), settings)
  })

  it('gives the kind asked for', () => {
    expect(sampleOf(chatChunk({ kind: 'usage' }), 50).every((c) => c.choices.length === 1 && c.choices[0]?.finish_reason !== null && typeof c.usage?.cost === 'number')).toBe(true)
    expect(sampleOf(chatChunk({ kind: 'finish' }), 50).every((c) => c.choices[0]?.finish_reason !== null && c.usage === undefined)).toBe(true)
    expect(sampleOf(chatChunk({ kind: 'delta' }), 50).every((c) => c.choices[0]?.finish_reason === null)).toBe(true)
    expect(simulatorErrorOf(() => chatChunk({ kind: 'first' } as never)).argument).toBe('kind')
  })
})

describe('generation', () => {
  it('every generation is one the SDK parses, its cost its usage', () => {
    fc.assert(
      fc.property(generation(), (g) => {
        expectSdkParses(GenerationResponse$inboundSchema, { data: g })
        expect(g.total_cost).toBe(g.usage)
        expect(g.created_at).toMatch(SERVICE_TIMESTAMP)
        expect(g.id).toMatch(/^gen-\d+-[A-Za-z0-9]{20}$/)
      }),
      settings,
    )
  })

  it('honours streamed and refuses unknown constraints', () => {
    expect(sampleOf(generation({ streamed: true }), 50).every((g) => g.streamed === true)).toBe(true)
    expect(simulatorErrorOf(() => generation({ streamed: 'yes' } as never)).argument).toBe('streamed')
    expect(simulatorErrorOf(() => generation({ cancelled: true } as never)).argument).toBe('cancelled')
  })
})
