import fc from 'fast-check'
import { GetPresetResponse$inboundSchema } from '@openrouter/sdk/models/getpresetresponse.js'
import { describe, expect, it } from 'vitest'
import { type PresetWithVersion, preset } from '../../src/arbitraries/index.js'
import { PRESET_SLUG } from '../../src/core/store/presets.js'
import { createSimulator } from '../../src/index.js'
import { SERVICE_TIMESTAMP, UUID_V4, expectSdkParses, sampleOf, settings, shrunk } from './support.js'

/** The preset loaded into a fresh simulator through a world spec, as `GET /presets/{slug}` then answers it. */
function loadedBack(p: PresetWithVersion): unknown {
  const version = p.designated_version as NonNullable<PresetWithVersion['designated_version']>
  const earlier = Array.from({ length: version.version - 1 }, () => ({ createdAt: p.created_at }))
  const sim = createSimulator({
    world: {
      format: 'model-access-sim/world@1',
      now: '2026-03-02T10:00:00Z',
      users: [{ id: p.creator_user_id as string, ...(p.workspace_id === null ? {} : { defaultWorkspaceId: p.workspace_id }) }],
      presets: [{
        id: p.id, userId: p.creator_user_id as string, slug: p.slug, name: p.name, description: p.description, createdAt: p.created_at, updatedAt: p.updated_at,
        versions: [...earlier, { id: version.id, config: version.config, systemPrompt: version.system_prompt, createdAt: version.created_at }],
      }],
    },
  })
  const key = sim.keys.create({ userId: p.creator_user_id as string, name: 'reader' })
  const res = sim.handle({ method: 'GET', path: `/presets/${p.slug}`, authorization: `Bearer ${key.key}` })
  expect(res.status).toBe(200)
  return (res.body as { data: unknown }).data
}

describe('preset', () => {
  it('every preset is one the SDK parses', () => {
    fc.assert(fc.property(preset(), (p) => expectSdkParses(GetPresetResponse$inboundSchema, { data: p })), settings)
  })

  it('slugs are in the service form, ids UUIDs tied to the version, and timestamps ordered', () => {
    fc.assert(
      fc.property(preset(), (p) => {
        expect(p.slug).toMatch(PRESET_SLUG)
        expect(p.id).toMatch(UUID_V4)
        expect(p.designated_version).toMatchObject({ id: p.designated_version_id, preset_id: p.id, creator_id: p.creator_user_id })
        for (const at of [p.created_at, p.updated_at, p.designated_version?.created_at as string]) expect(at).toMatch(SERVICE_TIMESTAMP)
        expect(Date.parse(p.designated_version?.created_at as string)).toBeGreaterThanOrEqual(Date.parse(p.created_at))
        expect(Date.parse(p.updated_at)).toBeGreaterThanOrEqual(Date.parse(p.designated_version?.created_at as string))
      }),
      settings,
    )
  })

  it('every preset loads through a world spec and reads back the same (its workspace the organisation default)', () => {
    fc.assert(
      fc.property(preset(), (p) => {
        const { workspace_id, ...rest } = p
        expect(loadedBack(p)).toMatchObject(workspace_id === null ? rest : p)
      }),
      { ...settings, numRuns: Math.min(settings.numRuns, 60) },
    )
  })

  it('honours the created_at bounds', () => {
    fc.assert(
      fc.property(preset({ minCreatedAt: Date.UTC(2025, 11, 31, 23, 59), maxCreatedAt: Date.UTC(2026, 0, 1) }), (p) => {
        expect(Date.parse(p.created_at)).toBeGreaterThanOrEqual(Date.UTC(2025, 11, 31, 23, 59))
        expect(Date.parse(p.created_at)).toBeLessThanOrEqual(Date.UTC(2026, 0, 1))
      }),
      settings,
    )
    expect(() => preset({ maxCretedAt: 1 } as never)).toThrow(/maxCretedAt/)
  })

  it('comes up with empty configs, later versions, null prompts and both slug joints', () => {
    const presets = sampleOf(preset())
    expect(presets.some((p) => Object.keys(p.designated_version?.config ?? {}).length === 0)).toBe(true)
    expect(presets.some((p) => (p.designated_version?.version ?? 0) > 1)).toBe(true)
    expect(presets.some((p) => p.designated_version?.system_prompt === null)).toBe(true)
    expect(presets.some((p) => p.slug.includes('-'))).toBe(true)
    expect(presets.some((p) => p.slug.includes('_'))).toBe(true)
  })

  it('shrinks a preset with a temperature to a bare one: version 1, one-letter slug, only temperature 0', () => {
    const minimal = shrunk(preset(), (p) => p.designated_version?.config['temperature'] === undefined)
    expect(minimal.designated_version).toMatchObject({ version: 1, config: { temperature: 0 }, system_prompt: null })
    expect(minimal).toMatchObject({ slug: 'a', description: null, created_at: '2026-03-02T00:00:00.000000+00:00' })
  })
})
