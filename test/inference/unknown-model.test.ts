// An unknown model id is a 400 that keeps the service's wording and suggests the nearest known ids
// (decisions/0038), on chat completions, the Responses API and embeddings. fast-check prints the
// seed and path of a failing run.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { editDistance, nearestIds } from '../../src/core/inference/nearest-ids.js'
import { ALPHA, chat, chatWorld } from './support.js'
import { runs } from '../support/runs.js'

const IDS = ['openai/gpt-4o', 'openai/gpt-4o-mini', 'openai/gpt-4.1', 'openai/gpt-5', 'anthropic/claude-haiku-4.5', 'anthropic/claude-sonnet-4.5', 'google/gemini-2.5-flash']

function catalogWorld() {
  const world = chatWorld()
  for (const id of IDS) world.sim.models.create({ id, endpoints: [ALPHA] })
  return world
}

/** Levenshtein's distance, written plainly (the full table), to check the bounded one against. */
function plainDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[]
      const up = rows[i - 1] as number[]
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
  }
  return (rows[a.length] as number[])[b.length] as number
}

describe('the 400 of an unknown model id', () => {
  it('suggests the nearest known ids, nearest first, in the message and in metadata.suggestions', () => {
    const { sim, key } = catalogWorld()
    expect(chat(sim, key, { model: 'openai/gpt-4o-mni' }).body.error).toEqual({
      code: 400,
      message: 'openai/gpt-4o-mni is not a valid model ID. Did you mean openai/gpt-4o-mini, openai/gpt-4o?',
      metadata: { parameter: 'model', reason: 'is not a valid model ID', value: 'openai/gpt-4o-mni', suggestions: ['openai/gpt-4o-mini', 'openai/gpt-4o'] },
    })
  })

  it('finds an id given without its author, and breaks ties of distance by id, three at most', () => {
    const { sim, key } = catalogWorld()
    // gpt-4o is 5 edits from gpt-4o-mini, past the radius of an 11-character id (2).
    expect(chat(sim, key, { model: 'gpt-4o-mini' }).body.error.message).toBe('gpt-4o-mini is not a valid model ID. Did you mean openai/gpt-4o-mini?')
    expect(chat(sim, key, { model: 'claude-haiku-4.5' }).body.error.metadata.suggestions).toEqual(['anthropic/claude-haiku-4.5'])
    // gpt-4.1, gpt-4o and gpt-5 are each 2 edits from gpt-4.5 (gpt-4o-mini is 6): by id, and three.
    expect(chat(sim, key, { model: 'openai/gpt-4.5' }).body.error.metadata.suggestions).toEqual(['openai/gpt-4.1', 'openai/gpt-4o', 'openai/gpt-5'])
  })

  it('keeps a variant suffix on its suggestions, and suggests nothing far from every known id', () => {
    const { sim, key } = catalogWorld()
    expect(chat(sim, key, { model: 'anthropic/claude-haiku-4-5:nitro' }).body.error.message).toBe('anthropic/claude-haiku-4-5:nitro is not a valid model ID. Did you mean anthropic/claude-haiku-4.5:nitro?')
    expect(chat(sim, key, { model: 'mistralai/mistral-large' }).body.error).toEqual({
      code: 400,
      message: 'mistralai/mistral-large is not a valid model ID',
      metadata: { parameter: 'model', reason: 'is not a valid model ID', value: 'mistralai/mistral-large' },
    })
  })

  it('names the fallback entry it refuses, with its suggestions', () => {
    const { sim, key } = catalogWorld()
    expect(chat(sim, key, { model: 'openai/gpt-4o', models: ['google/gemini-2.5-flsh'] }).body.error).toMatchObject({
      message: 'google/gemini-2.5-flsh is not a valid model ID. Did you mean google/gemini-2.5-flash?',
      metadata: { parameter: 'models[0]' },
    })
  })

  it('suggests on the Responses API and on embeddings too', () => {
    const { sim, key } = catalogWorld()
    const post = (path: string, body: Record<string, unknown>) => sim.handle({ method: 'POST', path, authorization: `Bearer ${key}`, body: JSON.stringify(body) }).body as any
    expect(post('/responses', { model: 'openai/gpt5', input: 'Hi' }).error.message).toBe('openai/gpt5 is not a valid model ID. Did you mean openai/gpt-5?')
    sim.models.create({ id: 'openai/text-embedding-3-small', architecture: { output_modalities: ['embeddings'] }, endpoints: [ALPHA] })
    expect(post('/embeddings', { model: 'openai/text-embedding-3-smal', input: 'Hi' }).error.message).toBe('openai/text-embedding-3-smal is not a valid model ID. Did you mean openai/text-embedding-3-small?')
  })

  it('stays quick over a catalog of 400 ids', () => {
    const { sim, key } = chatWorld()
    for (let i = 0; i < 400; i++) sim.models.create({ id: `vendor${i % 40}/model-${i}-instruct`, endpoints: [ALPHA] })
    const started = performance.now()
    for (let i = 0; i < 50; i++) expect(chat(sim, key, { model: `vendor${i}/model-${i * 7}-instrct` }).status).toBe(400)
    // Generous, against a slow shared machine: 50 refusals, each measuring 400 ids.
    expect(performance.now() - started).toBeLessThan(2000)
  })
})

describe('the bounded edit distance', () => {
  it('equals Levenshtein\'s distance whenever that is within the limit, and is past the limit otherwise', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), fc.nat({ max: 8 }), (a, b, limit) => {
        const plain = plainDistance(a, b)
        const bounded = editDistance(a, b, limit)
        expect(plain <= limit ? bounded === plain : bounded === limit + 1).toBe(true)
      }),
      { verbose: true, numRuns: runs(300) },
    )
  })

  it('gives the same suggestions whatever the order of the known ids', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(IDS, { minLength: 1 }), fc.constantFrom('gpt-4o', 'openai/gpt-4', 'claude-sonnet-4', 'x'), (ids, asked) => {
        expect(nearestIds(asked, ids)).toEqual(nearestIds(asked, [...ids].reverse()))
      }),
      { verbose: true, numRuns: runs(100) },
    )
  })
})
