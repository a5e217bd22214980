// Presets (decisions/0050): state of an organisation, read through the official SDK and plain
// fetch, written by sim.presets and the preset routes, and used by `@preset/<slug>`, priced as the
// request the preset makes.
import { beforeEach, describe, expect, it } from 'vitest'
import { createSimulator, SimulatorErrorCode } from '../../src/index.js'
import { createControlApi } from '../../src/core/control-api.js'
import { callJson, sdkClient, simulatorErrorOf, useSimulatorServer } from '../support/server.js'

const harness = useSimulatorServer()

const CONFIG = { model: 'openai/gpt-4.1-mini', temperature: 0.2, max_tokens: 40, provider: { sort: 'price' } }
const PROMPT = 'You answer support tickets in two sentences.'

describe('presets', () => {
  let sim: ReturnType<typeof createSimulator>
  let userId: string
  beforeEach(() => {
    sim = createSimulator()
    harness.serve(sim)
    userId = sim.world.userId
  })

  const support = () => sim.presets.create({ userId, slug: 'support', name: 'Support', config: CONFIG, systemPrompt: PROMPT })

  /** A request through `sim.handle`, and the generation it left, as `GET /generation` reads it. */
  const spend = (path: string, body: Record<string, unknown>) => {
    const res = sim.handle({ method: 'POST', path, authorization: `Bearer ${sim.world.apiKey}`, body: JSON.stringify(body) })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const id = (res.body as { id: string }).id
    const generation = sim.handle({ method: 'GET', path: '/generation', query: `id=${id}`, authorization: `Bearer ${sim.world.apiKey}` })
    return { body: res.body as Record<string, unknown>, generation: (generation.body as { data: Record<string, unknown> }).data }
  }

  describe('read through the official SDK', () => {
    it('gets a preset with its current version, lists presets and versions, and reads one version', async () => {
      const created = support()
      sim.clock.advance(60_000)
      sim.presets.update({ userId, slug: 'support' }, { config: { ...CONFIG, temperature: 0.7 } })
      const sdk = sdkClient(sim.world.apiKey)

      const got = await sdk.presets.get({ slug: 'support' })
      expect(got.data.id).toBe(created.id)
      expect(got.data.designatedVersion?.version).toBe(2)
      expect(got.data.designatedVersion?.config).toEqual({ ...CONFIG, temperature: 0.7 })
      expect(got.data.designatedVersion?.systemPrompt).toBe(PROMPT)
      expect(got.data.designatedVersionId).toBe(got.data.designatedVersion?.id)

      const listed = await sdk.presets.list()
      expect(listed.result.totalCount).toBe(1)
      expect(listed.result.data.map((p) => p.slug)).toEqual(['support'])

      const versions = await sdk.presets.listVersions({ slug: 'support' })
      expect(versions.result.data.map((v) => v?.version)).toEqual([1, 2])
      expect(versions.result.data.map((v) => v?.config['temperature'])).toEqual([0.2, 0.7])

      const first = await sdk.presets.getVersion({ slug: 'support', version: '1' })
      expect(first.data?.config).toEqual(CONFIG)
      expect(first.data?.presetId).toBe(created.id)
    })

    it('lists most recently updated first, paged by limit and offset with the total', async () => {
      for (const slug of ['a', 'b', 'c']) {
        sim.presets.create({ userId, slug, config: { model: 'openai/gpt-4.1-mini' } })
        sim.clock.advance(1000)
      }
      const { status, body } = await callJson('/presets', { key: sim.world.apiKey, query: { limit: '2', offset: '1' } })
      expect(status).toBe(200)
      expect(body.total_count).toBe(3)
      expect(body.data.map((p: { slug: string }) => p.slug)).toEqual(['b', 'a'])
    })

    it("answers 404 for another organisation's preset, on every read", async () => {
      sim.presets.create({ userId: sim.world.otherTenant.userId, slug: 'support', config: CONFIG })
      for (const path of ['/presets/support', '/presets/support/versions', '/presets/support/versions/1']) {
        const { status, body } = await callJson(path, { key: sim.world.apiKey })
        expect(status, path).toBe(404)
        expect(body.error.metadata).toEqual({ resource: 'preset' })
      }
      expect((await callJson('/presets', { key: sim.world.apiKey })).body).toEqual({ data: [], total_count: 0 })
    })
  })

  describe('sim.presets', () => {
    it('refuses each bad argument, naming it, and changes nothing', () => {
      support()
      const cases: [() => unknown, string, string][] = [
        [() => sim.presets.create({ userId: 'user_nobody', slug: 'x' }), 'userId', SimulatorErrorCode.UnknownUser],
        [() => sim.presets.create({ userId, slug: 'Not A Slug' }), 'slug', SimulatorErrorCode.InvalidArgument],
        [() => sim.presets.create({ userId, slug: 'support' }), 'slug', SimulatorErrorCode.DuplicateSlug],
        [() => sim.presets.create({ userId, slug: 'x', name: '' }), 'name', SimulatorErrorCode.InvalidArgument],
        [() => sim.presets.create({ userId, slug: 'x', description: 3 as never }), 'description', SimulatorErrorCode.InvalidArgument],
        [() => sim.presets.create({ userId, slug: 'x', config: [] as never }), 'config', SimulatorErrorCode.InvalidArgument],
        // A class instance is no config, even one with no own fields to check (a Map's entries are not fields).
        [() => sim.presets.create({ userId, slug: 'x', config: new Map([['temperature', 0.5]]) as never }), 'config', SimulatorErrorCode.InvalidArgument],
        [() => sim.presets.create({ userId, slug: 'x', config: { temperature: () => 0.5 } as never }), 'config', SimulatorErrorCode.InvalidArgument],
        [() => sim.presets.create({ userId, slug: 'x', config: { temperature: 5 } }), 'config.temperature', SimulatorErrorCode.InvalidArgument],
        [() => sim.presets.create({ userId, slug: 'x', config: { messages: [] } }), 'config.messages', SimulatorErrorCode.InvalidArgument],
        [() => sim.presets.create({ userId, slug: 'x', systemPrompt: 1 as never }), 'systemPrompt', SimulatorErrorCode.InvalidArgument],
        [() => sim.presets.create({ userId, slug: 'x', id: 'nope' }), 'id', SimulatorErrorCode.InvalidArgument],
        [() => sim.presets.create({ userId, slug: 'x', createdAt: 'yesterday' }), 'createdAt', SimulatorErrorCode.InvalidArgument],
        [() => sim.presets.create({ userId, slug: 'x', slgu: 'y' } as never), 'slgu', SimulatorErrorCode.InvalidArgument],
        [() => sim.presets.update({ userId, slug: 'nope' }, { name: 'N' }), 'preset', SimulatorErrorCode.UnknownPreset],
        [() => sim.presets.update({ userId, slug: 'support' }, { config: { top_p: 2 } }), 'config.top_p', SimulatorErrorCode.InvalidArgument],
        [() => sim.presets.update({ userId, slug: 'support' }, { nmae: 'N' } as never), 'nmae', SimulatorErrorCode.InvalidArgument],
        [() => sim.presets.delete('00000000-0000-4000-8000-000000000000'), 'preset', SimulatorErrorCode.UnknownPreset],
        [() => sim.presets.versions(42 as never), 'preset', SimulatorErrorCode.InvalidArgument],
      ]
      const before = JSON.stringify(sim.exportWorld())
      for (const [action, argument, code] of cases) {
        const error = simulatorErrorOf(action)
        expect([error.argument, error.code], error.message).toEqual([argument, code])
      }
      expect(JSON.stringify(sim.exportWorld())).toBe(before)
    })

    it('leaves out a config field given as undefined, at any depth, as JSON would', () => {
      const created = sim.presets.create({ userId, slug: 'loose', config: { temperature: 0.5, max_tokens: undefined, provider: { sort: undefined, order: ['OpenAI'] } } as never })
      expect(created.designated_version?.config).toEqual({ temperature: 0.5, provider: { order: ['OpenAI'] } })
      // toEqual passes over a field held as undefined; the keys do not.
      const config = created.designated_version?.config as { provider: object }
      expect([Object.keys(config), Object.keys(config.provider)]).toEqual([['temperature', 'provider'], ['order']])
      // An undefined item of a list is no JSON (JSON.stringify would send null): refused.
      expect(simulatorErrorOf(() => sim.presets.create({ userId, slug: 'holes', config: { models: ['openai/gpt-4o', undefined] } as never })).argument).toBe('config')
    })

    it('makes a version only for a new config or system prompt, and deletes a preset whole', () => {
      const created = support()
      const renamed = sim.presets.update(created.id, { name: 'Support desk' })
      expect(renamed.designated_version?.version).toBe(1)
      const next = sim.presets.update(created.id, { systemPrompt: null })
      expect(next.designated_version).toMatchObject({ version: 2, system_prompt: null, config: CONFIG })
      sim.presets.delete(created.id)
      expect(sim.presets.get(created.id)).toBeUndefined()
      expect(sim.presets.list()).toEqual([])
    })

    it('is restored by a snapshot and reset, and travels in an exported world', () => {
      const saved = sim.snapshot()
      const created = support()
      sim.presets.update(created.id, { config: { model: 'openai/gpt-4.1' } })
      const spec = sim.exportWorld()
      const copy = createSimulator({ world: JSON.parse(JSON.stringify(spec)) })
      expect(copy.presets.list()).toEqual(sim.presets.list())
      expect(copy.presets.versions(created.id)).toEqual(sim.presets.versions(created.id))
      expect(copy.exportWorld().presets).toEqual(spec.presets)

      sim.restore(saved)
      expect(sim.presets.list()).toEqual([])
      support()
      sim.reset()
      expect(sim.presets.list()).toEqual([])
    })

    it('loads a hand-written world preset and reports a bad one by its path', () => {
      const world = sim.exportWorld()
      const loaded = createSimulator({ world: { ...world, presets: [{ userId, slug: 'hand', config: { model: 'openai/gpt-4.1-mini' }, systemPrompt: 'Hi.' }] } })
      expect(loaded.presets.get({ userId, slug: 'hand' })?.designated_version?.system_prompt).toBe('Hi.')
      const error = simulatorErrorOf(() => createSimulator({ world: { ...world, presets: [{ userId, slug: 'bad', versions: [{ config: {} }, { config: { seed: 'x' } }] }] } }))
      expect(error.argument).toBe('world.presets[0].versions[1].config.seed')
    })

    it('is created, changed and deleted through the control API', () => {
      const control = createControlApi(sim)
      const created = control.handle({ method: 'POST', path: '/presets', query: new URLSearchParams(), body: JSON.stringify({ userId, slug: 'support', config: CONFIG }) })
      expect(created.status).toBe(201)
      const id = (created as { body: { id: string } }).body.id
      const changed = control.handle({ method: 'PATCH', path: `/presets/${id}`, query: new URLSearchParams(), body: JSON.stringify({ systemPrompt: PROMPT }) })
      expect((changed as { body: { versions: unknown[] } }).body.versions).toHaveLength(2)
      // The export the server writes in parts is exportWorld() to the byte, presets included.
      const exported = control.handle({ method: 'GET', path: '/world/export', query: new URLSearchParams(), body: null }) as { parts: Iterable<string> }
      expect([...exported.parts].join('')).toBe(JSON.stringify(sim.exportWorld()))
      expect(control.handle({ method: 'DELETE', path: `/presets/${id}`, query: new URLSearchParams(), body: null }).status).toBe(204)
      expect(control.handle({ method: 'DELETE', path: `/presets/${id}`, query: new URLSearchParams(), body: null }).status).toBe(404)
    })
  })

  describe('used by a request', () => {
    const direct = { ...CONFIG, messages: [{ role: 'system', content: PROMPT }, { role: 'user', content: 'My order is late.' }] }

    it('prices @preset/<slug> exactly as the request it makes, and names the preset on the generation', () => {
      const preset = support()
      const viaPreset = spend('/chat/completions', { model: '@preset/support', messages: [{ role: 'user', content: 'My order is late.' }] })
      sim.reset()
      support()
      const plain = spend('/chat/completions', direct)
      expect(viaPreset.generation['total_cost']).toBe(plain.generation['total_cost'])
      expect(viaPreset.generation['tokens_prompt']).toBe(plain.generation['tokens_prompt'])
      expect(viaPreset.body['usage']).toEqual(plain.body['usage'])
      expect(viaPreset.generation['preset_id']).toBe(preset.id)
      expect(plain.generation['preset_id']).toBeNull()
    })

    it('lets the request win over the preset, field by field, with the three ways of naming it', () => {
      support()
      const overridden = spend('/chat/completions', { model: '@preset/support', max_tokens: 5, messages: [{ role: 'user', content: 'Write a long story.' }] })
      expect((overridden.body['usage'] as { completion_tokens: number }).completion_tokens).toBeLessThanOrEqual(5)
      const combined = spend('/chat/completions', { model: 'openai/gpt-4.1@preset/support', messages: [{ role: 'user', content: 'Hi' }] })
      expect(combined.body['model']).toMatch(/^openai\/gpt-4\.1-\d/)
      const field = spend('/chat/completions', { preset: 'support', messages: [{ role: 'user', content: 'Hi' }] })
      expect(field.body['model']).toMatch(/^openai\/gpt-4\.1-mini/)
    })

    it('fills a Responses request too: the prompt first in instructions, max_tokens as max_output_tokens', () => {
      support()
      const viaPreset = spend('/responses', { model: '@preset/support', input: 'My order is late.' })
      sim.reset()
      const plain = spend('/responses', { model: CONFIG.model, temperature: 0.2, max_output_tokens: 40, provider: CONFIG.provider, instructions: PROMPT, input: 'My order is late.' })
      expect(viaPreset.generation['total_cost']).toBe(plain.generation['total_cost'])
      expect(viaPreset.body['instructions']).toBe(PROMPT)
    })

    it("answers 404 for a preset the organisation does not have, another organisation's included", () => {
      sim.presets.create({ userId: sim.world.otherTenant.userId, slug: 'support', config: CONFIG })
      const res = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${sim.world.apiKey}`, body: JSON.stringify({ model: '@preset/support', messages: [{ role: 'user', content: 'Hi' }] }) })
      expect(res.status).toBe(404)
      expect((res.body as { error: { metadata: unknown } }).error.metadata).toEqual({ resource: 'preset', slug: 'support' })
    })
  })

  describe('the preset routes write a preset from an inference body', () => {
    it('creates, then versions, keeping only the config fields and the system messages as the prompt', async () => {
      const sdk = sdkClient(sim.world.apiKey)
      const first = await sdk.presets.createPresetsChatCompletions({
        slug: 'support',
        chatRequest: { model: 'openai/gpt-4.1-mini', temperature: 0.3, stream: false, messages: [{ role: 'system', content: PROMPT }, { role: 'user', content: 'Hi' }] },
      })
      expect(first.data.designatedVersion).toMatchObject({ version: 1, config: { model: 'openai/gpt-4.1-mini', temperature: 0.3 }, systemPrompt: PROMPT })
      const second = await sdk.presets.createPresetsResponses({ slug: 'support', responsesRequest: { model: 'openai/gpt-4.1', input: 'Hi', instructions: 'Be kind.', maxOutputTokens: 50 } } as never)
      expect(second.data.id).toBe(first.data.id)
      expect(second.data.designatedVersion).toMatchObject({ version: 2, config: { model: 'openai/gpt-4.1', max_tokens: 50 }, systemPrompt: 'Be kind.' })
      const third = await sdk.presets.createPresetsMessages({ slug: 'support', messagesRequest: { model: 'anthropic/claude-sonnet-4.5', maxTokens: 1024, system: 'Be short.', stopSequences: ['END'], messages: [{ role: 'user', content: 'Hi' }] } })
      expect(third.data.designatedVersion).toMatchObject({ version: 3, config: { model: 'anthropic/claude-sonnet-4.5', max_tokens: 1024, stop: ['END'] }, systemPrompt: 'Be short.' })
      expect(sim.presets.versions({ userId, slug: 'support' })).toHaveLength(3)
    })

    it('refuses a bad body field as the inference route does, and writes nothing', () => {
      const post = (path: string, body: unknown) => sim.handle({ method: 'POST', path, authorization: `Bearer ${sim.world.apiKey}`, body: JSON.stringify(body) })
      const cases: [string, unknown, string][] = [
        ['/presets/support/chat/completions', { model: 'openai/gpt-4.1-mini', messages: [] }, 'messages'],
        ['/presets/support/chat/completions', { model: 'openai/gpt-4.1-mini', top_p: 2, messages: [{ role: 'user', content: 'Hi' }] }, 'top_p'],
        ['/presets/support/responses', { model: 'openai/gpt-4.1-mini', input: 3 }, 'input'],
        ['/presets/support/messages', { max_tokens: 10, messages: [] }, 'model'],
        ['/presets/support/messages', { model: 'anthropic/claude-sonnet-4.5', stop_sequences: 'END', messages: [] }, 'stop_sequences'],
        ['/presets/support/messages', { model: 'anthropic/claude-sonnet-4.5', system: 3, messages: [] }, 'system'],
        ['/presets/Bad%20Slug/chat/completions', { model: 'openai/gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }] }, 'slug'],
      ]
      for (const [path, body, parameter] of cases) {
        const res = post(path, body)
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400)
        expect((res.body as { error: { metadata: { parameter: string } } }).error.metadata.parameter).toBe(parameter)
      }
      expect(sim.presets.list()).toEqual([])
    })
  })
})
