import spec from './default-world.json' with { type: 'json' }
import type { WorldSpec } from './spec.js'

/**
 * Handles into a generated world (`generateWorld`, and the embedded default world, which is
 * `generateWorld({ seed: 42 })`): the documented keys and ids, and an entity of each kind worth
 * testing against. Every world `generateWorld` writes has all of them, whatever its seed and size.
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
  /** Hashes of Acme keys in its default workspace: a disabled one, an expired one, and one whose limit is used up (`limit_remaining` 0). */
  keys: { disabled: string; expired: string; exhausted: string }
  /** File ids in Acme's default workspace: a server-created batch output (downloadable) and an uploaded file (400 on download). */
  files: { report: string; upload: string }
  /**
   * Model ids: `timeWindowed` (its first endpoint has peak and off-peak prices that tile the UTC
   * day), `longContext` (its first endpoint has `min_prompt_tokens` tiers), `free` (a `:free`
   * variant, every price "0") and `paid` (the same model without the variant); `embedding`
   * (`openai/text-embedding-3-small`, 1536 dimensions, served by OpenAI and Azure) for `POST /embeddings`.
   */
  models: { timeWindowed: string; longContext: string; free: string; paid: string; embedding: string }
  /** A second organisation ("Globex Corporation"), to see tenancy at work: its resources are 404 to Acme. It holds a file with the id of Acme's report. */
  otherTenant: { userId: string; managementKey: string; workspaceId: string }
}

/** The embedded default world: `generateWorld({ seed: 42 })`, committed as JSON by `npm run fixtures`. */
export const DEFAULT_WORLD = spec as WorldSpec<DefaultWorld>
