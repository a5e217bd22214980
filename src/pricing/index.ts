// model-access-sim/pricing: the override engine. Pure; imports nothing.

export { compilePricing } from '../core/pricing/compile.js'
export { estimateCost, explainPricing, resolvePricing } from '../core/pricing/resolve.js'
export { PricingError } from '../core/pricing/errors.js'
export { validatePricing } from '../core/pricing/validate.js'
export { pricingFromSdk } from '../core/pricing/sdk.js'

// Types
export type { CompiledPricing, CostRequest, PricingRequest } from '../core/pricing/compile.js'
export type { ResolvedPricing } from '../core/pricing/rules.js'
export type { CostUsage } from '../core/pricing/cost.js'
export type { PricingArgument } from '../core/pricing/errors.js'
export type { ConditionExplanation, OverrideExplanation, PriceExplanation, PricingExplanation } from '../core/pricing/explain.js'
export type { PricingIssue } from '../core/pricing/validate.js'
export type { OverridablePriceKey, PriceKey, Pricing, PricingOverride, Weekday } from '../core/types.js'
