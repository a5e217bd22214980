// A small world for the money path: one organisation, a key, and a model whose three endpoints
// differ in every way routing looks at.
import { createSimulator, type Endpoint, type SimResponse } from '../../src/index.js'

const pct = (p50: number) => ({ p50, p75: p50, p90: p50, p99: p50 })

export const ALPHA: Partial<Endpoint> = {
  provider_name: 'Alpha',
  pricing: { prompt: '0.000001', completion: '0.000002' },
  quantization: 'fp8',
  supported_parameters: ['max_tokens', 'temperature'],
  latency_last_30m: pct(300),
  throughput_last_30m: pct(50),
  context_length: 8000,
  max_completion_tokens: 4000,
}
export const BETA: Partial<Endpoint> = {
  provider_name: 'Beta',
  pricing: { prompt: '0.0000005', completion: '0.000001' },
  quantization: 'bf16',
  supported_parameters: ['max_tokens', 'temperature', 'tools', 'tool_choice'],
  latency_last_30m: pct(900),
  throughput_last_30m: pct(200),
  context_length: 128000,
  max_completion_tokens: 16000,
}
export const GAMMA: Partial<Endpoint> = {
  provider_name: 'Gamma',
  pricing: { prompt: '0.000003', completion: '0.000015' },
  quantization: 'fp16',
  supported_parameters: ['max_tokens', 'temperature', 'top_p'],
  latency_last_30m: pct(100),
  throughput_last_30m: pct(100),
  context_length: 32000,
  max_completion_tokens: 8000,
}

export const MODEL = 'acme/chat-1'

/** An empty world with Acme, one regular key and {@link MODEL} served by Alpha, Beta and Gamma. */
export function chatWorld(options: { seed?: number; now?: string; limit?: number; limitReset?: 'daily' | 'weekly' | 'monthly'; strictRequests?: boolean } = {}) {
  const sim = createSimulator({ world: 'empty', seed: options.seed ?? 7, now: options.now ?? '2026-03-02T10:00:00Z', strictRequests: options.strictRequests ?? false })
  const org = sim.users.create({ name: 'Acme', credits: { total: 10_000 } })
  const { key, record } = sim.keys.create({
    userId: org.id,
    ...(options.limit !== undefined && { limit: options.limit }),
    ...(options.limitReset !== undefined && { limitReset: options.limitReset }),
  })
  sim.models.create({ id: MODEL, endpoints: [ALPHA, BETA, GAMMA] })
  return { sim, org, key, keyHash: record.hash }
}

export interface ChatAnswer {
  status: number
  body: any
  response: SimResponse
}

/** `POST /chat/completions` through `sim.handle`, with `messages` defaulting to one user message. */
export function chat(sim: { handle(request: any): SimResponse }, key: string, body: Record<string, unknown>): ChatAnswer {
  const response = sim.handle({
    method: 'POST',
    path: '/chat/completions',
    authorization: `Bearer ${key}`,
    body: JSON.stringify({ messages: [{ role: 'user', content: 'Hello there' }], ...body }),
  })
  return { status: response.status, body: response.body, response }
}

/** `GET /generation?id=` through `sim.handle`. */
export function generation(sim: { handle(request: any): SimResponse }, key: string, id: string): ChatAnswer {
  const response = sim.handle({ method: 'GET', path: '/generation', query: `id=${encodeURIComponent(id)}`, authorization: `Bearer ${key}` })
  return { status: response.status, body: response.body, response }
}
