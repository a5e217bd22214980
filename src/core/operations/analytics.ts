// Analytics on the wire (decisions/0053): `GET /analytics/meta` and `POST /analytics/query`, over the
// same daily rows as `GET /activity` (store/activity.ts). What daily rows can answer is answered;
// the rest (minute and hour grains, ordered comparisons, classifiers, group limits) is a 400
// naming the field, never a silent approximation.
import { BodyReader } from '../body.js'
import { activityOf, dayOf, dayText } from '../store/activity.js'
import type { ActivityState } from '../store/state.js'
import { parseInstant } from '../time.js'
import { toUsd } from '../usage.js'
import { type Operation, jsonAnswer } from './operation.js'

const DAY_MS = 86_400_000

/** A dimension analytics can group and filter by, and what it reads off a daily row. */
interface Dimension {
  name: string
  display_label: string
  of(row: ActivityState): string | null
}

/** A metric analytics can sum, in the units of the row. */
interface Metric {
  name: string
  display_label: string
  display_format: 'number' | 'currency'
  of(row: ActivityState): number
}

export const ANALYTICS_DIMENSIONS: readonly Dimension[] = [
  { name: 'model', display_label: 'Model', of: (row) => row.permaslug },
  { name: 'provider', display_label: 'Provider', of: (row) => row.provider },
  { name: 'workspace', display_label: 'Workspace', of: (row) => row.workspaceId },
  { name: 'api_key_id', display_label: 'API key', of: (row) => row.keyHash },
  { name: 'user', display_label: 'User', of: (row) => row.creatorUserId },
]

export const ANALYTICS_METRICS: readonly Metric[] = [
  { name: 'request_count', display_label: 'Requests', display_format: 'number', of: (row) => row.requests },
  // Summed in units of 10^-10 USD, exact, and written in USD.
  { name: 'usage', display_label: 'Spend', display_format: 'currency', of: (row) => row.units },
  { name: 'byok_usage', display_label: 'BYOK spend', display_format: 'currency', of: (row) => row.byokUnits },
  { name: 'prompt_tokens', display_label: 'Prompt tokens', display_format: 'number', of: (row) => row.promptTokens },
  { name: 'completion_tokens', display_label: 'Completion tokens', display_format: 'number', of: (row) => row.completionTokens },
  { name: 'reasoning_tokens', display_label: 'Reasoning tokens', display_format: 'number', of: (row) => row.reasoningTokens },
  { name: 'total_tokens', display_label: 'Total tokens', display_format: 'number', of: (row) => row.promptTokens + row.completionTokens },
]

const GRANULARITIES = ['day', 'week', 'month'] as const
type Granularity = (typeof GRANULARITIES)[number]
const OPERATORS = [
  { name: 'eq', value_type: 'scalar' },
  { name: 'neq', value_type: 'scalar' },
  { name: 'in', value_type: 'array' },
  { name: 'not_in', value_type: 'array' },
] as const
type OperatorName = (typeof OPERATORS)[number]['name']

/** The body of `GET /analytics/meta`'s `data`: what a query may name. */
export function analyticsMeta() {
  return {
    dimensions: ANALYTICS_DIMENSIONS.map(({ name, display_label }) => ({ name, display_label })),
    metrics: ANALYTICS_METRICS.map(({ name, display_label, display_format }) => ({ name, display_label, display_format, is_rate: false })),
    operators: OPERATORS.map((o) => ({ ...o })),
    granularities: GRANULARITIES.map((name) => ({ name, display_label: `${name.charAt(0).toUpperCase()}${name.slice(1)}` })),
  }
}

interface Filter {
  dimension: Dimension
  operator: OperatorName
  values: readonly string[]
  includeUnset: boolean
}

/** A query as read: every name known, every value checked. */
interface AnalyticsQuery {
  metrics: Metric[]
  dimensions: Dimension[]
  filters: Filter[]
  granularity: Granularity | undefined
  from: number
  to: number
  limit: number
  order: { field: string; direction: 'asc' | 'desc' } | undefined
}

const BODY_FIELDS: ReadonlySet<string> = new Set(['metrics', 'dimensions', 'filters', 'granularity', 'time_range', 'limit', 'order_by', 'group_limit', 'classifier_dimensions', 'classifier_filters'])
const NOT_SIMULATED = 'is not simulated: the simulator keeps daily aggregates by model, provider, workspace, key and user (decisions/0053)'
/** An instant with seconds, as the service asks: `2026-03-01T00:00:00Z`, fractions allowed. */
const WITH_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

function named<T extends { name: string }>(body: BodyReader, path: string, value: unknown, known: readonly T[], what: string): T {
  const found = typeof value === 'string' ? known.find((k) => k.name === value) : undefined
  if (found === undefined) body.fail(path, `must be ${what}: one of ${known.map((k) => k.name).join(', ')}`, value)
  return found
}

function instant(body: BodyReader, path: string, value: unknown): number {
  const ms = typeof value === 'string' && WITH_SECONDS.test(value) ? parseInstant(value) : undefined
  if (ms === undefined) body.fail(path, 'must be an ISO 8601 UTC timestamp with seconds (YYYY-MM-DDTHH:MM:SSZ)', value)
  return ms
}

function readFilter(body: BodyReader, path: string, value: unknown): Filter {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) body.fail(path, 'must be an object', value)
  const filter: BodyReader = body.child(value as Record<string, unknown>, path).known(new Set(['field', 'operator', 'value', 'include_unset']))
  const dimension = named(filter, filter.at('field'), filter.raw('field'), ANALYTICS_DIMENSIONS, 'a dimension')
  const operatorName = filter.raw('operator')
  const operator = OPERATORS.find((o) => o.name === operatorName)
  if (operator === undefined) {
    const reason = ['gt', 'gte', 'lt', 'lte'].includes(operatorName as string) ? `${NOT_SIMULATED}; the dimensions are strings, compared with eq, neq, in, not_in` : 'must be one of eq, neq, in, not_in'
    filter.fail(filter.at('operator'), reason, operatorName)
  }
  const raw = filter.raw('value')
  const scalar = (v: unknown, at: string): string => {
    if (typeof v === 'string') return v
    if (typeof v === 'number' && Number.isFinite(v)) return String(v)
    return filter.fail(at, 'must be a string or a number', v)
  }
  let values: string[]
  if (operator.value_type === 'array') {
    if (!Array.isArray(raw)) filter.fail(filter.at('value'), `must be an array for ${operator.name}`, raw)
    values = raw.map((v, i) => scalar(v, `${filter.at('value')}[${i}]`))
  } else values = [scalar(raw, filter.at('value'))]
  const includeUnset = filter.optionalBoolean('include_unset') ?? false
  return { dimension, operator: operator.name, values, includeUnset }
}

/** Reads a query body: 400 naming the first field it refuses. */
function readQuery(json: Record<string, unknown>, nowMs: number): AnalyticsQuery {
  const body: BodyReader = new BodyReader(json).known(BODY_FIELDS)
  for (const field of ['group_limit', 'classifier_dimensions', 'classifier_filters']) if (body.has(field)) body.fail(field, NOT_SIMULATED)
  const metricsRaw = body.optionalArray('metrics', { minLength: 1 })
  if (metricsRaw == null) body.fail('metrics', 'is required: an array of metric names')
  const metrics = metricsRaw.map((m, i) => named(body, `metrics[${i}]`, m, ANALYTICS_METRICS, 'a metric'))
  const dimensions = (body.optionalArray('dimensions') ?? []).map((d, i) => named(body, `dimensions[${i}]`, d, ANALYTICS_DIMENSIONS, 'a dimension'))
  const filters = (body.optionalArray('filters') ?? []).map((f, i) => readFilter(body, `filters[${i}]`, f))
  const grain = body.raw('granularity')
  if (grain === 'minute' || grain === 'hour') body.fail('granularity', NOT_SIMULATED, grain)
  const granularity = body.optionalEnum('granularity', GRANULARITIES)
  let start = nowMs - 30 * DAY_MS
  let end = nowMs
  const range: BodyReader | null | undefined = body.optionalObject('time_range')
  if (range != null) {
    range.known(new Set(['start', 'end']))
    start = instant(range, range.at('start'), range.raw('start'))
    end = instant(range, range.at('end'), range.raw('end'))
    if (end <= start) range.fail(range.at('end'), 'must be after time_range.start', range.raw('end'))
  }
  const limit = body.optionalNumber('limit', { integer: true, min: 1, max: 10_000 }) ?? 1000
  let order: AnalyticsQuery['order']
  const orderBy: BodyReader | null | undefined = body.optionalObject('order_by')
  if (orderBy != null) order = readOrder(orderBy, [...metrics.map((m) => m.name), 'request_count', ...dimensions.map((d) => d.name), ...(granularity === undefined ? [] : ['date'])])
  // Daily rows: a range counts each UTC day it touches, whole.
  return { metrics, dimensions, filters, granularity, from: dayOf(start), to: dayOf(end - 1), limit, order }
}

/** `order_by`: a field of `allowed` and a direction. */
function readOrder(orderBy: BodyReader, allowed: readonly string[]): { field: string; direction: 'asc' | 'desc' } {
  orderBy.known(new Set(['field', 'direction']))
  const field = orderBy.raw('field')
  if (typeof field !== 'string' || !allowed.includes(field)) orderBy.fail(orderBy.at('field'), `must be a requested metric, request_count, a requested dimension, or date with a granularity: one of ${[...new Set(allowed)].join(', ')}`, field)
  const direction = orderBy.optionalEnum('direction', ['asc', 'desc'] as const)
  if (direction === undefined) orderBy.fail(orderBy.at('direction'), 'is required: asc or desc')
  return { field, direction }
}

/** The first day (days since the epoch) of the bucket `day` falls in. */
function bucketOf(day: number, granularity: Granularity): number {
  if (granularity === 'day') return day
  if (granularity === 'week') return day - ((day + 3) % 7) // 1970-01-01 was a Thursday; weeks start on Monday
  const date = new Date(day * DAY_MS)
  return dayOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1))
}

function passes(row: ActivityState, filter: Filter): boolean {
  const value = filter.dimension.of(row)
  if (value === null) return filter.includeUnset && (filter.operator === 'in' || filter.operator === 'not_in')
  const hit = filter.values.includes(value)
  return filter.operator === 'eq' || filter.operator === 'in' ? hit : !hit
}

/** The rows of a query's answer, and whether `limit` cut any. */
export function queryAnalytics(rows: readonly ActivityState[], q: AnalyticsQuery): { data: Record<string, unknown>[]; truncated: boolean } {
  const groups = new Map<string, { key: Record<string, unknown>; sums: number[] }>()
  const summed = [...q.metrics, ...(q.metrics.some((m) => m.name === 'request_count') ? [] : [ANALYTICS_METRICS[0] as Metric])]
  for (const row of rows) {
    if (row.day < q.from || row.day > q.to || !q.filters.every((f) => passes(row, f))) continue
    const key: Record<string, unknown> = {}
    if (q.granularity !== undefined) key['date'] = dayText(bucketOf(row.day, q.granularity))
    for (const d of q.dimensions) key[d.name] = d.of(row)
    const id = JSON.stringify(key)
    let group = groups.get(id)
    if (group === undefined) groups.set(id, (group = { key, sums: summed.map(() => 0) }))
    const sums = group.sums
    summed.forEach((m, i) => (sums[i] = (sums[i] as number) + m.of(row)))
  }
  const requestsAt = summed.findIndex((m) => m.name === 'request_count')
  const out = [...groups.values()].map(({ key, sums }) => {
    const item: Record<string, unknown> = { ...key }
    summed.forEach((m, i) => (item[m.name] = m.display_format === 'currency' ? toUsd(sums[i] as number) : sums[i]))
    return { item, requests: sums[requestsAt] as number }
  })
  const value = (x: Record<string, unknown>, field: string): string | number => (x[field] ?? '') as string | number
  const compare = (a: string | number, b: string | number): number => (a < b ? -1 : a > b ? 1 : 0)
  const order = q.order
  out.sort((a, b) => {
    if (order !== undefined) {
      const field = order.field
      const by = field === 'request_count' ? compare(a.requests, b.requests) : compare(value(a.item, field), value(b.item, field))
      if (by !== 0) return order.direction === 'asc' ? by : -by
    }
    // By date, then by the first metric, largest first, then by the dimensions' values: stable and total.
    const first = (q.metrics[0] as Metric).name
    return compare(value(a.item, 'date'), value(b.item, 'date')) || compare(value(b.item, first), value(a.item, first)) || compare(JSON.stringify(a.item), JSON.stringify(b.item))
  })
  // request_count, summed for ordering, is shown only when asked for.
  const data = out.slice(0, q.limit).map(({ item }) => {
    if (!q.metrics.some((m) => m.name === 'request_count')) delete item['request_count']
    return item
  })
  return { data, truncated: out.length > q.limit }
}

export const ANALYTICS_OPERATIONS: readonly Operation[] = [
  {
    name: 'getAnalyticsMeta',
    method: 'GET',
    template: '/analytics/meta',
    auth: 'management',
    run: () => jsonAnswer(200, { data: analyticsMeta() }),
  },
  {
    name: 'queryAnalytics',
    method: 'POST',
    template: '/analytics/query',
    auth: 'management',
    run({ ctx, json, principal }) {
      const q = readQuery(json(), ctx.clock.nowMs())
      const { data, truncated } = queryAnalytics(activityOf(ctx, principal.userId, q.from, q.to), q)
      return jsonAnswer(200, { data: { data, metadata: { query_time_ms: 0, row_count: data.length, truncated } } })
    },
  },
]
