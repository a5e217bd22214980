// Seeded usage (`sim.keys.create({ usage })`) on the calendar days where the UTC day, the ISO week
// and the calendar month start on different days, on the same day, or two of them together: the
// exact texts of the errors for figures the calendar rules out, the figures a missing one defaults
// to, and where the records that reproduce the figures are placed (as `exportWorld()` shows them).
// Every expectation is worked out by hand from the rules in the comment next to it:
// daily <= weekly and daily <= monthly; when the week so far lies within the month the weekly
// figure cannot exceed the monthly one, and the reverse; total covers the week and the month together.
import { describe, expect, it } from 'vitest'
import { type ApiKey, type CreateKeyOptions, createSimulator } from '../../src/index.js'
import { simulatorErrorOf } from '../support/server.js'

type KeyOptions = Omit<CreateKeyOptions, 'userId'>

const weekday = (iso: string): number => new Date(iso).getUTCDay()
const MONDAY_DAY = 1
const TUESDAY_DAY = 2
const WEDNESDAY_DAY = 3
const THURSDAY_DAY = 4

// Monday 2026-03-02: the day and the week begin today, the month began yesterday (Sunday 03-01).
const MONDAY = '2026-03-02T10:00:00Z'
// Tuesday 2026-03-03: the week began Monday 03-02, inside the month that began 03-01.
const TUESDAY = '2026-03-03T10:00:00Z'
// Wednesday 2026-04-01: the month begins today, the week began Monday 03-30.
const FIRST = '2026-04-01T10:00:00Z'
// Thursday 2026-04-02: the month began yesterday, inside the week that began Monday 03-30.
const SECOND = '2026-04-02T10:00:00Z'
// Tuesday 2026-06-02: the week and the month both began yesterday, Monday 2026-06-01.
const JUNE_SECOND = '2026-06-02T10:00:00Z'

const SUFFIX = " (the figures are as of the simulator clock's now)."

function setup(now: string) {
  const sim = createSimulator({ world: 'empty', seed: 5, now })
  const org = sim.users.create({ name: 'Acme' })
  return { sim, org }
}


const figures = (usage: number, daily: number, weekly: number, monthly: number) => ({ usage, daily, weekly, monthly })
const regularOf = (key: ApiKey) => figures(key.usage, key.usage_daily, key.usage_weekly, key.usage_monthly)

describe('the calendar days these tests rely on', () => {
  it('fall on the weekdays the comments say', () => {
    expect(weekday(MONDAY)).toBe(MONDAY_DAY)
    expect(weekday(TUESDAY)).toBe(TUESDAY_DAY)
    expect(weekday(FIRST)).toBe(WEDNESDAY_DAY)
    expect(weekday(SECOND)).toBe(THURSDAY_DAY)
    expect(weekday('2026-03-30T00:00:00Z')).toBe(MONDAY_DAY)
    expect(weekday('2026-06-01T00:00:00Z')).toBe(MONDAY_DAY)
    expect(weekday(JUNE_SECOND)).toBe(TUESDAY_DAY)
  })
})

describe('seeded usage the calendar rules out', () => {
  const cases: [string, string, KeyOptions, string, string][] = [
    // daily 5 > weekly 3: today is in this week.
    ['weekly below daily', MONDAY, { usage: { daily: 5, weekly: 3 } }, 'usage.weekly', 'must be at least daily (5): today is part of this week'],
    ['byok weekly below daily', MONDAY, { byokUsage: { daily: 0.5, weekly: 0.25 } }, 'byokUsage.weekly', 'must be at least daily (0.5): today is part of this week'],
    // The week began today, so it holds only today: weekly 5 cannot exceed daily 1.
    ['weekly above daily on a Monday', MONDAY, { usage: { daily: 1, weekly: 5 } }, 'usage.weekly', 'cannot exceed daily (1) here: this week so far is today'],
    // The week (from 03-02) lies within the month (from 03-01): weekly 5 cannot exceed monthly 3.
    [
      'weekly above monthly when the week lies within the month',
      TUESDAY,
      { usage: { weekly: 5, monthly: 3 } },
      'usage.weekly',
      'cannot exceed monthly (3) here: this week so far lies within this month',
    ],
    // Same, but monthly equals daily, so the monthly cap is the daily figure: weekly 5 cannot exceed 2.
    [
      'weekly above a monthly figure equal to daily',
      TUESDAY,
      { usage: { daily: 2, weekly: 5, monthly: 2 } },
      'usage.weekly',
      'cannot exceed daily (2) here: this week so far lies within this month',
    ],
    // The month began today (the 1st): monthly 3 cannot exceed daily 1, although the week began on 03-30.
    ['monthly above daily on the 1st', FIRST, { usage: { daily: 1, monthly: 3 } }, 'usage.monthly', 'cannot exceed daily (1) here: this month so far is today'],
    // The month (from 04-01) lies within the week (from 03-30): monthly 5 cannot exceed weekly 3.
    [
      'monthly above weekly when the month lies within the week',
      SECOND,
      { usage: { weekly: 3, monthly: 5 } },
      'usage.monthly',
      'cannot exceed weekly (3) here: this month so far lies within this week',
    ],
    // Same, but weekly equals daily, so the weekly cap is the daily figure: monthly 5 cannot exceed 1.
    [
      'monthly above a weekly figure equal to daily',
      SECOND,
      { usage: { daily: 1, weekly: 1, monthly: 5 } },
      'usage.monthly',
      'cannot exceed daily (1) here: this month so far lies within this week',
    ],
    // Week and month both began on Monday 06-01: each holds all of the other, neither may exceed the other.
    [
      'weekly above monthly when both began on the same Monday',
      JUNE_SECOND,
      { usage: { weekly: 5, monthly: 3 } },
      'usage.weekly',
      'cannot exceed monthly (3) here: this week so far lies within this month',
    ],
    [
      'monthly above weekly when both began on the same Monday',
      JUNE_SECOND,
      { usage: { weekly: 3, monthly: 5 } },
      'usage.monthly',
      'cannot exceed weekly (3) here: this month so far lies within this week',
    ],
    // Monday 06-01 is also the 1st: the week and the month hold only today.
    ['weekly above daily on a Monday that is the 1st', '2026-06-01T10:00:00Z', { usage: { daily: 1, weekly: 3 } }, 'usage.weekly', 'cannot exceed daily (1) here: this week so far is today'],
    // On 04-02 weekly 10 and monthly 2 share at most 2 (04-01 and 04-02); the other 8 are 03-30..03-31:
    // this week and this month hold 10 together, more than total 5.
    [
      'total below the week and the month together',
      SECOND,
      { usage: { weekly: 10, monthly: 2, total: 5 } },
      'usage.total',
      'must be at least the usage of this week and this month together (10)',
    ],
  ]

  it.each(cases)('explains %s in the error message, and creates no key', (_, now, options, argument, problem) => {
    const { sim, org } = setup(now)
    const error = simulatorErrorOf(() => sim.keys.create({ userId: org.id, ...options }))
    expect(error.code).toBe('INVALID_ARGUMENT')
    expect(error.argument).toBe(argument)
    expect(error.message).toBe(`Failed to create API key: "${argument}" ${problem}${SUFFIX}`)
    expect(sim.keys.list()).toEqual([])
  })
})

describe('seeded usage defaults and placement', () => {
  const defaults: [string, string, KeyOptions['usage'], ReturnType<typeof figures>][] = [
    // Week and month both began 06-01: the month holds all of the week and the week all of the month.
    ['weekly only, week and month begun the same Monday', JUNE_SECOND, { weekly: 5 }, figures(5, 0, 5, 5)],
    ['monthly only, week and month begun the same Monday', JUNE_SECOND, { monthly: 5 }, figures(5, 0, 5, 5)],
    // Total only, on a day whose month lies within its week: nothing in the day, week or month.
    ['total only on the 2nd (a Thursday)', SECOND, { total: 2 }, figures(2, 0, 0, 0)],
    ['total and daily on the 1st (a Wednesday)', FIRST, { daily: 1, total: 10 }, figures(10, 1, 1, 1)],
    // 04-02: daily 1; the week and month share 04-01..04-02, so at most monthly 2 of weekly 10 there;
    // the other 8 of the week are 03-30..03-31, and the 10 left of total 20 before 03-30.
    ['every figure, the week reaching back before the month', SECOND, { daily: 1, weekly: 10, monthly: 2, total: 20 }, figures(20, 1, 10, 2)],
  ]

  it.each(defaults)('reproduces %s', (_, now, usage, expected) => {
    const { sim, org } = setup(now)
    const { record } = sim.keys.create({ userId: org.id, ...(usage && { usage }) })
    expect(regularOf(record)).toEqual(expected)
  })

  it('writes today’s usage as one record at the start of the day, and nothing for the empty windows', () => {
    const { sim, org } = setup(MONDAY)
    const { record } = sim.keys.create({ userId: org.id, usage: { daily: 2 }, byokUsage: { daily: 0.5 } })
    expect(regularOf(record)).toEqual(figures(2, 2, 2, 2))
    const exported = sim.exportWorld().keys?.find((key) => key.hash === record.hash)
    expect(exported?.usage).toEqual([
      { at: '2026-03-02T00:00:00.000Z', cost: 2 },
      { at: '2026-03-02T00:00:00.000Z', cost: 0.5, byok: true },
    ])
  })

  it('places each share at the start of the part of the week or month it belongs to, the rest just before both', () => {
    const { sim, org } = setup(SECOND)
    const { record } = sim.keys.create({ userId: org.id, usage: { daily: 1, weekly: 10, monthly: 2, total: 20 } })
    const exported = sim.exportWorld().keys?.find((key) => key.hash === record.hash)
    expect(exported?.usage).toEqual([
      { at: '2026-03-29T23:59:59.999Z', cost: 10 }, // total 20 less the 10 of the week and month
      { at: '2026-03-30T00:00:00.000Z', cost: 8 }, // the week's part before the month
      { at: '2026-04-01T00:00:00.000Z', cost: 1 }, // the month so far, before today
      { at: '2026-04-02T00:00:00.000Z', cost: 1 }, // today
    ])
    // And the figures roll as those records say: on Friday the day is empty, from the 6th the week.
    sim.clock.set('2026-04-03T00:00:00Z')
    expect(regularOf(sim.keys.get(record.hash) as ApiKey)).toEqual(figures(20, 0, 10, 2))
    sim.clock.set('2026-04-06T00:00:00Z')
    expect(regularOf(sim.keys.get(record.hash) as ApiKey)).toEqual(figures(20, 0, 0, 2))
  })
})
