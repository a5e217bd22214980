// Step 9 of the money path: every completion leaves a generation, readable by its organisation
// through `GET /generation?id=`. They are rows of the store (so snapshots, restore and reset cover
// them), and the store keeps only the latest GENERATION_LIMIT: memory stays bounded however many
// requests a simulator serves (decisions/0024).
import type { StoreContext } from './context.js'
import { type ActivityEndpoint, addActivity } from './activity.js'
import type { GenerationContent, GenerationFeedback, GenerationState } from './state.js'
import { put, remove } from './versions.js'
import { formatTimestamp } from '../time.js'
import { toUnits } from '../usage.js'
import type { Endpoint, ModelWithEndpoints } from '../types.js'
import { canonicalSlugOf } from './models.js'
import type { Generation, ProviderResponse } from '../inference/wire.js'

/** How many generations a simulator keeps; the oldest goes when one more is recorded (then its id is 404). */
export const GENERATION_LIMIT = 10_000

/**
 * A recorded generation: the facts it was made from, and its 44-field wire record made from them
 * on first read (GET /generation), which most generations never get. A completion used to build
 * the record at once, and the store keeps ten thousand of them: some 400 bytes of the 2.9 KB a
 * completion left live for the collector (decisions/0033). `generationWire` is a function of the
 * facts alone, and nothing changes them after, so the record read later is the record made at once.
 */
class RecordedGeneration implements GenerationState {
  readonly id: string
  activityKey: string | undefined
  readonly #facts: GenerationFacts
  #wire: Generation | undefined

  constructor(
    readonly seq: number,
    readonly userId: string,
    readonly keyHash: string,
    readonly cost: string,
    readonly units: number,
    facts: GenerationFacts,
  ) {
    this.id = facts.id
    this.#facts = facts
  }

  get wire(): Generation {
    return (this.#wire ??= generationWire(this.#facts))
  }

  get content(): GenerationContent | undefined {
    return this.#facts.content
  }
}

/** What a completion records: who paid, what, and the facts of its wire record. */
export interface GenerationInput {
  userId: string
  keyHash: string
  cost: string
  units: number
  facts: GenerationFacts
  /** The endpoint that served it and the key's creator: the generation's charge is added to the day's activity (decisions/0053). */
  activity?: { endpoint: ActivityEndpoint; creatorUserId: string | null } | undefined
}

/** Stores a generation, letting the oldest go once more than `limit` are kept. */
export function recordGeneration(ctx: StoreContext, input: GenerationInput, limit = GENERATION_LIMIT): GenerationState {
  const newest = ctx.indices.generationOrder.last()
  const row = new RecordedGeneration(newest === undefined ? 1 : newest.seq + 1, input.userId, input.keyHash, input.cost, input.units, input.facts)
  put(ctx, 'generations', row.id, row)
  if (input.activity !== undefined) {
    const f = input.facts
    row.activityKey = addActivity(ctx, input.activity.endpoint, {
      userId: input.userId,
      keyHash: input.keyHash,
      workspaceId: f.workspaceId ?? '',
      creatorUserId: input.activity.creatorUserId,
      at: f.createdMs,
      units: input.units,
      requests: 1,
      promptTokens: f.promptTokens,
      completionTokens: f.completionTokens,
      reasoningTokens: f.reasoningTokens,
      byokUnits: f.byokUpstreamCost === undefined ? 0 : toUnits(f.byokUpstreamCost),
    })
  }
  const order = ctx.indices.generationOrder
  while (order.size > limit) {
    const oldest = order.first() as GenerationState
    remove(ctx, 'generations', oldest.id)
  }
  return row
}

/**
 * The generation with one more feedback: a new row (rows are values), whose wire record is the one
 * read so far, so it is the record made at once (see RecordedGeneration).
 */
export function withFeedback(ctx: StoreContext, row: GenerationState, feedback: GenerationFeedback): GenerationState {
  const next: GenerationState = {
    seq: row.seq,
    id: row.id,
    userId: row.userId,
    keyHash: row.keyHash,
    cost: row.cost,
    units: row.units,
    wire: row.wire,
    activityKey: row.activityKey,
    content: row.content,
    feedback: [...(row.feedback ?? []), feedback],
  }
  put(ctx, 'generations', row.id, next)
  return next
}

/**
 * `sim.generations`: what the store keeps of a generation besides its wire record (decisions/0053).
 * An id the store does not keep (never made, or let go) gives undefined.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator()
 * const auth = (secret: string) => `Bearer ${secret}`
 * const res = sim.handle({ method: 'POST', path: '/chat/completions', authorization: auth(sim.world.apiKey), body: JSON.stringify({ model: 'openai/gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }] }) })
 * const id = (res.body as { id: string }).id
 * sim.handle({ method: 'POST', path: '/generation/feedback', authorization: auth(sim.world.managementKey), body: JSON.stringify({ generation_id: id, category: 'latency', comment: 'Slow' }) })
 * console.log(sim.generations.content(id)?.input, sim.generations.feedback(id)?.map((f) => f.category))
 * //=> {"messages":[{"role":"user","content":"Hi"}]} ["latency"]
 */
export interface GenerationReader {
  /** The prompt and reply `GET /generation/content` shows; undefined for an embedding or an id not kept. */
  content(id: string): GenerationContent | undefined
  /** The feedback given on it, oldest first; undefined for an id not kept. */
  feedback(id: string): readonly GenerationFeedback[] | undefined
}

export function createGenerationReader(ctx: StoreContext): GenerationReader {
  return {
    content: (id) => ctx.data.generations.get(id)?.content,
    feedback(id) {
      const row = ctx.data.generations.get(id)
      return row === undefined ? undefined : [...(row.feedback ?? [])]
    },
  }
}

/** A generation's `activity` input: the model and endpoint that served it, and the key's creator. */
export function activityOf(model: ModelWithEndpoints, endpoint: Endpoint, creatorUserId: string | null): { endpoint: ActivityEndpoint; creatorUserId: string | null } {
  return { endpoint: { model: endpoint.model_id, permaslug: canonicalSlugOf(model), provider: endpoint.provider_name, tag: endpoint.tag }, creatorUserId }
}

/** The generation of that id if it belongs to the organisation; undefined otherwise. */
export function generationOf(ctx: StoreContext, id: string, userId: string): GenerationState | undefined {
  const row = ctx.data.generations.get(id)
  return row !== undefined && row.userId === userId ? row : undefined
}

/** What differs from one generation to another; every other field of the wire record is the same for all the simulator records. */
export interface GenerationFacts {
  id: string
  upstreamId: string
  /** The cost in USD, as a number (the exact decimal's). */
  cost: number
  createdMs: number
  model: string
  streamed: boolean
  provider: string
  /** Time to first token and generation time, milliseconds. */
  latency: number
  generationTime: number
  finishReason: string | null
  promptTokens: number
  completionTokens: number
  reasoningTokens: number
  cachedTokens: number
  mediaParts: number
  apiType: 'completions' | 'embeddings'
  externalUser: string | null
  workspaceId: string | null
  attempts: ProviderResponse[]
  sessionId: string | null
  /** The id of the preset the request named (decisions/0050); absent or null: none. */
  presetId?: string | null
  /** The prompt and the reply, for `GET /generation/content` (decisions/0053); absent: none kept. */
  content?: GenerationContent
  /** Served through a BYOK credential (decisions/0054): what the provider billed, in USD; absent: not. */
  byokUpstreamCost?: number
}

/** The wire record of a generation (`GET /generation?id=`'s data), for the money path and the fixtures alike. */
export function generationWire(f: GenerationFacts): Generation {
  const generation: Generation = {
    id: f.id,
    upstream_id: f.upstreamId,
    total_cost: f.cost,
    cache_discount: null,
    upstream_inference_cost: f.byokUpstreamCost ?? null,
    created_at: formatTimestamp(f.createdMs),
    model: f.model,
    app_id: null,
    streamed: f.streamed,
    cancelled: false,
    provider_name: f.provider,
    latency: f.latency,
    moderation_latency: null,
    generation_time: f.generationTime,
    finish_reason: f.finishReason,
    native_finish_reason: f.finishReason,
    tokens_prompt: f.promptTokens,
    tokens_completion: f.completionTokens,
    native_tokens_prompt: f.promptTokens,
    native_tokens_completion: f.completionTokens,
    native_tokens_completion_images: 0,
    native_tokens_reasoning: f.reasoningTokens,
    native_tokens_cached: f.cachedTokens,
    num_media_prompt: f.mediaParts,
    num_input_audio_prompt: 0,
    num_media_completion: 0,
    num_search_results: 0,
    num_fetches: 0,
    origin: '',
    usage: f.cost,
    is_byok: f.byokUpstreamCost !== undefined,
    api_type: f.apiType,
    data_region: 'global',
    external_user: f.externalUser,
    http_referer: null,
    user_agent: null,
    preset_id: f.presetId ?? null,
    router: null,
    service_tier: null,
    web_search_engine: null,
    workspace_id: f.workspaceId,
    provider_responses: f.attempts,
  }
  // Set after, not spread in: a conditional spread made this literal the costliest line of a completion.
  if (f.sessionId !== null) generation.session_id = f.sessionId
  return generation
}
