// Keys and credits over a real HTTP server: the control route POST /__sim/credits, and the
// service's key writes with their bodies through the node:http adapter.
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { useHttpServer } from '../support/server.js'

const sim = createSimulator()
const world = sim.world
const server = useHttpServer(sim)

async function send(url: string, method: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  })
  const text = await res.text()
  // biome-ignore lint/suspicious/noExplicitAny: assertions read whatever the wire carries
  return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as any }
}

const admin = { authorization: `Bearer ${world.managementKey}` }

describe('POST /__sim/credits', () => {
  it("adds credits to an organisation and answers with its credits, which GET /credits then shows", async () => {
    const before = sim.credits.get(world.userId)
    const answer = await send(`${server.controlUrl}/credits`, 'POST', { userId: world.userId, amount: 12.34 })
    // The organisation as a world spec holds it, as POST /__sim/users answers: camelCase, credits in USD.
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ id: world.userId, credits: { total: before.total_credits + 12.34 } })
    expect((await send(`${server.url}/credits`, 'GET', undefined, admin)).body).toEqual({ data: { total_credits: before.total_credits + 12.34, total_usage: before.total_usage } })
  })

  it('refuses a bad amount, an unknown user and a misspelt field with the 400 naming it, and adds nothing', async () => {
    const before = sim.credits.get(world.userId)
    for (const [body, argument, code] of [
      [{ userId: world.userId, amount: -1 }, 'amount', 'INVALID_ARGUMENT'],
      [{ userId: 'user_nobody', amount: 1 }, 'userId', 'UNKNOWN_USER'],
      [{ userId: world.userId, amout: 1 }, 'amout', 'INVALID_ARGUMENT'],
    ] as const) {
      const answer = await send(`${server.controlUrl}/credits`, 'POST', body)
      expect(answer.status).toBe(400)
      expect(answer.body.error.metadata).toMatchObject({ argument, code })
    }
    expect(sim.credits.get(world.userId)).toEqual(before)
  })
})

describe('key writes through the HTTP server', () => {
  it('creates a key from a JSON body, reads it with its own secret, and deletes it', async () => {
    const created = await send(`${server.url}/keys`, 'POST', { name: 'Over HTTP', limit: 3 }, admin)
    expect(created.status).toBe(201)
    const secret = { authorization: `Bearer ${created.body.key}` }
    expect((await send(`${server.url}/key`, 'GET', undefined, secret)).body.data).toMatchObject({ label: created.body.data.label, limit: 3, is_management_key: false })
    expect((await send(`${server.url}/keys/${created.body.data.hash}`, 'PATCH', { limit: 1 }, admin)).body.data.limit_remaining).toBe(1)
    expect(await send(`${server.url}/keys/${created.body.data.hash}`, 'DELETE', undefined, admin)).toEqual({ status: 200, body: { deleted: true } })
    expect((await send(`${server.url}/key`, 'GET', undefined, secret)).status).toBe(401)
  })

  it('refuses a text/plain body and malformed JSON with the 400 naming body', async () => {
    const plain = await send(`${server.url}/keys`, 'POST', JSON.stringify({ name: 'x' }), { ...admin, 'content-type': 'text/plain' })
    expect(plain.status).toBe(400)
    expect(plain.body.error.metadata.parameter).toBe('body')
    const malformed = await send(`${server.url}/keys`, 'POST', '{"name":', admin)
    expect(malformed.body.error.metadata).toMatchObject({ parameter: 'body' })
  })
})
