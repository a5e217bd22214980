// Exact decimals as scaled integers: a value is `units / 10^scale`. Pricing needs only parsing,
// multiplication by whole counts, addition and formatting, so there is no division and no rounding
// anywhere; decisions/0007 says why this beats a general decimal library here.

/** A non-negative decimal: `units / 10^scale`, exactly. */
export interface ScaledDecimal {
  units: bigint
  scale: number
}

/** Parses plain decimal notation (`"0.00000028"`, `"12"`); the caller has validated the text. */
export function parseDecimal(text: string): ScaledDecimal {
  const dot = text.indexOf('.')
  if (dot === -1) return { units: BigInt(text), scale: 0 }
  return { units: BigInt(text.slice(0, dot) + text.slice(dot + 1)), scale: text.length - dot - 1 }
}

/**
 * Reads a validated discount (a number in [0, 1]) as the decimal its shortest round-trip form shows:
 * 0.1 is exactly one tenth, 1e-7 is exactly one ten-millionth. Such a number is written either plainly
 * or with a negative exponent, so the exponent only ever adds decimal places.
 */
export function parseDiscount(discount: number): ScaledDecimal {
  const [mantissa = '0', exponentText] = String(discount).split('e')
  const { units, scale } = parseDecimal(mantissa)
  return { units, scale: exponentText === undefined ? scale : scale - Number(exponentText) }
}

/** `value` expressed with `scale` decimal places (`scale` must be at least the value's own). */
export function rescale(value: ScaledDecimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale)
}

/** The digits of `units / 10^scale` in plain notation, without trailing zeros; "0" for zero. */
function placePoint(digits: string, scale: number): string {
  if (scale === 0) return digits
  if (digits.length > scale) return `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`
  return `0.${'0'.repeat(scale - digits.length)}${digits}`
}

/** Formats a safe non-negative integer count of `10^-scale` units. */
export function formatUnits(units: number, scale: number): string {
  if (units === 0) return '0'
  while (scale > 0 && units % 10 === 0) {
    units /= 10
    scale--
  }
  return placePoint(String(units), scale)
}

/** Formats a non-negative bigint count of `10^-scale` units. */
export function formatBigUnits(units: bigint, scale: number): string {
  if (units === 0n) return '0'
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n
    scale--
  }
  return placePoint(units.toString(), scale)
}

/** Formats a decimal exactly, in plain notation without trailing zeros. */
export function formatDecimal(value: ScaledDecimal): string {
  return formatBigUnits(value.units, value.scale)
}
