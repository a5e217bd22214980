import { describe, expect, it } from 'vitest'
import { createSimulator } from '../simulator.js'
import { CatalogCache, providerSlug } from './catalog.js'

describe('CatalogCache', () => {
  it('keeps at most 256 pages, so a caller walking thousands of offsets does not grow it without end', () => {
    const sim = createSimulator({ world: 'empty' })
    for (let i = 0; i < 3; i++) sim.models.create({ id: `acme/m-${i}`, endpoints: [{}] })
    const models = new Map(sim.models.list().map((m) => [m.id, m]))
    const cache = new CatalogCache()
    const page = (offset: number) => cache.page(models, { outputs: 0, parameters: 0, offset, limit: 1, link: '/models?limit=1' })

    const first = page(0)
    for (let offset = 1; offset <= 1000; offset++) page(offset)

    expect((cache as unknown as { pages: Map<string, unknown> }).pages.size).toBeLessThanOrEqual(256)
    expect(page(0).text()).toBe(first.text())
  })
})

describe('providerSlug', () => {
  it('gives Google Vertex, whose endpoints are named "Google", its own slug, and derives the others from the name', () => {
    expect(providerSlug('Google')).toBe('google-vertex')
    expect(providerSlug('Google AI Studio')).toBe('google-ai-studio')
    expect(providerSlug('Sakana AI')).toBe('sakana-ai')
  })

  it('gives two names without an ASCII letter or digit two slugs', () => {
    expect(providerSlug('深度求索')).not.toBe(providerSlug('智谱'))
    expect(providerSlug('深度求索')).toBe(providerSlug('深度求索'))
  })
})
