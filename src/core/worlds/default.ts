import type { SimulatorClock } from '../clock.js'
import type { FileCollection } from '../store/files.js'
import type { KeyCollection } from '../store/keys.js'
import type { ModelCollection } from '../store/models.js'
import type { UsageCollection } from '../store/usage.js'
import type { UserCollection } from '../store/users.js'
import type { VideoModelCollection } from '../store/video-models.js'
import type { WorkspaceCollection } from '../store/workspaces.js'
import type { Endpoint, LimitReset, Pricing } from '../types.js'

/** Handles into the embedded default world. */
export interface DefaultWorld {
  /** The organisation the documented keys belong to ("Acme Labs"). */
  userId: string
  /** Bearer secret of Acme's management key: every operation is open to it. */
  managementKey: string
  /** Bearer secret of a regular, enabled Acme key ("Production backend"): public operations only. */
  apiKey: string
  /** Hash of {@link DefaultWorld.apiKey}, for `GET /keys/{hash}`. */
  apiKeyHash: string
  /** Acme's workspace UUIDs by slug: `default`, `production`, `staging`, `research`. */
  workspaces: Record<'default' | 'production' | 'staging' | 'research', string>
  /** File ids in Acme's default workspace: a server-created report and an uploaded dataset. */
  files: { report: string; upload: string }
  /** A second organisation ("Globex"), to see tenancy at work: its resources are 404 to Acme. */
  otherTenant: { userId: string; managementKey: string; workspaceId: string }
}

interface Collections {
  users: UserCollection
  workspaces: WorkspaceCollection
  keys: KeyCollection
  files: FileCollection
  models: ModelCollection
  videoModels: VideoModelCollection
  usage: UsageCollection
  clock: SimulatorClock
}

const DAY = 86_400_000
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

const KEY_NAMES = [
  'Production backend', 'Checkout service', 'Search reranker', 'Support assistant', 'Nightly summaries',
  'Analytics worker', 'Mobile app (iOS)', 'Mobile app (Android)', 'Evaluation harness', 'Data labelling',
  'Staging API', 'QA automation', 'Load test', 'Partner sandbox', 'Research notebook',
  'Prompt experiments', 'Embeddings backfill', 'Ticket triage', 'Docs chatbot', 'Translation pipeline',
  'Sales email drafts', 'Legal review', 'Agent playground', 'CI pipeline', 'Local development (Dana)',
  'Local development (Ravi)', 'Voice assistant', 'Image captioning', 'Batch classifier', 'Red team',
  'Fine-tune eval', 'Old integration (retired)',
]
const RESETS: readonly (LimitReset | null)[] = [null, 'monthly', 'weekly', 'daily']

/** Amounts in USD a key spent today, yesterday, nine days ago and over its life before that. */
function historyFor(i: number, ageDays: number): { today: number; yesterday: number; lastWeek: number; earlier: number } {
  return {
    today: Math.round(((i * 37) % 23) * 0.137 * 100) / 100,
    yesterday: Math.round(((i * 53) % 17) * 0.41 * 100) / 100,
    lastWeek: Math.round(((i * 31) % 13) * 0.77 * 100) / 100,
    earlier: Math.round(ageDays * (((i * 29) % 11) * 0.093) * 100) / 100,
  }
}

function endpoint(provider_name: string, tag: string, fields: Partial<Endpoint> & { pricing: Pricing }): Partial<Endpoint> {
  return { provider_name, tag, ...fields }
}

const CHAT_PARAMETERS: Endpoint['supported_parameters'] = [
  'max_tokens', 'temperature', 'top_p', 'stop', 'frequency_penalty', 'presence_penalty', 'seed',
  'response_format', 'structured_outputs', 'tools', 'tool_choice', 'parallel_tool_calls',
]
const OPEN_PARAMETERS: Endpoint['supported_parameters'] = [
  'max_tokens', 'temperature', 'top_p', 'top_k', 'min_p', 'repetition_penalty', 'frequency_penalty',
  'presence_penalty', 'stop', 'seed', 'response_format', 'tools', 'tool_choice',
]
const REASONING_PARAMETERS: Endpoint['supported_parameters'] = [
  'max_tokens', 'temperature', 'top_p', 'stop', 'seed', 'tools', 'tool_choice', 'include_reasoning', 'reasoning',
  'reasoning_effort', 'response_format', 'structured_outputs',
]

/**
 * Loads the embedded default world: hand-written, realistic, and deterministic under the seed.
 * Timestamps count back from the simulator clock's now.
 */
export function loadDefaultWorld(sim: Collections): DefaultWorld {
  const now = sim.clock.nowMs()
  const ago = (days: number): number => now - days * DAY
  /**
   * Usage as records at instants relative to now, so the day, week and month figures are whatever
   * the calendar makes of them, for any starting clock. Nothing is dated before the key's creation
   * or after its expiry.
   */
  const spend = (keyHash: string, history: ReturnType<typeof historyFor>, span: { from: number; until: number | null }, byok = false): void => {
    const clamp = (at: number): number => Math.max(span.from, Math.min(at, (span.until ?? Number.POSITIVE_INFINITY) - 1))
    const entries: [number, number][] = [[history.earlier, (span.from + now) / 2], [history.lastWeek, ago(9)], [history.yesterday, ago(1)], [history.today, now]]
    for (const [cost, at] of entries) if (cost > 0) sim.usage.record({ keyHash, cost, byok, at: clamp(Math.floor(at)) })
  }

  const acme = sim.users.create({ name: 'Acme Labs', createdAt: ago(420) })
  const production = sim.workspaces.create({
    userId: acme.id, name: 'Production', slug: 'production', description: 'Customer-facing traffic',
    defaultTextModel: 'openai/gpt-4o', defaultProviderSort: 'price', createdAt: ago(400),
  })
  const staging = sim.workspaces.create({ userId: acme.id, name: 'Staging', slug: 'staging', description: 'Pre-release checks', createdAt: ago(380) })
  const research = sim.workspaces.create({
    userId: acme.id, name: 'Research', slug: 'research', description: null, defaultTextModel: 'anthropic/claude-sonnet-4.5',
    defaultImageModel: 'google/gemini-2.5-flash-image', defaultProviderSort: 'throughput', createdAt: ago(200),
  })
  const workspaceCycle = [acme.defaultWorkspaceId, production.id, acme.defaultWorkspaceId, staging.id, research.id]

  const admin = sim.keys.create({ userId: acme.id, management: true, name: 'Provisioning (Terraform)', createdAt: ago(410) })
  const app = sim.keys.create({ userId: acme.id, name: 'Production backend', limit: 500, limitReset: 'monthly', createdAt: ago(390) })
  spend(app.record.hash, { today: 12.4, yesterday: 19.35, lastWeek: 84.6, earlier: 1726.92 }, { from: ago(390), until: null })
  spend(app.record.hash, { today: 0.8, yesterday: 1.3, lastWeek: 6.2, earlier: 112.2 }, { from: ago(390), until: null }, true)
  KEY_NAMES.slice(1).forEach((name, n) => {
    const i = n + 1
    const ageDays = 3 + ((i * 47) % 360)
    const reset = RESETS[i % RESETS.length] as LimitReset | null
    const limited = i % 3 !== 0
    const createdAt = ago(ageDays) + ((i * 7919) % DAY)
    const expiresAt = i % 9 === 0 ? ago(-30 - i) : i === 13 ? ago(2) : null
    const key = sim.keys.create({
      userId: acme.id,
      name,
      workspaceId: workspaceCycle[i % workspaceCycle.length] as string,
      disabled: i % 7 === 0 || name.includes('retired'),
      limit: limited ? [25, 50, 100, 250, 1000][i % 5] as number : null,
      limitReset: limited ? reset : null,
      includeByokInLimit: i % 4 === 0,
      createdAt,
      updatedAt: i % 5 === 0 ? null : ago(i % 3),
      expiresAt,
    })
    // One key in five has never been used, so its updated_at stays null.
    if (i % 5 !== 0) spend(key.record.hash, historyFor(i, ageDays), { from: createdAt, until: expiresAt })
    if (i % 4 === 0 && i % 5 !== 0) spend(key.record.hash, historyFor(i + 100, ageDays / 4), { from: createdAt, until: expiresAt }, true)
  })

  const globex = sim.users.create({ name: 'Globex Corporation', createdAt: ago(300) })
  const globexProduction = sim.workspaces.create({ userId: globex.id, name: 'Production', slug: 'production', createdAt: ago(290) })
  const globexAdmin = sim.keys.create({ userId: globex.id, management: true, name: 'Globex admin', createdAt: ago(295) })
  for (const [i, name] of ['Globex web', 'Globex batch', 'Globex staging'].entries()) {
    const key = sim.keys.create({ userId: globex.id, name, createdAt: ago(100 - i * 10) })
    spend(key.record.hash, historyFor(200 + i, 100 - i * 10), { from: ago(100 - i * 10), until: null })
  }

  const report = sim.files.create({
    userId: acme.id, id: 'file_batch_2026_03_01_results', origin: 'server', filename: 'batch-results-2026-03-01.jsonl', createdAt: ago(1),
    bytes: utf8('{"custom_id":"req-1","status":200,"output":"Refund approved."}\n{"custom_id":"req-2","status":200,"output":"Escalated to tier 2."}\n'),
  })
  const upload = sim.files.create({
    userId: acme.id, id: 'file_upload_support_tickets', origin: 'upload', filename: 'support-tickets.csv', createdAt: ago(5),
    bytes: utf8('id,subject,priority\n1041,Cannot log in,high\n1042,Invoice missing,normal\n'),
  })
  sim.files.create({
    userId: acme.id, id: 'file_eval_report_q1', workspaceId: production.id, origin: 'server', filename: 'eval-report-q1.json', createdAt: ago(10),
    bytes: utf8('{"suite":"support-v3","passed":188,"failed":12}\n'),
  })
  sim.files.create({
    userId: acme.id, id: 'file_openai_batch_output', origin: 'server', provider: 'openai', filename: 'batch_output.jsonl', createdAt: ago(3),
    bytes: utf8('{"id":"batch_req_1","response":{"status_code":200}}\n'),
  })
  sim.files.create({
    userId: acme.id, id: 'file_thumbnail_png', origin: 'server', provider: 'anthropic', filename: 'thumbnail.png', createdAt: ago(2),
    bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0x00, 0x80]),
  })
  sim.files.create({
    userId: globex.id, id: 'file_batch_2026_03_01_results', origin: 'server', filename: 'globex-confidential.jsonl', createdAt: ago(1),
    bytes: utf8('{"owner":"globex"}\n'),
  })

  loadModels(sim, ago)
  loadVideoModels(sim, ago)

  return {
    userId: acme.id,
    managementKey: admin.key,
    apiKey: app.key,
    apiKeyHash: app.record.hash,
    workspaces: { default: acme.defaultWorkspaceId, production: production.id, staging: staging.id, research: research.id },
    files: { report: report.id, upload: upload.id },
    otherTenant: { userId: globex.id, managementKey: globexAdmin.key, workspaceId: globexProduction.id },
  }
}

function loadModels(sim: Collections, ago: (days: number) => number): void {
  const m = sim.models
  const offPeak = (prompt: string, completion: string, cheapPrompt: string, cheapCompletion: string): Pricing => ({
    prompt, completion,
    overrides: [
      { utc_start: 30, utc_end: 1630, prompt, completion },
      { utc_start: 1630, utc_end: 30, prompt: cheapPrompt, completion: cheapCompletion },
    ],
  })
  m.create({
    id: 'openai/gpt-4o', name: 'OpenAI: GPT-4o', created: ago(660),
    description: 'GPT-4o is a multimodal flagship model that accepts text and images and answers in text.',
    architecture: { tokenizer: 'GPT', modality: 'text+image->text', input_modalities: ['text', 'image', 'file'], output_modalities: ['text'] },
    endpoints: [
      endpoint('OpenAI', 'openai', { context_length: 128000, max_completion_tokens: 16384, quantization: 'unknown', supported_parameters: CHAT_PARAMETERS,
        supports_implicit_caching: true, pricing: { prompt: '0.0000025', completion: '0.00001', input_cache_read: '0.00000125', web_search: '0.01' },
        perf_last_30m_by_workload: { text_generation: { latency: { p50: 410, p75: 520, p90: 700, p99: 1400 }, throughput: { p50: 88, p75: 74, p90: 61, p99: 40 }, request_count: 18234 } } }),
      endpoint('Azure', 'azure', { context_length: 128000, max_completion_tokens: 16384, quantization: null, supported_parameters: CHAT_PARAMETERS,
        pricing: { prompt: '0.0000025', completion: '0.00001' } }),
    ],
  })
  m.create({
    id: 'openai/gpt-4o-mini', name: 'OpenAI: GPT-4o-mini', created: ago(590),
    description: 'A small, fast and inexpensive GPT-4o variant for focused tasks.',
    architecture: { tokenizer: 'GPT', modality: 'text+image->text', input_modalities: ['text', 'image'], output_modalities: ['text'] },
    endpoints: [
      endpoint('OpenAI', 'openai', { context_length: 128000, max_completion_tokens: 16384, supported_parameters: CHAT_PARAMETERS, supports_implicit_caching: true,
        pricing: { prompt: '0.00000015', completion: '0.0000006', input_cache_read: '0.000000075' } }),
      endpoint('Azure', 'azure', { context_length: 128000, max_completion_tokens: 16384, supported_parameters: CHAT_PARAMETERS,
        pricing: { prompt: '0.00000015', completion: '0.0000006' }, uptime_last_5m: null, status: -2 }),
    ],
  })
  const sonnet: Pricing = {
    prompt: '0.000003', completion: '0.000015', input_cache_read: '0.0000003', input_cache_write: '0.00000375', input_cache_write_1h: '0.000006',
    overrides: [{ min_prompt_tokens: 200000, prompt: '0.000006', completion: '0.0000225', input_cache_read: '0.0000006', input_cache_write: '0.0000075', input_cache_write_1h: '0.000012' }],
  }
  m.create({
    id: 'anthropic/claude-sonnet-4.5', name: 'Anthropic: Claude Sonnet 4.5', created: ago(160),
    description: 'Claude Sonnet 4.5 is tuned for coding, agents and long-running tool use.',
    architecture: { tokenizer: 'Claude', modality: 'text+image->text', input_modalities: ['text', 'image', 'file'], output_modalities: ['text'] },
    endpoints: [
      endpoint('Anthropic', 'anthropic', { context_length: 1000000, max_completion_tokens: 64000, supported_parameters: REASONING_PARAMETERS, pricing: sonnet }),
      endpoint('Amazon Bedrock', 'amazon-bedrock', { context_length: 1000000, max_completion_tokens: 64000, supported_parameters: REASONING_PARAMETERS, pricing: sonnet }),
      endpoint('Google AI Studio', 'google-vertex', { name: 'Google Vertex: Claude Sonnet 4.5', context_length: 1000000, max_completion_tokens: 64000,
        supported_parameters: REASONING_PARAMETERS, pricing: sonnet, uptime_last_1d: 97.84 }),
    ],
  })
  m.create({
    id: 'google/gemini-2.5-pro', name: 'Google: Gemini 2.5 Pro', created: ago(250),
    description: 'Gemini 2.5 Pro is a reasoning model for complex problems across text, images, audio and video.',
    architecture: { tokenizer: 'Gemini', modality: 'text+image->text', input_modalities: ['text', 'image', 'file', 'audio', 'video'], output_modalities: ['text'] },
    endpoints: [
      endpoint('Google AI Studio', 'google-ai-studio', { context_length: 1048576, max_completion_tokens: 65536, supported_parameters: REASONING_PARAMETERS,
        supports_implicit_caching: true,
        pricing: { prompt: '0.00000125', completion: '0.00001', input_cache_read: '0.00000031', image: '0.00516',
          overrides: [{ min_prompt_tokens: 200000, prompt: '0.0000025', completion: '0.000015', input_cache_read: '0.000000625' }] } }),
      endpoint('Google AI Studio', 'google-vertex', { name: 'Google Vertex: Gemini 2.5 Pro', context_length: 1048576, max_completion_tokens: 65536,
        supported_parameters: REASONING_PARAMETERS,
        pricing: { prompt: '0.00000125', completion: '0.00001', overrides: [{ min_prompt_tokens: 200000, prompt: '0.0000025', completion: '0.000015' }] } }),
    ],
  })
  m.create({
    id: 'deepseek/deepseek-chat-v3.1', name: 'DeepSeek: DeepSeek V3.1', created: ago(190),
    description: 'DeepSeek V3.1 is a hybrid reasoning model; its first-party endpoint is cheaper off-peak.',
    architecture: { tokenizer: 'DeepSeek', instruct_type: 'deepseek-v3.1', modality: 'text->text' },
    endpoints: [
      endpoint('DeepSeek', 'deepseek', { context_length: 163840, max_completion_tokens: 8192, quantization: 'fp8', supported_parameters: OPEN_PARAMETERS,
        pricing: { ...offPeak('0.00000028', '0.00000042', '0.00000014', '0.00000021'), input_cache_read: '0.000000028' } }),
      endpoint('DeepInfra', 'deepinfra/fp4', { context_length: 163840, max_completion_tokens: 32768, quantization: 'fp4', supported_parameters: OPEN_PARAMETERS,
        pricing: { prompt: '0.00000027', completion: '0.000001' } }),
      endpoint('Together', 'together/fp8', { context_length: 131072, max_completion_tokens: 32768, quantization: 'fp8', supported_parameters: OPEN_PARAMETERS,
        pricing: { prompt: '0.0000006', completion: '0.0000017' } }),
      endpoint('Fireworks', 'fireworks', { context_length: 163840, max_completion_tokens: 163840, quantization: 'fp8', supported_parameters: OPEN_PARAMETERS,
        pricing: { prompt: '0.00000056', completion: '0.00000168' } }),
    ],
  })
  const llama = { tokenizer: 'Llama3', instruct_type: 'llama3', modality: 'text->text' } as const
  m.create({
    id: 'meta-llama/llama-3.3-70b-instruct', name: 'Meta: Llama 3.3 70B Instruct', created: ago(460),
    description: 'Llama 3.3 70B is a multilingual instruction-tuned model.', architecture: llama,
    endpoints: [
      endpoint('Together', 'together/fp8', { context_length: 131072, max_completion_tokens: 2048, quantization: 'fp8', supported_parameters: OPEN_PARAMETERS,
        pricing: { prompt: '0.00000088', completion: '0.00000088' } }),
      endpoint('DeepInfra', 'deepinfra/fp8', { context_length: 131072, max_completion_tokens: 16384, quantization: 'fp8', supported_parameters: OPEN_PARAMETERS,
        pricing: { prompt: '0.00000023', completion: '0.0000004' } }),
      endpoint('Groq', 'groq', { context_length: 131072, max_completion_tokens: 32768, quantization: null, supported_parameters: OPEN_PARAMETERS,
        pricing: { prompt: '0.00000059', completion: '0.00000079' }, throughput_last_30m: { p50: 290, p75: 250, p90: 210, p99: 120 } }),
      endpoint('Cerebras', 'cerebras', { context_length: 65536, max_completion_tokens: 8192, quantization: 'fp16', supported_parameters: OPEN_PARAMETERS,
        pricing: { prompt: '0.00000085', completion: '0.0000012' } }),
      endpoint('SambaNova', 'sambanova', { context_length: 131072, max_completion_tokens: 3072, quantization: 'bf16', supported_parameters: OPEN_PARAMETERS,
        pricing: { prompt: '0.0000006', completion: '0.0000012' }, uptime_last_5m: null, uptime_last_30m: null }),
    ],
  })
  m.create({
    id: 'meta-llama/llama-3.3-70b-instruct:free', name: 'Meta: Llama 3.3 70B Instruct (free)', created: ago(460),
    description: 'The free variant of Llama 3.3 70B: rate-limited, no charge.', architecture: llama,
    endpoints: [
      endpoint('Chutes', 'chutes/bf16', { context_length: 131072, max_completion_tokens: null, quantization: 'bf16', supported_parameters: OPEN_PARAMETERS,
        pricing: { prompt: '0', completion: '0' } }),
    ],
  })
  m.create({
    id: 'mistralai/mistral-large-2411', name: 'Mistral: Mistral Large 2411', created: ago(470),
    description: 'Mistral Large 2.1, with better long-context handling and function calling.',
    architecture: { tokenizer: 'Mistral', instruct_type: null, modality: 'text->text' },
    endpoints: [
      endpoint('Mistral', 'mistral', { context_length: 131072, max_completion_tokens: null, supported_parameters: CHAT_PARAMETERS, pricing: { prompt: '0.000002', completion: '0.000006' } }),
      endpoint('Azure', 'azure', { context_length: 131072, max_completion_tokens: 4096, supported_parameters: CHAT_PARAMETERS, pricing: { prompt: '0.000002', completion: '0.000006' } }),
    ],
  })
  m.create({
    id: 'qwen/qwen3-235b-a22b', name: 'Qwen: Qwen3 235B A22B', created: ago(310),
    description: 'Qwen3 235B A22B is a mixture-of-experts model with a thinking mode.',
    architecture: { tokenizer: 'Qwen3', instruct_type: 'qwen3', modality: 'text->text' },
    endpoints: [
      endpoint('Alibaba', 'alibaba', { context_length: 131072, max_completion_tokens: 16384, supported_parameters: REASONING_PARAMETERS,
        pricing: { prompt: '0.0000007', completion: '0.0000028', overrides: [
          { min_prompt_tokens: 32000, prompt: '0.0000014', completion: '0.0000056' },
          { min_prompt_tokens: 128000, prompt: '0.0000021', completion: '0.0000084' },
        ] } }),
      endpoint('Together', 'together/fp8', { context_length: 40960, max_completion_tokens: 40960, quantization: 'fp8', supported_parameters: OPEN_PARAMETERS,
        pricing: { prompt: '0.0000002', completion: '0.0000006' } }),
      endpoint('Novita', 'novita/fp8', { context_length: 40960, max_completion_tokens: 20000, quantization: 'fp8', supported_parameters: OPEN_PARAMETERS,
        pricing: { prompt: '0.0000002', completion: '0.0000008' } }),
      endpoint('Parasail', 'parasail/fp8', { context_length: 40960, max_completion_tokens: 40960, quantization: 'fp8', supported_parameters: OPEN_PARAMETERS,
        pricing: { prompt: '0.00000018', completion: '0.00000085' } }),
      endpoint('Nebius', 'nebius/fp8', { context_length: 40960, max_completion_tokens: null, quantization: 'fp8', supported_parameters: OPEN_PARAMETERS,
        pricing: { prompt: '0.0000002', completion: '0.0000006' }, status: -1 }),
    ],
  })
  m.create({
    id: 'x-ai/grok-4', name: 'xAI: Grok 4', created: ago(230),
    description: 'Grok 4 is a reasoning model with tool use and a 256k context window.',
    architecture: { tokenizer: 'Grok', modality: 'text+image->text', input_modalities: ['text', 'image'], output_modalities: ['text'] },
    endpoints: [
      endpoint('xAI', 'xai', { context_length: 256000, max_completion_tokens: null, supported_parameters: REASONING_PARAMETERS,
        pricing: { prompt: '0.000003', completion: '0.000015', input_cache_read: '0.00000075', web_search: '0.025',
          overrides: [{ min_prompt_tokens: 128000, prompt: '0.000006', completion: '0.00003', input_cache_read: '0.0000015' }] } }),
    ],
  })
  m.create({
    id: 'moonshotai/kimi-k2', name: 'MoonshotAI: Kimi K2', created: ago(240),
    description: 'Kimi K2 is a mixture-of-experts model tuned for agentic tool use.',
    architecture: { tokenizer: 'Other', modality: 'text->text' },
    endpoints: [
      endpoint('Moonshot AI', 'moonshotai', { context_length: 131072, max_completion_tokens: 16384, supported_parameters: OPEN_PARAMETERS,
        pricing: offPeak('0.0000006', '0.0000025', '0.0000003', '0.00000125') }),
      endpoint('Groq', 'groq', { context_length: 131072, max_completion_tokens: 16384, supported_parameters: OPEN_PARAMETERS, pricing: { prompt: '0.000001', completion: '0.000003' } }),
      endpoint('BaseTen', 'baseten/fp4', { context_length: 131072, max_completion_tokens: 131072, quantization: 'fp4', supported_parameters: OPEN_PARAMETERS,
        pricing: { prompt: '0.0000006', completion: '0.0000025' } }),
    ],
  })
  m.create({
    id: 'z-ai/glm-4.6', name: 'Z.AI: GLM 4.6', created: ago(150),
    description: 'GLM 4.6 is a coding and agent model with a 200k context window.',
    architecture: { tokenizer: 'Other', modality: 'text->text' },
    endpoints: [
      endpoint('Z.AI', 'z-ai', { context_length: 202752, max_completion_tokens: 131072, supported_parameters: REASONING_PARAMETERS,
        pricing: { prompt: '0.0000006', completion: '0.0000022', input_cache_read: '0.00000011' } }),
      endpoint('Novita', 'novita/fp8', { context_length: 202752, max_completion_tokens: 131072, quantization: 'fp8', supported_parameters: OPEN_PARAMETERS,
        pricing: { prompt: '0.0000006', completion: '0.0000022' } }),
      endpoint('Chutes', 'chutes/fp8', { context_length: 202752, max_completion_tokens: 65536, quantization: 'fp8', supported_parameters: OPEN_PARAMETERS,
        pricing: { prompt: '0.0000004', completion: '0.00000175' }, latency_last_30m: null }),
    ],
  })
  m.create({
    id: 'google/gemma-3-27b-it:free', name: 'Google: Gemma 3 27B (free)', created: ago(360),
    description: 'Gemma 3 27B, free variant.',
    architecture: { tokenizer: 'Gemma', instruct_type: 'gemma', modality: 'text+image->text', input_modalities: ['text', 'image'], output_modalities: ['text'] },
    endpoints: [
      endpoint('Chutes', 'chutes/bf16', { context_length: 96000, max_completion_tokens: 8192, quantization: 'bf16',
        supported_parameters: ['max_tokens', 'temperature', 'top_p', 'stop', 'seed'], pricing: { prompt: '0', completion: '0' } }),
      endpoint('Google AI Studio', 'google-ai-studio', { context_length: 131072, max_completion_tokens: 8192,
        supported_parameters: ['max_tokens', 'temperature', 'top_p', 'stop', 'seed'], pricing: { prompt: '0', completion: '0' }, uptime_last_1d: 88.02 }),
    ],
  })
}

function loadVideoModels(sim: Collections, ago: (days: number) => number): void {
  sim.videoModels.create({
    id: 'google/veo-3.1', name: 'Google: Veo 3.1', created: ago(40), description: 'Veo 3.1 makes 8-second clips with native audio.',
    generate_audio: true, seed: true, supported_aspect_ratios: ['16:9', '9:16'], supported_durations: [4, 6, 8],
    supported_frame_images: ['first_frame', 'last_frame'], supported_resolutions: ['720p', '1080p'], supported_sizes: ['1280x720', '1920x1080', '720x1280', '1080x1920'],
    pricing_skus: { 'per-video-second': '0.40', 'per-video-second-with-audio': '0.75' },
  })
  sim.videoModels.create({
    id: 'openai/sora-2-pro', name: 'OpenAI: Sora 2 Pro', created: ago(55), description: 'Sora 2 Pro renders higher-fidelity video with synced audio.',
    generate_audio: true, seed: null, supported_aspect_ratios: ['16:9', '9:16'], supported_durations: [4, 8, 12],
    supported_frame_images: ['first_frame'], supported_resolutions: ['720p', '1080p'], supported_sizes: ['1280x720', '720x1280', '1920x1080'],
    pricing_skus: { 'per-video-second': '0.30', 'per-video-second-1080p': '0.50' },
  })
  sim.videoModels.create({
    id: 'kwaivgi/kling-v3.0-pro', name: 'Kling: v3.0 Pro', created: ago(20), description: 'Kling 3.0 Pro, image-to-video and text-to-video.',
    generate_audio: false, seed: false, supported_aspect_ratios: ['16:9', '9:16', '1:1'], supported_durations: [5, 10],
    supported_frame_images: ['first_frame', 'last_frame'], supported_resolutions: ['1080p'], supported_sizes: null,
    pricing_skus: { 'per-video-second': '0.112' },
  })
  sim.videoModels.create({
    id: 'bytedance/seedance-2.0', name: 'ByteDance: Seedance 2.0', created: ago(12), description: 'Seedance 2.0 makes multi-shot clips from text or images.',
    generate_audio: null, seed: true, supported_aspect_ratios: ['16:9', '9:16', '1:1', '4:3', '3:4', '21:9'], supported_durations: [5, 10],
    supported_frame_images: ['first_frame'], supported_resolutions: ['480p', '720p', '1080p'], supported_sizes: null,
    pricing_skus: { 'per-video-second-480p': '0.025', 'per-video-second-1080p': '0.125' },
  })
}
