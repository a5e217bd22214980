// Workspaces on the wire: an organisation's workspaces, read and managed with a management key.
import { ApiError } from '../errors.js'
import { cachedJson, dataPayload } from '../json-text.js'
import { findWorkspace } from '../store/workspaces.js'
import { type Operation, clone, payloadResponse } from './operation.js'

export const WORKSPACE_OPERATIONS: readonly Operation[] = [
  {
    name: 'getWorkspace',
    method: 'GET',
    template: '/workspaces/{id}',
    auth: 'management',
    run({ ctx, params, principal }) {
      const workspace = findWorkspace(ctx, principal.userId, params['id'] as string)
      if (!workspace) throw ApiError.notFound({ resource: 'workspace' })
      return payloadResponse(dataPayload(cachedJson(workspace.record), clone))
    },
  },
]
