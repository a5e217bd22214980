import type { OperationName } from '../../src/index.js'

/** The operation a fixture's recorded path is a request of, by its path below the base URL. */
export const OPERATIONS: [OperationName, RegExp][] = [
  ['listKeys', /^\/keys$/],
  ['getKey', /^\/keys\/[^/]+$/],
  ['listEndpoints', /^\/models\/[^/]+\/[^/]+\/endpoints$/],
  ['getFileContent', /^\/files\/[^/]+\/content$/],
  ['getWorkspace', /^\/workspaces\/[^/]+$/],
  ['listVideoModels', /^\/videos\/models$/],
  ['listWorkspaces', /^\/workspaces$/],
  ['getCurrentKey', /^\/key$/],
  ['getCredits', /^\/credits$/],
]

export const operationOf = (path: string): OperationName | null => OPERATIONS.find(([, pattern]) => pattern.test(path))?.[0] ?? null
