/**
 * A value as an error message shows it: strings quoted, numbers as written (NaN included), and a
 * word for anything else. It never throws, whatever it is given (a BigInt, a cycle, a Proxy), so a
 * message about bad input can always be built.
 */
export function describe(value: unknown): string {
  if (value === undefined) return 'undefined'
  if (typeof value === 'string') return JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value)
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value)
  if (typeof value === 'bigint') return `${value}n`
  if (Array.isArray(value)) return 'an array'
  return `a value of type ${typeof value}`
}
