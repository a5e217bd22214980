// The control API's OAuth code routes over HTTP (decisions/0049): a code made as
// `sim.oauth.codes.create` makes one, exchanged on the service's `POST /auth/keys`, read back used;
// a bad body is a 400 naming the field as the programmatic API does, an unknown code a 404.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { useHttpServer } from '../support/server.js'

const sim = createSimulator()
const world = sim.world
const server = useHttpServer(sim)

interface Answer {
  status: number
  body: any
}

async function send(url: string, method: string, body?: unknown): Promise<Answer> {
  const res = await fetch(url, { method, ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) })
  const text = await res.text()
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) }
}
const control = (method: string, path: string, body?: unknown): Promise<Answer> => send(`${server.controlUrl}${path}`, method, body)

const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-verifier'
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url')

describe('the control API: OAuth codes', () => {
  it('makes a code a client exchanges on POST /auth/keys, and shows it used afterwards', async () => {
    const made = await control('POST', '/oauth/codes', { userId: world.userId, callbackUrl: 'http://localhost:3000/callback', codeChallenge: CHALLENGE, codeChallengeMethod: 'S256', keyLabel: 'CLI sign-in', limit: 5 })
    expect(made.status).toBe(201)
    expect(made.body).toEqual(sim.oauth.codes.get(made.body.code))
    expect(made.body).toMatchObject({ userId: world.userId, workspaceId: world.workspaces.default, codeChallengeMethod: 'S256', keyLabel: 'CLI sign-in', limit: 5, usedAt: null, keyHash: null })
    expect(Date.parse(made.body.expiresAt) - Date.parse(made.body.createdAt)).toBe(600_000)

    const exchanged = await send(`${server.url}/auth/keys`, 'POST', { code: made.body.code, code_verifier: VERIFIER, code_challenge_method: 'S256' })
    expect(exchanged).toMatchObject({ status: 200, body: { key: expect.stringMatching(/^sk-or-v1-/), user_id: world.userId } })

    const read = await control('GET', `/oauth/codes/${made.body.code}`)
    expect(read.status).toBe(200)
    expect(read.body.usedAt).not.toBeNull()
    expect(sim.keys.get(read.body.keyHash)).toMatchObject({ name: 'CLI sign-in', limit: 5 })
    expect(await control('GET', '/oauth/codes')).toEqual({ status: 200, body: { data: [read.body] } })
  })

  it('lists codes oldest first, those POST /auth/keys/code made included', async () => {
    const first = (await control('POST', '/oauth/codes', { userId: world.userId })).body
    sim.clock.advance(1_000)
    const res = await fetch(`${server.url}/auth/keys/code`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ callback_url: 'https://myapp.example.com/callback' }),
    })
    const second = ((await res.json()) as { data: { id: string } }).data.id
    expect((await control('GET', '/oauth/codes')).body.data.map((c: { code: string }) => c.code)).toEqual([first.code, second])
  })

  it.each([
    ['an http callback off localhost', { callbackUrl: 'http://myapp.example.com/cb' }, 'callbackUrl', 'INVALID_ARGUMENT'],
    ['a padded S256 challenge', { codeChallenge: `${CHALLENGE}=`, codeChallengeMethod: 'S256' }, 'codeChallenge', 'INVALID_ARGUMENT'],
    ['a method without a challenge', { codeChallengeMethod: 'plain' }, 'codeChallengeMethod', 'INVALID_ARGUMENT'],
    ['a misspelt field', { keyLable: 'x' }, 'keyLable', 'INVALID_ARGUMENT'],
    ['a label over 100 characters', { keyLabel: 'x'.repeat(101) }, 'keyLabel', 'INVALID_ARGUMENT'],
    ['an unknown organisation', { userId: 'user_nobody' }, 'userId', 'UNKNOWN_USER'],
  ])('refuses %s with a 400 naming the field, and stores nothing', async (_, fields, argument, code) => {
    const answer = await control('POST', '/oauth/codes', { userId: world.userId, ...fields })
    expect(answer.status).toBe(400)
    expect(answer.body.error).toMatchObject({ code: 400, message: expect.stringMatching(/^Failed to /), metadata: { argument, code } })
    expect(sim.oauth.codes.list()).toEqual([])
  })

  it('refuses a body that is not an object, and answers 404 for an unknown code', async () => {
    expect((await control('POST', '/oauth/codes', [world.userId])).body.error.metadata).toMatchObject({ argument: 'body' })
    const unknown = await control('GET', '/oauth/codes/no-such-code')
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 404, message: 'Unknown OAuth code "no-such-code"', metadata: { reason: 'unknown_oauth_code', id: 'no-such-code' } } } })
  })

  it('journals no control request', async () => {
    await control('POST', '/oauth/codes', { userId: world.userId })
    await control('GET', '/oauth/codes')
    expect(sim.journal.list()).toEqual([])
  })
})
