// Bytes as standard base64, the way world specs and the committed fixtures carry binary content.
// Core modules run in browsers too, so no Buffer here: the server hands the control API Buffer's
// encoder instead. A string built a byte at a time cost about a second per 10 MiB and stalled the
// server (decisions/0019); these are linear over typed arrays.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const CODES = Uint8Array.from(ALPHABET, (char) => char.charCodeAt(0))
const PAD = '='.charCodeAt(0)
const ascii = new TextDecoder()

/** The engine's own encoder where it has one (`Uint8Array.prototype.toBase64`, newer engines). */
const native = (Uint8Array.prototype as { toBase64?: (this: Uint8Array) => string }).toBase64

/** Standard base64 (A-Z, a-z, 0-9, +, /, padded with =) of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  if (native !== undefined) return native.call(bytes)
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4)
  const whole = bytes.length - (bytes.length % 3)
  let j = 0
  for (let i = 0; i < whole; i += 3) {
    const v = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number)
    out[j++] = CODES[v >>> 18] as number
    out[j++] = CODES[(v >>> 12) & 63] as number
    out[j++] = CODES[(v >>> 6) & 63] as number
    out[j++] = CODES[v & 63] as number
  }
  if (whole < bytes.length) {
    const two = bytes.length - whole === 2
    const v = ((bytes[whole] as number) << 16) | (two ? (bytes[whole + 1] as number) << 8 : 0)
    out[j++] = CODES[v >>> 18] as number
    out[j++] = CODES[(v >>> 12) & 63] as number
    out[j++] = two ? (CODES[(v >>> 6) & 63] as number) : PAD
    out[j++] = PAD
  }
  return ascii.decode(out)
}

/** Base64url (RFC 4648 section 5: `-` and `_` for `+` and `/`) of `bytes`, without padding, as PKCE writes an S256 challenge. */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** The bytes of standard base64 text, or undefined when it is not standard padded base64. */
export function fromBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** Bytes encoded at a time: 192 KiB, 256 KiB of base64. A multiple of 3, so the slices' base64 joins up. */
export const BASE64_SLICE = 3 * 64 * 1024

/** `encode(bytes)` in slices of {@link BASE64_SLICE} bytes, so that no step of a large body takes long. */
export function* base64Slices(bytes: Uint8Array, encode: (bytes: Uint8Array) => string): Generator<string> {
  for (let i = 0; i < bytes.length; i += BASE64_SLICE) yield encode(bytes.subarray(i, i + BASE64_SLICE))
}
