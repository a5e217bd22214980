// The official SDK sends fields the simulator does not act on; under strictRequests too they are
// known (decisions/0036), and a wrong value reaches the SDK as its typed 400, whose message names
// the field's path and the reason.
import { BadRequestResponseError } from '@openrouter/sdk/models/errors'
import type { ChatResult } from '@openrouter/sdk/models'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { failureOf, sdkClient, useSimulatorServer } from '../support/server.js'

const { serve } = useSimulatorServer()

function setup() {
  const sim = createSimulator({ strictRequests: true })
  serve(sim)
  return { sim, sdk: sdkClient(sim.world.apiKey) }
}

const messages = [
  { role: 'system' as const, content: 'Be brief.', name: 'rules' },
  { role: 'user' as const, content: [{ type: 'text' as const, text: 'What does a refund cost?', cacheControl: { type: 'ephemeral' as const } }], name: 'ada' },
]

describe('the SDK under strictRequests', () => {
  it('sends plugins of several kinds, cache control, tracing and session fields, and gets a completion', async () => {
    const { sim, sdk } = setup()
    const result = (await sdk.chat.send({
      chatRequest: {
        model: sim.world.models.paid,
        messages,
        plugins: [{ id: 'web', maxResults: 3 }, { id: 'response-healing' }, { id: 'file-parser', pdf: { engine: 'pdf-text' } }, { id: 'context-compression' }],
        cacheControl: { type: 'ephemeral' },
        debug: { echoUpstreamBody: false },
        trace: { traceId: 't-1', spanName: 'ask' },
        metadata: { team: 'search' },
        sessionId: 'session-1',
        user: 'user-1',
        reasoning: { effort: 'low' },
        serviceTier: 'auto',
        promptCacheOptions: { mode: 'explicit' },
        stopServerToolsWhen: [{ type: 'step_count_is', stepCount: 2 }],
        maxTokens: 20,
      },
    })) as ChatResult
    expect(result.object).toBe('chat.completion')
    expect(sim.journal.list().at(-1)).toMatchObject({ status: 200, ignoredFields: [] })
  })

  it('surfaces a wrong value as a BadRequestResponseError whose message names the field and the reason', async () => {
    const { sim, sdk } = setup()
    const error = await failureOf(sdk.chat.send({ chatRequest: { model: sim.world.models.paid, messages, temperature: 5 } }))
    expect(error).toBeInstanceOf(BadRequestResponseError)
    expect((error as BadRequestResponseError).message).toBe('Invalid request parameters: temperature must be at most 2')
    expect((error as BadRequestResponseError).error.metadata).toMatchObject({ parameter: 'temperature', reason: 'must be at most 2' })
  })
})
