// Helpers for tests that check a value handed over is copied, not kept: change everything in it.

/** Changes every value reachable from `value` in place: numbers, strings, booleans, nested objects and arrays. */
export function mutateDeeply(value: unknown): void {
  if (typeof value !== 'object' || value === null) return
  const record = value as Record<string, unknown>
  for (const [field, inner] of Object.entries(record)) {
    if (typeof inner === 'number') record[field] = inner + 1
    else if (typeof inner === 'string') record[field] = `${inner}-changed`
    else if (typeof inner === 'boolean') record[field] = !inner
    else mutateDeeply(inner)
  }
  if (Array.isArray(value)) value.push(structuredClone(value[0] ?? 'added'))
}
