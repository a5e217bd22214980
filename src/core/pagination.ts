import type { SortedIndex } from './sorted-index.js'

/** Page size of offset-paged lists (GET /keys). */
export const PAGE_SIZE = 100

/** One page, newest first, after skipping `offset` records. */
export function pageOf<T>(index: SortedIndex<T> | undefined, offset: number): T[] {
  return index ? index.pageFromEnd(offset, PAGE_SIZE) : []
}
