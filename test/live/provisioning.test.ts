// The live tools and the provisioning operations: `import` brings the credits and every workspace
// (an empty one too, which no key names), and `check --allow-writes` creates, changes and deletes
// one throwaway key, and deletes it even when a step drifts. The project's own server stands in for
// the live service; everything binds 127.0.0.1 on port 0.
import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { THROWAWAY_KEY_NAME, checkService } from '../../src/live/check.js'
import { importWorld } from '../../src/live/index.js'
import { startServer } from '../../src/server/index.js'

describe('importWorld and the provisioning operations', () => {
  it('brings the credits, the deleted keys\' spending and every workspace, an empty one too', async () => {
    const live = createSimulator()
    const userId = live.world.userId
    live.credits.add({ userId, amount: 12.5 })
    const gone = live.keys.create({ userId, name: 'short-lived' })
    live.usage.record({ keyHash: gone.record.hash, cost: 0.75 })
    live.keys.delete(gone.record.hash)
    const empty = live.workspaces.create({ userId, name: 'Empty', slug: 'empty' })
    const server = await startServer(live, { port: 0 })
    try {
      const { world } = await importWorld({ baseUrl: server.url, managementKey: live.world.managementKey, now: live.clock.now() })
      const mine = createSimulator({ world })
      const admin = (world.handles as { managementKey: string }).managementKey
      const credits = (sim: Pick<typeof mine, 'handle'>, key: string) => sim.handle({ method: 'GET', path: '/credits', authorization: `Bearer ${key}` }).body
      expect(credits(mine, admin)).toEqual(credits(live, live.world.managementKey))
      expect(mine.workspaces.get(empty.id)?.slug).toBe('empty')
      const list = (sim: Pick<typeof mine, 'handle'>, key: string) => (sim.handle({ method: 'GET', path: '/workspaces', query: 'limit=100', authorization: `Bearer ${key}` }).body as { data: { id: string }[] }).data.map((w) => w.id)
      expect(list(mine, admin)).toEqual(list(live, live.world.managementKey))
    } finally {
      await server.close()
    }
  })
})

/** A proxy to `target` that answers the first DELETE with a 500, as a service that failed it once would. */
async function failingFirstDelete(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const origin = new URL(target).origin
  let failed = false
  const proxy: Server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      if (req.method === 'DELETE' && !failed) {
        failed = true
        res.writeHead(500, { 'content-type': 'application/json' })
        res.end('{"error":{"code":500,"message":"Internal Server Error"}}')
        return
      }
      const headers: Record<string, string> = {}
      for (const name of ['authorization', 'content-type']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name] as string
      const upstream = await fetch(new URL(req.url ?? '/', origin), { method: req.method ?? 'GET', headers, ...(chunks.length > 0 && { body: Buffer.concat(chunks) }) })
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
      res.end(Buffer.from(await upstream.arrayBuffer()))
    })()
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const { port } = proxy.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/api/v1`, close: () => new Promise<void>((resolve) => (proxy.closeAllConnections(), proxy.close(() => resolve()))) }
}

describe('checkService with allowWrites', () => {
  it('creates, updates and deletes one throwaway key with a zero limit, finds no drift, and leaves nothing behind', async () => {
    const live = createSimulator()
    const server = await startServer(live, { port: 0 })
    try {
      const before = live.keys.list().length
      const report = await checkService({ baseUrl: server.url, managementKey: live.world.managementKey, allowWrites: true })
      const writes = report.results.filter((r) => /throwaway|after DELETE/.test(r.rule))
      expect(writes.map((r) => [r.rule, r.verdict])).toEqual([
        ['shape POST /keys (throwaway key)', 'same'],
        ['shape PATCH /keys/{hash} (throwaway key)', 'same'],
        ['shape DELETE /keys/{hash} (throwaway key)', 'same'],
        ['404 GET /keys/{hash} after DELETE', 'same'],
      ])
      expect(report.requests.filter((r) => !r.startsWith('GET ')).map((r) => r.split(' ')[0])).toEqual(['POST', 'PATCH', 'DELETE'])
      expect(live.keys.list().length).toBe(before)
      expect(live.journal.list({ method: 'POST' })[0]?.requestBody).toBe(JSON.stringify({ name: THROWAWAY_KEY_NAME, limit: 0 }))
      // The secret the service showed once, in POST's answer, is nowhere in the report.
      const created = live.journal.list({ operation: 'createKey' })[0]?.response.body as { key: string }
      expect(JSON.stringify(report)).not.toContain(created.key.slice('sk-or-v1-'.length, 'sk-or-v1-'.length + 16))
    } finally {
      await server.close()
    }
  })

  it('deletes the throwaway key even when a step drifts', async () => {
    const live = createSimulator()
    const server = await startServer(live, { port: 0 })
    const proxy = await failingFirstDelete(server.url)
    try {
      const before = live.keys.list().length
      const report = await checkService({ baseUrl: proxy.url, managementKey: live.world.managementKey, allowWrites: true })
      expect(report.results.find((r) => r.rule === 'shape DELETE /keys/{hash} (throwaway key)')?.verdict).toBe('drift')
      expect(report.results.find((r) => r.rule === '404 GET /keys/{hash} after DELETE')?.verdict).toBe('skipped')
      // The rule's DELETE failed; the clean-up after the rules sent it again.
      expect(report.requests.filter((r) => r.startsWith('DELETE '))).toHaveLength(2)
      expect(live.keys.list().length).toBe(before)
    } finally {
      await proxy.close()
      await server.close()
    }
  })
})
