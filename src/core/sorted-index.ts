/**
 * An array kept in ascending order by `compare`, read newest-first from its end.
 *
 * Records usually arrive in order (a new key is the newest), so an insert is a push. Records that
 * arrive out of order wait in a buffer and are merged in on the next read: one sort of the buffer
 * and one linear merge, however many arrived. Loading 100,000 keys in random order costs
 * O(n log n), not the O(n^2) of a splice each. A page costs O(log n + page size) at any size once
 * merged: no scan or sort per request. Removing the smallest (a full generation store letting its
 * oldest go, once a request) moves a start mark instead of shifting every item down.
 */
export class SortedIndex<T> {
  private items: (T | undefined)[] = []
  /** Items below this index were removed from the front; they are undefined. */
  private head = 0
  private pending: T[] = []

  constructor(private readonly compare: (a: T, b: T) => number) {}

  get size(): number {
    return this.items.length - this.head + this.pending.length
  }

  insert(item: T): void {
    const last = this.items.length > this.head ? this.items[this.items.length - 1] : undefined
    if (this.pending.length === 0 && (last === undefined || this.compare(last, item) <= 0)) this.items.push(item)
    else this.pending.push(item)
  }

  /** Removes an item that compares equal to `item`; returns whether one was there. */
  remove(item: T): boolean {
    this.merge()
    // The smallest is the usual one to go: no search for it.
    const first = this.items.length > this.head ? this.items[this.head] : undefined
    const at = first !== undefined && this.compare(first, item) === 0 ? this.head : this.lowerBound(item)
    const found = this.items[at]
    if (found === undefined || this.compare(found, item) !== 0) return false
    if (at === this.head) {
      this.items[at] = undefined
      this.head++
      // Given back once the removed front is half the array: O(1) amortised a removal.
      if (this.head >= 1024 && this.head * 2 >= this.items.length) this.compact()
    } else this.items.splice(at, 1)
    return true
  }

  /** The largest item, or undefined when there is none. */
  last(): T | undefined {
    this.merge()
    return this.items.length > this.head ? this.items[this.items.length - 1] : undefined
  }

  /** The smallest item, or undefined when there is none. */
  first(): T | undefined {
    this.merge()
    return this.items.length > this.head ? this.items[this.head] : undefined
  }

  /** Up to `limit` items, largest first, after skipping the `offset` largest. */
  pageFromEnd(offset: number, limit: number): T[] {
    this.merge()
    const page: T[] = []
    for (let i = this.items.length - 1 - offset; i >= this.head && page.length < limit; i--) page.push(this.items[i] as T)
    return page
  }

  private compact(): void {
    this.items = this.items.slice(this.head)
    this.head = 0
  }

  private merge(): void {
    if (this.pending.length === 0) return
    if (this.head > 0) this.compact()
    const incoming = this.pending.sort(this.compare)
    const current = this.items
    const merged: T[] = new Array(current.length + incoming.length)
    let i = 0
    let j = 0
    let k = 0
    while (i < current.length && j < incoming.length) {
      merged[k++] = this.compare(current[i] as T, incoming[j] as T) <= 0 ? (current[i++] as T) : (incoming[j++] as T)
    }
    while (i < current.length) merged[k++] = current[i++] as T
    while (j < incoming.length) merged[k++] = incoming[j++] as T
    this.items = merged
    this.pending = []
  }

  private lowerBound(item: T): number {
    let lo = this.head
    let hi = this.items.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.compare(this.items[mid] as T, item) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}
