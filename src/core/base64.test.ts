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

  it('encodes 10 MiB in well under the second a string built a byte at a time took', () => {
    const bytes = Uint8Array.from({ length: 10 * 1024 * 1024 }, (_, i) => (i * 31) & 255)
    toBase64(bytes.subarray(0, 1024))
    const started = performance.now()
    const text = toBase64(bytes)
    const ms = performance.now() - started
    expect(text.length).toBe(13_981_016)
    // 35-40 ms on a 2-core machine under load; the old encoder took 0.8-1 s there.
    expect(ms).toBeLessThan(400)
  })
})
