// The known model ids nearest an unknown one, for the 400 that refuses it (decisions/0038): most
// unknown ids are a typo or a missing author (`gpt-4o-mini` for `openai/gpt-4o-mini`), and most
// clients show only the error's message, so the message names what the caller probably meant.

/** At most this many suggestions. */
export const MAX_SUGGESTIONS = 3

/**
 * The edit distance an id may be from the asked one and still be suggested: a quarter of the asked
 * id's length, and at least 2. `acme/nope` (9 characters) takes ids within 2 edits; a 17-character
 * id, within 4.
 */
export function suggestionRadius(asked: string): number {
  return Math.max(2, Math.floor(asked.length / 4))
}

/**
 * The Levenshtein distance of `a` and `b` (an insertion, a deletion or a substitution costs 1), or
 * `limit + 1` as soon as it is known to exceed `limit`. `scratch`: two rows to work in, when long
 * enough (one pair for many ids saves allocating them per id). Only the cells within `limit` of the
 * diagonal are computed (a path through any other costs more than `limit`), and a row whose every
 * cell is past the limit ends the work: most ids of a catalog are far from the asked one.
 */
export function editDistance(a: string, b: string, limit: number, scratch?: [Int32Array, Int32Array]): number {
  const over = limit + 1
  if (Math.abs(a.length - b.length) > limit) return over
  let previous = scratch !== undefined && scratch[0].length >= b.length + 2 ? scratch[0] : new Int32Array(b.length + 2)
  let current = scratch !== undefined && scratch[1].length >= b.length + 2 ? scratch[1] : new Int32Array(b.length + 2)
  for (let j = 0; j <= b.length + 1; j++) previous[j] = j <= limit ? j : over
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - limit)
    const to = Math.min(b.length, i + limit)
    // The cells either side of the band: the next row reads them as out of reach.
    current[from - 1] = from === 1 && i <= limit ? i : over
    current[to + 1] = over
    let rowMin = current[from - 1] as number
    const ca = a.charCodeAt(i - 1)
    for (let j = from; j <= to; j++) {
      let value = (previous[j - 1] as number) + (ca === b.charCodeAt(j - 1) ? 0 : 1)
      const up = (previous[j] as number) + 1
      if (up < value) value = up
      const left = (current[j - 1] as number) + 1
      if (left < value) value = left
      if (value > over) value = over
      current[j] = value
      if (value < rowMin) rowMin = value
    }
    if (rowMin > limit) return over
    const swap = previous
    previous = current
    current = swap
  }
  return Math.min(previous[b.length] as number, over)
}

/**
 * The known ids nearest `asked`, nearest first, ties by id, at most {@link MAX_SUGGESTIONS}; none
 * further than {@link suggestionRadius}. Case is ignored. An asked id without an author (no `/`)
 * is also measured against each id's part after its `/`, so `gpt-4o-mini` finds
 * `openai/gpt-4o-mini` at distance 0. A few hundred ids take well under a millisecond: the
 * distance gives up on an id as soon as it is out of reach.
 */
export function nearestIds(asked: string, known: Iterable<string>): string[] {
  const wanted = asked.toLowerCase()
  const radius = suggestionRadius(wanted)
  const bare = !wanted.includes('/')
  const found: { id: string; distance: number }[] = []
  // Ids within the radius are at most the asked id's length plus the radius long: rows of that size serve every id in reach.
  const size = wanted.length + radius + 2
  const scratch: [Int32Array, Int32Array] = [new Int32Array(size), new Int32Array(size)]
  for (const id of known) {
    const lower = id.toLowerCase()
    if (lower === wanted) continue
    let distance = editDistance(wanted, lower, radius, scratch)
    if (bare) {
      const slash = lower.indexOf('/')
      if (slash !== -1) distance = Math.min(distance, editDistance(wanted, lower.slice(slash + 1), radius, scratch))
    }
    if (distance <= radius) found.push({ id, distance })
  }
  found.sort((x, y) => x.distance - y.distance || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
  return found.slice(0, MAX_SUGGESTIONS).map((f) => f.id)
}
