// What the schema tests share: ajv as clients run it (2020-12, ajv-formats, strict off) as the
// judge of validity, and an arbitrary of the JSON Schemas tool and structured-output requests send.
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import fc from 'fast-check'

const ajv = new Ajv2020({ strict: false, allErrors: false })
addFormats(ajv)

// ajv compares values for const, enum and uniqueItems with fast-deep-equal, which calls an object's
// own `toString` or `valueOf` when it has one (a TypeError when the key holds JSON data) and calls
// objects unequal whose `constructor` keys hold different objects (fast-deep-equal issue 141, open
// upstream). fast-check draws those keys on purpose, so the judge takes these three keywords back
// with an equality of JSON values: same type, numbers by value (-0 is 0), objects by their keys.
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort()
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(',')}}`
  }
  return JSON.stringify(value)
}
for (const keyword of ['const', 'enum', 'uniqueItems']) ajv.removeKeyword(keyword)
ajv.addKeyword({ keyword: 'const', errors: false, validate: (expected: unknown, data: unknown) => canonical(expected) === canonical(data) })
ajv.addKeyword({
  keyword: 'enum',
  schemaType: 'array',
  errors: false,
  validate: (members: unknown[], data: unknown) => members.some((member) => canonical(member) === canonical(data)),
})
ajv.addKeyword({
  keyword: 'uniqueItems',
  type: 'array',
  schemaType: 'boolean',
  errors: false,
  validate: (unique: boolean, data: unknown[]) => !unique || new Set(data.map(canonical)).size === data.length,
})
// zod's format names, which ajv-formats does not define: ajv with strict off ignores them anyway,
// with a log line for each schema that names one. Declared as what they are to ajv, no check at all.
for (const name of [
  'starts_with', 'ends_with', 'includes', 'lowercase', 'uppercase', 'nanoid', 'cuid', 'cuid2', 'ulid', 'xid', 'ksuid', 'e164', 'emoji', 'mac',
  'cidrv4', 'cidrv6', 'base64', 'base64url', 'hex', 'currency_code', 'credit_card', 'iban',
  ...['md5', 'sha1', 'sha256', 'sha384', 'sha512'].flatMap((alg) => ['hex', 'base64', 'base64url'].map((enc) => `${alg}_${enc}`)),
]) {
  ajv.addFormat(name, true)
}

/** Whether ajv finds `value` valid against `schema` (compiled by ajv once per schema object). */
export function ajvValid(schema: unknown, value: unknown): boolean {
  const validate = ajv.compile(schema as object)
  return validate(value) === true
}

/** ajv's errors, for a failing assertion's message. */
export function ajvErrors(schema: unknown, value: unknown): string {
  const validate = ajv.compile(schema as object)
  validate(value)
  return JSON.stringify(validate.errors)
}

/** Realistic patterns, each satisfiable without length bounds. */
export const PATTERNS = [
  '^[a-z]+$',
  '^[A-Z]{3}-\\d{4}$',
  '^\\d{5}(-\\d{4})?$',
  '^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$',
  '^(red|green|blue)$',
  '^[A-Za-z ]{2,30}$',
  '^\\+?[0-9 ()-]{7,15}$',
  '^[0-9a-f]{8}$',
  'abc',
  '^(?:[01]\\d|2[0-3]):[0-5]\\d$',
  '^\\w+( \\w+)*$',
  '^[^@\\s]+@[^@\\s]+$',
  '^(?<year>\\d{4})-(?<month>0[1-9]|1[0-2])$',
  '^[\\p{L}]+$',
  '^sk-[A-Za-z0-9]{8,}$',
  '^(\\w)\\w*\\1$',
]

export const FORMATS = ['date', 'date-time', 'time', 'email', 'uuid', 'uri', 'ipv4', 'ipv6', 'hostname', 'uri-reference', 'duration']

const KEYS = ['city', 'name', 'email', 'age', 'price', 'id', 'tags', 'created_at', 'description', 'unit', 'a', 'b', 'count', 'latitude']

type Schema = Record<string, unknown>

/** Short pieces of few letters, so that a prefix, an infix and a suffix often overlap (`ab`, `ba`, `b`). */
const piece = fc.string({ unit: fc.constantFrom('a', 'b', 'y', 'z'), minLength: 1, maxLength: 3 })

/**
 * Two to four patterns in an allOf, as zod writes `.startsWith()`, `.includes()`, `.endsWith()`
 * and a character class: satisfiable by construction, since prefix + infix + letters + suffix
 * matches every one at any length from the pieces' total up, and maxLength leaves that length.
 */
const togetherSchema: fc.Arbitrary<Schema> = fc
  .record({
    prefix: fc.option(piece, { nil: undefined }),
    infix: fc.option(piece, { nil: undefined }),
    suffix: fc.option(piece, { nil: undefined }),
    letters: fc.boolean(),
    min: fc.nat({ max: 12 }),
    extra: fc.option(fc.nat({ max: 6 }), { nil: undefined }),
  })
  .map(({ prefix, infix, suffix, letters, min, extra }) => {
    const patterns = [prefix && `^${prefix}.*`, infix, suffix && `.*${suffix}$`, letters ? '^[a-z]+$' : undefined].filter((p) => p !== undefined)
    const total = (prefix?.length ?? 0) + (infix?.length ?? 0) + (suffix?.length ?? 0)
    return { patterns, bounds: { minLength: min, ...(extra === undefined ? {} : { maxLength: Math.max(min, total) + extra }) } }
  })
  .filter(({ patterns }) => patterns.length >= 2)
  .chain(({ patterns, bounds }) =>
    fc.shuffledSubarray(patterns, { minLength: patterns.length }).map((ordered) => ({ type: 'string', ...bounds, allOf: ordered.map((pattern) => ({ pattern })) })),
  )

const stringSchema: fc.Arbitrary<Schema> = fc.oneof(
  fc.record({ type: fc.constant('string') }),
  fc
    .tuple(fc.nat({ max: 6 }), fc.option(fc.nat({ max: 20 }), { nil: undefined }))
    .map(([min, extra]) => ({ type: 'string', minLength: min, ...(extra === undefined ? {} : { maxLength: min + extra }) })),
  fc.constantFrom(...PATTERNS).map((pattern) => ({ type: 'string', pattern })),
  fc.constantFrom(...FORMATS).map((format) => ({ type: 'string', format })),
  togetherSchema,
)

const MULTIPLES = [0.5, 0.1, 0.01, 2, 3, 5, 0.25]

const numberSchema: fc.Arbitrary<Schema> = fc
  .record(
    {
      type: fc.constantFrom('number', 'integer'),
      min: fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: undefined }),
      width: fc.option(fc.integer({ min: 12, max: 5000 }), { nil: undefined }),
      exclusive: fc.boolean(),
      multipleOf: fc.option(fc.constantFrom(...MULTIPLES), { nil: undefined }),
      fraction: fc.constantFrom(0, 0.5, 0.25),
    },
    { requiredKeys: ['type', 'exclusive', 'fraction'] },
  )
  .map(({ type, min, width, exclusive, multipleOf, fraction }) => {
    const schema: Schema = { type }
    const low = min === undefined ? undefined : min + fraction
    if (low !== undefined) schema[exclusive ? 'exclusiveMinimum' : 'minimum'] = low
    if (width !== undefined) schema[exclusive ? 'maximum' : 'exclusiveMaximum'] = (low ?? 0) + width * (multipleOf !== undefined && multipleOf > 1 ? multipleOf : 1)
    if (multipleOf !== undefined) schema['multipleOf'] = multipleOf
    return schema
  })

const enumSchema: fc.Arbitrary<Schema> = fc.oneof(
  fc.uniqueArray(fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null)), { minLength: 1, maxLength: 5, selector: (v) => JSON.stringify(v) }).map((values) => ({ enum: values })),
  fc.jsonValue({ maxDepth: 2 }).map((value) => ({ const: value })),
)

const leaf: fc.Arbitrary<Schema> = fc.oneof(
  { weight: 3, arbitrary: stringSchema },
  { weight: 3, arbitrary: numberSchema },
  { weight: 1, arbitrary: fc.constant({ type: 'boolean' }) },
  { weight: 1, arbitrary: fc.constant({ type: 'null' }) },
  { weight: 1, arbitrary: enumSchema },
  { weight: 1, arbitrary: fc.constant({}) },
)

/** A schema with `null` added to its type: the strict-mode way of an optional field. */
function nullable(schema: Schema): Schema {
  return typeof schema['type'] === 'string' && schema['type'] !== 'null' ? { ...schema, type: [schema['type'], 'null'] } : schema
}

/** Schemas of two different types, so that exactly one branch of a oneOf matches a value. */
const DISJOINT: Schema[] = [{ type: 'string' }, { type: 'integer' }, { type: 'boolean' }, { type: 'null' }, { type: 'array', items: { type: 'string' } }, { type: 'object', properties: { kind: { const: 'x' } } }]

/** Arbitrary JSON Schemas over the keywords the generator covers, satisfiable by construction. */
export const schemaArbitrary: fc.Arbitrary<Schema> = fc.letrec<{ schema: Schema; object: Schema; array: Schema }>((tie) => ({
  schema: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'schema' },
    { weight: 6, arbitrary: leaf },
    { weight: 2, arbitrary: leaf.map(nullable) },
    { weight: 3, arbitrary: tie('object') },
    { weight: 2, arbitrary: tie('array') },
    { weight: 1, arbitrary: fc.tuple(tie('schema'), tie('schema')).map(([a, b]) => ({ anyOf: [a, b] })) },
    { weight: 1, arbitrary: fc.subarray(DISJOINT, { minLength: 2 }).chain((branches) => fc.shuffledSubarray(branches, { minLength: branches.length })).map((oneOf) => ({ oneOf })) },
    {
      weight: 1,
      arbitrary: tie('object').map(({ maxProperties: _, ...o }) => ({ allOf: [o, { required: Object.keys((o['properties'] as object | undefined) ?? {}).slice(0, 1) }, { type: 'object' }] })),
    },
    { weight: 1, arbitrary: fc.tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: 5, max: 100 })).map(([lo, w]) => ({ allOf: [{ type: 'integer', minimum: lo }, { maximum: lo + w }, { type: ['integer', 'null'] }] })) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 5 }).map((n) => ({ type: 'integer', minimum: 0, maximum: 5, not: { const: n } })) },
  ),
  object: fc
    .record({
      properties: fc.dictionary(fc.constantFrom(...KEYS), tie('schema'), { maxKeys: 4 }),
      requiredShare: fc.double({ min: 0, max: 1, noNaN: true }),
      additional: fc.option(fc.oneof(fc.boolean(), tie('schema')), { nil: undefined }),
      minProperties: fc.option(fc.nat({ max: 3 }), { nil: undefined }),
      maxExtra: fc.option(fc.nat({ max: 2 }), { nil: undefined }),
    })
    .map(({ properties, requiredShare, additional, minProperties, maxExtra }) => {
      const keys = Object.keys(properties)
      const required = keys.slice(0, Math.round(keys.length * requiredShare))
      const schema: Schema = { type: 'object', properties, required }
      if (additional !== undefined) schema['additionalProperties'] = additional
      // minProperties only where the declared properties, or additional ones, can meet it.
      if (minProperties !== undefined && (additional !== false || minProperties <= keys.length)) schema['minProperties'] = minProperties
      if (maxExtra !== undefined) schema['maxProperties'] = Math.max(required.length, minProperties ?? 0) + maxExtra
      return schema
    }),
  array: fc.oneof(
    fc
      .record({ items: tie('schema'), min: fc.nat({ max: 3 }), extra: fc.option(fc.nat({ max: 4 }), { nil: undefined }), unique: fc.boolean() })
      .map(({ items, min, extra, unique }) => ({
        type: 'array',
        items,
        minItems: unique ? Math.min(min, 1) : min,
        ...(extra === undefined ? {} : { maxItems: (unique ? Math.min(min, 1) : min) + extra }),
        ...(unique ? { uniqueItems: true } : {}),
      })),
    fc.tuple(tie('schema'), tie('schema'), fc.option(tie('schema'), { nil: undefined })).map(([a, b, rest]) => ({ type: 'array', prefixItems: [a, b], items: rest ?? false })),
  ),
})).schema

/** A leaf schema wrapped in $defs and reached by $ref, or a recursive tree whose children are trees. */
export const documentArbitrary: fc.Arbitrary<Schema> = fc.oneof(
  { weight: 4, arbitrary: schemaArbitrary },
  {
    weight: 1,
    arbitrary: schemaArbitrary.map((item) => ({
      $defs: { item },
      type: 'object',
      properties: { first: { $ref: '#/$defs/item' }, rest: { type: 'array', items: { $ref: '#/$defs/item' } } },
      required: ['first'],
    })),
  },
  {
    weight: 1,
    arbitrary: leaf.map((value) => ({
      $defs: {
        node: {
          type: 'object',
          properties: { value, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
          required: ['value', 'children'],
          additionalProperties: false,
        },
      },
      $ref: '#/$defs/node',
    })),
  },
)
