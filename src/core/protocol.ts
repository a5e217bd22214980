// The types every layer shares: a request as an adapter hands it to the core, the response the core
// gives back, the frames of a stream, and the names of the simulated operations. This file imports
// nothing: the router, the operations, the journal, the faults and the adapters all build on it.

/**
 * The names of the simulated operations, as fault rules, latency rules and the journal use them.
 *
 * @example
 * import { OPERATION_NAMES } from 'model-access-sim'
 * console.log(OPERATION_NAMES.slice(0, 6).join(' '))
 * //=> listKeys getKey listEndpoints getFileContent getWorkspace listVideoModels
 */
export const OPERATION_NAMES = [
  // The read interface.
  'listKeys',
  'getKey',
  'listEndpoints',
  'getFileContent',
  'getWorkspace',
  'listVideoModels',
  // Keys and credits (operations/keys.ts, operations/credits.ts).
  'createKey',
  'updateKey',
  'deleteKey',
  'getCurrentKey',
  // `GET /auth/key`: the older name of `GET /key` (operations/keys.ts).
  'getCurrentKeyLegacy',
  'getCredits',
  // Workspaces (operations/workspaces.ts).
  'listWorkspaces',
  'createWorkspace',
  'updateWorkspace',
  'deleteWorkspace',
  // The catalog (operations/catalog.ts).
  'listModels',
  'countModels',
  'getModel',
  'listProviders',
  'listEmbeddingsModels',
  // Inference (operations/inference.ts).
  'createChatCompletion',
  'getGeneration',
  // Legacy text completions, on the chat pipeline (operations/inference.ts).
  'createCompletion',
  // The Responses API (operations/inference.ts).
  'createResponses',
  // Embeddings (operations/embeddings.ts).
  'createEmbeddings',
  // OAuth: the PKCE flow, and the token exchange it does not simulate (operations/oauth.ts).
  'createAuthKeysCode',
  'exchangeAuthCodeForAPIKey',
  'createOauthToken',
  'listOauthJwks',
  // Presets (operations/presets.ts).
  'listPresets',
  'getPreset',
  'listPresetVersions',
  'getPresetVersion',
  'createPresetsChatCompletions',
  'createPresetsResponses',
  'createPresetsMessages',
  // Workspace budgets (operations/budgets.ts).
  'listWorkspaceBudgets',
  'getWorkspaceBudget',
  'upsertWorkspaceBudget',
  'deleteWorkspaceBudget',
  // Members of the organisation and of its workspaces (operations/members.ts).
  'listOrganizationMembers',
  'listWorkspaceMembers',
  'bulkAddWorkspaceMembers',
  'bulkRemoveWorkspaceMembers',
  // Guardrails and their assignments (operations/guardrails.ts).
  'listGuardrails',
  'createGuardrail',
  'getGuardrail',
  'updateGuardrail',
  'deleteGuardrail',
  'listKeyAssignments',
  'listMemberAssignments',
  'listGuardrailKeyAssignments',
  'listGuardrailMemberAssignments',
  'bulkAssignKeysToGuardrail',
  'bulkUnassignKeysFromGuardrail',
  'bulkAssignMembersToGuardrail',
  'bulkUnassignMembersFromGuardrail',
  // Activity and analytics (operations/activity.ts).
  'getUserActivity',
  'getAnalyticsMeta',
  'queryAnalytics',
  // A generation's content and feedback (operations/generation-content.ts).
  'listGenerationContent',
  'submitGenerationFeedback',
  // The catalog as a caller may use it (operations/models-user.ts).
  'listModelsUser',
  'listEndpointsZdr',
  // BYOK provider credentials (operations/byok.ts).
  'createBYOKKey',
  'listBYOKKeys',
  'getBYOKKey',
  'updateBYOKKey',
  'deleteBYOKKey',
] as const

/** Names of the simulated operations, as faults, journals and errors refer to them. */
export type OperationName = (typeof OPERATION_NAMES)[number]

/** One piece of a stream: its text (a whole SSE event, blank line included) and when it is sent. */
export interface StreamFrame {
  /** Milliseconds after the response starts. */
  atMs: number
  data: string
}

/** A request as an adapter hands it to the core, relative to the base URL. */
export interface SimRequest {
  method: string
  /** Path below the base URL, still percent-encoded, starting with `/`: `/models/openai/gpt-4%3Afree/endpoints`. */
  path: string
  query?: URLSearchParams | string | undefined
  /** The raw `Authorization` header, if any. */
  authorization?: string | null | undefined
  /**
   * The raw request body, if any: text, or bytes read as UTF-8. Operations that take a body read
   * it as a JSON object (400 naming `body` when it is not one, 413 over 16 MiB).
   */
  body?: string | Uint8Array | null | undefined
  /**
   * The request headers an operation reads (`content-type`), by name in any case. Absent: the
   * caller sent none, and a body is read as JSON; present without `content-type`, likewise. A
   * content type that is given must be JSON, or empty (read as none).
   */
  headers?: Record<string, string | undefined> | null | undefined
}

/**
 * The `cancel` of an answer that is not a stream, present only when a `real` latency rule delays
 * it: tells the simulator that the client went away during the wait, before the answer was sent
 * (`framesSent` is then 0; anything else throws). The journal entry says `outcome: 'client-left'`;
 * the charge stands, as the service charges a completion it generated (decisions/0044). The
 * adapters call it; an adapter of your own that waits should too. Only the first call counts; it
 * returns false (the charge did not change). Not enumerable, so the response stays plain data.
 */
export type LeftEarly = (framesSent: number) => boolean

/** Simulated latency on a response: the adapters wait `delayMs` for real only when `realDelay` is set. */
interface Timing {
  /** Milliseconds of simulated latency, already passed on the simulator clock. Absent when 0. */
  delayMs?: number
  /** The latency rule asked for a real wait too. */
  realDelay?: true
}

/**
 * A response as the core produces it; adapters only translate it. A fault may make it a network
 * error (`type: 'network-error'`, status 0) or a request never answered (`type: 'never'`).
 */
export type SimResponse = Timing &
  (
    | { status: number; headers: Record<string, string>; type: 'json'; body: unknown; readonly cancel?: LeftEarly }
    | { status: number; headers: Record<string, string>; type: 'bytes'; body: Uint8Array; readonly cancel?: LeftEarly }
    /** A server-sent event stream: each frame's text and its offset from the start (decisions/0024). */
    | {
        status: number
        headers: Record<string, string>
        type: 'stream'
        body: readonly StreamFrame[]
        /**
         * Tells the simulator that the client went away after `framesSent` frames (0 to
         * `body.length`) had been sent: it is then charged only for what they carried, the
         * generation says `cancelled: true` (decisions/0026), and the journal entry says
         * `outcome: 'cut-short'` with the frames sent (decisions/0044). The adapters call it; an adapter of
         * your own that stops writing early should too. Only the first call counts; once the frame
         * that ends the reply was sent, it changes nothing. Returns whether the charge changed.
         * Not enumerable, so the response stays plain data.
         */
        readonly cancel?: (framesSent: number) => boolean
      }
    | { status: 0; headers: Record<string, string>; type: 'network-error' | 'never'; body: null }
  )

/** A guardrail content filter's flag on a request, as the journal shows it (decisions/0055 in the repository). */
export interface GuardrailFlag {
  guardrailId: string
  /** The guardrail's name. */
  guardrail: string
  /** The filter: `content_filters[0]`, or `content_filter_builtins[1] (email)`. */
  rule: string
  /** The filter's label. */
  label: string
  /** The index of the message it matched in (the request's messages as the simulator reads them; an embeddings input's index). */
  message: number
  /** How many matches. */
  matches: number
}
