import { defaultWorldParts, defaultWorldSpec } from './default-world-spec.js'
import type { WorldSpec } from './spec.js'
import { SharedModels } from './shared-models.js'

/**
 * Handles into a generated world (`generateWorld`, and the embedded default world, which is
 * `generateWorld({ seed: 42 })`): the documented keys and ids, and an entity of each kind worth
 * testing against. Every world `generateWorld` writes has all of them, whatever its seed and size.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator()
 * const ask = (key: string, model: string, extra: object = {}) =>
 *   sim.handle({
 *     method: 'POST',
 *     path: '/chat/completions',
 *     authorization: `Bearer ${key}`,
 *     body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }], ...extra }),
 *   }).status
 * // A key with 0.000001 USD left of its daily limit: served once, then refused at the limit.
 * console.log(ask(sim.world.nearLimitKey, sim.world.models.paid), ask(sim.world.nearLimitKey, sim.world.models.paid))
 * // An organisation with a cent of credits: 402 for an endpoint's whole completion cap, served with a small max_tokens.
 * const { apiKey, userId } = sim.world.lowCredits
 * console.log(sim.credits.get(userId), ask(apiKey, sim.world.models.longContext), ask(apiKey, sim.world.models.longContext, { max_tokens: 100 }))
 * //=> 200 403
 * //=> {"total_credits":920,"total_usage":919.99} 402 200
 */
export interface DefaultWorld {
  /** The primary organisation ("Acme Labs"). */
  userId: string
  /** Bearer secret of Acme's management key: every operation is open to it. */
  managementKey: string
  /** Bearer secret of a regular, enabled Acme key ("Production backend", limit 500 USD a month): public operations only. */
  apiKey: string
  /** Hash of {@link DefaultWorld.apiKey}, for `GET /keys/{hash}`. */
  apiKeyHash: string
  /** Acme's workspace UUIDs by slug: `default`, `production`, `staging`, `research`. */
  workspaces: Record<'default' | 'production' | 'staging' | 'research', string>
  /**
   * Bearer secret of an Acme key ("Demo (near limit)") with a daily limit of 1 USD, 0.999999 USD of
   * it spent today: its next paid completion is admitted and charged (a key ends at most one
   * request past its limit), and the one after is refused with 403 `Key limit exceeded (daily
   * limit)` until the next UTC midnight of the simulator clock.
   */
  nearLimitKey: string
  /**
   * Hashes of Acme keys in its default workspace: a disabled one, an expired one, one whose limit is
   * used up (`limit_remaining` 0), and {@link DefaultWorld.nearLimitKey}'s.
   */
  keys: { disabled: string; expired: string; exhausted: string; nearLimit: string }
  /** File ids in Acme's default workspace: a server-created batch output (downloadable) and an uploaded file (400 on download). */
  files: { report: string; upload: string }
  /**
   * Model ids of the real catalog (decisions/0037): `timeWindowed` (its first endpoint has peak and
   * off-peak prices that tile the UTC day: `deepseek/deepseek-chat-v3.1`, whose DeepSeek endpoint
   * is half price from 16:30 to 00:30 UTC), `longContext` (its first endpoint has
   * `min_prompt_tokens` tiers: `anthropic/claude-sonnet-4.5`, dearer over 200,000 prompt tokens),
   * `free` (`meta-llama/llama-3.3-70b-instruct:free`, every price "0") and `paid` (the same model
   * without the variant); `embedding`
   * (`openai/text-embedding-3-small`, 1536 dimensions, served by OpenAI and Azure) for `POST /embeddings`.
   */
  models: { timeWindowed: string; longContext: string; free: string; paid: string; embedding: string }
  /** A second organisation ("Globex Corporation"), to see tenancy at work: its resources are 404 to Acme. It holds a file with the id of Acme's report. */
  otherTenant: { userId: string; managementKey: string; workspaceId: string }
  /**
   * An organisation nearly out of credits, the world's last one (in the default world "Johnston,
   * Bernhard and Murphy"; Globex in a `small` world, which has no other): its keys spent all but
   * 0.01 USD of what it bought. `apiKey` is a regular key of it. A paid completion whose
   * worst case (the prompt, and `max_tokens` or else the endpoint's cap, at the completion price)
   * costs more than the cent is refused with 402 `...can only afford N tokens`; with a small
   * `max_tokens` it is served, until the cent is spent.
   */
  lowCredits: { userId: string; apiKey: string }
}

/**
 * The embedded default world: `generateWorld({ seed: 42 })`, committed as JSON by `npm run fixtures`,
 * read on first use (decisions/0059). Every call answers the same object.
 */
export const defaultWorld = (): WorldSpec<DefaultWorld> => defaultWorldSpec() as WorldSpec<DefaultWorld>

/**
 * The default world as a load reads it: the spec without its models (the same object every call),
 * and each model by id, parsed when first read (decisions/0066).
 */
export const defaultWorldForLoad = (): WorldSpec<DefaultWorld> => defaultWorldParts().spec as WorldSpec<DefaultWorld>

/**
 * The default world's models, made once per process, each when first read, and shared by every
 * simulator that loads the world (decisions/0041, 0066).
 */
export const DEFAULT_WORLD_MODELS = new SharedModels(() => defaultWorldParts().models as readonly (readonly [string, () => object])[])
