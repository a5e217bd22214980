import { describe, expect, it } from 'vitest'
import { fromBase64, toBase64 } from './base64.js'

describe('toBase64', () => {
  it('writes what Buffer writes, for every length up to 300 and every tail of 0, 1 or 2 bytes', () => {
    for (let n = 0; n <= 300; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 151 + n * 7) & 255)
      const text = toBase64(bytes)
      expect(text, `${n} bytes`).toBe(Buffer.from(bytes).toString('base64'))
      expect(fromBase64(text), `${n} bytes`).toEqual(bytes)
    }
  })

  it('encodes 10 MiB as btoa does, in pieces of whole 3-byte groups', () => {
    // Its speed (tens of milliseconds, where a string built a byte at a time took a second) is for a
    // benchmark to say, not a timed test on a shared machine.
    const bytes = Uint8Array.from({ length: 10 * 1024 * 1024 }, (_, i) => (i * 31) & 255)
    const text = toBase64(bytes)
    expect(text.length).toBe(13_981_016)
    const piece = 3 * 16_384
    for (let at = 0; at < bytes.length; at += piece * 17) {
      const chunk = bytes.subarray(at, at + piece)
      expect(text.slice((at / 3) * 4, (at / 3) * 4 + (chunk.length / 3) * 4)).toBe(btoa(String.fromCharCode(...chunk)))
    }
  })
})
