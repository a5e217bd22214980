// OAuth PKCE (decisions/0049): a code from POST /auth/keys/code (or sim.oauth.codes.create), its
// one exchange for a real key through POST /auth/keys, and that key on the money path; through the
// official SDK and plain fetch over MSW (test/server/oauth-pkce.test.ts: over node:http).
import { createHash } from 'node:crypto'
import type { ChatResult } from '@openrouter/sdk/models'
import { OAuthErrorResponse } from '@openrouter/sdk/models/errors'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { OAUTH_CODE_LIFETIME_MS, SimulatorErrorCode, createSimulator } from '../../src/index.js'
import { BASE, failureOf, sdkClient, simulatorErrorOf, useSimulatorServer } from '../support/server.js'

const sim = createSimulator()
const world = sim.world
const msw = useSimulatorServer()
beforeAll(() => msw.serve(sim))
beforeEach(() => sim.reset())

const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'
const S256 = createHash('sha256').update(VERIFIER).digest('base64url')
const CALLBACK = 'https://myapp.example.com/openrouter/callback'
const CHAT = { model: 'openai/gpt-4.1-mini' }

/** A plain JSON POST through MSW, as an app's own code would send it. */
async function post(path: string, body: unknown, key?: string): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (key !== undefined) headers['authorization'] = `Bearer ${key}`
  const res = await fetch(`${BASE}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
  return { status: res.status, body: await res.json() }
}

/** A code made over the wire with the world's regular key; its id. */
async function makeCode(fields: Record<string, unknown> = {}, key: string = world.apiKey): Promise<string> {
  const res = await post('/auth/keys/code', { callback_url: CALLBACK, code_challenge: S256, code_challenge_method: 'S256', ...fields }, key)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data.id as string
}

/** The workspace of the key of `secret`, as GET /key shows it. */
const workspaceOf = (secret: string): string => {
  const res = sim.handle({ method: 'GET', path: '/key', authorization: `Bearer ${secret}` })
  return (res.body as { data: { workspace_id: string } }).data.workspace_id
}

describe('the PKCE flow through the official SDK', () => {
  it('makes a code, exchanges it for a key of the organisation, and that key spends until its limit refuses', async () => {
    const app = sdkClient(world.apiKey)
    const { codeChallenge, codeVerifier } = await app.oAuth.createSHA256CodeChallenge()
    const expiresAt = new Date(sim.clock.nowMs() + 86_400_000)
    const created = await app.oAuth.createAuthCode({
      requestBody: { callbackUrl: CALLBACK, codeChallenge, codeChallengeMethod: 'S256', limit: 1e-9, usageLimitType: 'daily', expiresAt, keyLabel: 'My app' },
    })
    expect(created.data).toEqual({ id: expect.any(String), appId: expect.any(Number), createdAt: '2026-03-02T10:00:00.000000+00:00' })
    expect(created.data.appId).toBeGreaterThan(0)

    // The exchange asks for no key: the app calls it with the code its callback received.
    const exchanged = await sdkClient().oAuth.exchangeAuthCodeForAPIKey({ requestBody: { code: created.data.id, codeVerifier, codeChallengeMethod: 'S256' } })
    expect(exchanged).toEqual({ key: expect.stringMatching(/^sk-or-v1-[0-9a-f]{64}$/), userId: world.userId })

    const code = sim.oauth.codes.get(created.data.id)
    expect(code).toMatchObject({ usedAt: '2026-03-02T10:00:00.000Z', codeChallengeMethod: 'S256', keyLabel: 'My app' })
    const listed = await sdkClient(world.managementKey).apiKeys.list({ workspaceId: workspaceOf(world.apiKey) })
    const key = listed.data.find((k) => k.hash === code?.keyHash)
    expect(key).toMatchObject({ name: 'My app', limit: 1e-9, limitReset: 'daily', expiresAt, disabled: false, creatorUserId: world.userId })

    const spender = sdkClient(exchanged.key)
    const first = (await spender.chat.send({ chatRequest: { model: CHAT.model, messages: [{ role: 'user', content: 'Hello' }] } })) as ChatResult
    expect(first.choices[0]?.message.content).toEqual(expect.any(String))
    const refused = await failureOf(spender.chat.send({ chatRequest: { model: CHAT.model, messages: [{ role: 'user', content: 'Again' }] } }))
    expect(refused).toMatchObject({ statusCode: 403, message: 'Key limit exceeded (daily limit). Manage it using https://openrouter.ai/settings/keys' })
  })

  it('exchanges a plain challenge, and a code made without one needs no verifier', async () => {
    const plain = 'p'.repeat(43)
    const app = sdkClient(world.apiKey)
    const withPlain = await app.oAuth.createAuthCode({ requestBody: { callbackUrl: CALLBACK, codeChallenge: plain, codeChallengeMethod: 'plain' } })
    expect((await sdkClient().oAuth.exchangeAuthCodeForAPIKey({ requestBody: { code: withPlain.data.id, codeVerifier: plain, codeChallengeMethod: 'plain' } })).userId).toBe(world.userId)
    const without = await app.oAuth.createAuthCode({ requestBody: { callbackUrl: 'http://localhost:3000/cb' } })
    expect(sim.oauth.codes.get(without.data.id)).toMatchObject({ codeChallenge: null, codeChallengeMethod: null, keyLabel: 'localhost:3000' })
    expect((await sdkClient().oAuth.exchangeAuthCodeForAPIKey({ requestBody: { code: without.data.id } })).key).toMatch(/^sk-or-v1-/)
  })

  it('answers the token exchange as an organisation without federation policies, with an empty signing key set', async () => {
    const error = await failureOf(
      sdkClient().oAuth.createOauthToken({
        tokenExchangeRequest: {
          federationPolicyId: 'policy_1',
          grantType: 'urn:ietf:params:oauth:grant-type:token-exchange',
          subjectToken: 'eyJhbGciOiJFUzI1NiJ9.e30.sig',
          subjectTokenType: 'urn:ietf:params:oauth:token-type:jwt',
          scope: 'inference',
        },
      }),
    )
    expect(error).toBeInstanceOf(OAuthErrorResponse)
    expect(error).toMatchObject({ statusCode: 400, error: 'invalid_grant', errorDescription: expect.stringContaining('workload identity federation is not simulated') })
    expect(await sdkClient().oAuth.listOauthJwks()).toEqual({ keys: [] })
  })

  it("gives a fault's answer to the token endpoint the RFC 6749 shape its clients read", async () => {
    sim.faults.add({ operation: 'createOauthToken', respond: { status: 503 } })
    const error = await failureOf(
      sdkClient().oAuth.createOauthToken({
        tokenExchangeRequest: { federationPolicyId: 'p', grantType: 'urn:ietf:params:oauth:grant-type:token-exchange', subjectToken: 't', subjectTokenType: 'urn:ietf:params:oauth:token-type:jwt' },
      }),
    )
    expect(error).toBeInstanceOf(OAuthErrorResponse)
    expect(error).toMatchObject({ statusCode: 503, error: 'temporarily_unavailable', errorDescription: 'Service temporarily unavailable' })
  })
})

/** A 403 refusal of an exchange, with its message and reason. */
function expectRefused(res: { status: number; body: any }, reason: string, message: string): void {
  expect(res.status).toBe(403)
  expect(res.body.error).toEqual({ code: 403, message, metadata: { reason } })
}

describe('one use, expiry and the verifier', () => {
  it('refuses a second exchange of the same code with 403 code_used', async () => {
    const code = await makeCode()
    expect((await post('/auth/keys', { code, code_verifier: VERIFIER })).status).toBe(200)
    expectRefused(await post('/auth/keys', { code, code_verifier: VERIFIER }), 'code_used', 'Invalid code: it was already exchanged for a key at 2026-03-02T10:00:00.000000+00:00, and a code is used once')
  })

  it('accepts a code until OAUTH_CODE_LIFETIME_MS has passed on the simulator clock, then refuses it with 403 code_expired', async () => {
    const early = await makeCode()
    const late = await makeCode()
    sim.clock.advance(OAUTH_CODE_LIFETIME_MS - 1)
    expect((await post('/auth/keys', { code: early, code_verifier: VERIFIER })).status).toBe(200)
    sim.clock.advance(1)
    expectRefused(await post('/auth/keys', { code: late, code_verifier: VERIFIER }), 'code_expired', 'Invalid code: it expired at 2026-03-02T10:10:00.000000+00:00, 10 minutes after it was made')
  })

  it('refuses a wrong verifier with 403 verifier_mismatch, and leaves the code usable', async () => {
    const code = await makeCode()
    const wrong = await post('/auth/keys', { code, code_verifier: 'x'.repeat(43) })
    expect(wrong.status).toBe(403)
    expect(wrong.body.error.metadata).toEqual({ reason: 'verifier_mismatch' })
    expect(wrong.body.error.message).toBe("Invalid code_verifier: its S256 challenge is not the code_challenge the code was made with")
    // The plain verifier of an S256 code is the challenge itself: no match either.
    expect((await post('/auth/keys', { code, code_verifier: S256 })).status).toBe(403)
    expect((await post('/auth/keys', { code, code_verifier: VERIFIER })).status).toBe(200)
  })

  it('refuses an unknown code with 403 unknown_code, and one whose workspace was deleted with 403 workspace_deleted', async () => {
    expect((await post('/auth/keys', { code: 'no-such-code' })).body.error).toEqual({ code: 403, message: 'Invalid code: no authorization code matches it', metadata: { reason: 'unknown_code' } })
    const lab = sim.workspaces.create({ userId: world.userId, name: 'Lab', slug: 'lab' })
    const code = await makeCode({ workspace_id: lab.id }, world.managementKey)
    sim.workspaces.delete(lab.id)
    expect((await post('/auth/keys', { code, code_verifier: VERIFIER })).body.error.metadata).toEqual({ reason: 'workspace_deleted' })
  })

  it("names code_verifier when a challenged code's exchange lacks it, and code_challenge_method when it names another method", async () => {
    const code = await makeCode()
    expect((await post('/auth/keys', { code })).body.error.metadata).toEqual({ parameter: 'code_verifier', reason: 'is required: the code was made with a S256 code_challenge' })
    expect((await post('/auth/keys', { code, code_verifier: VERIFIER, code_challenge_method: 'plain' })).body.error.metadata).toEqual({
      parameter: 'code_challenge_method',
      reason: "must be S256, the method the code's challenge was made with",
      value: '"plain"',
    })
  })
})

describe('every bad body field is a 400 naming it', () => {
  const lengthy = 'l'.repeat(101)
  const codeCases: [string, Record<string, unknown>, string, string][] = [
    ['callback_url absent', { callback_url: undefined }, 'callback_url', 'is required'],
    ['callback_url not a URL', { callback_url: 'myapp' }, 'callback_url', 'must be an absolute URL'],
    ['callback_url plain http off localhost', { callback_url: 'http://myapp.example.com/cb' }, 'callback_url', 'must be an https URL, or an http URL on localhost or 127.0.0.1'],
    ['code_challenge not base64url SHA-256', { code_challenge: createHash('sha256').update(VERIFIER).digest('base64') }, 'code_challenge', 'must be the base64url SHA-256 of the verifier for S256: 43 characters of A-Z, a-z, 0-9, "-", "_", unpadded'],
    ['a plain code_challenge too short', { code_challenge: 'short', code_challenge_method: 'plain' }, 'code_challenge', 'must be the verifier itself for plain: 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~" (RFC 7636)'],
    ['code_challenge_method unknown', { code_challenge_method: 'S512' }, 'code_challenge_method', 'must be one of S256, plain'],
    ['code_challenge_method without a challenge', { code_challenge: undefined }, 'code_challenge_method', 'is given without code_challenge'],
    ['expires_at in the past', { expires_at: '2020-01-01T00:00:00Z' }, 'expires_at', 'must be later than now (2026-03-02T10:00:00.000000+00:00)'],
    ['expires_at not an instant', { expires_at: 'tomorrow' }, 'expires_at', 'must be an ISO 8601 instant with a time and an offset, such as 2026-12-31T23:59:59Z'],
    ['key_label over 100 characters', { key_label: lengthy }, 'key_label', 'must be at most 100 characters'],
    ['key_label empty', { key_label: '' }, 'key_label', 'must not be empty'],
    ['limit negative', { limit: -1 }, 'limit', 'must be at least 0'],
    ['limit null', { limit: null }, 'limit', 'must not be null'],
    ['usage_limit_type unknown', { usage_limit_type: 'yearly' }, 'usage_limit_type', 'must be one of daily, weekly, monthly'],
    ['workspace_id not a UUID', { workspace_id: 'production' }, 'workspace_id', 'must be a UUID'],
    ['an unknown field', { scope: 'inference' }, 'scope', expect.stringContaining('is not a field of this request') as unknown as string],
  ]
  it.each(codeCases)('POST /auth/keys/code: %s', async (_, fields, parameter, reason) => {
    const body: Record<string, unknown> = { callback_url: CALLBACK, code_challenge: S256, code_challenge_method: 'S256', ...fields }
    for (const name of Object.keys(body)) if (body[name] === undefined) delete body[name]
    const res = await post('/auth/keys/code', body, world.apiKey)
    expect(res.status).toBe(400)
    expect(res.body.error.metadata).toMatchObject({ parameter, reason })
    expect(sim.oauth.codes.list()).toEqual([])
  })

  const exchangeCases: [string, Record<string, unknown>, string, string][] = [
    ['code absent', {}, 'code', 'is required'],
    ['code empty', { code: '' }, 'code', 'must not be empty'],
    ['code not a string', { code: 42 }, 'code', 'must be a string'],
    ['code_verifier too short', { code: 'c', code_verifier: 'short' }, 'code_verifier', 'must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~" (RFC 7636)'],
    ['code_verifier with a reserved character', { code: 'c', code_verifier: `${'v'.repeat(43)}/` }, 'code_verifier', 'must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~" (RFC 7636)'],
    ['code_challenge_method unknown', { code: 'c', code_challenge_method: 'sha256' }, 'code_challenge_method', 'must be one of S256, plain'],
    ['an unknown field', { code: 'c', redirect_uri: CALLBACK }, 'redirect_uri', 'is not a field of this request (known fields: code, code_verifier, code_challenge_method)'],
  ]
  it.each(exchangeCases)('POST /auth/keys: %s', async (_, body, parameter, reason) => {
    const res = await post('/auth/keys', body)
    expect(res.status).toBe(400)
    expect(res.body.error.metadata).toMatchObject({ parameter, reason })
  })
})

describe('who may make a code, and for which workspace', () => {
  it('refuses a caller without a key with 401', async () => {
    expect((await post('/auth/keys/code', { callback_url: CALLBACK })).status).toBe(401)
  })

  it("answers another organisation's workspace as it answers a workspace that does not exist", async () => {
    const foreign = await post('/auth/keys/code', { callback_url: CALLBACK, workspace_id: world.otherTenant.workspaceId }, world.managementKey)
    const missing = await post('/auth/keys/code', { callback_url: CALLBACK, workspace_id: '00000000-0000-4000-8000-000000000000' }, world.managementKey)
    expect(foreign.status).toBe(400)
    expect(foreign.body.error.metadata).toEqual({ parameter: 'workspace_id', reason: 'is not a workspace of the caller', value: JSON.stringify(world.otherTenant.workspaceId) })
    expect(missing.body.error.metadata.reason).toBe(foreign.body.error.metadata.reason)
  })

  it("keeps a regular key to its own workspace (403), while a management key names any of its organisation's", async () => {
    const own = workspaceOf(world.apiKey)
    const other = Object.values(world.workspaces).find((id) => id !== own) as string
    const refused = await post('/auth/keys/code', { callback_url: CALLBACK, workspace_id: other }, world.apiKey)
    expect(refused.status).toBe(403)
    expect(refused.body.error.metadata).toEqual({ reason: 'other_workspace' })
    const code = await makeCode({ workspace_id: other }, world.managementKey)
    const exchanged = await post('/auth/keys', { code, code_verifier: VERIFIER })
    expect(workspaceOf(exchanged.body.key)).toBe(other)
  })

  it("makes the key in the asking organisation only: the other tenant does not see it", async () => {
    const globexKey = sim.keys.create({ userId: world.otherTenant.userId }).key
    const code = await makeCode({}, globexKey)
    const exchanged = await post('/auth/keys', { code, code_verifier: VERIFIER })
    expect(exchanged.body.user_id).toBe(world.otherTenant.userId)
    const hash = sim.oauth.codes.get(code)?.keyHash as string
    expect(sim.handle({ method: 'GET', path: `/keys/${hash}`, authorization: `Bearer ${world.managementKey}` }).status).toBe(404)
    expect(sim.handle({ method: 'GET', path: `/keys/${hash}`, authorization: `Bearer ${world.otherTenant.managementKey}` }).status).toBe(200)
  })
})

describe('sim.oauth.codes', () => {
  it('makes a code as a user approving an app would, for the code under test to exchange', async () => {
    const code = sim.oauth.codes.create({ userId: world.userId, codeChallenge: S256, codeChallengeMethod: 'S256', limit: 5, keyLabel: 'CLI' })
    expect(code).toMatchObject({
      callbackUrl: 'https://app.example.com/callback',
      workspaceId: world.workspaces.default,
      limit: 5,
      keyLabel: 'CLI',
      createdAt: '2026-03-02T10:00:00.000Z',
      expiresAt: '2026-03-02T10:10:00.000Z',
      usedAt: null,
      keyHash: null,
    })
    const exchanged = await post('/auth/keys', { code: code.code, code_verifier: VERIFIER })
    expect(sim.keys.get(sim.oauth.codes.get(code.code)?.keyHash as string)).toMatchObject({ name: 'CLI', limit: 5, workspace_id: world.workspaces.default })
    expect(exchanged.body.user_id).toBe(world.userId)
  })

  it('refuses a bad option with a SimulatorError naming it, and stores nothing', () => {
    expect(simulatorErrorOf(() => sim.oauth.codes.create({ userId: 'user_nobody' })).code).toBe(SimulatorErrorCode.UnknownUser)
    expect(simulatorErrorOf(() => sim.oauth.codes.create({ userId: world.userId, callbackUrl: 'ftp://x' })).argument).toBe('callbackUrl')
    expect(simulatorErrorOf(() => sim.oauth.codes.create({ userId: world.userId, codeChallenge: 'short', codeChallengeMethod: 'S256' })).argument).toBe('codeChallenge')
    expect(simulatorErrorOf(() => sim.oauth.codes.create({ userId: world.userId, codeChallengeMethod: 'plain' })).argument).toBe('codeChallengeMethod')
    expect(simulatorErrorOf(() => sim.oauth.codes.create({ userId: world.userId, limt: 1 } as never)).argument).toBe('limt')
    expect(sim.oauth.codes.list()).toEqual([])
  })

  it('is state: restore brings a used code back unused, reset drops it, and a world export does not carry it', async () => {
    const code = sim.oauth.codes.create({ userId: world.userId })
    const before = sim.snapshot()
    expect((await post('/auth/keys', { code: code.code })).status).toBe(200)
    sim.restore(before)
    expect(sim.oauth.codes.get(code.code)?.usedAt).toBeNull()
    expect((await post('/auth/keys', { code: code.code })).status).toBe(200)
    expect(createSimulator({ world: sim.exportWorld() }).oauth.codes.list()).toEqual([])
    sim.reset()
    expect(sim.oauth.codes.list()).toEqual([])
  })

  it('draws the same codes and app ids from the same seed', () => {
    const make = () => createSimulator({ world: 'empty' })
    const [a, b] = [make(), make()]
    const codes = [a, b].map((s) => s.oauth.codes.create({ userId: s.users.create({ name: 'Acme' }).id, callbackUrl: CALLBACK }))
    expect(codes[0]?.code).toBe(codes[1]?.code)
    expect(codes[0]?.appId).toBe(codes[1]?.appId)
  })
})
