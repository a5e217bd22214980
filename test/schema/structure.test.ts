// compileSchema's structural check: each refusal names the full path of the offending keyword.
import { describe, expect, it } from 'vitest'
import { compileSchema, SchemaError } from '../../src/core/schema/index.js'

const P = 'tools[0].function.parameters'

function refusal(schema: unknown): SchemaError {
  try {
    compileSchema(schema, P)
  } catch (e) {
    if (e instanceof SchemaError) return e
    throw e
  }
  throw new Error(`compiled: ${JSON.stringify(schema)}`)
}

const obj = (properties: Record<string, unknown>): Record<string, unknown> => ({ type: 'object', properties })

describe('compileSchema refuses', () => {
  it.each<[string, unknown, string, RegExp]>([
    ['a schema that is neither object nor boolean', obj({ city: 'string' }), `${P}.properties.city`, /schema object or boolean/],
    ['the root as a number', 42, P, /schema object or boolean/],
    ['an unknown type', obj({ city: { type: 'str' } }), `${P}.properties.city.type`, /"str" is not a type; a type is one of string, number, integer, boolean, object, array, null/],
    ['an unknown type in a list', obj({ city: { type: ['string', 'text'] } }), `${P}.properties.city.type`, /"text" is not a type/],
    ['an empty type list', { type: [] }, `${P}.type`, /non-empty array/],
    ['properties that are not an object', { properties: [] }, `${P}.properties`, /object whose values are schemas/],
    ['patternProperties that are not an object', { patternProperties: 1 }, `${P}.patternProperties`, /object whose values are schemas/],
    ['$defs with a non-schema', { $defs: { a: 3 } }, `${P}.$defs.a`, /schema object or boolean/],
    ['definitions that are not an object', { definitions: 'x' }, `${P}.definitions`, /object whose values are schemas/],
    ['dependentSchemas with a non-schema', { dependentSchemas: { a: [] } }, `${P}.dependentSchemas.a`, /schema object or boolean/],
    ['additionalProperties that is not a schema', { additionalProperties: 'no' }, `${P}.additionalProperties`, /schema object or boolean/],
    ['items that is not a schema', { items: 3 }, `${P}.items`, /schema object or boolean/],
    ['an item of a tuple that is not a schema', { items: [{}, 2] }, `${P}.items[1]`, /schema object or boolean/],
    ['contains that is not a schema', { contains: null }, `${P}.contains`, /schema object or boolean/],
    ['not that is not a schema', { not: 'x' }, `${P}.not`, /schema object or boolean/],
    ['if that is not a schema', { if: 1 }, `${P}.if`, /schema object or boolean/],
    ['then that is not a schema', { then: 1 }, `${P}.then`, /schema object or boolean/],
    ['else that is not a schema', { else: 1 }, `${P}.else`, /schema object or boolean/],
    ['propertyNames that is not a schema', { propertyNames: 1 }, `${P}.propertyNames`, /schema object or boolean/],
    ['unevaluatedProperties that is not a schema', { unevaluatedProperties: 'x' }, `${P}.unevaluatedProperties`, /schema object or boolean/],
    ['an empty prefixItems', { prefixItems: [] }, `${P}.prefixItems`, /non-empty array of schemas/],
    ['allOf that is not an array', { allOf: {} }, `${P}.allOf`, /non-empty array of schemas/],
    ['an empty anyOf', { anyOf: [] }, `${P}.anyOf`, /non-empty array of schemas/],
    ['a oneOf branch that is not a schema', { oneOf: [{}, 'x'] }, `${P}.oneOf[1]`, /schema object or boolean/],
    ['required that is not an array of strings', { required: ['a', 1] }, `${P}.required`, /array of strings/],
    ['enum that is not an array', { enum: 'a' }, `${P}.enum`, /must be an array/],
    ['an empty enum', obj({ unit: { enum: [] } }), `${P}.properties.unit.enum`, /must not be empty/],
    ['a negative minLength', { minLength: -1 }, `${P}.minLength`, /non-negative integer/],
    ['a fractional maxLength', { maxLength: 1.5 }, `${P}.maxLength`, /non-negative integer/],
    ['minItems as a string', { minItems: '1' }, `${P}.minItems`, /non-negative integer/],
    ['maxItems negative', { maxItems: -2 }, `${P}.maxItems`, /non-negative integer/],
    ['minProperties fractional', { minProperties: 0.5 }, `${P}.minProperties`, /non-negative integer/],
    ['maxProperties as null', { maxProperties: null }, `${P}.maxProperties`, /non-negative integer/],
    ['minimum as a string', { minimum: '0' }, `${P}.minimum`, /must be a number/],
    ['maximum as a boolean', { maximum: true }, `${P}.maximum`, /must be a number/],
    ['multipleOf of 0', { multipleOf: 0 }, `${P}.multipleOf`, /greater than 0/],
    ['exclusiveMinimum as a string', { exclusiveMinimum: '1' }, `${P}.exclusiveMinimum`, /must be a number/],
    ['exclusiveMaximum as an object', { exclusiveMaximum: {} }, `${P}.exclusiveMaximum`, /must be a number/],
    ['a pattern that is not a string', { pattern: 5 }, `${P}.pattern`, /must be a string/],
    ['a pattern that does not compile with flag u', obj({ code: { type: 'string', pattern: '[a-z' } }), `${P}.properties.code.pattern`, /not a valid regular expression/],
    ['a pattern invalid only under flag u', { pattern: '\\-' }, `${P}.pattern`, /not a valid regular expression/],
    ['a patternProperties key that does not compile', { patternProperties: { '(': {} } }, `${P}.patternProperties.(`, /not a valid regular expression/],
    ['a format that is not a string', { format: 1 }, `${P}.format`, /must be a string/],
    ['uniqueItems that is not a boolean', { uniqueItems: 'yes' }, `${P}.uniqueItems`, /must be a boolean/],
    ['a $ref that is not a string', obj({ a: { $ref: 1 } }), `${P}.properties.a.$ref`, /must be a string/],
    ['a $ref to a missing definition', obj({ a: { $ref: '#/$defs/missing' } }), `${P}.properties.a.$ref`, /not resolvable within this document/],
    ['a $ref to a remote URL', { $ref: 'https://example.com/schema.json' }, `${P}.$ref`, /remote reference cannot be resolved offline/],
    ['a $ref to another file', { $ref: 'other.json#/a' }, `${P}.$ref`, /outside this document/],
    ['a $ref to a missing anchor', { $ref: '#nowhere' }, `${P}.$ref`, /no \$anchor "nowhere"/],
    ['a $ref to something that is not a schema', { required: ['a'], $ref: '#/required/0' }, `${P}.$ref`, /does not point at a schema/],
    ['a structural error inside a referenced definition', { $defs: { a: { type: 'txt' } }, $ref: '#/$defs/a' }, `${P}.$defs.a.type`, /not a type/],
  ])('%s', (_, schema, path, reason) => {
    const error = refusal(schema)
    expect(error.path).toBe(path)
    expect(error.reason).toMatch(reason)
    expect(error.message).toBe(`${error.path} ${error.reason}`)
    expect(error.name).toBe('SchemaError')
  })
})

describe('compileSchema accepts', () => {
  it.each<[string, unknown]>([
    ['boolean schemas', true],
    ['unknown keywords', { title: 'T', description: 'd', default: 1, examples: [1], 'x-vendor': {}, $schema: 'https://json-schema.org/draft/2020-12/schema', $comment: 'c', strict: true }],
    ['contradictions (they warn at generation instead)', { type: 'integer', minimum: 5, maximum: 1, minLength: 3, maxLength: 1 }],
    ['draft 4 boolean exclusive bounds', { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: false }],
    ['definitions and a tuple items array', { definitions: { a: { type: 'string' } }, type: 'array', items: [{ $ref: '#/definitions/a' }], additionalItems: false }],
    ['OpenAPI nullable', { type: 'string', nullable: true }],
    ['a $ref to the root', { type: 'object', properties: { next: { $ref: '#' } } }],
    ['a JSON pointer with ~0, ~1 and percent-encoding', { $defs: { 'a/b': { type: 'string' }, 'c~d': { type: 'integer' }, 'e f': { type: 'null' } }, anyOf: [{ $ref: '#/$defs/a~1b' }, { $ref: '#/$defs/c~0d' }, { $ref: '#/$defs/e%20f' }] }],
    ['a pointer into properties and arrays', { properties: { a: { type: 'string' } }, anyOf: [{ type: 'null' }], allOf: [{ $ref: '#/properties/a' }, { $ref: '#/anyOf/0' }] }],
    ['an $anchor', { $defs: { a: { $anchor: 'name', type: 'string' } }, $ref: '#name' }],
  ])('%s', (_, schema) => {
    expect(() => compileSchema(schema, P)).not.toThrow()
  })

  it('caches by JSON text: the same text compiles once, and an error is not cached', () => {
    const a = compileSchema({ type: 'string', title: 'cached' }, 'a')
    expect(compileSchema({ type: 'string', title: 'cached' }, 'b')).toBe(a)
    expect(() => compileSchema({ type: 'strin' }, 'first')).toThrow(/^first\.type /)
    expect(() => compileSchema({ type: 'strin' }, 'second')).toThrow(/^second\.type /)
  })
})
