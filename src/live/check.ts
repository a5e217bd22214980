// checkService: the simulator's rules run against a live service. Not built yet: it throws.
export interface CheckServiceOptions {
  baseUrl: string
  managementKey: string
  regularKey?: string
  models?: string[]
  fetch?: typeof fetch
}
export interface CheckResult {
  rule: string
  simulator: string
  live: string
  verdict: 'same' | 'drift'
}
export interface CheckReport {
  results: CheckResult[]
  drift: number
}
/**
 * Not built yet: it throws. (The `check` command is being built; see the changelog.)
 *
 * @example
 * import { checkService } from 'model-access-sim/live'
 * console.log(typeof checkService)
 * //=> function
 */
export async function checkService(_options: CheckServiceOptions): Promise<CheckReport> {
  throw new Error('checkService is not built yet')
}
