// The seam between the money path and organisation credits (decisions/0024). Credits are being
// built apart (`sim.credits`, `GET /credits`); until they are connected here, the money path
// charges keys only and makes no credit check. Every touch of credits goes through these two
// functions, so connecting them is the whole of the work.
import type { StoreContext } from '../store/context.js'

/**
 * What the organisation can still spend, in 10^-10 USD (the unit of usage records), or null when
 * credits are not tracked: then no request is refused for want of credits (no 402).
 */
export function creditsAvailable(_ctx: StoreContext, _userId: string): number | null {
  return null
}

/**
 * Charges a request's cost, in 10^-10 USD, to the organisation's credits; called in the same
 * write as the key's usage record. Does nothing while credits are not tracked.
 */
export function chargeCredits(_ctx: StoreContext, _userId: string, _units: number): void {}
