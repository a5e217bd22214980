// The pure SHA-256 of src/core (the PKCE exchange's S256 check) against node:crypto's.
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toBase64Url } from '../../src/core/base64.js'
import { sha256 } from '../../src/core/sha256.js'
import { s256Challenge } from '../../src/core/operations/oauth.js'

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')

describe('sha256', () => {
  it('gives the FIPS 180-4 digests of the standard messages', () => {
    expect(hex(sha256(new Uint8Array(0)))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    expect(hex(sha256(new TextEncoder().encode('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })

  it('agrees with node:crypto at every length around the block and padding edges', () => {
    for (let length = 0; length <= 200; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 131 + length) & 255)
      expect(hex(sha256(bytes)), `${length} bytes`).toBe(createHash('sha256').update(bytes).digest('hex'))
    }
  })

  it('agrees with node:crypto over random messages', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => hex(sha256(bytes)) === createHash('sha256').update(bytes).digest('hex')),
      { numRuns: 200 },
    )
  })

  it('makes the S256 challenge of RFC 7636 appendix B, and base64url as node:crypto writes it', () => {
    expect(s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => toBase64Url(bytes) === Buffer.from(bytes).toString('base64url')))
  })
})
