// Whole pages of GET /keys kept between requests: the store's one cache of list answers that
// outlives a request. A page is made again only for what changed (see KeyPages).
import type { JsonPayload } from '../json-text.js'
import { type UsageWindows, figuresHoldUntil } from '../usage.js'
import type { KeyState, StoreData, StoreIndices } from './state.js'

interface KeptPage {
  indices: StoreIndices
  epoch: number
  day: number
  week: number
  month: number
  /** The latest now its records were made at; each holds until `untils[i]`, when a record dated later falls due. */
  from: number
  until: number
  hashes: string[]
  entries: unknown[]
  untils: number[]
  payload: JsonPayload
}

/**
 * Whole pages of `GET /keys`, answered again without visiting their keys while nothing they show
 * can differ: the usage windows are the same, the clock has not gone back nor reached a record
 * dated later, no key of its workspace was made, deleted, undone, disabled or enabled (a write to
 * another workspace's keys leaves it as it is), and no key on the page changed (the
 * indices count and log the changes; a restore from another simulator swaps the indices object).
 * When only some of its keys changed, just those are made again. A page touches each of its keys'
 * states and caches; on a machine busy with the HTTP side of a request, that is most of its cost.
 */
export class KeyPages {
  private readonly pages = new Map<string, KeptPage>()

  /**
   * The payload of a page of `workspaceId`'s keys: `list` names it, `orders` lists its keys when it
   * must be made afresh, `entryOf` makes a key's entry (its wire record as of `windows`), and
   * `build` makes a payload of entries.
   */
  page<E>(
    list: string,
    workspaceId: string,
    store: { readonly data: StoreData; readonly indices: StoreIndices },
    windows: UsageWindows,
    orders: () => readonly { hash: string }[],
    entryOf: (key: KeyState, windows: UsageWindows) => E,
    build: (entries: E[]) => JsonPayload,
  ): JsonPayload {
    const indices = store.indices
    const kept = this.pages.get(list)
    if (
      kept !== undefined &&
      kept.indices === indices &&
      kept.epoch >= indices.keysShapeEpoch(workspaceId) &&
      kept.day === windows.day &&
      kept.week === windows.week &&
      kept.month === windows.month &&
      windows.nowMs >= kept.from
    ) {
      const changed = kept.epoch === indices.keysEpoch ? [] : indices.keysChangedSince(kept.epoch)
      if (changed !== undefined) {
        let entries: E[] | undefined
        for (const hash of new Set(changed)) {
          const at = kept.hashes.indexOf(hash)
          if (at < 0) continue
          const key = store.data.keys.get(hash) as KeyState
          entries ??= kept.entries.slice() as E[]
          entries[at] = entryOf(key, windows)
          kept.untils[at] = figuresHoldUntil(key.usage)
        }
        kept.epoch = indices.keysEpoch
        if (entries !== undefined) {
          kept.entries = entries
          kept.payload = build(entries)
          kept.from = windows.nowMs
          kept.until = Math.min(...kept.untils)
        }
        if (windows.nowMs < kept.until) return kept.payload
      }
    }
    const hashes = orders().map((order) => order.hash)
    const entries = new Array<E>(hashes.length)
    const untils = new Array<number>(hashes.length)
    for (let i = 0; i < hashes.length; i++) {
      const key = store.data.keys.get(hashes[i] as string) as KeyState
      entries[i] = entryOf(key, windows)
      untils[i] = figuresHoldUntil(key.usage)
    }
    const payload = build(entries)
    if (this.pages.size >= 256) this.pages.clear()
    this.pages.set(list, {
      indices,
      epoch: indices.keysEpoch,
      day: windows.day,
      week: windows.week,
      month: windows.month,
      from: windows.nowMs,
      until: untils.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...untils),
      hashes,
      entries,
      untils,
      payload,
    })
    return payload
  }
}
