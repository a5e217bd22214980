import { describe, expect, it } from 'vitest'
import {
  type ApiKey,
  type CreateKeyOptions,
  type RecordUsageOptions,
  type Simulator,
  type UpdateKeyOptions,
  createSimulator,
  formatTimestamp,
  SimulatorError,
} from '../../src/index.js'

// Usage, windows, limits, key updates, expiry, snapshots and isolation (DESIGN.md section 5).
// Every expectation below is derived by hand from the rules: a key's figures are sums over its usage
// records dated at or before the clock's now; daily = the current UTC day, weekly = the ISO week
// from Monday 00:00 UTC, monthly = the calendar month in UTC.

type AnySim = Simulator<unknown>
type KeyOptions = Omit<CreateKeyOptions, 'userId'>

/** A Monday morning, 2026-03-02T10:00Z, the documented default start of the clock. */
const MONDAY = '2026-03-02T10:00:00.000Z'

const weekday = (iso: string): number => new Date(iso).getUTCDay()
const SUNDAY = 0
const MONDAY_DAY = 1
const TUESDAY = 2
const WEDNESDAY = 3
const THURSDAY = 4

/** An empty world with one organisation, its management key and one regular key. */
function setup(now: string = MONDAY, keyOptions: KeyOptions = {}) {
  const sim = createSimulator({ world: 'empty', seed: 11, now })
  const org = sim.users.create({ name: 'Acme' })
  const admin = sim.keys.create({ userId: org.id, management: true })
  const app = sim.keys.create({ userId: org.id, name: 'app', ...keyOptions })
  return { sim, org, admin: admin.key, app, hash: app.record.hash }
}

/** GET /keys/{hash} on the wire, as a management caller. */
function wire(sim: AnySim, adminSecret: string, hash: string): ApiKey {
  const res = sim.handle({ method: 'GET', path: `/keys/${hash}`, authorization: `Bearer ${adminSecret}` })
  expect(res.status).toBe(200)
  return (res.body as { data: ApiKey }).data
}

/** Hashes GET /keys lists, in order. */
function listed(sim: AnySim, adminSecret: string, query = ''): string[] {
  const res = sim.handle({ method: 'GET', path: '/keys', query, authorization: `Bearer ${adminSecret}` })
  expect(res.status).toBe(200)
  return (res.body as { data: ApiKey[] }).data.map((k) => k.hash)
}

function figures(key: ApiKey) {
  return {
    usage: key.usage,
    daily: key.usage_daily,
    weekly: key.usage_weekly,
    monthly: key.usage_monthly,
    byok: key.byok_usage,
    byokDaily: key.byok_usage_daily,
    byokWeekly: key.byok_usage_weekly,
    byokMonthly: key.byok_usage_monthly,
  }
}

const regular = (usage: number, daily: number, weekly: number, monthly: number) => ({ usage, daily, weekly, monthly })

function regularOf(key: ApiKey) {
  const { usage, daily, weekly, monthly } = figures(key)
  return { usage, daily, weekly, monthly }
}

function byokOf(key: ApiKey) {
  const { byok, byokDaily, byokWeekly, byokMonthly } = figures(key)
  return { usage: byok, daily: byokDaily, weekly: byokWeekly, monthly: byokMonthly }
}

/** Runs `fn`, expects a SimulatorError, and returns it. */
function simulatorError(fn: () => unknown): SimulatorError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(SimulatorError)
    return error as SimulatorError
  }
  throw new Error('expected a SimulatorError, but nothing was thrown')
}

/** A value of the wrong type, passed where the types would not allow it. */
const unchecked = <T>(value: unknown): T => value as T

describe('sim.usage.record', () => {
  it('adds a cost to usage and to the daily, weekly and monthly figures, and nothing to the byok figures', () => {
    const { sim, admin, hash } = setup()
    const returned = sim.usage.record({ keyHash: hash, cost: 1.25 })
    const key = wire(sim, admin, hash)
    expect(regularOf(key)).toEqual(regular(1.25, 1.25, 1.25, 1.25))
    expect(byokOf(key)).toEqual(regular(0, 0, 0, 0))
    expect(returned).toEqual(key)
  })

  it('adds a byok cost to the byok_* twins only', () => {
    const { sim, admin, hash } = setup()
    sim.usage.record({ keyHash: hash, cost: 2 })
    sim.usage.record({ keyHash: hash, cost: 0.5, byok: true })
    const key = wire(sim, admin, hash)
    expect(regularOf(key)).toEqual(regular(2, 2, 2, 2))
    expect(byokOf(key)).toEqual(regular(0.5, 0.5, 0.5, 0.5))
  })

  it('treats byok: false like no byok flag', () => {
    const { sim, admin, hash } = setup()
    sim.usage.record({ keyHash: hash, cost: 0.75, byok: false })
    const key = wire(sim, admin, hash)
    expect(regularOf(key)).toEqual(regular(0.75, 0.75, 0.75, 0.75))
    expect(byokOf(key)).toEqual(regular(0, 0, 0, 0))
  })

  it('sets updated_at to the instant of the record, in the service format', () => {
    const { sim, admin, hash, app } = setup()
    expect(app.record.updated_at).toBeNull()
    sim.usage.record({ keyHash: hash, cost: 1 })
    expect(wire(sim, admin, hash).updated_at).toBe('2026-03-02T10:00:00.000000+00:00')
    sim.clock.advance(30 * 60_000)
    sim.usage.record({ keyHash: hash, cost: 0.5, byok: true })
    expect(wire(sim, admin, hash).updated_at).toBe('2026-03-02T10:30:00.000000+00:00')
    sim.clock.set('2026-03-02T11:00:00Z')
    sim.usage.record({ keyHash: hash, cost: 0.5, at: '2026-03-02T10:45:12.345Z' })
    expect(wire(sim, admin, hash).updated_at).toBe('2026-03-02T10:45:12.345000+00:00')
    expect(formatTimestamp(Date.parse('2026-03-02T10:45:12.345Z'))).toBe('2026-03-02T10:45:12.345000+00:00')
    // created_at is the creation instant and stays so.
    expect(wire(sim, admin, hash).created_at).toBe('2026-03-02T10:00:00.000000+00:00')
  })

  it('keeps updated_at at the latest record when an earlier-dated record arrives later', () => {
    const { sim, admin, hash } = setup()
    sim.usage.record({ keyHash: hash, cost: 1 }) // Monday 10:00
    sim.usage.record({ keyHash: hash, cost: 1, at: '2026-03-02T09:00:00Z' })
    expect(wire(sim, admin, hash).updated_at).toBe('2026-03-02T10:00:00.000000+00:00')
  })

  it('places a record in the windows of its own instant, given as an ISO string, a Date or epoch milliseconds', () => {
    // Monday 2026-03-02: the day and the ISO week began at 00:00 today; the month on Sunday the 1st.
    expect(weekday('2026-03-02T00:00:00Z')).toBe(MONDAY_DAY)
    expect(weekday('2026-03-01T00:00:00Z')).toBe(SUNDAY)
    const { sim, admin, hash } = setup()
    sim.usage.record({ keyHash: hash, cost: 1, at: '2026-03-02T00:00:00Z' }) // today
    sim.usage.record({ keyHash: hash, cost: 2, at: new Date('2026-03-01T23:59:59.999Z') }) // last week, this month
    sim.usage.record({ keyHash: hash, cost: 4, at: Date.parse('2026-02-28T12:00:00Z') }) // last month
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(7, 1, 1, 3))
  })

  it('keeps amounts exact to 10^-10 USD however many records are summed', () => {
    const { sim, admin, hash } = setup()
    for (let i = 0; i < 3; i++) sim.usage.record({ keyHash: hash, cost: 0.1 })
    // 0.1 + 0.1 + 0.1 in floating point is 0.30000000000000004; the simulator keeps 0.3.
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(0.3, 0.3, 0.3, 0.3))
    sim.usage.record({ keyHash: hash, cost: 1234.5678901234 })
    sim.usage.record({ keyHash: hash, cost: 0.0000000001 })
    expect(wire(sim, admin, hash).usage).toBe(1234.8678901235)
  })

  it('sums the same records to the same exact figures whatever order they were recorded in', () => {
    const { sim, admin, org } = setup()
    const bigFirst = sim.keys.create({ userId: org.id }).record.hash
    const smallFirst = sim.keys.create({ userId: org.id }).record.hash
    for (let i = 0; i < 8; i++) sim.usage.record({ keyHash: bigFirst, cost: 100_000 })
    for (let i = 0; i < 20; i++) sim.usage.record({ keyHash: bigFirst, cost: 0.0000000001 })
    for (let i = 0; i < 20; i++) sim.usage.record({ keyHash: smallFirst, cost: 0.0000000001 })
    for (let i = 0; i < 8; i++) sim.usage.record({ keyHash: smallFirst, cost: 100_000 })
    // Exactly 800,000.000000002 USD: 8 x 100,000 plus 20 x 10^-10.
    expect(wire(sim, admin, smallFirst).usage).toBe(800000.000000002)
    expect(wire(sim, admin, bigFirst).usage).toBe(800000.000000002)
  })

  it('refuses a record that would take a key past the exact range, naming cost, and changes nothing', () => {
    const { sim, org } = setup()
    const hash = sim.keys.create({ userId: org.id }).record.hash
    for (let i = 0; i < 9; i++) sim.usage.record({ keyHash: hash, cost: 100_000 })
    const before = sim.snapshot()
    // 900,000 + 800 USD is past 2^53 - 1 units of 10^-10 USD (about 900,719.93 USD).
    expect(() => sim.usage.record({ keyHash: hash, cost: 800 })).toThrowError(expect.objectContaining({ argument: 'cost' }))
    expect(sim.snapshot()).toEqual(before)
    // BYOK usage is a separate total with its own room.
    expect(sim.usage.record({ keyHash: hash, cost: 800, byok: true }).byok_usage).toBe(800)
  })
})

describe('usage windows roll with the clock', () => {
  it('resets daily and weekly, but not monthly, from Sunday 23:59:59.999 to Monday 00:00 UTC', () => {
    expect(weekday('2026-03-08T23:59:59.999Z')).toBe(SUNDAY)
    expect(weekday('2026-03-09T00:00:00.000Z')).toBe(MONDAY_DAY)
    expect(weekday('2026-03-03T09:00:00Z')).toBe(TUESDAY)
    const { sim, admin, hash } = setup()
    sim.usage.record({ keyHash: hash, cost: 2, at: '2026-03-03T09:00:00Z' }) // Tuesday of that week
    sim.usage.record({ keyHash: hash, cost: 1, at: '2026-03-08T12:00:00Z' }) // Sunday
    sim.usage.record({ keyHash: hash, cost: 0.5, byok: true, at: '2026-03-08T13:00:00Z' })
    sim.clock.set('2026-03-08T23:59:59.999Z')
    let key = wire(sim, admin, hash)
    expect(regularOf(key)).toEqual(regular(3, 1, 3, 3))
    expect(byokOf(key)).toEqual(regular(0.5, 0.5, 0.5, 0.5))
    sim.clock.advance(1)
    expect(sim.clock.now().toISOString()).toBe('2026-03-09T00:00:00.000Z')
    key = wire(sim, admin, hash)
    expect(regularOf(key)).toEqual(regular(3, 0, 0, 3))
    expect(byokOf(key)).toEqual(regular(0.5, 0, 0, 0.5))
  })

  it('resets daily, weekly and monthly at once when the Monday is also the 1st of the month', () => {
    expect(weekday('2026-05-31T23:59:59.999Z')).toBe(SUNDAY)
    expect(weekday('2026-06-01T00:00:00.000Z')).toBe(MONDAY_DAY)
    const { sim, admin, hash } = setup('2026-05-31T08:00:00Z')
    sim.usage.record({ keyHash: hash, cost: 1.5 })
    sim.clock.set('2026-05-31T23:59:59.999Z')
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(1.5, 1.5, 1.5, 1.5))
    sim.clock.advance(1)
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(1.5, 0, 0, 0))
  })

  it('resets monthly and daily, but not weekly, at a month end in the middle of a week', () => {
    expect(weekday('2026-03-30T12:00:00Z')).toBe(MONDAY_DAY)
    expect(weekday('2026-03-31T23:59:59.999Z')).toBe(TUESDAY)
    expect(weekday('2026-04-01T00:00:00.000Z')).toBe(WEDNESDAY)
    const { sim, admin, hash } = setup('2026-03-30T12:00:00Z')
    sim.usage.record({ keyHash: hash, cost: 1 }) // Monday 03-30
    sim.usage.record({ keyHash: hash, cost: 2, at: '2026-03-31T23:59:59.999Z' }) // the last millisecond of March
    sim.clock.set('2026-03-31T23:59:59.999Z')
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(3, 2, 3, 3))
    sim.clock.advance(1)
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(3, 0, 3, 0))
  })

  it('counts usage of a leap day in February and in its week, and drops it from monthly on March 1st only', () => {
    expect(weekday('2028-02-28T08:00:00Z')).toBe(MONDAY_DAY)
    expect(weekday('2028-02-29T12:00:00Z')).toBe(TUESDAY)
    expect(weekday('2028-03-01T00:00:00Z')).toBe(WEDNESDAY)
    expect(weekday('2028-03-06T00:00:00Z')).toBe(MONDAY_DAY)
    const { sim, admin, hash } = setup('2028-02-28T08:00:00Z')
    sim.usage.record({ keyHash: hash, cost: 1 }) // Monday 02-28
    sim.clock.set('2028-02-29T12:00:00Z')
    sim.usage.record({ keyHash: hash, cost: 2 }) // the leap day
    sim.clock.set('2028-02-29T23:59:59.999Z')
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(3, 2, 3, 3))
    sim.clock.advance(1)
    expect(sim.clock.now().toISOString()).toBe('2028-03-01T00:00:00.000Z')
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(3, 0, 3, 0))
    sim.clock.set('2028-03-05T23:59:59.999Z')
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(3, 0, 3, 0))
    sim.clock.advance(1)
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(3, 0, 0, 0))
  })

  it('uses UTC windows whatever the time zone of the machine', () => {
    const original = process.env['TZ']
    // Assigning TZ changes the zone only on a process's main thread (vitest's default forks pool);
    // in a worker thread (StrykerJS runs vitest's threads pool) it changes nothing, and the mutation
    // run sets a non-UTC zone for the whole process instead. Either way some zone other than UTC
    // must be in effect, or this test would check nothing.
    const offsets: number[] = []
    try {
      for (const zone of ['Pacific/Kiritimati', 'America/Los_Angeles', 'Asia/Kolkata']) {
        process.env['TZ'] = zone
        offsets.push(new Date('2026-03-08T12:00:00Z').getTimezoneOffset())
        const { sim, admin, hash } = setup()
        sim.usage.record({ keyHash: hash, cost: 1, at: '2026-03-08T12:00:00Z' }) // Sunday
        sim.clock.set('2026-03-08T23:59:59.999Z')
        expect(regularOf(wire(sim, admin, hash)), zone).toEqual(regular(1, 1, 1, 1))
        sim.clock.advance(1)
        expect(regularOf(wire(sim, admin, hash)), zone).toEqual(regular(1, 0, 0, 1))
        sim.clock.set('2026-04-01T00:00:00Z')
        expect(regularOf(wire(sim, admin, hash)), zone).toEqual(regular(1, 0, 0, 0))
      }
    } finally {
      if (original === undefined) delete process.env['TZ']
      else process.env['TZ'] = original
    }
    expect(offsets.some((offset) => offset !== 0), `no zone but UTC took effect (offsets ${offsets.join(', ')})`).toBe(true)
  })
})

describe('usage and the clock moving backwards', () => {
  it('hides a record from every figure while the clock is before its instant, and shows it again once the clock reaches it', () => {
    const { sim, admin, hash } = setup(MONDAY, { limit: 10, limitReset: 'daily', includeByokInLimit: true })
    sim.usage.record({ keyHash: hash, cost: 1, at: '2026-03-02T09:00:00Z' })
    sim.usage.record({ keyHash: hash, cost: 2 }) // at now, 10:00
    sim.usage.record({ keyHash: hash, cost: 0.5, byok: true }) // at now, 10:00
    let key = wire(sim, admin, hash)
    expect(regularOf(key)).toEqual(regular(3, 3, 3, 3))
    expect(byokOf(key)).toEqual(regular(0.5, 0.5, 0.5, 0.5))
    expect(key.limit_remaining).toBe(6.5)

    sim.clock.set('2026-03-02T09:59:59.999Z')
    key = wire(sim, admin, hash)
    expect(regularOf(key)).toEqual(regular(1, 1, 1, 1))
    expect(byokOf(key)).toEqual(regular(0, 0, 0, 0))
    expect(key.limit_remaining).toBe(9)

    sim.clock.set('2026-03-02T08:59:59.999Z')
    key = wire(sim, admin, hash)
    expect(regularOf(key)).toEqual(regular(0, 0, 0, 0))
    expect(key.limit_remaining).toBe(10)

    sim.clock.set('2026-03-02T10:00:00Z')
    key = wire(sim, admin, hash)
    expect(regularOf(key)).toEqual(regular(3, 3, 3, 3))
    expect(byokOf(key)).toEqual(regular(0.5, 0.5, 0.5, 0.5))
    expect(key.limit_remaining).toBe(6.5)
  })

  it('counts a record dated in the future only from the millisecond the clock reaches it', () => {
    const { sim, admin, hash } = setup()
    const returned = sim.usage.record({ keyHash: hash, cost: 4, at: '2026-03-02T12:00:00Z' })
    expect(regularOf(returned)).toEqual(regular(0, 0, 0, 0))
    sim.clock.set('2026-03-02T11:59:59.999Z')
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(0, 0, 0, 0))
    sim.clock.advance(1)
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(4, 4, 4, 4))
  })

  it('brings back the windows of an earlier day when the clock is set back across midnight', () => {
    const { sim, admin, hash } = setup('2026-03-08T12:00:00Z') // Sunday
    sim.usage.record({ keyHash: hash, cost: 1 })
    sim.clock.set('2026-03-09T00:00:00Z')
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(1, 0, 0, 1))
    sim.clock.set('2026-03-08T23:00:00Z')
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(1, 1, 1, 1))
  })
})

describe('limit_remaining', () => {
  // Wednesday 2026-03-11T10:00Z: the day began 03-11, the ISO week on Monday 03-09, the month on 03-01.
  const WEDNESDAY_NOW = '2026-03-11T10:00:00Z'
  const history: RecordUsageOptions[] = [
    { keyHash: '', cost: 1, at: '2026-02-20T12:00:00Z' }, // last month
    { keyHash: '', cost: 2, at: '2026-03-03T12:00:00Z' }, // this month, last week
    { keyHash: '', cost: 3, at: '2026-03-10T12:00:00Z' }, // this week, yesterday
    { keyHash: '', cost: 0.5, at: '2026-03-11T09:00:00Z' }, // today
    { keyHash: '', cost: 1, byok: true, at: '2026-02-10T12:00:00Z' }, // last month
    { keyHash: '', cost: 0.4, byok: true, at: '2026-03-04T12:00:00Z' }, // this month, last week
    { keyHash: '', cost: 0.2, byok: true, at: '2026-03-11T08:00:00Z' }, // today
  ]
  // Regular: total 6.5, daily 0.5, weekly 3.5, monthly 5.5. BYOK: total 1.6, daily 0.2, weekly 0.2, monthly 0.6.
  const cases: [KeyOptions, number | null][] = [
    [{ limit: 10, limitReset: 'daily', includeByokInLimit: false }, 9.5],
    [{ limit: 10, limitReset: 'daily', includeByokInLimit: true }, 9.3],
    [{ limit: 10, limitReset: 'weekly', includeByokInLimit: false }, 6.5],
    [{ limit: 10, limitReset: 'weekly', includeByokInLimit: true }, 6.3],
    [{ limit: 10, limitReset: 'monthly', includeByokInLimit: false }, 4.5],
    [{ limit: 10, limitReset: 'monthly', includeByokInLimit: true }, 3.9],
    [{ limit: 10, limitReset: null, includeByokInLimit: false }, 3.5],
    [{ limit: 10, limitReset: null, includeByokInLimit: true }, 1.9],
    [{ limit: 10, includeByokInLimit: true }, 1.9],
    [{ limit: 5, limitReset: 'monthly', includeByokInLimit: false }, 0],
    [{ limit: 6, limitReset: null, includeByokInLimit: false }, 0],
    [{ limit: 7, limitReset: null, includeByokInLimit: false }, 0.5],
    [{ limit: 7, limitReset: null, includeByokInLimit: true }, 0],
    [{ limit: 0, limitReset: 'daily' }, 0],
    [{ limit: null, limitReset: 'monthly', includeByokInLimit: true }, null],
    [{}, null],
  ]

  it.each(cases)('is the limit minus the usage of the reset period, byok as the key says, for %j', (options, remaining) => {
    expect(weekday(WEDNESDAY_NOW)).toBe(WEDNESDAY)
    const { sim, admin, hash } = setup(WEDNESDAY_NOW, options)
    for (const entry of history) sim.usage.record({ ...entry, keyHash: hash })
    const key = wire(sim, admin, hash)
    expect(regularOf(key)).toEqual(regular(6.5, 0.5, 3.5, 5.5))
    expect(byokOf(key)).toEqual(regular(1.6, 0.2, 0.2, 0.6))
    expect(key.limit_remaining).toBe(remaining)
  })

  it('is exact: a limit of 10 less three costs of 0.1 leaves 9.7', () => {
    const { sim, admin, hash } = setup(MONDAY, { limit: 10 })
    for (let i = 0; i < 3; i++) sim.usage.record({ keyHash: hash, cost: 0.1 })
    expect(wire(sim, admin, hash).limit_remaining).toBe(9.7)
  })

  it('is exact: a limit of 10 less a cost of 9.99 leaves 0.01', () => {
    const { sim, admin, hash } = setup(MONDAY, { limit: 10, limitReset: 'monthly' })
    sim.usage.record({ keyHash: hash, cost: 9.99 })
    expect(wire(sim, admin, hash).limit_remaining).toBe(0.01)
  })

  it('never goes below 0 and comes back when the period resets', () => {
    expect(weekday('2026-03-08T20:00:00Z')).toBe(SUNDAY)
    const { sim, admin, hash } = setup('2026-03-08T20:00:00Z', { limit: 5, limitReset: 'weekly', includeByokInLimit: true })
    sim.usage.record({ keyHash: hash, cost: 4 })
    sim.usage.record({ keyHash: hash, cost: 3, byok: true })
    expect(wire(sim, admin, hash).limit_remaining).toBe(0)
    sim.clock.set('2026-03-09T00:00:00Z') // Monday: a new week
    expect(wire(sim, admin, hash).limit_remaining).toBe(5)
  })

  it('rolls a daily limit at midnight UTC and a monthly one on the 1st', () => {
    const daily = setup('2026-03-31T18:00:00Z', { limit: 3, limitReset: 'daily' })
    daily.sim.usage.record({ keyHash: daily.hash, cost: 1.25 })
    daily.sim.clock.set('2026-03-31T23:59:59.999Z')
    expect(wire(daily.sim, daily.admin, daily.hash).limit_remaining).toBe(1.75)
    daily.sim.clock.advance(1)
    expect(wire(daily.sim, daily.admin, daily.hash).limit_remaining).toBe(3)

    const monthly = setup('2026-03-15T18:00:00Z', { limit: 3, limitReset: 'monthly' })
    monthly.sim.usage.record({ keyHash: monthly.hash, cost: 1.25 })
    monthly.sim.clock.set('2026-03-31T23:59:59.999Z')
    expect(wire(monthly.sim, monthly.admin, monthly.hash).limit_remaining).toBe(1.75)
    monthly.sim.clock.advance(1)
    expect(wire(monthly.sim, monthly.admin, monthly.hash).limit_remaining).toBe(3)
  })
})

describe('sim.keys.update', () => {
  function threeKeys() {
    const base = setup()
    const older = base.app
    base.sim.clock.advance(1000)
    const middle = base.sim.keys.create({ userId: base.org.id, name: 'middle' })
    base.sim.clock.advance(1000)
    const newer = base.sim.keys.create({ userId: base.org.id, name: 'newer' })
    base.sim.clock.advance(1000)
    return { ...base, older, middle, newer }
  }

  it('disabling a key hides it from GET /keys without include_disabled and shows it with include_disabled=true', () => {
    const { sim, admin, older, middle, newer } = threeKeys()
    expect(listed(sim, admin)).toEqual([newer.record.hash, middle.record.hash, older.record.hash])
    const record = sim.keys.update(middle.record.hash, { disabled: true })
    expect(record.disabled).toBe(true)
    expect(listed(sim, admin)).toEqual([newer.record.hash, older.record.hash])
    expect(listed(sim, admin, 'include_disabled=true')).toEqual([newer.record.hash, middle.record.hash, older.record.hash])
    expect(wire(sim, admin, middle.record.hash).disabled).toBe(true)
  })

  it("disabling a key makes its own secret get 401 'API key is disabled', and re-enabling lets it in again", () => {
    const { sim, admin, older, middle, newer } = threeKeys()
    const call = () => sim.handle({ method: 'GET', path: '/videos/models', authorization: `Bearer ${middle.key}` })
    expect(call().status).toBe(200)
    sim.keys.update(middle.record.hash, { disabled: true })
    const refused = call()
    expect(refused.status).toBe(401)
    expect((refused.body as { error: { code: number; message: string } }).error).toMatchObject({ code: 401, message: 'API key is disabled' })
    const record = sim.keys.update(middle.record.hash, { disabled: false })
    expect(record.disabled).toBe(false)
    expect(call().status).toBe(200)
    // Back in the listing, in its place by created_at.
    expect(listed(sim, admin)).toEqual([newer.record.hash, middle.record.hash, older.record.hash])
  })

  it('sets updated_at to the clock’s now', () => {
    const { sim, admin, hash } = setup()
    sim.clock.set('2026-03-05T07:08:09.010Z')
    const record = sim.keys.update(hash, { name: 'renamed' })
    expect(record.updated_at).toBe('2026-03-05T07:08:09.010000+00:00')
    expect(record.name).toBe('renamed')
    expect(wire(sim, admin, hash)).toEqual(record)
  })

  it('changes to limit, limitReset and includeByokInLimit show in limit_remaining', () => {
    const { sim, admin, hash } = setup() // Monday 2026-03-02T10:00Z
    sim.usage.record({ keyHash: hash, cost: 3 }) // today
    sim.usage.record({ keyHash: hash, cost: 2, at: '2026-03-01T12:00:00Z' }) // Sunday: this month, last week
    sim.usage.record({ keyHash: hash, cost: 1, at: '2026-02-27T12:00:00Z' }) // last month
    sim.usage.record({ keyHash: hash, cost: 0.5, byok: true }) // today
    expect(wire(sim, admin, hash).limit_remaining).toBeNull()

    expect(sim.keys.update(hash, { limit: 10 }).limit_remaining).toBe(4) // 10 - 6, all time
    expect(wire(sim, admin, hash)).toMatchObject({ limit: 10, limit_reset: null, limit_remaining: 4 })
    expect(sim.keys.update(hash, { limitReset: 'monthly' }).limit_remaining).toBe(5) // 10 - 5
    expect(sim.keys.update(hash, { limitReset: 'weekly' }).limit_remaining).toBe(7) // 10 - 3
    expect(sim.keys.update(hash, { limitReset: 'daily' }).limit_remaining).toBe(7) // 10 - 3
    expect(sim.keys.update(hash, { includeByokInLimit: true }).limit_remaining).toBe(6.5) // 10 - 3 - 0.5
    expect(wire(sim, admin, hash)).toMatchObject({ limit_reset: 'daily', include_byok_in_limit: true, limit_remaining: 6.5 })
    expect(sim.keys.update(hash, { limit: 3 }).limit_remaining).toBe(0) // 3 - 3.5, floored
    expect(sim.keys.update(hash, { limitReset: null }).limit_remaining).toBe(0)
    expect(sim.keys.update(hash, { limit: 100, limitReset: null, includeByokInLimit: false }).limit_remaining).toBe(94)
    expect(sim.keys.update(hash, { limit: null }).limit_remaining).toBeNull()
    expect(wire(sim, admin, hash)).toMatchObject({ limit: null, limit_remaining: null })
  })

  it('an expiresAt change takes effect on authentication at once', () => {
    const { sim, hash, app } = setup()
    const call = () => sim.handle({ method: 'GET', path: '/videos/models', authorization: `Bearer ${app.key}` })
    expect(call().status).toBe(200)
    sim.keys.update(hash, { expiresAt: '2026-03-02T10:00:00Z' }) // now: expired
    expect((call().body as { error: { message: string } }).error.message).toBe('API key has expired')
    sim.keys.update(hash, { expiresAt: null })
    expect(call().status).toBe(200)
  })

  it("throws a SimulatorError with code UNKNOWN_KEY naming 'hash' for an unknown hash, and changes nothing", () => {
    const { sim } = setup()
    const before = sim.snapshot()
    const error = simulatorError(() => sim.keys.update('0'.repeat(64), { disabled: true }))
    expect(error.code).toBe('UNKNOWN_KEY')
    expect(error.argument).toBe('hash')
    expect(error.message).toContain('"hash"')
    expect(sim.snapshot()).toEqual(before)
  })

  const badChanges: [string, unknown, string][] = [
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['an unknown field next to a valid one', { disabled: true, colour: 'red' }, 'colour'],
    ['a negative limit', { limit: -1 }, 'limit'],
    ['a negative limit next to a valid change', { disabled: true, name: 'x', limit: -0.01 }, 'limit'],
    ['a NaN limit', { limit: Number.NaN }, 'limit'],
    ['an infinite limit', { limit: Number.POSITIVE_INFINITY }, 'limit'],
    ['a string limit', { limit: '10' }, 'limit'],
    ['an unknown limitReset', { limitReset: 'yearly' }, 'limitReset'],
    ['a non-boolean disabled', { disabled: 'yes' }, 'disabled'],
    ['a non-boolean includeByokInLimit', { limit: 5, includeByokInLimit: 1 }, 'includeByokInLimit'],
    ['an unreadable expiresAt', { disabled: true, expiresAt: 'tomorrow' }, 'expiresAt'],
    ['an empty name', { name: '' }, 'name'],
  ]

  it.each(badChanges)('throws a SimulatorError naming the argument for %s, and changes nothing', (_, changes, argument) => {
    const { sim, admin, hash, app } = setup()
    sim.usage.record({ keyHash: hash, cost: 1 })
    sim.clock.advance(60_000)
    const before = sim.snapshot()
    const wireBefore = wire(sim, admin, hash)
    const listedBefore = listed(sim, admin)
    const error = simulatorError(() => sim.keys.update(hash, unchecked<UpdateKeyOptions>(changes)))
    expect(error.code).toBe('INVALID_ARGUMENT')
    expect(error.argument).toBe(argument)
    expect(error.message).toContain(`"${argument}"`)
    expect(sim.snapshot()).toEqual(before)
    expect(wire(sim, admin, hash)).toEqual(wireBefore)
    expect(listed(sim, admin)).toEqual(listedBefore)
    expect(sim.handle({ method: 'GET', path: '/videos/models', authorization: `Bearer ${app.key}` }).status).toBe(200)
  })
})

describe('bad input to sim.usage.record', () => {
  it("throws a SimulatorError with code UNKNOWN_KEY naming 'keyHash' for an unknown key, and changes nothing", () => {
    const { sim } = setup()
    const before = sim.snapshot()
    for (const keyHash of ['f'.repeat(64), '', unchecked<string>(42), unchecked<string>(undefined)]) {
      const error = simulatorError(() => sim.usage.record({ keyHash, cost: 1 }))
      expect(error.code).toBe('UNKNOWN_KEY')
      expect(error.argument).toBe('keyHash')
      expect(error.message).toContain('"keyHash"')
    }
    expect(sim.snapshot()).toEqual(before)
  })

  const badOptions: [string, Record<string, unknown>, string][] = [
    ['a negative cost', { cost: -1 }, 'cost'],
    ['a tiny negative cost', { cost: -0.0000000001 }, 'cost'],
    ['a NaN cost', { cost: Number.NaN }, 'cost'],
    ['an infinite cost', { cost: Number.POSITIVE_INFINITY }, 'cost'],
    ['a string cost', { cost: '1' }, 'cost'],
    ['a missing cost', { cost: undefined }, 'cost'],
    ['a cost too large to keep exactly', { cost: 1e7 }, 'cost'],
    ['a string byok', { cost: 1, byok: 'true' }, 'byok'],
    ['a numeric byok', { cost: 1, byok: 1 }, 'byok'],
    ['a null byok', { cost: 1, byok: null }, 'byok'],
    ['an unreadable at', { cost: 1, at: 'yesterday' }, 'at'],
    ['a date-only at', { cost: 1, at: '2026-03-02' }, 'at'],
    ['an at without an offset', { cost: 1, at: '2026-03-02T10:00:00' }, 'at'],
    ['a NaN at', { cost: 1, at: Number.NaN }, 'at'],
    ['an invalid Date at', { cost: 1, at: new Date('nope') }, 'at'],
    ['an object at', { cost: 1, at: {} }, 'at'],
    ['a null at', { cost: 1, at: null }, 'at'],
  ]

  it.each(badOptions)('throws a SimulatorError naming the argument for %s, and changes nothing', (_, options, argument) => {
    const { sim, admin, hash } = setup()
    sim.usage.record({ keyHash: hash, cost: 1 })
    sim.clock.advance(60_000)
    const before = sim.snapshot()
    const wireBefore = wire(sim, admin, hash)
    const error = simulatorError(() => sim.usage.record(unchecked<RecordUsageOptions>({ keyHash: hash, ...options })))
    expect(error.code).toBe('INVALID_ARGUMENT')
    expect(error.argument).toBe(argument)
    expect(error.message).toContain(`"${argument}"`)
    expect(sim.snapshot()).toEqual(before)
    expect(wire(sim, admin, hash)).toEqual(wireBefore)
  })

  it('throws a SimulatorError naming options when there are none', () => {
    const { sim } = setup()
    const before = sim.snapshot()
    const error = simulatorError(() => sim.usage.record(unchecked<RecordUsageOptions>(undefined)))
    expect(error.argument).toBe('options')
    expect(sim.snapshot()).toEqual(before)
  })
})

describe('seeded usage in sim.keys.create', () => {
  it('reproduces the seeded figures at creation, on the wire too', () => {
    const { sim, admin, org } = setup()
    const { record } = sim.keys.create({
      userId: org.id,
      usage: { total: 50, daily: 2, weekly: 2, monthly: 7 },
      byokUsage: { total: 5, daily: 1, weekly: 1, monthly: 3 },
    })
    expect(regularOf(record)).toEqual(regular(50, 2, 2, 7))
    expect(byokOf(record)).toEqual(regular(5, 1, 1, 3))
    expect(wire(sim, admin, record.hash)).toEqual(record)
  })

  it('rolls seeded figures on a Monday like recorded ones as the clock moves forward', () => {
    const { sim, admin, org } = setup() // Monday 2026-03-02T10:00Z
    const { record } = sim.keys.create({
      userId: org.id,
      limit: 10,
      limitReset: 'monthly',
      usage: { total: 50, daily: 2, weekly: 2, monthly: 7 },
      byokUsage: { total: 5, daily: 1, weekly: 1, monthly: 3 },
    })
    const hash = record.hash
    expect(record.limit_remaining).toBe(3)
    sim.usage.record({ keyHash: hash, cost: 0.5 })
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(50.5, 2.5, 2.5, 7.5))

    sim.clock.set('2026-03-03T00:00:00Z') // Tuesday
    let key = wire(sim, admin, hash)
    expect(regularOf(key)).toEqual(regular(50.5, 0, 2.5, 7.5))
    expect(byokOf(key)).toEqual(regular(5, 0, 1, 3))

    sim.clock.set('2026-03-09T00:00:00Z') // next Monday
    key = wire(sim, admin, hash)
    expect(regularOf(key)).toEqual(regular(50.5, 0, 0, 7.5))
    expect(byokOf(key)).toEqual(regular(5, 0, 0, 3))
    expect(key.limit_remaining).toBe(2.5)

    sim.clock.set('2026-04-01T00:00:00Z') // April
    key = wire(sim, admin, hash)
    expect(regularOf(key)).toEqual(regular(50.5, 0, 0, 0))
    expect(byokOf(key)).toEqual(regular(5, 0, 0, 0))
    expect(key.limit_remaining).toBe(10)
  })

  it('rolls seeded figures in the middle of a week and a month like recorded ones', () => {
    expect(weekday('2026-03-11T10:00:00Z')).toBe(WEDNESDAY)
    expect(weekday('2026-03-16T00:00:00Z')).toBe(MONDAY_DAY)
    const { sim, admin, org } = setup('2026-03-11T10:00:00Z')
    const { record } = sim.keys.create({ userId: org.id, usage: { total: 20, daily: 1, weekly: 3, monthly: 10 } })
    const hash = record.hash
    expect(regularOf(record)).toEqual(regular(20, 1, 3, 10))
    sim.clock.set('2026-03-12T00:00:00Z')
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(20, 0, 3, 10))
    sim.clock.set('2026-03-16T00:00:00Z')
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(20, 0, 0, 10))
    sim.clock.set('2026-04-01T00:00:00Z')
    expect(regularOf(wire(sim, admin, hash))).toEqual(regular(20, 0, 0, 0))
  })

  const defaults: [string, string, KeyOptions['usage'], ReturnType<typeof regular>][] = [
    // Monday 03-02: the week began today, the month yesterday.
    ['a Monday, weekly only', MONDAY, { weekly: 12 }, regular(12, 12, 12, 12)],
    ['a Monday, monthly only', MONDAY, { monthly: 5 }, regular(5, 0, 0, 5)],
    ['a Monday, daily only', MONDAY, { daily: 2 }, regular(2, 2, 2, 2)],
    ['a Monday, total only', MONDAY, { total: 3.5 }, regular(3.5, 0, 0, 0)],
    // Wednesday 04-01: the month began today, the week on Monday 03-30.
    ['the 1st (a Wednesday), monthly only', '2026-04-01T10:00:00Z', { monthly: 3 }, regular(3, 3, 3, 3)],
    ['the 1st (a Wednesday), weekly only', '2026-04-01T10:00:00Z', { weekly: 5 }, regular(5, 0, 5, 0)],
    // Thursday 04-02: the month began yesterday, within the week that began Monday 03-30.
    ['the 2nd (a Thursday), monthly only', '2026-04-02T10:00:00Z', { monthly: 3 }, regular(3, 0, 3, 3)],
    ['the 2nd (a Thursday), weekly only', '2026-04-02T10:00:00Z', { weekly: 5 }, regular(5, 0, 5, 0)],
    // Tuesday 03-03: the week began Monday 03-02, within the month.
    ['a Tuesday, weekly only', '2026-03-03T10:00:00Z', { weekly: 4 }, regular(4, 0, 4, 4)],
  ]

  it.each(defaults)('fills missing figures with the least the calendar allows on %s', (_, now, usage, expected) => {
    expect(weekday('2026-04-01T10:00:00Z')).toBe(WEDNESDAY)
    expect(weekday('2026-04-02T10:00:00Z')).toBe(THURSDAY)
    expect(weekday('2026-03-30T00:00:00Z')).toBe(MONDAY_DAY)
    expect(weekday('2026-03-03T10:00:00Z')).toBe(TUESDAY)
    const { sim, admin, org } = setup(now)
    const { record } = sim.keys.create({ userId: org.id, ...(usage && { usage }) })
    expect(regularOf(record)).toEqual(expected)
    expect(regularOf(wire(sim, admin, record.hash))).toEqual(expected)
  })

  const impossible: [string, string, KeyOptions, string][] = [
    ['weekly above daily on a Monday', MONDAY, { usage: { daily: 1, weekly: 5 } }, 'usage.weekly'],
    ['daily above weekly', MONDAY, { usage: { daily: 5, weekly: 3 } }, 'usage.weekly'],
    ['monthly below daily', MONDAY, { usage: { daily: 3, monthly: 2 } }, 'usage.monthly'],
    ['total below daily', MONDAY, { usage: { daily: 2, total: 1 } }, 'usage.total'],
    ['total below this month', MONDAY, { usage: { monthly: 7, total: 6 } }, 'usage.total'],
    ['monthly above daily on the 1st', '2026-04-01T10:00:00Z', { usage: { daily: 1, monthly: 3 } }, 'usage.monthly'],
    ['weekly above monthly when the week lies within the month', '2026-03-03T10:00:00Z', { usage: { weekly: 5, monthly: 3 } }, 'usage.weekly'],
    ['byok weekly above daily on a Monday', MONDAY, { byokUsage: { daily: 1, weekly: 2 } }, 'byokUsage.weekly'],
    ['a negative figure', MONDAY, { usage: { daily: -1 } }, 'usage.daily'],
    ['a NaN figure', MONDAY, { byokUsage: { total: Number.NaN } }, 'byokUsage.total'],
  ]

  it.each(impossible)('throws a SimulatorError naming the field for %s, and changes nothing', (_, now, options, argument) => {
    const { sim, org } = setup(now)
    const before = sim.snapshot()
    const error = simulatorError(() => sim.keys.create({ userId: org.id, ...options }))
    expect(error.code).toBe('INVALID_ARGUMENT')
    expect(error.argument).toBe(argument)
    expect(error.message).toContain(`"${argument}"`)
    expect(sim.snapshot()).toEqual(before)
  })
})

describe('key expiry', () => {
  it("authenticates a key 1 ms before its expires_at and answers 401 'API key has expired' from that instant on", () => {
    const T = '2026-03-02T12:00:00.000Z'
    const { sim, admin, org } = setup()
    const regularKey = sim.keys.create({ userId: org.id, expiresAt: T })
    const managementKey = sim.keys.create({ userId: org.id, management: true, expiresAt: T })
    expect(regularKey.record.expires_at).toBe('2026-03-02T12:00:00.000000+00:00')
    const publicCall = () => sim.handle({ method: 'GET', path: '/videos/models', authorization: `Bearer ${regularKey.key}` })
    const managementCall = () => sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${managementKey.key}` })

    sim.clock.set(Date.parse(T) - 1)
    expect(publicCall().status).toBe(200)
    expect(managementCall().status).toBe(200)

    sim.clock.advance(1)
    expect(sim.clock.now().toISOString()).toBe(T)
    for (const res of [publicCall(), managementCall()]) {
      expect(res.status).toBe(401)
      expect((res.body as { error: { code: number; message: string } }).error).toMatchObject({ code: 401, message: 'API key has expired' })
    }
    sim.clock.advance(86_400_000)
    expect(publicCall().status).toBe(401)

    // Another management key still reads the expired key.
    expect(wire(sim, admin, regularKey.record.hash).expires_at).toBe('2026-03-02T12:00:00.000000+00:00')

    // Moving the clock back before T lets the key in again.
    sim.clock.set(Date.parse(T) - 1)
    expect(publicCall().status).toBe(200)
  })

  it('creates an already expired key when expiresAt is at or before now', () => {
    const { sim, org } = setup()
    const key = sim.keys.create({ userId: org.id, expiresAt: MONDAY })
    const res = sim.handle({ method: 'GET', path: '/videos/models', authorization: `Bearer ${key.key}` })
    expect(res.status).toBe(401)
    expect((res.body as { error: { message: string } }).error.message).toBe('API key has expired')
  })
})

describe('snapshot, restore and reset with usage', () => {
  it('restores every key’s wire record and the clock exactly as they were at the snapshot', () => {
    const { sim, admin, org, hash } = setup(MONDAY, { limit: 10, limitReset: 'weekly', includeByokInLimit: true })
    const other = sim.keys.create({ userId: org.id, usage: { total: 9, daily: 1, weekly: 1, monthly: 4 } })
    sim.usage.record({ keyHash: hash, cost: 0.1 })
    sim.usage.record({ keyHash: hash, cost: 0.2, byok: true, at: '2026-03-01T12:00:00Z' })
    sim.usage.record({ keyHash: other.record.hash, cost: 0.3 })
    sim.clock.advance(3_600_000)
    const hashes = sim.keys.list().map((k) => k.hash)
    const saved = sim.snapshot()
    const savedCopy = structuredClone(saved)
    const savedClock = sim.clock.nowMs()
    const savedWire = hashes.map((h) => wire(sim, admin, h))
    const savedList = sim.keys.list()
    const savedListed = listed(sim, admin, 'include_disabled=true')

    sim.usage.record({ keyHash: hash, cost: 5 })
    sim.usage.record({ keyHash: hash, cost: 1, byok: true, at: '2026-03-20T00:00:00Z' })
    sim.usage.record({ keyHash: other.record.hash, cost: 2 })
    sim.keys.update(hash, { disabled: true, limit: 1 })
    sim.keys.create({ userId: org.id, name: 'after the snapshot' })
    sim.clock.set('2026-04-15T00:00:00Z')
    expect(wire(sim, admin, hash)).not.toEqual(savedWire[hashes.indexOf(hash)])

    sim.restore(saved)
    expect(sim.clock.nowMs()).toBe(savedClock)
    expect(hashes.map((h) => wire(sim, admin, h))).toEqual(savedWire)
    expect(sim.keys.list()).toEqual(savedList)
    expect(listed(sim, admin, 'include_disabled=true')).toEqual(savedListed)
    expect(sim.snapshot()).toEqual(saved)
    // The saved snapshot was not changed by what happened after it, nor by the restore.
    expect(saved).toEqual(savedCopy)

    // Recording after the restore does not write into the saved snapshot either.
    sim.usage.record({ keyHash: hash, cost: 1 })
    expect(saved).toEqual(savedCopy)
    sim.restore(saved)
    expect(hashes.map((h) => wire(sim, admin, h))).toEqual(savedWire)
  })

  it('restores a snapshot into another simulator with the same wire records and clock', () => {
    const a = setup(MONDAY, { limit: 4, limitReset: 'daily' })
    a.sim.usage.record({ keyHash: a.hash, cost: 1.5 })
    a.sim.clock.advance(5_000)
    const b = createSimulator({ world: 'empty', seed: 99, now: '2030-01-01T00:00:00Z' })
    b.restore(a.sim.snapshot())
    expect(b.clock.nowMs()).toBe(a.sim.clock.nowMs())
    expect(wire(b, a.admin, a.hash)).toEqual(wire(a.sim, a.admin, a.hash))
    expect(wire(b, a.admin, a.hash).limit_remaining).toBe(2.5)
  })

  it('reset() brings usage, keys and the clock back to the state right after creation', () => {
    const sim = createSimulator()
    const admin = sim.world.managementKey
    const hash = sim.world.apiKeyHash
    const baselineList = sim.keys.list()
    const baselineWire = wire(sim, admin, hash)
    const baselineClock = sim.clock.nowMs()
    sim.usage.record({ keyHash: hash, cost: 3 })
    sim.usage.record({ keyHash: hash, cost: 1, byok: true })
    sim.keys.update(hash, { disabled: true, limit: 1 })
    sim.clock.set('2026-05-01T00:00:00Z')
    expect(wire(sim, admin, hash)).not.toEqual(baselineWire)
    sim.reset()
    expect(sim.clock.nowMs()).toBe(baselineClock)
    expect(sim.clock.now().toISOString()).toBe(MONDAY)
    expect(wire(sim, admin, hash)).toEqual(baselineWire)
    expect(sim.keys.list()).toEqual(baselineList)
  })

  it('reset() on an empty world forgets every key and its usage', () => {
    const { sim, hash } = setup()
    sim.usage.record({ keyHash: hash, cost: 1 })
    sim.reset()
    expect(sim.keys.list()).toEqual([])
    expect(sim.keys.get(hash)).toBeUndefined()
    const error = simulatorError(() => sim.usage.record({ keyHash: hash, cost: 1 }))
    expect(error.code).toBe('UNKNOWN_KEY')
  })
})

describe('isolation between simulators', () => {
  it('two simulators created with the same options share no usage and no clock', () => {
    const a = setup()
    const b = setup()
    // Same seed, same options: the same ids and secrets, but separate state.
    expect(b.hash).toBe(a.hash)
    expect(b.admin).toBe(a.admin)
    a.sim.usage.record({ keyHash: a.hash, cost: 2 })
    a.sim.usage.record({ keyHash: a.hash, cost: 1, byok: true })
    expect(regularOf(wire(a.sim, a.admin, a.hash))).toEqual(regular(2, 2, 2, 2))
    expect(regularOf(wire(b.sim, b.admin, b.hash))).toEqual(regular(0, 0, 0, 0))
    expect(byokOf(wire(b.sim, b.admin, b.hash))).toEqual(regular(0, 0, 0, 0))
    expect(wire(b.sim, b.admin, b.hash).updated_at).toBeNull()

    a.sim.clock.advance(86_400_000)
    expect(b.sim.clock.now().toISOString()).toBe(MONDAY)
    b.sim.clock.set('2026-01-01T00:00:00Z')
    expect(a.sim.clock.now().toISOString()).toBe('2026-03-03T10:00:00.000Z')

    a.sim.keys.update(a.hash, { disabled: true })
    expect(wire(b.sim, b.admin, b.hash).disabled).toBe(false)
    b.sim.usage.record({ keyHash: b.hash, cost: 0.25, at: '2025-12-31T00:00:00Z' })
    expect(wire(a.sim, a.admin, a.hash).usage).toBe(2)
  })

  it('two default-world simulators do not see each other’s usage', () => {
    const a = createSimulator()
    const b = createSimulator()
    const before = wire(b, b.world.managementKey, b.world.apiKeyHash)
    a.usage.record({ keyHash: a.world.apiKeyHash, cost: 7 })
    expect(wire(b, b.world.managementKey, b.world.apiKeyHash)).toEqual(before)
    expect(wire(a, a.world.managementKey, a.world.apiKeyHash).usage).toBe((Math.round(before.usage * 1e10) + 7e10) / 1e10)
  })

  it('a restored snapshot is not shared with the simulator it came from', () => {
    const a = setup()
    const b = setup()
    b.sim.restore(a.sim.snapshot())
    b.sim.usage.record({ keyHash: a.hash, cost: 3 })
    expect(wire(a.sim, a.admin, a.hash).usage).toBe(0)
    expect(wire(b.sim, a.admin, a.hash).usage).toBe(3)
  })
})
