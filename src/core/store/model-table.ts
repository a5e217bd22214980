// The store's table of models, with rows that may be made on first read (decisions/0066). The
// embedded default world has 320-odd models; a test reads one or two of them. Building and freezing
// all of them was a third of a process's first `createSimulator()`. A row of this table may
// instead hold how to make the model, and is made (once per process: the row object is shared by
// every simulator holding the table) when something first reads it. Every read of the Map
// interface (`get`, `values`, `entries`, iteration, `forEach`) answers made models, so the code
// that reads the table, and any copy made with `new Map(table)`, sees what an eager table holds.
import type { ModelWithEndpoints } from '../types.js'

/** A row not made yet: made by `make` on its first read, then kept. */
class Unmade {
  private made: ModelWithEndpoints | undefined
  constructor(private readonly make: () => ModelWithEndpoints) {}

  model(): ModelWithEndpoints {
    return (this.made ??= this.make())
  }

  isMade(): boolean {
    return this.made !== undefined
  }
}

type Row = ModelWithEndpoints | Unmade

const madeRow = (row: Row): ModelWithEndpoints => (row instanceof Unmade ? row.model() : row)

/** The Map's own methods, to read the rows as stored (made or not). */
const rawGet = Map.prototype.get as (this: Map<string, Row>, key: string) => Row | undefined
const rawEntries = Map.prototype.entries as (this: Map<string, Row>) => IterableIterator<[string, Row]>
const rawSet = Map.prototype.set as (this: Map<string, Row>, key: string, value: Row) => Map<string, Row>

/**
 * A Map of models by id whose rows may be made on first read. Writes (`set`, `delete`) and the
 * reads that need no row (`has`, `keys`, `size`) are the Map's own.
 */
export class ModelTable extends Map<string, ModelWithEndpoints> {
  /** A table of rows made on first read, in the order given: `make` is called at most once per row. */
  static lazy(rows: Iterable<readonly [string, () => ModelWithEndpoints]>): ModelTable {
    const table = new ModelTable()
    for (const [id, make] of rows) rawSet.call(table, id, new Unmade(make))
    return table
  }

  /** A table of its own with the same rows, made or not: what one made later is made for both. */
  copy(): ModelTable {
    const table = new ModelTable()
    for (const [id, row] of rawEntries.call(this)) rawSet.call(table, id, row)
    return table
  }

  /** How many rows are made (rows given made, by `set`, count too): what reading has cost so far. */
  madeCount(): number {
    let count = 0
    for (const [, row] of rawEntries.call(this)) if (!(row instanceof Unmade) || row.isMade()) count++
    return count
  }

  override get(id: string): ModelWithEndpoints | undefined {
    const row = rawGet.call(this, id)
    return row === undefined ? undefined : madeRow(row)
  }

  override *entries(): MapIterator<[string, ModelWithEndpoints]> {
    for (const [id, row] of rawEntries.call(this)) yield [id, madeRow(row)]
  }

  override *values(): MapIterator<ModelWithEndpoints> {
    for (const [, row] of rawEntries.call(this)) yield madeRow(row)
  }

  override [Symbol.iterator](): MapIterator<[string, ModelWithEndpoints]> {
    return this.entries()
  }

  override forEach(callback: (value: ModelWithEndpoints, key: string, map: Map<string, ModelWithEndpoints>) => void, thisArg?: unknown): void {
    for (const [id, model] of this.entries()) callback.call(thisArg, model, id, this)
  }
}

/** A copy of a models table: lazy rows stay lazy. */
export function copyModelTable(table: Map<string, ModelWithEndpoints>): Map<string, ModelWithEndpoints> {
  return table instanceof ModelTable ? table.copy() : new Map(table)
}
