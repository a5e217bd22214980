// The embedded default world as the built package carries it (decisions/0059, 0066, 0067): three
// JSON texts, read from a file on Node and from string literals elsewhere, parsed a part at a
// time. Pure string work, shared by both builds and by the tests that check them against the
// world's JSON.

/** The default world's JSON in the parts a load reads separately. */
export interface DefaultWorldTexts {
  /** The spec without its models (`models` is `[]`), as JSON. */
  readonly spec: string
  /** Each model's id with its span in {@link DefaultWorldTexts.models}: JSON of `[id, start, end][]`. */
  readonly spans: string
  /** The models' list as JSON: each model's text is `models.slice(start, end)`. */
  readonly models: string
}

/** The default world in two parts: the spec without its models, and each model by id, read on demand. */
export interface DefaultWorldParts {
  /** The spec, its `models` an empty list. */
  spec: unknown
  /** Each model's id, in the spec's order, with what reads the model: the same object every call. */
  models: readonly (readonly [id: string, read: () => unknown])[]
}

/** What the default world's module answers: the whole spec, or its parts (decisions/0066). */
export interface DefaultWorldSource {
  /** The whole spec, parsed on the first call: every call answers the same object. */
  defaultWorldSpec(): unknown
  /** The spec without its models and each model on demand: every call answers the same parts. */
  defaultWorldParts(): DefaultWorldParts
}

/** Splits a world spec's JSON value into the texts the build carries. */
export function worldTexts(spec: { readonly models: readonly { readonly id: string }[] }): DefaultWorldTexts {
  let models = '['
  const spans: [string, number, number][] = []
  for (const model of spec.models) {
    if (models.length > 1) models += ','
    const text = JSON.stringify(model)
    spans.push([model.id, models.length, models.length + text.length])
    models += text
  }
  return { spec: JSON.stringify({ ...spec, models: [] }), spans: JSON.stringify(spans), models: `${models}]` }
}

/**
 * The texts as one file: JSON Lines, the spec, the spans and the models, a line each. JSON text
 * holds no raw line break, so each part is exactly its line. The Node build reads it back
 * (`worldTextsFromFile` in src/world-data/node.ts).
 */
export function worldFileText(texts: DefaultWorldTexts): string {
  return `${texts.spec}\n${texts.spans}\n${texts.models}\n`
}

/**
 * The default world's module over a reader of its texts, called once, on the first call of
 * either function: nothing is read or parsed before something loads the default world.
 */
export function defaultWorldSource(read: () => DefaultWorldTexts): DefaultWorldSource {
  let texts: DefaultWorldTexts | undefined
  let spec: { models: unknown } | undefined
  let parts: DefaultWorldParts | undefined
  const get = (): DefaultWorldTexts => (texts ??= read())
  return {
    defaultWorldSpec() {
      if (spec === undefined) {
        const { spec: specText, models } = get()
        const whole = JSON.parse(specText) as { models: unknown }
        whole.models = JSON.parse(models)
        spec = whole
      }
      return spec
    },
    defaultWorldParts() {
      if (parts === undefined) {
        const { spec: specText, spans, models } = get()
        const model = (start: number, end: number) => {
          let made: unknown
          return () => (made ??= JSON.parse(models.slice(start, end)))
        }
        parts = {
          spec: JSON.parse(specText),
          models: (JSON.parse(spans) as [string, number, number][]).map(([id, start, end]) => [id, model(start, end)] as const),
        }
      }
      return parts
    },
  }
}
