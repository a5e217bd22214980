// BYOK provider credentials (decisions/0054): the five operations through the official SDK and
// sim.byok, tenancy, bad input, the control routes, world specs and snapshots.
import { beforeEach, describe, expect, it } from 'vitest'
import { byokFee, createSimulator, SimulatorErrorCode, type SimResponse } from '../../src/index.js'
import { estimateCost } from '../../src/pricing/index.js'
import { credentialFor, providerMatches } from '../../src/core/inference/byok.js'
import type { StoreContext } from '../../src/core/store/context.js'
import type { ByokState, KeyState } from '../../src/core/store/state.js'
import type { Endpoint } from '../../src/core/types.js'
import type { ChatResult } from '@openrouter/sdk/models'
import { createControlApi } from '../../src/core/control-api.js'
import { sdkClient, simulatorErrorOf, useSimulatorServer } from '../support/server.js'

const harness = useSimulatorServer()

type Sim = ReturnType<typeof createSimulator>

const manage = (sim: Sim, method: string, path: string, body?: unknown, secret = sim.world.managementKey) =>
  sim.handle({ method, path, authorization: `Bearer ${secret}`, ...(body !== undefined && { body: JSON.stringify(body) }) })

describe('BYOK credentials', () => {
  let sim: Sim
  beforeEach(() => {
    sim = createSimulator()
    harness.serve(sim)
  })

  it('creates, gets, lists, updates and deletes through the SDK, never answering the raw key', async () => {
    const sdk = sdkClient(sim.world.managementKey)
    const made = await sdk.byok.create({ createBYOKKeyRequest: { provider: 'openai', key: 'sk-proj-0123456789abcdef', name: 'Prod OpenAI', allowedModels: ['openai/gpt-4.1-mini'] } })
    expect(made.data).toMatchObject({ provider: 'openai', label: 'sk-...cdef', name: 'Prod OpenAI', workspaceId: sim.world.workspaces.default, sortOrder: 0, isByokOnly: false, isFallback: false, disabled: false, allowedModels: ['openai/gpt-4.1-mini'], allowedApiKeyHashes: null })
    expect(JSON.stringify(made)).not.toContain('0123456789abcdef')
    expect(sim.byok.secret(made.data.id)).toBe('sk-proj-0123456789abcdef')
    const second = await sdk.byok.create({ createBYOKKeyRequest: { provider: 'openai', key: 'sk-proj-second-000000', isFallback: true } })
    expect(second.data.sortOrder).toBe(1)
    // The SDK's type has no null workspace_id: a global credential is made with a raw null, or through sim.byok.
    sim.byok.create({ userId: sim.world.userId, provider: 'anthropic', key: 'sk-ant-0123456789', workspace: null })

    const got = await sdk.byok.get({ id: made.data.id })
    expect(got.data).toEqual(made.data)
    const listed = await sdk.byok.list({})
    expect(listed.result.totalCount).toBeGreaterThanOrEqual(3)
    expect(listed.result.data.some((c) => c.workspaceId === null)).toBe(true)
    const openai = await sdk.byok.list({ provider: 'openai', limit: 1, offset: 1 })
    expect(openai.result.totalCount).toBe(2)
    expect(openai.result.data.map((c) => c.id)).toEqual([second.data.id])

    const rotated = await sdk.byok.update({ id: made.data.id, updateBYOKKeyRequest: { key: 'sk-proj-rotated-9999', isByokOnly: true, allowedModels: null } })
    expect(rotated.data).toMatchObject({ label: 'sk-...999', isByokOnly: true, allowedModels: null, createdAt: made.data.createdAt })
    expect(sim.byok.secret(made.data.id)).toBe('sk-proj-rotated-9999')

    expect(await sdk.byok.delete({ id: made.data.id })).toEqual({ deleted: true })
    expect(manage(sim, 'GET', `/byok/${made.data.id}`).status).toBe(404)
  })

  it("answers another organisation's credential with 404 on get, update and delete", () => {
    const theirs = sim.byok.create({ userId: sim.world.otherTenant.userId, provider: 'openai', key: 'sk-globex-0123456789' })
    for (const [method, body] of [['GET'], ['PATCH', { disabled: true }], ['DELETE']] as const) {
      const res = manage(sim, method, `/byok/${theirs.id}`, body)
      expect(res.status, method).toBe(404)
      expect((res.body as { error: { metadata: unknown } }).error.metadata).toEqual({ resource: 'byok_key' })
    }
    expect((manage(sim, 'GET', '/byok').body as { total_count: number }).total_count).toBe(0)
    expect(sim.byok.get(theirs.id)?.disabled).toBe(false)
  })

  it('refuses every bad body field with a 400 naming it, and a regular key with 403', () => {
    const cases: [unknown, string][] = [
      [{ key: 'sk-1234567890' }, 'provider'],
      [{ provider: 'openai' }, 'key'],
      [{ provider: 'openai', key: '' }, 'key'],
      [{ provider: 'OpenAI', key: 'sk-1' }, 'provider'],
      [{ provider: 'openai', key: 'sk-1', workspace_id: 3 }, 'workspace_id'],
      [{ provider: 'openai', key: 'sk-1', allowed_models: 'x' }, 'allowed_models'],
      [{ provider: 'openai', key: 'sk-1', allowed_api_key_hashes: [''] }, 'allowed_api_key_hashes[0]'],
      [{ provider: 'openai', key: 'sk-1', allowed_user_ids: [1] }, 'allowed_user_ids[0]'],
      [{ provider: 'openai', key: 'sk-1', declared_zdr: 'no' }, 'declared_zdr'],
      [{ provider: 'openai', key: 'sk-1', disabled: 1 }, 'disabled'],
      [{ provider: 'openai', key: 'sk-1', is_byok_only: 'true' }, 'is_byok_only'],
      [{ provider: 'openai', key: 'sk-1', is_fallback: null }, 'is_fallback'],
      [{ provider: 'openai', key: 'sk-1', is_required: 0 }, 'is_required'],
      [{ provider: 'openai', key: 'sk-1', name: 5 }, 'name'],
      [{ provider: 'openai', key: 'sk-1', sort_order: 2 }, 'sort_order'],
    ]
    for (const [body, field] of cases) {
      const res = manage(sim, 'POST', '/byok', body)
      expect(res.status, field).toBe(400)
      expect((res.body as { error: { metadata: { parameter: string } } }).error.metadata.parameter, JSON.stringify(body)).toBe(field)
    }
    const { id } = sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-1234567890' })
    const patch = manage(sim, 'PATCH', `/byok/${id}`, { provider: 'anthropic' })
    expect((patch.body as { error: { metadata: { parameter: string } } }).error.metadata.parameter).toBe('provider')
    expect(manage(sim, 'POST', '/byok', { provider: 'openai', key: 'sk-1' }, sim.world.apiKey).status).toBe(403)
    expect(sim.handle({ method: 'GET', path: '/byok', query: 'workspace_id=production', authorization: `Bearer ${sim.world.managementKey}` }).status).toBe(400)
  })

  it('sim.byok refuses bad options naming them', () => {
    expect(simulatorErrorOf(() => sim.byok.create({ userId: sim.world.userId, provider: 'Open AI', key: 'k' }))).toMatchObject({ code: SimulatorErrorCode.InvalidArgument, argument: 'provider' })
    expect(simulatorErrorOf(() => sim.byok.update('00000000-0000-4000-8000-000000000000', { disabled: true }))).toMatchObject({ code: SimulatorErrorCode.UnknownByok })
    const { id } = sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-1234567890' })
    expect(simulatorErrorOf(() => sim.byok.update(id, { sortOrder: -1 }))).toMatchObject({ argument: 'sortOrder' })
  })

  it('survives snapshot, restore, reset to a world, and an exportWorld() round trip', () => {
    const kept = sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-proj-0123456789', isByokOnly: true, allowedApiKeyHashes: [sim.world.apiKeyHash] })
    const global = sim.byok.create({ userId: sim.world.userId, provider: 'anthropic', key: 'sk-ant-0123456789', workspace: null, isFallback: true })
    const snap = sim.snapshot()
    sim.byok.delete(kept.id)
    sim.byok.update(global.id, { disabled: true })
    sim.restore(snap)
    expect(sim.byok.list()).toEqual([kept, global])
    const world = sim.exportWorld()
    const again = createSimulator({ world })
    expect(again.byok.list()).toEqual([kept, global])
    expect(again.byok.secret(kept.id)).toBe('sk-proj-0123456789')
    expect(again.exportWorld()).toEqual(world)
  })

  it("deleting a workspace deletes its credentials, not the organisation's global ones, and the world still reloads", () => {
    const workspace = sim.workspaces.create({ userId: sim.world.userId, name: 'Agents', slug: 'agents' })
    const own = sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-proj-0123456789', workspace: workspace.id })
    const global = sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-proj-0123456789', workspace: null })
    sim.workspaces.delete(workspace.id)
    expect(sim.byok.get(own.id)).toBeUndefined()
    expect(sim.byok.list()).toEqual([global])
    expect(createSimulator({ world: sim.exportWorld() }).byok.list()).toEqual([global])
  })

  it('control routes make, list and delete credentials', () => {
    const control = createControlApi(sim)
    const api = { handle: (r: { method: string; path: string; body?: string }) => control.handle({ query: new URLSearchParams(), body: '', ...r }) }
    const made = api.handle({ method: 'POST', path: '/byok', body: JSON.stringify({ userId: sim.world.userId, provider: 'openai', key: 'sk-proj-0123456789' }) })
    expect(made.status).toBe(201)
    const id = ((made as { body: unknown }).body as { id: string }).id
    const listed = api.handle({ method: 'GET', path: '/byok' })
    expect(((listed as { body: unknown }).body as { data: { id: string }[] }).data.map((c) => c.id)).toEqual([id])
    // The export written in parts, as the server streams it, holds the credential as exportWorld() does.
    const parts = api.handle({ method: 'GET', path: '/world/export' }) as { parts: Iterable<string> }
    expect(JSON.parse([...parts.parts].join('')).byok).toEqual(sim.exportWorld().byok)
    expect(api.handle({ method: 'DELETE', path: `/byok/${id}` }).status).toBe(204)
    expect(api.handle({ method: 'DELETE', path: `/byok/${id}` }).status).toBe(404)
  })
})

describe('BYOK on the money path', () => {
  let sim: Sim
  beforeEach(() => {
    sim = createSimulator()
    harness.serve(sim)
  })
  const OPENAI_PRICING = { prompt: '0.0000004', completion: '0.0000016', input_cache_read: '0.0000001' }
  const ask = (path: string, body: Record<string, unknown>, secret = sim.world.apiKey) =>
    sim.handle({ method: 'POST', path, authorization: `Bearer ${secret}`, body: JSON.stringify({ model: 'openai/gpt-4.1-mini', ...body }) })
  const chatBody = { messages: [{ role: 'user', content: 'Hello there' }], provider: { order: ['openai'] } }
  type Usage = { prompt_tokens: number; completion_tokens: number; cost: number; is_byok: boolean; cost_details: { upstream_inference_cost: number | null } }
  /** The key's usage and BYOK usage, and the organisation's total usage, in USD. */
  const figures = async () => {
    const key = (await sdkClient(sim.world.managementKey).apiKeys.get({ hash: sim.world.apiKeyHash })).data
    const credits = (await sdkClient(sim.world.managementKey).credits.getCredits()).data
    return { usage: key.usage, byok: key.byokUsage, total: credits.totalUsage }
  }

  it('serves through the credential: is_byok, the upstream cost at the endpoint prices, and a 5% fee charged exactly', async () => {
    sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-proj-0123456789' })
    const before = await figures()
    const res = (await sdkClient(sim.world.apiKey).chat.send({ chatRequest: { model: 'openai/gpt-4.1-mini', messages: [{ role: 'user', content: 'Hello there' }], provider: { order: ['openai'] } } })) as ChatResult
    const usage = res.usage as NonNullable<ChatResult['usage']>
    expect(usage.isByok).toBe(true)
    const upstream = estimateCost(OPENAI_PRICING, { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens }, { at: sim.clock.nowMs() })
    expect(usage.costDetails?.upstreamInferenceCost).toBe(Number(upstream))
    // 5% of the exact decimal, exact: upstream × 5 / 100 in scaled integers.
    const [whole = '0', fraction = ''] = upstream.split('.')
    const fee = byokFee(upstream)
    const [feeWhole = '0', feeFraction = ''] = fee.split('.')
    expect(BigInt(feeWhole + feeFraction.padEnd(fraction.length + 2, '0'))).toBe(BigInt(whole + fraction) * 5n)
    expect(usage.cost).toBe(Number(fee))
    const after = await figures()
    expect(after.usage - before.usage).toBeCloseTo(Number(fee), 12)
    expect(after.byok - before.byok).toBeCloseTo(Number(upstream), 12)
    expect(after.total - before.total).toBeCloseTo(Number(fee), 12)

    const generation = (await sdkClient(sim.world.apiKey).generations.getGeneration({ id: res.id })).data
    expect(generation).toMatchObject({ isByok: true, upstreamInferenceCost: Number(upstream), totalCost: Number(fee) })
    expect(generation.providerResponses?.[0]?.isByok).toBe(true)
  })

  it("GET /activity reports what the provider billed through the credential as byok_usage_inference, beside the fee", () => {
    sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-proj-0123456789' })
    const served = (ask('/chat/completions', chatBody).body as { usage: Usage }).usage
    const plain = (ask('/chat/completions', { ...chatBody, provider: { order: ['azure'] } }).body as { usage: Usage }).usage
    expect(plain.is_byok).toBe(false)
    // The day ends: the activity covers completed UTC days.
    sim.clock.advance(24 * 60 * 60 * 1000)
    const rows = (sim.handle({ method: 'GET', path: '/activity', authorization: `Bearer ${sim.world.managementKey}` }).body as { data: { provider_name: string; usage: number; byok_usage_inference: number; model: string }[] }).data
    const mini = rows.filter((r) => r.model === 'openai/gpt-4.1-mini')
    const openai = mini.find((r) => r.provider_name === 'OpenAI')!
    const azure = mini.find((r) => r.provider_name === 'Azure')!
    expect(openai.byok_usage_inference).toBe(served.cost_details.upstream_inference_cost)
    expect(openai.usage).toBe(served.cost)
    expect(azure.byok_usage_inference).toBe(0)
    const query = sim.handle({ method: 'POST', path: '/analytics/query', authorization: `Bearer ${sim.world.managementKey}`, body: JSON.stringify({ metrics: ['byok_usage'], dimensions: ['provider'] }) })
    const byProvider = (query.body as { data: { data: { provider: string; byok_usage: number }[] } }).data.data
    expect(byProvider.find((r) => r.provider === 'OpenAI')?.byok_usage).toBe(served.cost_details.upstream_inference_cost)
  })

  it('a stream left early through a credential is billed upstream for the part sent, and charged 5% of that', () => {
    sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-proj-0123456789' })
    sim.inference.respond({ reply: { content: 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen' } })
    const key = sim.keys.create({ userId: sim.world.userId, name: 'streamer' })
    const response = ask('/chat/completions', { ...chatBody, stream: true }, key.key) as unknown as { body: { data: string }[]; cancel?: (frames: number) => boolean }
    expect(response.cancel?.(3)).toBe(true)
    const id = JSON.parse(response.body[1]!.data.slice(6)).id as string
    const generation = (sim.handle({ method: 'GET', path: '/generation', query: `id=${id}`, authorization: `Bearer ${key.key}` }).body as { data: { total_cost: number; upstream_inference_cost: number; tokens_prompt: number; tokens_completion: number; cancelled: boolean } }).data
    expect(generation.cancelled).toBe(true)
    const upstream = estimateCost(OPENAI_PRICING, { promptTokens: generation.tokens_prompt, completionTokens: generation.tokens_completion }, { at: sim.clock.nowMs() })
    expect(generation.upstream_inference_cost).toBe(Number(upstream))
    expect(generation.total_cost).toBe(Number(byokFee(upstream)))
    const figures = sim.keys.get(key.record.hash)!
    expect(figures.byok_usage).toBe(Number(upstream))
    expect(figures.usage).toBe(Number(byokFee(upstream)))
  })

  describe('"Use this key as a fallback" (is_fallback)', () => {
    type Answer = { usage: Usage; id: string }
    const attemptsOf = (id: string) =>
      ((sim.handle({ method: 'GET', path: '/generation', query: `id=${id}`, authorization: `Bearer ${sim.world.apiKey}` }).body as { data: { provider_responses: { provider_name: string; status: number; is_byok: boolean }[] } }).data.provider_responses).map((a) => [a.provider_name, a.status, a.is_byok])
    const only = { ...chatBody, provider: { order: ['openai'], allow_fallbacks: false } }

    it('a fallback credential serves only when the credits fail: the credits first, then the key on the same provider', () => {
      sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-proj-fallback', isFallback: true })
      const first = ask('/chat/completions', only).body as Answer
      expect(first.usage.is_byok).toBe(false)
      sim.faults.providerDown({ provider: 'OpenAI', once: true })
      const retried = ask('/chat/completions', only).body as Answer
      expect(retried.usage.is_byok).toBe(true)
      expect(attemptsOf(retried.id)).toEqual([['OpenAI', 502, false], ['OpenAI', 200, true]])
    })

    it('a fallback credential serves once the credits cannot pay', () => {
      const org = sim.users.create({ name: 'Small', credits: { total: 0.001 } })
      const { key } = sim.keys.create({ userId: org.id })
      const body = { ...only, max_tokens: 10_000 }
      expect(ask('/chat/completions', body, key).status).toBe(402)
      sim.byok.create({ userId: org.id, provider: 'openai', key: 'sk-proj-fallback', isFallback: true })
      const served = ask('/chat/completions', body, key)
      expect(served.status).toBe(200)
      expect((served.body as Answer).usage.is_byok).toBe(true)
    })

    it('a prioritized credential that fails is retried on the credits, unless a credential says is_byok_only', () => {
      const made = sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-proj-first' })
      sim.faults.providerDown({ provider: 'OpenAI', once: true })
      const retried = ask('/chat/completions', only).body as Answer
      expect(retried.usage.is_byok).toBe(false)
      expect(attemptsOf(retried.id)).toEqual([['OpenAI', 502, true], ['OpenAI', 200, false]])
      sim.byok.update(made.id, { isByokOnly: true })
      sim.faults.providerDown({ provider: 'OpenAI', once: true })
      expect(ask('/chat/completions', only).status).toBe(502)
    })
  })

  it("checks the credits against the fee's worst case, not the whole cost's, when a credential serves", () => {
    const org = sim.users.create({ name: 'Small', credits: { total: 0.001 } })
    const { key } = sim.keys.create({ userId: org.id })
    const body = (maxTokens: number) => ({ ...chatBody, max_tokens: maxTokens, provider: { order: ['openai'], allow_fallbacks: false } })
    // Without a credential, 10,000 tokens at 1.6 USD per million is 0.016 USD: more than the credits.
    expect(ask('/chat/completions', body(10_000), key).status).toBe(402)
    sim.byok.create({ userId: org.id, provider: 'openai', key: 'sk-proj-small' })
    // Through the credential the credits pay 5% of it, 0.0008 USD.
    expect(ask('/chat/completions', body(10_000), key).status).toBe(200)
    const refused = ask('/chat/completions', body(20_000), key)
    expect(refused.status).toBe(402)
    // What the credits left could pay the fee of: about twenty times what they could pay in full.
    const affordable = Number(/can only afford (\d+)/.exec((refused.body as { error: { message: string } }).error.message)?.[1])
    expect(affordable).toBeGreaterThan(11_000)
    expect(affordable).toBeLessThan(20_000)
  })

  it('says is_byok in the stream usage chunk, the Responses usage and the text completion usage', async () => {
    sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-proj-0123456789' })
    type Last = { isByok?: boolean; costDetails?: { upstreamInferenceCost?: number | null } | null }
    const stream = (await sdkClient(sim.world.apiKey).chat.send({ chatRequest: { model: 'openai/gpt-4.1-mini', messages: [{ role: 'user', content: 'Hello there' }], provider: { order: ['openai'] }, stream: true } })) as AsyncIterable<{ usage?: Last | null }>
    let last: Last | undefined
    for await (const chunk of stream) if (chunk.usage) last = chunk.usage
    expect(last?.isByok).toBe(true)
    expect(last?.costDetails?.upstreamInferenceCost).toBeGreaterThan(0)
    const responses = ask('/responses', { input: 'Hello there', provider: { order: ['openai'] } }).body as { usage: { is_byok: boolean; cost_details: { upstream_inference_cost: number } } }
    expect(responses.usage.is_byok).toBe(true)
    expect(responses.usage.cost_details.upstream_inference_cost).toBeGreaterThan(0)
    const text = ask('/completions', { prompt: 'Hello there', provider: { order: ['openai'] } }).body as { usage: Usage }
    expect(text.usage.is_byok).toBe(true)
  })

  it('serves without a credential that does not apply, and charges the whole cost', () => {
    sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-1234567890', allowedModels: ['openai/gpt-4.1'] })
    sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-1234567890', allowedApiKeyHashes: ['0'.repeat(64)] })
    sim.byok.create({ userId: sim.world.otherTenant.userId, provider: 'openai', key: 'sk-1234567890', workspace: null })
    sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-1234567890', workspace: sim.world.workspaces.production })
    sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-1234567890', disabled: true })
    const usage = (ask('/chat/completions', chatBody).body as { usage: Usage }).usage
    expect(usage.is_byok).toBe(false)
    expect(usage.cost_details.upstream_inference_cost).toBeNull()
    // A global credential of the organisation applies in every workspace.
    sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-1234567890', workspace: null })
    expect((ask('/chat/completions', chatBody).body as { usage: Usage }).usage.is_byok).toBe(true)
  })

  it('passes over an is_byok_only provider without an applicable credential, and answers the routing 404 when none is left', () => {
    sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-1234567890', isByokOnly: true, allowedModels: ['openai/gpt-4.1'] })
    const served = ask('/chat/completions', chatBody)
    expect(served.status).toBe(200)
    expect((served.body as { provider: string; usage: Usage }).provider).toBe('Azure')
    const only = ask('/chat/completions', { ...chatBody, provider: { only: ['openai'] } })
    expect(only.status).toBe(404)
    expect((only.body as { error: { message: string } }).error.message).toBe('No endpoints found matching your provider preferences')
  })

  it("counts the upstream cost toward a key's limit only under include_byok_in_limit, and the fee always", () => {
    sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-proj-0123456789', workspace: null })
    const run = (includeByokInLimit: boolean) => {
      const made = sim.keys.create({ userId: sim.world.userId, limit: 1, includeByokInLimit })
      const res = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${made.key}`, body: JSON.stringify({ model: 'openai/gpt-4.1-mini', ...chatBody }) })
      const usage = (res.body as { usage: Usage }).usage
      const key = sim.handle({ method: 'GET', path: '/key', authorization: `Bearer ${made.key}` }).body as { data: { usage: number; byok_usage: number; limit_remaining: number } }
      return { usage, key: key.data }
    }
    const without = run(false)
    expect(without.usage.is_byok).toBe(true)
    expect(without.key.usage).toBeCloseTo(without.usage.cost, 12)
    expect(without.key.byok_usage).toBeCloseTo(without.usage.cost_details.upstream_inference_cost as number, 12)
    expect(without.key.limit_remaining).toBeCloseTo(1 - without.usage.cost, 12)
    const withByok = run(true)
    expect(withByok.key.limit_remaining).toBeCloseTo(1 - withByok.usage.cost - (withByok.usage.cost_details.upstream_inference_cost as number), 12)
  })

  it('a stream cut short through a credential is charged the fee on what was sent', () => {
    sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-proj-0123456789' })
    const spentBefore = sim.credits.get(sim.world.userId).total_usage
    const res = ask('/chat/completions', { ...chatBody, messages: [{ role: 'user', content: 'Tell me a long story' }], stream: true }) as SimResponse & { cancel?: (framesSent: number) => boolean }
    const frames = res.body as { data: string }[]
    const id = JSON.parse((frames[1] as { data: string }).data.slice(6)).id as string
    const generation = () => (sim.handle({ method: 'GET', path: '/generation', query: `id=${id}`, authorization: `Bearer ${sim.world.apiKey}` }).body as { data: { total_cost: number; is_byok: boolean; cancelled: boolean; tokens_completion: number } }).data
    const whole = generation()
    expect(whole.is_byok).toBe(true)
    expect(res.cancel?.(1)).toBe(true)
    const cut = generation()
    expect(cut).toMatchObject({ cancelled: true, is_byok: true })
    expect(cut.total_cost).toBeLessThan(whole.total_cost)
    // The fee of what was sent is what the credits paid.
    expect(sim.credits.get(sim.world.userId).total_usage - spentBefore).toBeCloseTo(cut.total_cost, 12)
  })

  it('prefers non-fallback credentials, then the lowest sort_order', () => {
    const state = (id: string, extra: Partial<ByokState>): ByokState => ({
      id, userId: 'user_a', workspaceId: null, provider: 'openai', key: 'sk-000000', name: null, allowedApiKeyHashes: null, allowedModels: null, allowedUserIds: null,
      declaredZdr: null, disabled: false, isByokOnly: false, isFallback: false, isRequired: false, sortOrder: 0, createdAt: 0, ...extra,
    })
    const byok = new Map<string, ByokState>()
    for (const c of [state('fallback', { isFallback: true }), state('second', { sortOrder: 2 }), state('first', { sortOrder: 1, allowedApiKeyHashes: ['h'] }), state('azure', { provider: 'azure' })]) byok.set(c.id, c)
    const ctx = { data: { byok } } as unknown as StoreContext
    const key = { hash: 'h', userId: 'user_a', workspaceId: 'w', creatorUserId: null } as unknown as KeyState
    const endpoint = { tag: 'openai', provider_name: 'OpenAI' } as Endpoint
    const picked = () => credentialFor(ctx, key, 'openai/gpt-4.1-mini', endpoint)?.id
    expect(picked()).toBe('first')
    byok.set('first', state('first', { sortOrder: 1, allowedApiKeyHashes: ['other'] }))
    expect(picked()).toBe('second')
    byok.delete('second')
    expect(picked()).toBe('fallback')
    expect(credentialFor(ctx, key, 'openai/gpt-4.1-mini', { tag: 'google-vertex/europe', provider_name: 'Google Vertex' } as Endpoint)).toBeUndefined()
    expect(providerMatches('google-vertex', { tag: 'google-vertex/europe', provider_name: 'Google Vertex' } as Endpoint)).toBe(true)
    expect(providerMatches('google-vertex', { tag: 'vertex', provider_name: 'Google Vertex' } as Endpoint)).toBe(true)
  })
})
