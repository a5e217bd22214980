// The catalog as a caller may use it (decisions/0053): `GET /models/user`, the models a key may
// route to, and `GET /endpoints/zdr`, the endpoints with zero data retention.
import type { Principal } from '../auth.js'
import { isFree } from '../inference/route.js'
import { modelWithStatistics } from '../inference/statistics.js'
import type { StoreContext } from '../store/context.js'
import type { Endpoint, ModelWithEndpoints } from '../types.js'
import { outputsParam, pageQuery } from './catalog.js'
import { type Operation, jsonAnswer, payloadResponse } from './operation.js'

/**
 * The models `principal` may use: the catalog, filtered by the caller's guardrails and provider
 * preferences once the store holds them. It holds neither today, so it is the whole catalog, the
 * same Map (the catalog's cached pages keep serving it); a filter returns a Map of the models left.
 */
export function modelsForCaller(ctx: StoreContext, principal: Principal): ReadonlyMap<string, ModelWithEndpoints> {
  void principal
  return ctx.data.models
}

/**
 * Whether an endpoint keeps no data. The catalog carries no retention policy; the one data policy
 * it tells is the price: on the service, free endpoints are the ones whose providers may keep and
 * train on prompts (decisions/0024, `data_collection: "deny"`), so a paid endpoint is zero-retention.
 */
export const isZdrEndpoint = (endpoint: Endpoint): boolean => !isFree(endpoint.pricing)

export const MODELS_USER_OPERATIONS: readonly Operation[] = [
  {
    name: 'listModelsUser',
    method: 'GET',
    template: '/models/user',
    auth: 'key',
    run({ ctx, query, principal }) {
      const outputs = outputsParam(query)
      const page = pageQuery('/models/user', query, { outputs: outputs.bits, parameters: 0, given: [['output_modalities', outputs.given]] })
      return payloadResponse(ctx.indices.catalog.page(modelsForCaller(ctx, principal) as Map<string, ModelWithEndpoints>, page))
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
