// The Authorization header's grammar, checked in process through sim.handle (where the header
// arrives exactly as written; fetch would trim it): `Bearer`, in any case, then one or more spaces,
// the secret, and optional trailing spaces. Anything around that is malformed, never a match.
import { describe, expect, it } from 'vitest'
import { AUTH_MESSAGES, createSimulator } from '../../src/index.js'

const sim = createSimulator()
const secret = sim.world.managementKey
const statusOf = (authorization: string | null | undefined) =>
  sim.handle({ method: 'GET', path: '/keys', ...(authorization !== undefined && { authorization }) })
const reasonOf = (authorization: string) => {
  const response = statusOf(authorization)
  expect(response.status, JSON.stringify(authorization)).toBe(401)
  return (response.body as { error: { metadata: { reason: string } } }).error.metadata.reason
}

describe('the Authorization header', () => {
  it.each([
    ['one space', `Bearer ${secret}`],
    ['several spaces after the scheme', `Bearer    ${secret}`],
    ['trailing spaces', `Bearer ${secret}   `],
    ['leading spaces', `   Bearer ${secret}`],
    ['the scheme in capitals', `BEARER ${secret}`],
    ['the scheme in lower case', `bearer ${secret}`],
  ])('accepts %s', (_, header) => {
    expect(statusOf(header).status).toBe(200)
  })

  it.each([
    ['text before the scheme', `Token Bearer ${secret}`],
    ['a scheme glued to the secret', `Bearer${secret}`],
    ['text after the secret', `Bearer ${secret} extra`],
    ['a tab for the space', `Bearer\t${secret}`],
    ['a longer scheme', `Bearerx ${secret}`],
    ['the secret alone', secret],
  ])('answers 401 malformed to %s', (_, header) => {
    expect(reasonOf(header)).toBe('malformed')
  })

  it('treats a missing, null or blank header as anonymous: 401 "missing" on a management operation', () => {
    for (const header of [undefined, null, '', '   ']) {
      const response = statusOf(header)
      expect(response.status).toBe(401)
      expect((response.body as { error: { message: string } }).error.message).toBe(AUTH_MESSAGES.missing)
    }
  })

  it('answers 401 unknown to a well-formed header whose secret differs by one character', () => {
    expect(reasonOf(`Bearer ${secret.slice(0, -1)}${secret.endsWith('0') ? '1' : '0'}`)).toBe('unknown')
  })

  it('expires a key at expires_at exactly, and not a millisecond before', () => {
    const local = createSimulator()
    const expiresAt = local.clock.now().getTime() + 1_000
    const { key } = local.keys.create({ userId: local.world.userId, expiresAt })
    const call = () => local.handle({ method: 'GET', path: '/videos/models', authorization: `Bearer ${key}` })
    local.clock.advance(999)
    expect(call().status).toBe(200)
    local.clock.advance(1)
    const expired = call()
    expect(expired.status).toBe(401)
    expect((expired.body as { error: { metadata: { reason: string } } }).error.metadata.reason).toBe('expired')
  })
})
