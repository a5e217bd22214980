// OAuth PKCE over the node:http server (decisions/0049): the SDK's flow, and the token exchange's form body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'
import { sdkClient } from '../support/server.js'

const CALLBACK = 'https://myapp.example.com/openrouter/callback'

describe('over the node:http server', () => {
  let server: SimulatorServer
  const served = createSimulator()
  beforeAll(async () => {
    server = await startServer(served, { port: 0, control: false })
  })
  afterAll(() => server.close())

  it('runs the flow with the SDK, and reads the token exchange as a form', async () => {
    const { codeChallenge, codeVerifier } = await sdkClient(served.world.apiKey, server.url).oAuth.createSHA256CodeChallenge()
    const { data } = await sdkClient(served.world.apiKey, server.url).oAuth.createAuthCode({ requestBody: { callbackUrl: CALLBACK, codeChallenge, codeChallengeMethod: 'S256' } })
    const { key } = await sdkClient(undefined, server.url).oAuth.exchangeAuthCodeForAPIKey({ requestBody: { code: data.id, codeVerifier } })
    expect((await sdkClient(key, server.url).apiKeys.getCurrentKeyMetadata()).data.label).toBe(served.keys.get(served.oauth.codes.get(data.id)?.keyHash as string)?.label)
    const res = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: 'unsupported_grant_type', error_description: 'grant_type must be urn:ietf:params:oauth:grant-type:token-exchange, got "client_credentials"' })
  })
})
