// What JSON can carry, checked: for values that go on the wire or into a world spec.

/** Whether a value is JSON data (plain objects, arrays, strings, finite numbers, booleans, null), without cycles. */
export function isJsonData(value: unknown, depth = 0): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (typeof value !== 'object' || depth > 32) return false
  // A loop rather than every(), which skips the holes of a sparse array; JSON has no holes.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!(i in value) || !isJsonData(value[i], depth + 1)) return false
    return true
  }
  const proto = Object.getPrototypeOf(value) as unknown
  if (proto !== Object.prototype && proto !== null) return false
  return Object.values(value as Record<string, unknown>).every((item) => isJsonData(item, depth + 1))
}
