// The public catalog: models and their endpoints, video models. No key needed.
import { ApiError } from '../errors.js'
import { cachedJson, dataPayload, listPayload } from '../json-text.js'
import { anonymousJson } from '../store/models.js'
import { type Operation, clone, payloadResponse } from './operation.js'

export const CATALOG_OPERATIONS: readonly Operation[] = [
  {
    name: 'listEndpoints',
    method: 'GET',
    template: '/models/{author}/{slug}/endpoints',
    auth: 'public',
    run({ ctx, params, principal }) {
      const id = `${params['author']}/${params['slug']}`
      const model = ctx.data.models.get(id)
      if (!model) throw ApiError.notFound({ resource: 'model', model: id })
      return payloadResponse(dataPayload(principal ? cachedJson(model) : anonymousJson(model), clone))
    },
  },
  {
    name: 'listVideoModels',
    method: 'GET',
    template: '/videos/models',
    auth: 'public',
    run({ ctx }) {
      return payloadResponse(listPayload(Array.from(ctx.data.videoModels.values(), cachedJson), clone, { texts: ctx.listTexts, list: 'video models' }))
    },
  },
]
