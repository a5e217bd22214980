/**
 * An array kept in ascending order by `compare`, read newest-first from its end.
 *
 * Records usually arrive in order (a new key is the newest), so an insert is a push; an
 * out-of-order insert is a binary search and one splice. A page costs O(log n + page size)
 * whatever the size of the index: no scan or sort per request.
 */
export class SortedIndex<T> {
  private readonly items: T[] = []

  constructor(private readonly compare: (a: T, b: T) => number) {}

  get size(): number {
    return this.items.length
  }

  insert(item: T): void {
    const last = this.items[this.items.length - 1]
    if (last === undefined || this.compare(last, item) <= 0) {
      this.items.push(item)
      return
    }
    this.items.splice(this.lowerBound(item), 0, item)
  }

  /** Removes an item that compares equal to `item`; returns whether one was there. */
  remove(item: T): boolean {
    const at = this.lowerBound(item)
    const found = this.items[at]
    if (found === undefined || this.compare(found, item) !== 0) return false
    this.items.splice(at, 1)
    return true
  }

  /** Up to `limit` items, largest first, after skipping the `offset` largest. */
  pageFromEnd(offset: number, limit: number): T[] {
    const page: T[] = []
    const start = this.items.length - 1 - offset
    for (let i = start; i >= 0 && page.length < limit; i--) page.push(this.items[i] as T)
    return page
  }

  private lowerBound(item: T): number {
    let lo = 0
    let hi = this.items.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.compare(this.items[mid] as T, item) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}
