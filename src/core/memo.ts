// Values derived from records that never change (a pricing, a model row, a resolved tier), kept
// beside them: the one helper for the memos the money path keeps. A record is a value in the
// store (a change stores a new record), so a derived value made once is right for as long as the
// record lives, and goes with it (a WeakMap holds it). Caches of one simulator's state are not
// this: they live in that simulator (store/context.ts, inference/vectors.ts).

/**
 * `derive`, remembered per record: the first call for a record computes it, later calls return
 * the same value. `derive` must depend on the record alone.
 */
export function memoByRecord<K extends object, V>(derive: (record: K) => V): (record: K) => V {
  const kept = new WeakMap<K, V>()
  return (record) => {
    let value = kept.get(record)
    if (value === undefined) {
      value = derive(record)
      kept.set(record, value)
    }
    return value
  }
}
