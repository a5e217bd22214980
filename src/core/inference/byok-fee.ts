// The service's fee on a BYOK request, in a module of its own: the package's entry points
// export it without loading the simulator (decisions/0072).
import { formatDecimal, parseDecimal } from '../pricing/decimal.js'

/**
 * The share of the upstream cost the service charges for a request served through a credential:
 * 5%, as a decimal fraction (`BYOK_FEE_PERCENT / 100`).
 */
export const BYOK_FEE_PERCENT = 5n

/**
 * The service's fee for a request served through a credential whose upstream cost is `cost` (an
 * exact decimal in USD): 5% of it, exactly, as a decimal. The charge is that decimal rounded half
 * up to 10^-10 USD, as every cost is (decisions/0024).
 *
 * @example
 * import { byokFee } from 'model-access-sim'
 * console.log(byokFee('0.0000123'), byokFee('2'))
 * //=> 0.000000615 0.1
 */
export function byokFee(cost: string): string {
  const { units, scale } = parseDecimal(cost)
  return formatDecimal({ units: units * BYOK_FEE_PERCENT, scale: scale + 2 })
}
