// A model fast enough to stream in tests, and a check of an SSE text's events.
import { expect } from 'vitest'
import { createSimulator } from '../../src/index.js'

const fast = { p50: 20, p75: 20, p90: 20, p99: 20 }
export function streamingWorld() {
  const sim = createSimulator({ world: 'empty', seed: 3 })
  const org = sim.users.create({ name: 'Acme', credits: { total: 10_000 } })
  const { key } = sim.keys.create({ userId: org.id })
  sim.models.create({ id: 'acme/fast', endpoints: [{ provider_name: 'Swift', latency_last_30m: fast, throughput_last_30m: { p50: 400, p75: 400, p90: 400, p99: 400 } }] })
  sim.inference.respond({ reply: { content: 'One two three four five six seven eight nine ten eleven twelve.' } })
  return { sim, key }
}

export const body = JSON.stringify({ model: 'acme/fast', messages: [{ role: 'user', content: 'Count.' }], stream: true })

/** The events of an SSE text: comments and `data:` payloads, in order. */
function events(text: string): string[] {
  expect(text.endsWith('\n\n')).toBe(true)
  return text.slice(0, -2).split('\n\n')
}

export function checkEvents(text: string): void {
  const list = events(text)
  expect(list[0]).toBe(': OPENROUTER PROCESSING')
  expect(list.at(-1)).toBe('data: [DONE]')
  const chunks = list.slice(1, -1).map((event) => JSON.parse(event.replace(/^data: /, '')))
  expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true)
  const content = chunks.flatMap((chunk) => chunk.choices.map((c: any) => c.delta.content ?? '')).join('')
  expect(content).toBe('One two three four five six seven eight nine ten eleven twelve.')
  expect(chunks.at(-1).usage.cost).toBeGreaterThan(0)
  expect(chunks.at(-2).choices[0].finish_reason).toBe('stop')
}

