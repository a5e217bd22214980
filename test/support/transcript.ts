// A fixed session against a seeded simulator, written out as text: JSON answers, streams (one cut
// by a mid-stream error, one cancelled by its client) and the generations they left. Run as a
// script (`node --import tsx test/support/transcript.ts`), it prints the transcript, so that tests
// can compare the bytes two processes produce (test/inference/determinism-processes.test.ts).
import { pathToFileURL } from 'node:url'
import { createSimulator, type SimResponse } from '../../src/index.js'

const text = (response: SimResponse): string =>
  response.type === 'stream' ? response.body.map((frame) => `${frame.atMs} ${frame.data}`).join('') : response.type === 'json' ? JSON.stringify(response.body) : String(response.type)

/** The transcript of the session for a seed. */
export function transcript(seed: number): string {
  const sim = createSimulator({ seed })
  const key = sim.world.apiKey
  const lines: string[] = []
  const ask = (body: Record<string, unknown>): SimResponse => {
    const response = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key}`, body: JSON.stringify({ model: sim.world.models.paid, ...body }) })
    lines.push(`${response.status} ${text(response)}`)
    return response
  }
  const messages = (content: string) => [{ role: 'user', content }]
  ask({ messages: messages('What is the capital of France?') })
  ask({ messages: messages('Write a haiku about tests.'), stream: true })
  ask({ models: [sim.world.models.paid], messages: messages('Tell me more.'), max_tokens: 7 })
  const cancelled = ask({ messages: messages('A long story, please.'), stream: true })
  if (cancelled.type === 'stream') lines.push(`cancel ${String(cancelled.cancel?.(3))}`)
  sim.faults.providerDown({ afterChunks: 1 })
  ask({ messages: messages('And then?'), stream: true })
  for (const entry of sim.journal.list({ operation: 'createChatCompletion' })) {
    const first = entry.response.type === 'stream' ? (entry.response.body as readonly { data: string }[])[1]?.data.slice(6) : JSON.stringify(entry.response.body)
    const id = (JSON.parse(first ?? '{}') as { id?: string }).id ?? ''
    lines.push(text(sim.handle({ method: 'GET', path: '/generation', query: `id=${id}`, authorization: `Bearer ${key}` })))
  }
  lines.push(text(sim.handle({ method: 'GET', path: '/key', authorization: `Bearer ${key}` })))
  return lines.join('\n')
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(transcript(Number(process.argv[2] ?? 42)))
}
