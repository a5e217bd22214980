// The official SDK on variants, openrouter/auto and the suggestions of an unknown id's 400
// (decisions/0038): each answer parses, and names the model as the rules say.
import { BadRequestResponseError } from '@openrouter/sdk/models/errors'
import type { ChatResult, ChatStreamChunk } from '@openrouter/sdk/models'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { failureOf, sdkClient, useSimulatorServer } from '../support/server.js'

const { serve } = useSimulatorServer()

function setup() {
  const sim = createSimulator({ world: 'empty', seed: 3, now: '2026-03-02T10:00:00Z' })
  const org = sim.users.create({ name: 'Acme', credits: { total: 100 } })
  const { key } = sim.keys.create({ userId: org.id })
  sim.models.create({ id: 'acme/helper', endpoints: [{ provider_name: 'Google Vertex', tag: 'google-vertex/europe', pricing: { prompt: '0.000001', completion: '0.000002', web_search: '0.01' } }] })
  sim.models.create({ id: 'acme/bargain', endpoints: [{ provider_name: 'DeepInfra', tag: 'deepinfra', pricing: { prompt: '0.0000001', completion: '0.0000001' } }] })
  serve(sim)
  return { sim, sdk: sdkClient(key) }
}

const messages = [{ role: 'user' as const, content: 'Any news?' }]

describe('sdk.chat.send with variants', () => {
  it('streams an :online answer that names the variant and carries the search in its cost', async () => {
    const { sim, sdk } = setup()
    sim.inference.respond({ reply: { content: 'None today.', usage: { promptTokens: 1000, completionTokens: 10 } } })
    const stream = (await sdk.chat.send({ chatRequest: { model: 'acme/helper:online', messages, stream: true, provider: { only: ['google-vertex'] } } })) as AsyncIterable<ChatStreamChunk>
    const chunks: ChatStreamChunk[] = []
    for await (const chunk of stream) chunks.push(chunk)
    expect(new Set(chunks.map((c) => c.model))).toEqual(new Set(['acme/helper:online']))
    // 1,000 x 0.000001 + 10 x 0.000002 + one search at 0.01.
    expect(chunks.at(-1)?.usage?.cost).toBe(0.01102)
  })

  it('names the model openrouter/auto picked', async () => {
    const { sdk } = setup()
    const result = (await sdk.chat.send({ chatRequest: { model: 'openrouter/auto', messages } })) as ChatResult
    expect(result.model).toBe('acme/bargain')
  })

  it('throws BadRequestResponseError whose message suggests the nearest ids', async () => {
    const { sdk } = setup()
    const error = await failureOf(sdk.chat.send({ chatRequest: { model: 'acme/helpre', messages } }))
    expect(error).toBeInstanceOf(BadRequestResponseError)
    expect((error as BadRequestResponseError).error.message).toBe('acme/helpre is not a valid model ID. Did you mean acme/helper?')
  })
})
