// model-access-sim/arbitraries: fast-check arbitraries of wire records, one per entity. Imports
// fast-check and @faker-js/faker (peer dependencies); faker text is seeded from fast-check, so a
// failing run replays from its fast-check seed.

export { apiKey } from './api-key.js'
export { createdKey, currentKey } from './current-key.js'
export { credits } from './credits.js'
export { workspace } from './workspace.js'
export { endpoint } from './endpoint.js'
export { modelWithEndpoints } from './model-with-endpoints.js'
export { videoModel } from './video-model.js'
export { pricing } from './pricing.js'
export { pricingOverride } from './pricing-override.js'
export { requestContext } from './request-context.js'
export { world } from './world.js'

// Types
export type { ApiKeyConstraints } from './api-key.js'
export type { CreatedKeyConstraints, CurrentKeyConstraints } from './current-key.js'
export type { CreditsConstraints } from './credits.js'
export type { WorkspaceConstraints } from './workspace.js'
export type { EndpointConstraints } from './endpoint.js'
export type { ModelWithEndpointsConstraints } from './model-with-endpoints.js'
export type { VideoModelConstraints } from './video-model.js'
export type { PricingConstraints, PricingKind } from './pricing.js'
export type { PricingOverrideConstraints, PricingOverrideKind } from './pricing-override.js'
export type { RequestContextConstraints, RequestInstantType } from './request-context.js'
export type { ArbitraryWorldHandles, WorldConstraints } from './world.js'
export type { PricingRequest } from '../core/pricing/compile.js'
export type { ApiKey, CreatedKeyResponse, Credits, CurrentKey, Endpoint, ModelWithEndpoints, Pricing, PricingOverride, VideoModel, Workspace } from '../core/types.js'
export type { WorldSpec } from '../core/worlds/spec.js'
