// API keys on the wire: the management operations on an organisation's keys.
import { ApiError } from '../errors.js'
import { dataPayload, listPayload } from '../json-text.js'
import { pageOf } from '../pagination.js'
import { booleanParam, offsetParam, uuidParam } from '../params.js'
import { windowsNow } from '../store/context.js'
import { copyKeyWire, wireKey } from '../store/keys.js'
import { defaultWorkspaceParam } from '../store/workspaces.js'
import { type Operation, payloadResponse } from './operation.js'

export const KEY_OPERATIONS: readonly Operation[] = [
  {
    name: 'listKeys',
    method: 'GET',
    template: '/keys',
    auth: 'management',
    run({ ctx, query, principal }) {
      const userId = principal.userId
      const includeDisabled = booleanParam(query, 'include_disabled') ?? false
      const offset = offsetParam(query, 'offset') ?? 0
      let workspaceId = uuidParam(query, 'workspace_id')
      if (workspaceId === undefined) {
        workspaceId = defaultWorkspaceParam(ctx, userId)
      } else if (ctx.data.workspaces.get(workspaceId)?.userId !== userId) {
        throw ApiError.badParameter('workspace_id', 'is not a workspace of the caller', workspaceId)
      }
      const index = ctx.indices.listableKeys.get(workspaceId)
      const windows = windowsNow(ctx)
      const list = `keys ${workspaceId} ${includeDisabled} ${offset}`
      // The index orders keys; the store holds each one's current state.
      const payload = ctx.keyPages.page(
        list,
        workspaceId,
        ctx,
        windows,
        () => pageOf(includeDisabled ? index?.all : index?.enabled, offset),
        (entries) => listPayload(entries, copyKeyWire, { texts: ctx.listTexts, list }),
      )
      return payloadResponse(payload)
    },
  },
  {
    name: 'getKey',
    method: 'GET',
    template: '/keys/{hash}',
    auth: 'management',
    run({ ctx, params, principal }) {
      const key = ctx.data.keys.get(params['hash'] as string)
      // Another organisation's key is as absent as a key that never existed.
      if (!key || key.userId !== principal.userId) throw ApiError.notFound({ resource: 'key' })
      return payloadResponse(dataPayload(wireKey(key, windowsNow(ctx)), copyKeyWire))
    },
  },
]
