import { uniformInt } from 'pure-rand/distribution/uniformInt'
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus'

type Generator = ReturnType<typeof xoroshiro128plus>

const HEX = '0123456789abcdef'
const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/**
 * The simulator's seeded source of identifiers and default values. Its state is part of a
 * snapshot, so `restore` replays the same ids, and a failed create rolls it back.
 */
export class Random {
  private generator: Generator

  constructor(seed: number) {
    this.generator = xoroshiro128plus(seed)
  }

  getState(): readonly number[] {
    return this.generator.getState()
  }

  setState(state: readonly number[]): void {
    this.generator = xoroshiro128plusFromState(state)
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return uniformInt(this.generator, min, max)
  }

  /** A float in [0, 1). */
  float(): number {
    return this.int(0, 2 ** 30 - 1) / 2 ** 30
  }

  /** `true` with probability `p`. */
  chance(p: number): boolean {
    return this.float() < p
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Cannot pick from an empty list')
    return items[this.int(0, items.length - 1)] as T
  }

  /** A subset of `items`, in their original order, each kept with probability `p`. */
  subset<T>(items: readonly T[], p: number): T[] {
    return items.filter(() => this.chance(p))
  }

  hex(length: number): string {
    return this.fromAlphabet(HEX, length)
  }

  alphanumeric(length: number): string {
    return this.fromAlphabet(ALNUM, length)
  }

  /** A random (version 4, RFC 4122 variant) UUID in lower case. */
  uuid(): string {
    const h = this.hex(32)
    const variant = HEX[8 + this.int(0, 3)] as string
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
  }

  private fromAlphabet(alphabet: string, length: number): string {
    // Each character drawn as `this.int(0, size - 1)` draws it (pure-rand's uniformInt for a range
    // of at most 2^32): a 32-bit value, drawn again at or above the largest multiple of the size,
    // taken modulo the size. The same characters from the same draws (test/core/hot-paths.test.ts
    // checks it against uniformInt), without two calls per character: a key's secret and hash are
    // 128 of them. Character codes, then one string: a string grown a character at a time is a
    // chain of `length` pieces until something flattens it.
    const size = alphabet.length
    const limit = size > 2 ? Math.trunc(4294967296 / size) * size : 4294967296
    const generator = this.generator
    const codes = new Array<number>(length)
    for (let i = 0; i < length; i++) {
      let value = generator.next() + 2147483648
      while (value >= limit) value = generator.next() + 2147483648
      codes[i] = alphabet.charCodeAt(value % size)
    }
    return String.fromCharCode.apply(null, codes)
  }
}
