// Choices drawn from the caller's uint32 source: every choice the generator makes goes through here,
// so the same source gives the same value (no Math.random, no clock).

/** A uint32 source seeded from a number: xorshift32, a state of 0 replaced by 1. */
export function uint32Source(seed: number): () => number {
  let state = seed >>> 0 || 1
  return () => {
    state ^= state << 13
    state >>>= 0
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    return state
  }
}

export class Draw {
  constructor(private readonly source: () => number) {}

  /** A uint32 from the source (whatever it returns, taken modulo 2^32). */
  u32(): number {
    return this.source() >>> 0
  }

  /** An integer in [min, max], both included (slightly biased for spans that do not divide 2^32; fine here). */
  int(min: number, max: number): number {
    if (max <= min) return min
    const span = max - min + 1
    if (span <= 4294967296) return min + (this.u32() % span)
    return Math.min(max, min + Math.floor(this.float() * span))
  }

  /** A float in [0, 1). */
  float(): number {
    return this.u32() / 4294967296
  }

  chance(p: number): boolean {
    return this.float() < p
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T
  }
}
