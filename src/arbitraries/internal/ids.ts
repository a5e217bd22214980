import fc from 'fast-check'
import { maskSecret } from '../../core/store/mask.js'

const HEX = [...'0123456789abcdef']
const ALPHANUMERIC = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz']

/** 64 lower-case hex characters, the form of key hashes and of secret bodies. */
export const hex64: fc.Arbitrary<string> = fc.string({ unit: fc.constantFrom(...HEX), minLength: 64, maxLength: 64 })

/** A masked secret, as key labels show it: `sk-or-v1-0e6...1c96`. */
export const maskedSecret: fc.Arbitrary<string> = hex64.map((body) => maskSecret(`sk-or-v1-${body}`))

/** A user id: `user_` and 27 letters and digits (decisions/0003). */
export const userId: fc.Arbitrary<string> = fc
  .string({ unit: fc.constantFrom(...ALPHANUMERIC), minLength: 27, maxLength: 27 })
  .map((body) => `user_${body}`)

/** A version 4 UUID, as workspaces and guardrails carry. */
export const uuid: fc.Arbitrary<string> = fc.uuid({ version: 4 })
