import { beforeEach, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { call, callJson, useSimulatorServer } from '../support/server.js'

const harness = useSimulatorServer()
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

describe('GET /files/{file_id}/content', () => {
  let sim: ReturnType<typeof createSimulator>
  beforeEach(() => {
    sim = createSimulator()
    harness.serve(sim)
  })

  it('returns the stored bytes exactly, as octet-stream with length and filename', async () => {
    const bytes = new Uint8Array(256).map((_, i) => i) // every byte value, NUL and 0xff included
    sim.files.create({ userId: sim.world.userId, id: 'file_all_bytes', origin: 'server', bytes, filename: 'all-bytes.bin' })
    const res = await call('/files/file_all_bytes/content', { key: sim.world.managementKey })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/octet-stream')
    expect(res.headers.get('content-length')).toBe('256')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="all-bytes.bin"')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes)
  })

  it('serves an empty file', async () => {
    sim.files.create({ userId: sim.world.userId, id: 'empty', origin: 'server', bytes: new Uint8Array() })
    const res = await call('/files/empty/content', { key: sim.world.managementKey })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBe('0')
    expect((await res.arrayBuffer()).byteLength).toBe(0)
  })

  it('encodes a non-ASCII filename per RFC 5987', async () => {
    sim.files.create({ userId: sim.world.userId, id: 'resume', origin: 'server', bytes: new Uint8Array([1]), filename: 'résumé "final".pdf' })
    const res = await call('/files/resume/content', { key: sim.world.managementKey })
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="r_sum_ _final_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.pdf`,
    )
  })

  it('answers 400 for an uploaded file', async () => {
    const { status, body } = await callJson(`/files/${sim.world.files.upload}/content`, { key: sim.world.managementKey })
    expect(status).toBe(400)
    expect(body.error.message).toBe('Invalid request parameters')
    expect(body.error.metadata.parameter).toBe('file_id')
  })

  it.each([
    ['a 256-character id', 'a'.repeat(256), 404],
    ['a 257-character id', 'a'.repeat(257), 400],
    ['a dot', 'file.txt', 400],
    ['an encoded slash', 'a%2Fb', 400],
    ['a space', 'a%20b', 400],
    ['an empty id', '', 400],
    ['a malformed escape', '%zz', 400],
    ['letters, digits, _ and -', 'File_ID-09', 404],
  ])('checks the file id: %s (%j) gives %i', async (_, id, status) => {
    const res = await callJson(`/files/${id}/content`, { key: sim.world.managementKey })
    expect(res.status).toBe(status)
    if (status === 400) expect(res.body.error.metadata.parameter).toBe('file_id')
  })

  it('names a malformed escape in the file id, with the segment as sent', async () => {
    const res = await callJson('/files/a%zzb/content', { key: sim.world.managementKey })
    expect(res.status).toBe(400)
    expect(res.body.error.metadata).toEqual({ parameter: 'file_id', reason: 'is not valid percent-encoding', value: 'a%zzb' })
  })

  it('looks in the workspace named by workspace_id, else the default workspace', async () => {
    sim.files.create({ userId: sim.world.userId, id: 'file_eval_q1', workspaceId: sim.world.workspaces.production, origin: 'server', bytes: utf8('{"suite":"support-v3"}') })
    const inProduction = await call('/files/file_eval_q1/content', { key: sim.world.managementKey, query: { workspace_id: sim.world.workspaces.production } })
    expect(inProduction.status).toBe(200)
    expect(await inProduction.text()).toBe('{"suite":"support-v3"}')
    const inDefault = await call('/files/file_eval_q1/content', { key: sim.world.managementKey })
    expect(inDefault.status).toBe(404)
  })

  it('looks in the named provider storage, else the service storage', async () => {
    sim.files.create({ userId: sim.world.userId, id: 'file_batch_output', provider: 'openai', origin: 'server', bytes: utf8('{"id":"batch_req_1"}\n') })
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff])
    sim.files.create({ userId: sim.world.userId, id: 'file_thumbnail', provider: 'anthropic', origin: 'server', bytes: png })
    const openai = await call('/files/file_batch_output/content', { key: sim.world.managementKey, query: { provider: 'openai' } })
    expect(openai.status).toBe(200)
    const own = await call('/files/file_batch_output/content', { key: sim.world.managementKey })
    expect(own.status).toBe(404)
    const anthropic = await call('/files/file_thumbnail/content', { key: sim.world.managementKey, query: { provider: 'anthropic' } })
    expect(new Uint8Array(await anthropic.arrayBuffer())).toEqual(png)
    expect((await call('/files/file_thumbnail/content', { key: sim.world.managementKey, query: { provider: 'openai' } })).status).toBe(404)
  })

  it.each([
    ['provider', 'google', 'must be one of openai, anthropic'],
    ['provider', 'OpenAI', 'must be one of openai, anthropic'],
    ['workspace_id', 'production', 'must be a UUID'],
  ])('answers 400 for %s=%s', async (parameter, value, reason) => {
    const { status, body } = await callJson(`/files/${sim.world.files.report}/content`, { key: sim.world.managementKey, query: { [parameter]: value } })
    expect(status).toBe(400)
    expect(body.error.metadata).toEqual({ parameter, reason, value })
  })

  it("answers 404 for another tenant's file, even under the same id", async () => {
    // Both organisations hold a file with this id in their default workspace, with different bytes.
    const stored = (userId: string): Uint8Array | undefined => sim.files.list().find((f) => f.userId === userId && f.id === sim.world.files.report)?.bytes
    const acmeBytes = stored(sim.world.userId)
    const globexBytes = stored(sim.world.otherTenant.userId)
    expect(globexBytes).toBeDefined()
    expect(globexBytes).not.toEqual(acmeBytes)
    const mine = await call(`/files/${sim.world.files.report}/content`, { key: sim.world.managementKey })
    expect(new Uint8Array(await mine.arrayBuffer())).toEqual(acmeBytes)
    const theirs = await call(`/files/${sim.world.files.report}/content`, { key: sim.world.otherTenant.managementKey })
    expect(new Uint8Array(await theirs.arrayBuffer())).toEqual(globexBytes)
    const foreignWorkspace = await callJson(`/files/${sim.world.files.report}/content`, {
      key: sim.world.managementKey,
      query: { workspace_id: sim.users.get(sim.world.otherTenant.userId)?.defaultWorkspaceId ?? '' },
    })
    expect(foreignWorkspace.status).toBe(404)
    expect(foreignWorkspace.body.error.message).toBe('Resource not found')
  })

  it('answers 403 to a regular key', async () => {
    const res = await call(`/files/${sim.world.files.report}/content`, { key: sim.world.apiKey })
    expect(res.status).toBe(403)
    expect(res.headers.get('content-type')).toBe('application/json')
  })
})
