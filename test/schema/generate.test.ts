// Hand-picked schemas: the shapes real tools and structured-output requests send, plausible values
// for named fields, warnings for what cannot be satisfied, and determinism.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { compileSchema, generateValue, uint32Source, validateValue } from '../../src/core/schema/index.js'
import { CITIES } from '../../src/core/schema/words.js'
import { ajvErrors, ajvValid } from './support.js'

const SEEDS = [1, 2, 3, 42, 1234, 99999]

/** The values the seeds (those above unless given) give, each checked against ajv and the validator, with no warning. */
function valuesOf(schema: unknown, { ajv = true, seeds = SEEDS } = {}): unknown[] {
  const compiled = compileSchema(schema, 'schema')
  return seeds.map((seed) => {
    const { value, warnings } = generateValue(compiled, uint32Source(seed))
    expect(warnings, `seed ${seed}: ${JSON.stringify(value)}`).toEqual([])
    expect(validateValue(compiled, value)).toEqual([])
    if (ajv) expect(ajvValid(schema, value), ajvErrors(schema, value)).toBe(true)
    return value
  })
}

function warningsOf(schema: unknown, seed = 1): string[] {
  return generateValue(compileSchema(schema, 'schema'), uint32Source(seed)).warnings
}

const weather = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { enum: ['celsius', 'fahrenheit'] } },
  required: ['city'],
  additionalProperties: false,
}

describe('plausible values', () => {
  it('the weather tool gets a real city and a unit', () => {
    for (const value of valuesOf(weather) as Array<Record<string, unknown>>) {
      expect(CITIES).toContain(value['city'])
      expect(['celsius', 'fahrenheit']).toContain(value['unit'])
      expect(Object.keys(value).sort()).toEqual(['city', 'unit'])
    }
  })

  it('an email-formatted field gets an email, and so does a field named email', () => {
    for (const value of valuesOf({ type: 'object', properties: { contact: { type: 'string', format: 'email' }, workEmail: { type: 'string' } }, required: ['contact', 'workEmail'] }) as Array<Record<string, string>>) {
      expect(value['contact']).toMatch(/^[a-z]+\.[a-z-]+@example\.com$/)
      expect(value['workEmail']).toMatch(/@example\.com$/)
    }
  })

  it('names in camelCase and snake_case get hints in their bounds', () => {
    const schema = {
      type: 'object',
      properties: {
        firstName: { type: 'string' }, last_name: { type: 'string' }, age: { type: 'integer' }, price: { type: 'number', minimum: 0, maximum: 50 },
        latitude: { type: 'number' }, lng: { type: 'number' }, currency: { type: 'string' }, created_at: { type: 'string' }, user_id: { type: 'string' },
        quantity: { type: 'integer' }, summary: { type: 'string' },
      },
    }
    for (const v of valuesOf(schema) as Array<Record<string, unknown>>) {
      expect(v['firstName']).toMatch(/^[A-Z][a-z]+$/)
      expect(v['age']).toBeGreaterThanOrEqual(18)
      expect(v['age']).toBeLessThanOrEqual(90)
      expect(Number.isInteger((v['price'] as number) * 100 + 1e-9) || Math.abs(Math.round((v['price'] as number) * 100) - (v['price'] as number) * 100) < 1e-6).toBe(true)
      expect(v['price']).toBeLessThanOrEqual(50)
      expect(Math.abs(v['latitude'] as number)).toBeLessThanOrEqual(90)
      expect(Math.abs(v['lng'] as number)).toBeLessThanOrEqual(180)
      expect(['USD', 'EUR', 'GBP', 'JPY', 'CAD', 'AUD']).toContain(v['currency'])
      expect(v['created_at']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/)
      expect(v['user_id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(v['quantity']).toBeLessThanOrEqual(10)
      expect(v['summary']).toMatch(/^[A-Z].*\.$/)
    }
  })

  it('a hint that does not fit the constraints gives way to the general generator', () => {
    for (const v of valuesOf({ type: 'object', properties: { city: { type: 'string', minLength: 30, maxLength: 32 }, age: { type: 'integer', minimum: 200 } }, required: ['city', 'age'] }) as Array<Record<string, unknown>>) {
      expect((v['city'] as string).length).toBeGreaterThanOrEqual(30)
      expect(v['age']).toBeGreaterThanOrEqual(200)
    }
  })

  it('counts string lengths in code points, as JSON Schema does', () => {
    for (const v of valuesOf({ type: 'string', pattern: '^\\u{1F600}+$', minLength: 2, maxLength: 3 }) as string[]) {
      expect([...v].length).toBeGreaterThanOrEqual(2)
      expect([...v].length).toBeLessThanOrEqual(3)
    }
  })
})

describe('shapes clients send', () => {
  it('a recursive tree ends, and is a tree', () => {
    const tree = {
      $defs: { node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['name', 'children'] } },
      $ref: '#/$defs/node',
    }
    const depth = (n: { children: unknown[] }): number => 1 + Math.max(0, ...n.children.map((c) => depth(c as { children: unknown[] })))
    const values = valuesOf(tree) as Array<{ children: unknown[] }>
    expect(values.some((v) => v.children.length > 0)).toBe(true)
    for (const v of values) expect(depth(v)).toBeLessThanOrEqual(6)
  })

  it('a recursive anyOf takes the branch without a $ref when deep', () => {
    const list = { $defs: { list: { anyOf: [{ type: 'object', properties: { head: { type: 'integer' }, tail: { $ref: '#/$defs/list' } }, required: ['head', 'tail'] }, { type: 'null' }] } }, $ref: '#/$defs/list' }
    valuesOf(list)
  })

  it('OpenAI strict-mode schemas: every field required, nullable by a type list, no extra keys', () => {
    const strict = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        date: { type: 'string' },
        participants: { type: 'array', items: { type: 'string' } },
        location: { type: ['string', 'null'] },
        steps: { type: 'array', items: { type: 'object', properties: { explanation: { type: 'string' }, output: { type: 'string' } }, required: ['explanation', 'output'], additionalProperties: false } },
      },
      required: ['name', 'date', 'participants', 'location', 'steps'],
      additionalProperties: false,
    }
    const values = valuesOf(strict) as Array<Record<string, unknown>>
    for (const v of values) expect(Object.keys(v)).toEqual(['name', 'date', 'participants', 'location', 'steps'])
    // Nullable fields are mostly not null.
    expect(values.filter((v) => v['location'] !== null).length).toBeGreaterThan(values.length / 2)
  })

  it("zod v4's z.toJSONSchema output for an object", () => {
    const schema = z.toJSONSchema(
      z.object({
        city: z.string(),
        days: z.number().int().min(1).max(14),
        units: z.enum(['metric', 'imperial']).optional(),
        tags: z.array(z.string().min(2)).max(3),
        contact: z.email(),
        when: z.iso.datetime(),
        note: z.string().nullable(),
      }),
    )
    const values = valuesOf(schema) as Array<Record<string, unknown>>
    for (const v of values) {
      expect(CITIES).toContain(v['city'])
      expect(z.object({ days: z.number().int().min(1).max(14), contact: z.email(), when: z.iso.datetime() }).safeParse(v).success).toBe(true)
    }
  })

  it("Pydantic's output: $defs, titles, Optional as anyOf with null", () => {
    const pydantic = {
      $defs: {
        Address: {
          properties: { street: { title: 'Street', type: 'string' }, zip_code: { title: 'Zip Code', type: 'string' }, country: { default: 'US', title: 'Country', type: 'string' } },
          required: ['street', 'zip_code'],
          title: 'Address',
          type: 'object',
        },
        Role: { enum: ['admin', 'user'], title: 'Role', type: 'string' },
      },
      properties: {
        name: { title: 'Name', type: 'string' },
        age: { anyOf: [{ type: 'integer' }, { type: 'null' }], default: null, title: 'Age' },
        address: { $ref: '#/$defs/Address' },
        role: { $ref: '#/$defs/Role', default: 'user' },
        emails: { items: { format: 'email', type: 'string' }, title: 'Emails', type: 'array' },
      },
      required: ['name', 'address'],
      title: 'User',
      type: 'object',
    }
    for (const v of valuesOf(pydantic) as Array<Record<string, Record<string, unknown>>>) {
      expect(v['address']?.['street']).toMatch(/ /)
      expect(['admin', 'user']).toContain(v['role'])
    }
  })

  it('older forms: draft 4 exclusive bounds, OpenAPI nullable, tuple items, definitions', () => {
    const old = {
      definitions: { ratio: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true } },
      type: 'object',
      properties: { ratio: { $ref: '#/definitions/ratio' }, label: { type: 'string', nullable: true }, pair: { type: 'array', items: [{ type: 'integer' }, { type: 'boolean' }], additionalItems: false } },
      required: ['ratio', 'label', 'pair'],
    }
    const compiled = compileSchema(old, 'old')
    for (const v of valuesOf(old, { ajv: false }) as Array<Record<string, unknown>>) {
      expect(v['ratio']).toBeGreaterThan(0)
      expect(v['ratio']).toBeLessThan(1)
      expect(v['pair']).toHaveLength(2)
    }
    expect(validateValue(compiled, { ratio: 0, label: null, pair: [1, true] })).toEqual(['$.ratio: must be > 0'])
    expect(validateValue(compiled, { ratio: 0.5, label: null, pair: [1, true, 3] })).toEqual(['$.pair[2]: no value is allowed here (schema false)'])
  })

  it('oneOf: the value matches exactly one branch', () => {
    const schema = { oneOf: [{ type: 'number', minimum: 0 }, { type: 'integer', maximum: 1000 }] }
    for (const v of valuesOf(schema)) expect(Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 1000).toBe(false)
  })

  it('not, if/then/else, contains, patternProperties and minProperties', () => {
    valuesOf({ type: 'string', not: { enum: ['alpha', 'blue'] }, maxLength: 5 })
    valuesOf({ type: 'object', properties: { kind: { enum: ['a', 'b'] }, size: { type: 'integer' } }, required: ['kind', 'size'], if: { properties: { kind: { const: 'a' } } }, then: { properties: { size: { minimum: 100 } } }, else: { properties: { size: { maximum: -100 } } } })
    valuesOf({ type: 'array', items: { type: 'integer' }, contains: { minimum: 1000 }, maxItems: 3 })
    for (const v of valuesOf({ type: 'object', patternProperties: { '^x-[a-z]+$': { type: 'integer' } }, additionalProperties: false, minProperties: 2 })) expect(Object.keys(v as object).length).toBeGreaterThanOrEqual(2)
  })

  it('a value a not const or enum names is never drawn, even where it is most of the range', () => {
    // Each left one value; drawing and then checking (six draws) missed it for a third of the seeds,
    // and {minimum: 0, maximum: 5, not: {const: 5}} drew 5 six times once in about 50,000 values.
    const cases: Array<[unknown, unknown]> = [
      [{ type: 'integer', minimum: 0, maximum: 5, not: { enum: [0, 1, 2, 3, 4] } }, 5],
      [{ type: 'number', minimum: 0, maximum: 0.03, multipleOf: 0.01, not: { enum: [0, 0.01, 0.02] } }, 0.03],
      [{ type: 'boolean', not: { const: true } }, false],
      [{ type: ['string', 'null'], pattern: '^(red|green|blue)$', not: { enum: ['red', 'green', null] } }, 'blue'],
      [{ allOf: [{ type: 'integer', minimum: 1, maximum: 3 }, { not: { const: 1 } }, { not: { const: 2 } }] }, 3],
    ]
    for (const [schema, only] of cases) {
      const compiled = compileSchema(schema, 'schema')
      for (let seed = 0; seed < 500; seed++) {
        const { value, warnings } = generateValue(compiled, uint32Source(seed))
        expect({ seed, warnings, value }).toEqual({ seed, warnings: [], value: only })
      }
    }
  })

  it('a type a not names is never drawn: an untyped field takes another type', () => {
    // The field had no type, so a string was inferred and drawn six times, and warned every time.
    for (const schema of [
      { type: 'object', properties: { x: { not: { type: 'string' } } }, required: ['x'] },
      { not: { type: ['string', 'number'] } },
      { type: ['integer', 'null'], minimum: 1, not: { type: 'null' } },
      { type: ['string', 'integer'], not: { type: 'number' } },
    ]) {
      const compiled = compileSchema(schema, 'schema')
      for (let seed = 0; seed < 200; seed++) {
        const { value, warnings } = generateValue(compiled, uint32Source(seed))
        expect({ seed, warnings }).toEqual({ seed, warnings: [] })
        expect(ajvValid(schema, value), `${JSON.stringify(schema)} ${JSON.stringify(value)}`).toBe(true)
      }
    }
  })

  it('floating multipleOf values pass ajv', () => {
    for (const v of valuesOf({ type: 'number', multipleOf: 0.1, minimum: 0.3, maximum: 100 })) expect(String(v)).toMatch(/^\d+(\.\d)?$/)
    valuesOf({ type: 'integer', multipleOf: 0.5, exclusiveMinimum: 3 })
    valuesOf({ type: 'number', multipleOf: 0.01, minimum: 10.005, maximum: 10.02 })
  })
})

/** Seeds enough to meet the rare draw: several patterns are joined from drawn pieces. */
const MANY_SEEDS = Array.from({ length: 300 }, (_, i) => i + 1)

/** zod's schema through z.toJSONSchema: values with no warning, valid per ajv and the validator (valuesOf) and per zod's own safeParse. */
function zodValues(schema: z.ZodType, seeds = MANY_SEEDS): unknown[] {
  const values = valuesOf(z.toJSONSchema(schema), { seeds })
  for (const v of values) expect(schema.safeParse(v).success, JSON.stringify(v)).toBe(true)
  return values
}

describe('several patterns a string meets together', () => {
  it("zod's startsWith and endsWith: two patterns in an allOf, and no length bound to blame", () => {
    const s = z.string().startsWith('ab').endsWith('yz')
    expect(z.toJSONSchema(s)).toMatchObject({ type: 'string', format: 'ends_with', allOf: [{ pattern: '^ab.*' }, { pattern: '.*yz$' }] })
    // Was {"s":"ab"} and a warning that no string matches both "within the length bounds".
    for (const v of zodValues(z.object({ s })) as Array<{ s: string }>) expect(v.s).toBe('abyz')
  })

  it("zod's startsWith, includes and endsWith: the prefix, the infix and the suffix, joined", () => {
    expect(zodValues(z.string().startsWith('ab').includes('mm').endsWith('yz'))).toContain('abmmyz')
    zodValues(z.string().endsWith('yz').includes('mm', { position: 4 }).startsWith('ab'))
    zodValues(z.string().startsWith('a.b').endsWith('(x)'))
  })

  it('within minLength and maxLength: padded inside, before the anchored suffix', () => {
    for (const v of zodValues(z.string().min(8).max(12).startsWith('ab').includes('mm').endsWith('yz')) as string[]) expect(v.length).toBe(8)
    const padded = zodValues(z.string().min(6).max(10).startsWith('ab').endsWith('yz')) as string[]
    expect(padded.filter((v) => /^ab[a-z]{2}yz$/.test(v)).length).toBeGreaterThan(250)
    zodValues(z.string().length(5).startsWith('ab').endsWith('yz'))
    // One anchored suffix alone: padding after it failed about half the seeds.
    zodValues(z.string().min(30).endsWith('yz'))
    zodValues(z.string().min(20).max(24).endsWith('.png'))
    // Neighbours that overlap meet within a tight bound: "ab" and "b" as "ab".
    expect(zodValues(z.string().startsWith('ab').endsWith('b').max(2))).toEqual(MANY_SEEDS.map(() => 'ab'))
  })

  it("zod's .regex() twice, and its string checks with a format or a character class", () => {
    const digits = zodValues(z.string().regex(/^[a-z0-9]+$/).regex(/\d/)) as string[]
    expect(new Set(digits).size).toBeGreaterThan(100)
    zodValues(z.string().regex(/^[a-z]{4,8}$/).regex(/x/))
    zodValues(z.string().regex(/^[a-z]{8}$/).startsWith('ab').endsWith('yz'))
    zodValues(z.string().lowercase().startsWith('ab'))
    zodValues(z.string().uppercase().startsWith('AB').min(8))
    zodValues(z.nanoid().startsWith('x'))
    zodValues(z.nanoid().endsWith('yz'))
    zodValues(z.email().startsWith('ab'))
  })

  it('patterns no string meets together still warn, naming them all, or the lookaround among them', () => {
    expect(warningsOf({ type: 'string', allOf: [{ pattern: '^[a-z]+$' }, { pattern: '\\d' }] })).toEqual([
      '$: could not make a string that matches "^[a-z]+$" and "\\\\d" within the length bounds',
    ])
    expect(warningsOf({ type: 'string', allOf: [{ pattern: '^ab.*' }, { pattern: '.*yz$' }], maxLength: 3 })[0]).toMatch(/could not make a string that matches/)
    expect(warningsOf({ type: 'string', allOf: [{ pattern: '^[a-z]+$' }, { pattern: '^(?=.*\\d)' }] })).toEqual([
      '$: pattern "^(?=.*\\\\d)" uses a lookaround, which the generator cannot satisfy',
    ])
  })

  it('a schema with one pattern draws the values it drew before patterns were joined', () => {
    // Computed before the change, from the same seeds.
    const before: Array<[unknown, unknown[]]> = [
      [{ type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' }, ['FVN-3420', 'WKQ-4150', 'HDX-3736', 'URE-6404', 'LOG-6130', 'HRN-3101']],
      [{ type: 'string', pattern: '^sk-[A-Za-z0-9]{8,}$', minLength: 14 }, ['sk-7ZBCS8PuZby', 'sk-ca0f5eKDe1x', 'sk-vF3dDGD7LCB', 'sk-L2EKc4TLyzc', 'sk-kgi9RkdOYqi', 'sk-fnlL2vCKIrk']],
      [{ type: 'string', pattern: '.*yz$', minLength: 6 }, ['ohr0yz', 'n3ivnyz', '9471oz3yz', 'j6uoize9yz', 'whhityz', 'plvyxyz']],
      [{ type: 'string', pattern: '^\\w+( \\w+)*$', maxLength: 12 }, ['g1 C', 'WE', 'wB7 uQ p6', 'W', 'Z2', '29']],
      [
        { type: 'object', properties: { code: { type: 'string', pattern: '^(red|green|blue)$' }, zip: { type: 'string', pattern: '^\\d{5}(-\\d{4})?$' } }, required: ['code', 'zip'] },
        [{ code: 'red', zip: '42092-3289' }, { code: 'blue', zip: '10115' }, { code: 'red', zip: '10001' }, { code: 'red', zip: '94103' }, { code: 'red', zip: '10115' }, { code: 'red', zip: '10001' }],
      ],
    ]
    for (const [schema, values] of before) expect(valuesOf(schema)).toEqual(values)
  })
})

describe('formats zod writes with a pattern that carries them', () => {
  it('no warning: the value meets the pattern, which is all the format means', () => {
    const seeds = MANY_SEEDS.slice(0, 40)
    const formats = [
      z.nanoid(), z.cuid(), z.cuid2(), z.ulid(), z.xid(), z.ksuid(), z.e164(), z.mac(), z.cidrv4(), z.base64(), z.base64url(), z.hex(), z.currencyCode(),
      z.hash('sha256'), z.hash('md5', { enc: 'base64' }), z.hash('sha1', { enc: 'base64url' }),
      z.string().lowercase(), z.string().uppercase(), z.string().includes('mm'), z.string().startsWith('ab'), z.string().endsWith('yz'),
    ]
    for (const schema of formats) zodValues(schema, seeds)
  })

  it('a warning where the pattern beside the format does not carry it, or there is none', () => {
    const notMade = (format: string): string => `$: format "${format}" is not one the generator makes: the value is a plain string`
    expect(warningsOf({ type: 'string', format: 'nanoid', pattern: '^ab.*' })).toEqual([notMade('nanoid')])
    expect(warningsOf({ type: 'string', format: 'starts_with' })).toEqual([notMade('starts_with')])
    // A checksum the pattern leaves out; a format the schema names itself.
    expect(warningsOf(z.toJSONSchema(z.creditCard()))).toEqual([notMade('credit_card')])
    expect(warningsOf(z.toJSONSchema(z.stringFormat('ticket', /^T-\d+$/)))).toEqual([notMade('ticket')])
  })
})

describe('warnings: what cannot be satisfied', () => {
  it('a contradictory allOf', () => {
    expect(warningsOf({ allOf: [{ type: 'integer', minimum: 5 }, { maximum: 3 }] })).toEqual(['$: the bounds leave no number (between 5 and 3)'])
    expect(warningsOf({ allOf: [{ type: 'string' }, { type: 'integer' }] })[0]).toMatch(/^\$: allOf asks for string and integer/)
  })

  it('a lookahead pattern the generator cannot honour', () => {
    expect(warningsOf({ type: 'object', properties: { password: { type: 'string', pattern: '^(?=.*\\d)[a-z]+$' } }, required: ['password'] })).toEqual([
      '$.password: pattern "^(?=.*\\\\d)[a-z]+$" uses a lookaround, which the generator cannot satisfy',
    ])
  })

  it('a format it does not make: a plain string, and a warning naming the format', () => {
    expect(warningsOf({ type: 'object', properties: { token: { type: 'string', format: 'nanoid' } }, required: ['token'] })).toEqual([
      '$.token: format "nanoid" is not one the generator makes: the value is a plain string',
    ])
  })

  it('a jwt-formatted string is a JWT: three base64url parts, an HS256 header, a subject (zod\'s z.jwt())', () => {
    const schema = z.toJSONSchema(z.object({ token: z.jwt() }))
    for (let seed = 1; seed <= 5; seed++) {
      const { value, warnings } = generateValue(compileSchema(schema, 'x'), uint32Source(seed))
      expect(warnings).toEqual([])
      const token = (value as { token: string }).token
      const [header, claims, signature] = token.split('.')
      expect(JSON.parse(Buffer.from(header as string, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' })
      expect(JSON.parse(Buffer.from(claims as string, 'base64url').toString())).toMatchObject({ sub: expect.any(String), iat: expect.any(Number) })
      expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(z.object({ token: z.jwt() }).safeParse(value).success).toBe(true)
    }
  })

  it('a pattern that its length bounds exclude', () => {
    expect(warningsOf({ type: 'string', pattern: '^[a-z]{3}$', minLength: 5 })[0]).toMatch(/could not make a string that matches/)
  })

  it('minLength above maxLength', () => {
    expect(warningsOf({ type: 'string', minLength: 5, maxLength: 2 })).toContain('$: minLength 5 is greater than maxLength 2')
  })

  it('a oneOf whose branches cannot be told apart', () => {
    expect(warningsOf({ oneOf: [{ type: 'string' }, { type: 'string' }] })[0]).toMatch(/oneOf no branch of which could be made exclusive/)
  })
})

describe('determinism', () => {
  const schema = { type: 'object', properties: { city: { type: 'string' }, temperature: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } }, id: { type: 'string', format: 'uuid' } } }

  it('the same schema and seed give the same value', () => {
    const compiled = compileSchema(schema, 's')
    for (const seed of SEEDS) expect(generateValue(compiled, uint32Source(seed))).toStrictEqual(generateValue(compileSchema(structuredClone(schema), 't'), uint32Source(seed)))
  })

  it('different seeds usually give different values', () => {
    const compiled = compileSchema(schema, 's')
    const distinct = new Set(SEEDS.map((seed) => JSON.stringify(generateValue(compiled, uint32Source(seed)).value)))
    expect(distinct.size).toBe(SEEDS.length)
  })

  it('uint32Source is xorshift32 with a zero state replaced by one', () => {
    const next = uint32Source(1)
    expect([next(), next(), next()]).toEqual([270369, 67634689, 2647435461])
    const zero = uint32Source(0)
    expect(zero()).toBe(270369)
  })
})
