// The catalog as a caller may use it (decisions/0053): `GET /models/user`, the models a key may
// route to, and `GET /endpoints/zdr`, the endpoints with zero data retention.
import type { Principal } from '../auth.js'
import { endpointRefusal, governing, isZdrEndpoint, modelRefusal } from '../inference/guardrails.js'
import { modelWithStatistics } from '../inference/statistics.js'
import type { StoreContext } from '../store/context.js'
import type { Endpoint, ModelWithEndpoints } from '../types.js'
import { outputsParam, pageQuery } from './catalog.js'
import { type Operation, jsonAnswer, payloadResponse } from './operation.js'

/**
 * The ids of the models `principal` may use, under the guardrails that govern its key
 * (decisions/0055): a model a guardrail does not allow, or whose every endpoint one keeps it off,
 * is left out. Undefined when no guardrail governs it: the whole catalog, whose pages are kept.
 */
export function modelsForCaller(ctx: StoreContext, principal: Principal): ReadonlySet<string> | undefined {
  const key = ctx.data.keys.get(principal.keyHash)
  const guards = key === undefined ? [] : governing(ctx, key)
  if (guards.length === 0) return undefined
  const usable = new Set<string>()
  for (const [id, model] of ctx.data.models) {
    if (modelRefusal(guards, model, id) !== null) continue
    if (model.endpoints.some((e) => endpointRefusal(guards, model, e) === null)) usable.add(id)
  }
  return usable
}

export const MODELS_USER_OPERATIONS: readonly Operation[] = [
  {
    name: 'listModelsUser',
    method: 'GET',
    template: '/models/user',
    auth: 'key',
    run({ ctx, query, principal }) {
      const outputs = outputsParam(query)
      const page = pageQuery('/models/user', query, { outputs: outputs.bits, parameters: 0, given: [['output_modalities', outputs.given]] })
      return payloadResponse(ctx.indices.catalog.page(ctx.data.models, page, modelsForCaller(ctx, principal)))
    },
  },
  {
    name: 'listEndpointsZdr',
    method: 'GET',
    template: '/endpoints/zdr',
    auth: 'public',
    run({ ctx, inference }) {
      const endpoints: Endpoint[] = []
      // In the catalog's order, each model's endpoints with their figures as GET .../endpoints shows them.
      for (const model of ctx.data.models.values()) {
        if (!model.endpoints.some(isZdrEndpoint)) continue
        for (const endpoint of modelWithStatistics(ctx, inference.statisticsViews, model).endpoints) if (isZdrEndpoint(endpoint)) endpoints.push(endpoint)
      }
      return jsonAnswer(200, { data: endpoints })
    },
  },
]
