// The vitest fixture forwards a client's cancel of a streamed answer to the simulator
// (decisions/0026): the SDK's `break` settles, and the generation says `cancelled: true`.
import { OpenRouter } from '@openrouter/sdk'
import { expect } from 'vitest'
import { forwardStreamCancels } from '../../src/msw/index.js'
import { simTest } from '../../src/vitest/index.js'

simTest('breaking out of a streamed completion cancels it, charged for what was read', async ({ sim }) => {
  sim.inference.respond({ reply: { content: 'z'.repeat(200) } })
  const sdk = new OpenRouter({ apiKey: sim.world.apiKey, serverURL: 'https://openrouter.ai/api/v1', retryConfig: { strategy: 'none' } })
  const stream = (await sdk.chat.send({ chatRequest: { model: 'openai/gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true } })) as AsyncIterable<{ id: string }>
  let id = ''
  for await (const chunk of stream) {
    id = chunk.id
    break
  }
  const generation = (await sdk.generations.getGeneration({ id })).data
  expect(generation.cancelled).toBe(true)
  // 200 characters are 50 tokens; far fewer were read.
  expect(generation.tokensCompletion).toBeLessThan(50)
})

simTest('forwardStreamCancels refuses what is not an MSW server, naming the argument', () => {
  expect(() => forwardStreamCancels({} as never)).toThrow(/"server" must be an MSW server or worker with life-cycle events/)
})
