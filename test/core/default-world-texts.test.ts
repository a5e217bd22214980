// The default world as the built package carries it (decisions/0067): three JSON texts, read from
// a file on Node (src/world-data/node.ts) or embedded elsewhere (src/world-data/texts.ts), parsed a
// part at a time. These check the texts against the world's JSON module, which is what the source
// tree (and so the rest of the suite) loads; test/pack/default-world.mjs checks the built modules,
// the embedded texts against the file among them.
import { describe, expect, it } from 'vitest'
import spec from '../../src/core/worlds/default-world.json' with { type: 'json' }
import { defaultWorldSource, type DefaultWorldTexts, worldFileText, worldTexts } from '../../src/core/worlds/default-world-texts.js'
import { defaultWorldTexts as nodeTexts, worldTextsFromFile } from '../../src/world-data/node.js'

const texts = worldTexts(spec)

describe('the default world as texts', () => {
  it('parse back to the same spec, whole or a model at a time', () => {
    const source = defaultWorldSource(() => texts)
    expect(source.defaultWorldSpec()).toEqual(spec)
    const parts = source.defaultWorldParts()
    expect(parts.spec).toEqual({ ...spec, models: [] })
    expect(parts.models.map(([id]) => id)).toEqual(spec.models.map((model) => model.id))
    parts.models.forEach(([, read], i) => expect(read()).toEqual(spec.models[i]))
  })

  it('are read once, on the first call, and each model parsed once', () => {
    let reads = 0
    const source = defaultWorldSource(() => {
      reads++
      return texts
    })
    expect(reads).toBe(0)
    const parts = source.defaultWorldParts()
    expect(reads).toBe(1)
    expect(source.defaultWorldParts()).toBe(parts)
    const [, read] = parts.models[3]!
    expect(read()).toBe(read())
    expect(source.defaultWorldSpec()).toBe(source.defaultWorldSpec())
    expect(reads).toBe(1)
  })

  it('keep a model whose text holds non-ASCII characters and escapes exact', () => {
    const odd = { ...spec, models: [{ ...spec.models[0]!, id: 'a/é-模型', name: 'Line\nbreak "quoted" \u2028 😀' }, spec.models[1]!] }
    const source = defaultWorldSource(() => worldTextsFromFile(worldFileText(worldTexts(odd))))
    expect(source.defaultWorldSpec()).toEqual(odd)
    expect(source.defaultWorldParts().models.map(([id, read]) => [id, read()])).toEqual(odd.models.map((model) => [model.id, model]))
  })
})

describe('the default world file (the Node build)', () => {
  it('is three JSON lines that read back to the same texts', () => {
    const file = worldFileText(texts)
    expect(file.split('\n')).toHaveLength(4)
    expect(file.endsWith('\n')).toBe(true)
    expect(worldTextsFromFile(file)).toEqual<DefaultWorldTexts>(texts)
  })

  it('is refused, naming what it should be, when it is cut short or has more', () => {
    const file = worldFileText(texts)
    for (const spoiled of ['', file.slice(0, file.indexOf('\n', file.indexOf('\n') + 1) + 1), file.slice(0, -1), `${file}{}\n`]) {
      expect(() => worldTextsFromFile(spoiled, 'the file x')).toThrow('the file x is not three JSON lines (spec, spans, models): reinstall the package')
    }
  })

  it('when missing, fails the load of the default world with what to do, not the import', () => {
    // Run from source, the module looks for the file beside itself, in src/world-data/, where the
    // build never writes it: the same as a bundle for Node that left the file behind.
    expect(() => nodeTexts()).toThrow(/could not read its default world from .*src\/world-data\/default-world\.jsonl \(ENOENT\)/)
    expect(() => nodeTexts()).toThrow('A bundle of the package for Node must copy dist/default-world.jsonl beside its output')
  })
})
