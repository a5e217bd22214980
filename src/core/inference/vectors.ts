// The vectors `POST /embeddings` answers with (decisions/0030): unit vectors that are a function of
// the simulator's seed, the model and the input alone, so the same text gets the same vector in
// every process, on every machine, whatever came before it; and different texts get different ones.
//
// The input is hashed with cyrb53 (two 32-bit multiply-xorshift lanes, public domain, by bryc) and
// the 53 bits seed xoshiro128** (Blackman and Vigna, https://prng.di.unimi.it/) through splitmix32.
// Components are uniform in [-1, 1), normalised to unit length and rounded to float32, so the JSON
// numbers and the base64 of little-endian float32 carry exactly the same values. Pure: no node:.
import { toBase64 } from '../base64.js'

/** cyrb53 of a string (UTF-16 code units), as two 32-bit halves. */
function cyrb53(text: string): [number, number] {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507)
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507)
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return [h1 >>> 0, h2 >>> 0]
}

/** splitmix32: spreads a 32-bit value into a well-mixed one (for seeding the state). */
function splitmix32(x: number): number {
  let z = (x + 0x9e3779b9) | 0
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
  return (z ^ (z >>> 16)) >>> 0
}

/**
 * The embedding of one input: `dimensions` float32 values of unit L2 norm, from the seed, the model
 * and the input's key (its text, or its tokens). A shorter vector is the longer one's prefix,
 * renormalised (as OpenAI's `dimensions` shortens text-embedding-3 vectors).
 */
export function embeddingVector(seed: number, model: string, key: string, dimensions: number): Float32Array {
  const [h1, h2] = cyrb53(`${seed}\u0000${model}\u0000${key}`)
  let s0 = splitmix32(h1)
  let s1 = splitmix32(h2)
  let s2 = splitmix32(h1 ^ 0x5bd1e995)
  let s3 = splitmix32(h2 ^ 0x27d4eb2f)
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1
  const values = new Float64Array(dimensions)
  let sum = 0
  for (let i = 0; i < dimensions; i++) {
    // xoshiro128**
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0
    const t = s1 << 9
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotl(s3, 11)
    // The top 24 bits, as a value in [-1, 1).
    const x = (result >>> 8) / 8_388_608 - 1
    values[i] = x
    sum += x * x
  }
  const vector = new Float32Array(dimensions)
  if (sum === 0) {
    vector[0] = 1
    return vector
  }
  const scale = 1 / Math.sqrt(sum)
  for (let i = 0; i < dimensions; i++) vector[i] = (values[i] as number) * scale
  return vector
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k))
}

/** A vector as the service's `encoding_format: "base64"` sends it: its float32 values, little-endian, in base64. */
export function vectorToBase64(vector: Float32Array): string {
  const bytes = new Uint8Array(vector.length * 4)
  const view = new DataView(bytes.buffer)
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i] as number, true)
  return toBase64(bytes)
}

/** How many characters of vector JSON a simulator keeps (about 16 MiB: some 500 vectors of 1536 floats). */
const VECTOR_CACHE_CHARS = 16 * 2 ** 20

/**
 * The JSON text of vectors already made, per simulator (its EmbeddingsCache):
 * a suite embeds the same texts again and again, and writing 1536 floats as decimals costs far more
 * than making them. Values are a function of the seed, model, size, format and input, so a kept
 * text is always right; the oldest go first past {@link VECTOR_CACHE_CHARS}.
 */
export class VectorTexts {
  private readonly texts = new Map<string, string>()
  private chars = 0

  text(seed: number, model: string, key: string, dimensions: number, base64: boolean): string {
    const id = `${model}\u0000${dimensions}\u0000${base64 ? 'b' : 'f'}\u0000${key}`
    let text = this.texts.get(id)
    if (text !== undefined) return text
    const vector = embeddingVector(seed, model, key, dimensions)
    // Float32Array's join writes each value as the number it is, as JSON.stringify would.
    text = base64 ? `"${vectorToBase64(vector)}"` : `[${vector.join(',')}]`
    this.texts.set(id, text)
    this.chars += text.length + id.length
    for (const [oldest, kept] of this.texts) {
      if (this.chars <= VECTOR_CACHE_CHARS) break
      this.texts.delete(oldest)
      this.chars -= kept.length + oldest.length
    }
    return text
  }
}

/** How many bytes of answers' `data` a simulator keeps (the last few lists of vectors asked for). */
const DATA_CACHE_BYTES = 32 * 2 ** 20

const encoder = new TextEncoder()

/**
 * The `data` of answers already sent, as UTF-8 bytes, per list of inputs (model, size, format and
 * every input's key, in order): a suite that embeds the same list again is answered from these
 * bytes, with no 3 MB text to join, flatten and encode again for each request. The oldest go
 * first past {@link DATA_CACHE_BYTES}; a list over it alone is not kept.
 */
export class DataBytes {
  private readonly lists = new Map<string, Uint8Array>()
  private bytes = 0

  constructor(private readonly texts: VectorTexts) {}

  data(seed: number, model: string, keys: readonly string[], dimensions: number, base64: boolean): Uint8Array {
    const id = `${model}\u0000${dimensions}\u0000${base64 ? 'b' : 'f'}\u0000${keys.join('\u0000')}`
    const kept = this.lists.get(id)
    if (kept !== undefined) return kept
    const made = encoder.encode(dataText(this.texts, seed, model, keys, dimensions, base64))
    if (made.byteLength > DATA_CACHE_BYTES) return made
    this.lists.set(id, made)
    this.bytes += made.byteLength
    for (const [oldest, bytes] of this.lists) {
      if (this.bytes <= DATA_CACHE_BYTES) break
      this.lists.delete(oldest)
      this.bytes -= bytes.byteLength
    }
    return made
  }
}

/** The JSON of an answer's `data`: each vector's entry, in the inputs' order. */
export function dataText(texts: VectorTexts, seed: number, model: string, keys: readonly string[], dimensions: number, base64: boolean): string {
  const parts = new Array<string>(keys.length)
  for (let i = 0; i < keys.length; i++) parts[i] = `{"object":"embedding","embedding":${texts.text(seed, model, keys[i] as string, dimensions, base64)},"index":${i}}`
  return `[${parts.join(',')}]`
}

/**
 * One simulator's caches of embeddings: the JSON of vectors and the bytes of answers' data. Held
 * by the simulator (its InferenceRuntime), so they go with it; what they hold is a function of the
 * seed and the request alone, so a kept entry is always right.
 */
export class EmbeddingsCache {
  readonly texts = new VectorTexts()
  readonly data = new DataBytes(this.texts)
}
