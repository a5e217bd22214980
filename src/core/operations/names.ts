// The names of the simulated operations: what fault rules, latency rules, the journal and the
// server's log call them. The router's table (core/api.ts) holds one row for each, and a test
// holds the two to each other.

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
  // The Responses API (operations/inference.ts).
  'createResponses',
  // Embeddings (operations/embeddings.ts).
  'createEmbeddings',
] as const

/** Names of the simulated operations, as faults, journals and errors refer to them. */
export type OperationName = (typeof OPERATION_NAMES)[number]
