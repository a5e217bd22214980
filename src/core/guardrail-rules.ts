// The readers of a guardrail's fields and of the ids its assignment routes take (decisions/0051),
// shared by the wire (a 400 naming the field) and sim.guardrails (an INVALID_ARGUMENT naming it).
import { BodyReader } from './body.js'
import { ApiError, invalidArgument } from './errors.js'
import { unboundedBacktracking } from './inference/content-filters.js'
import { providerSlug } from './store/catalog.js'
import type { StoreContext } from './store/context.js'
import type { GuardrailRules } from './store/state.js'
import { EMPTY_RULES } from './store/guardrail-rows.js'
import { type GuardrailReaders, GUARDRAIL_BOOLEANS, GUARDRAIL_BUILTINS, GUARDRAIL_LISTS, GUARDRAIL_UPDATE_FIELDS } from './store/guardrails.js'
import { findMember } from './store/members.js'
import { canonicalSlugOf, catalogNames } from './store/models.js'

const ACTIONS = ['redact', 'block', 'flag'] as const
const REGIONS = ['global', 'europe', 'us'] as const
const SCOPES = ['user_only', 'all_messages'] as const
const INTERVALS = ['daily', 'weekly', 'monthly'] as const
const BOOLEANS = GUARDRAIL_BOOLEANS
const LISTS = GUARDRAIL_LISTS

function oneOf<T extends string>(body: BodyReader, path: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) body.fail(path, `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`, value)
  return value as T
}

/** A guardrail's list of strings: null, or an array of non-empty strings each passing `check`. */
function readList(body: BodyReader, name: string, check: (value: string, path: string) => void): string[] | null | undefined {
  const list = body.optionalArray(name, { nullable: true, maxLength: 1000 })
  if (list === undefined || list === null) return list
  return list.map((item, i) => {
    const path = `${body.at(name)}[${i}]`
    if (typeof item !== 'string' || item === '') body.fail(path, 'must be a non-empty string', item)
    check(item as string, path)
    return item as string
  })
}

/** Whether a model of the catalog has `slug` as its canonical slug. */
function hasCanonicalSlug(ctx: StoreContext, slug: string): boolean {
  for (const model of ctx.data.models.values()) if (canonicalSlugOf(model) === slug) return true
  return false
}

/**
 * Reads a guardrail's fields from a body (a 400 naming the first bad one, a model or provider the
 * simulator does not have included): the changes they make to `base`'s rules.
 */
export function readGuardrailRules(ctx: StoreContext, body: BodyReader, base: GuardrailRules | undefined): GuardrailRules {
  const rules: GuardrailRules = base === undefined ? { name: '', ...EMPTY_RULES } : { ...base }
  if (base === undefined || body.has('name')) rules.name = body.string('name', { minLength: 1, maxLength: 200 })
  const description = body.optionalString('description', { nullable: true, maxLength: 1000 })
  if (description !== undefined) rules.description = description
  const names = catalogNames(ctx)
  const knownModel = (value: string, path: string): void => {
    // A model id, or a canonical slug (what the service's dashboard writes).
    if (!names.hasModel(value) && !hasCanonicalSlug(ctx, value)) body.fail(path, 'names no model of this simulator', value)
  }
  const knownProvider = (value: string, path: string): void => {
    const lower = value.toLowerCase()
    if (names.provider(value) === undefined && !names.providers().some((name) => providerSlug(name) === lower)) body.fail(path, 'names no provider of this simulator (a provider name or slug such as "openai")', value)
  }
  for (const name of LISTS) {
    const list = readList(body, name, name.endsWith('models') ? knownModel : knownProvider)
    if (list !== undefined) rules[name] = list
  }
  const regions = body.optionalArray('allowed_data_regions', { nullable: true })
  if (regions !== undefined) rules.allowed_data_regions = regions === null ? null : regions.map((r, i) => oneOf(body, `${body.at('allowed_data_regions')}[${i}]`, r, REGIONS))
  const filters = body.optionalArray('content_filters', { nullable: true, maxLength: 100 })
  if (filters !== undefined) {
    rules.content_filters =
      filters === null
        ? null
        : filters.map((filter, i) => {
            const path = `${body.at('content_filters')}[${i}]`
            if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) body.fail(path, 'must be an object with action and pattern', filter)
            const item = body.child(filter as Record<string, unknown>, path).known(new Set(['action', 'label', 'pattern']))
            const action = oneOf(item, item.at('action'), item.raw('action'), ACTIONS)
            const pattern = item.string('pattern', { minLength: 1 })
            try {
              new RegExp(pattern)
            } catch {
              item.fail(item.at('pattern'), 'must be a regular expression', pattern)
            }
            const danger = unboundedBacktracking(pattern)
            if (danger !== null) item.fail(item.at('pattern'), `could backtrack without bound: ${danger}`, pattern)
            const label = item.optionalString('label', { nullable: true })
            return { action, pattern, ...(label !== undefined && { label }) }
          })
  }
  const builtins = body.optionalArray('content_filter_builtins', { nullable: true, maxLength: GUARDRAIL_BUILTINS.length })
  if (builtins !== undefined) {
    rules.content_filter_builtins =
      builtins === null
        ? null
        : builtins.map((filter, i) => {
            const path = `${body.at('content_filter_builtins')}[${i}]`
            if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) body.fail(path, 'must be an object with action and slug', filter)
            const item = body.child(filter as Record<string, unknown>, path).known(new Set(['action', 'label', 'scan_scope', 'slug']))
            const slug = oneOf(item, item.at('slug'), item.raw('slug'), GUARDRAIL_BUILTINS)
            const action = oneOf(item, item.at('action'), item.raw('action'), ACTIONS)
            const label = item.optionalString('label', {})
            const scope = item.raw('scan_scope') === undefined ? undefined : oneOf(item, item.at('scan_scope'), item.raw('scan_scope'), SCOPES)
            return { action, slug, ...(label !== undefined && { label }), ...(scope !== undefined && { scan_scope: scope }) }
          })
  }
  for (const name of BOOLEANS) {
    if (!body.has(name)) continue
    const value = body.raw(name)
    if (value !== null && typeof value !== 'boolean') body.fail(body.at(name), 'must be a boolean or null', value)
    rules[name] = value as boolean | null
  }
  const byok = body.optionalBoolean('include_byok_in_budgets')
  if (byok !== undefined) rules.include_byok_in_budgets = byok
  const limit = body.optionalNumber('limit_usd', { min: 0, nullable: true })
  if (limit !== undefined) rules.limit_usd = limit
  if (body.has('reset_interval')) {
    const interval = body.raw('reset_interval')
    rules.reset_interval = interval === null ? null : oneOf(body, body.at('reset_interval'), interval, INTERVALS)
  }
  return rules
}

/** The hashes of a body's `key_hashes`: keys of the organisation (not management keys); a 400 names the first that is not. */
export function readKeyHashes(ctx: StoreContext, userId: string, json: Record<string, unknown>): string[] {
  return readIds(json, 'key_hashes', 'a key hash', (hash) => {
    const key = ctx.data.keys.get(hash)
    return key !== undefined && key.userId === userId && !key.management
  }, 'is not a key of the organisation')
}

/** The ids of a body's `member_user_ids`: members of the organisation; a 400 names the first that is not. */
export function readMemberIds(ctx: StoreContext, userId: string, json: Record<string, unknown>): string[] {
  return readIds(json, 'member_user_ids', 'a user id', (id) => findMember(ctx, userId, id) !== undefined, 'is not a member of the organisation')
}

function readIds(json: Record<string, unknown>, field: string, what: string, known: (id: string) => boolean, unknown: string): string[] {
  const body = new BodyReader(json).known(new Set([field]))
  if (!body.has(field)) body.fail(field, `is required: an array of 1 to 100 of ${what}`)
  const ids = body.optionalArray(field, { minLength: 1, maxLength: 100 }) as unknown[]
  return ids.map((id, i) => {
    const path = `${field}[${i}]`
    if (typeof id !== 'string' || id === '') body.fail(path, `must be ${what}`, id)
    if (!known(id as string)) body.fail(path, unknown, id)
    return id as string
  })
}

/** Runs a wire reader for the programmatic API: its 400 becomes INVALID_ARGUMENT naming `<prefix>.<field>`. */
function asArgument<T>(operation: string, prefix: string, read: () => T): T {
  try {
    return read()
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400) throw error
    const metadata = error.metadata as { parameter?: string; reason?: string } | undefined
    throw invalidArgument(operation, `${prefix}.${metadata?.parameter ?? ''}`, metadata?.reason ?? 'is refused')
  }
}

/** Checks ids for the programmatic API with the wire's reader: a 400 becomes INVALID_ARGUMENT naming the argument. */
function programmaticIds(operation: string, argument: string, field: string, ids: unknown, read: (json: Record<string, unknown>) => string[]): string[] {
  try {
    return read({ [field]: ids })
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    const metadata = error.metadata as { parameter?: string; reason?: string } | undefined
    throw invalidArgument(operation, (metadata?.parameter ?? field).replace(field, argument), metadata?.reason ?? 'is refused')
  }
}


/** The readers `sim.guardrails` and the world loader use. */
export function guardrailReaders(ctx: StoreContext): GuardrailReaders {
  return {
    rules: (given, base, operation) => asArgument(operation, 'rules', () => readGuardrailRules(ctx, new BodyReader(given).known(GUARDRAIL_UPDATE_FIELDS), base)),
    keyHashes: (userId, hashes, operation) => programmaticIds(operation, 'keyHashes', 'key_hashes', hashes, (json) => readKeyHashes(ctx, userId, json)),
    memberIds: (userId, ids, operation) => programmaticIds(operation, 'memberIds', 'member_user_ids', ids, (json) => readMemberIds(ctx, userId, json)),
  }
}
