// checkService's fixed tables, read through what a user sees: the unknown ids each error probe asks
// for (in `report.requests`), each probe's status on both sides and its skip without a regular key,
// the simulator side's own records, the model-id rule, the counts in words and a refusal's message.
// Each test evaluates src/live/check.ts anew (an import with a query never used before), so its
// module-level tables are computed inside the test. A copy cached by an earlier test keeps the values
// of its first evaluation: under mutation testing (isolate: false, one module graph for the run) a
// mutant of those tables, switched on before each test, would otherwise never be evaluated, and the
// tests that cover it would be whichever first imported the module (decisions/0018, 0058).
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import type { CheckReport } from '../../src/live/check.js'
import { LIVE_BASE, fakeService } from './fake-service.js'

type CheckModule = typeof import('../../src/live/check.js')

/** src/live/check.ts evaluated now, not taken from the module cache: a query never used before. */
async function freshCheck(): Promise<CheckModule> {
  const specifier = `../../src/live/check.js?fresh=${randomUUID()}`
  return (await import(/* @vite-ignore */ specifier)) as CheckModule
}

/** A report of `check` against a fresh default world served in process (fake-service.ts). */
async function reportOf(check: CheckModule, withRegularKey: boolean): Promise<CheckReport> {
  const live = createSimulator()
  const { world } = live
  live.presets.create({ userId: world.userId, slug: 'support-replies', config: { model: world.models.paid } })
  const service = fakeService(live)
  return check.checkService({
    baseUrl: LIVE_BASE,
    managementKey: world.managementKey,
    ...(withRegularKey && { regularKey: world.apiKey }),
    fetch: service.fetch,
    timeoutMs: 10_000,
  })
}

const result = (report: CheckReport, rule: string) => report.results.find((r) => r.rule === rule)
const status = (rule: string, code: string) => ({ rule, simulator: code, live: code, verdict: 'same' })

describe('the error probes of checkService', () => {
  it('ask each unknown id, without a key or with the management key, and get the same status on both sides', async () => {
    const report = await reportOf(await freshCheck(), false)
    const unknown = {
      '401 no Authorization on GET /keys': ['401', 'GET /keys (no Authorization)'],
      '404 unknown key hash': ['404', `GET /keys/${'0'.repeat(64)} (management key)`],
      '404 unknown workspace': ['404', 'GET /workspaces/00000000-0000-4000-8000-000000000000 (management key)'],
      '404 unknown model': ['404', 'GET /models/model-access-sim/no-such-model-0/endpoints (no Authorization)'],
      '404 unknown file': ['404', 'GET /files/file_model_access_sim_check_0/content (management key)'],
      '400 offset=-1 on GET /keys': ['400', 'GET /keys?offset=-1 (management key)'],
      '400 offset=abc on GET /keys': ['400', 'GET /keys?offset=abc (management key)'],
      '401 no Authorization on GET /key': ['401', 'GET /key (no Authorization)'],
      '401 no Authorization on GET /credits': ['401', 'GET /credits (no Authorization)'],
      '404 unknown model on GET /model/{author}/{slug}': ['404', 'GET /model/model-access-sim/no-such-model-0 (no Authorization)'],
      '404 unknown preset': ['404', 'GET /presets/model-access-sim-check-0 (management key)'],
      '404 unknown guardrail': ['404', 'GET /guardrails/00000000-0000-4000-8000-000000000000 (management key)'],
    } as const
    for (const [rule, [code, request]] of Object.entries(unknown)) {
      expect(result(report, rule)).toEqual(status(rule, code))
      expect(report.requests).toContain(request)
    }
    // Every error answer above is inspected by the envelope rule; none is skipped for want of one.
    expect(result(report, 'error envelope, code = status')).toEqual(status('error envelope, code = status', 'every error body fits, code = status'))
  })

  it('skip the regular key probes when no regular key is given, on both sides alike', async () => {
    const report = await reportOf(await freshCheck(), false)
    for (const rule of ['403 regular key on GET /keys', '403 regular key on GET /credits']) {
      expect(result(report, rule)).toEqual({ rule, simulator: '-', live: 'skipped: no regular key given (--regular-key)', verdict: 'skipped' })
    }
    expect(report.requests.filter((r) => r.endsWith('(regular key)'))).toEqual([])
  })

  it('send the regular key to GET /keys and GET /credits when it is given, and get 403 on both sides', async () => {
    const report = await reportOf(await freshCheck(), true)
    expect(result(report, '403 regular key on GET /keys')).toEqual(status('403 regular key on GET /keys', '403'))
    expect(result(report, '403 regular key on GET /credits')).toEqual(status('403 regular key on GET /credits', '403'))
    expect(report.requests).toContain('GET /keys (regular key)')
    expect(report.requests).toContain('GET /credits (regular key)')
  })
})

describe("checkService's other fixed parts", () => {
  it("reads the simulator side's own preset and governance records, and counts its rules in words", async () => {
    const check = await freshCheck()
    const report = await reportOf(check, false)
    // The simulator side's preset (CHECK_PRESET_SLUG) is the one its GET /presets/{slug} reads.
    const fits = (rule: string, shape: string) => status(rule, `200 json, fits ${shape}`)
    expect(result(report, 'shape GET /presets/{slug}')).toEqual(fits('shape GET /presets/{slug}', '{ data: PresetWithVersion }'))
    expect(result(report, 'shape GET /guardrails/{id}')).toEqual(fits('shape GET /guardrails/{id}', '{ data: Guardrail }'))
    expect(result(report, 'shape GET /byok')).toEqual(fits('shape GET /byok', '{ data: BYOKKey[], total_count: integer }'))
    expect(result(report, 'shape GET /endpoints/zdr')).toEqual(fits('shape GET /endpoints/zdr', '{ data: Endpoint[] }'))
    expect(report.requests).toContain('GET /byok (management key)')
    expect(report.requests).toContain('GET /endpoints/zdr (no Authorization)')
    expect(result(report, 'order of GET /keys: newest first')).toEqual(status('order of GET /keys: newest first', 'newest first'))
    expect(check.formatReport(report)).toContain(`${report.results.length} rules: ${report.same} same, ${report.drift} drift, ${report.skipped} skipped`)
  })

  it('counts shape problems in words', async () => {
    const check = await freshCheck()
    const live = createSimulator()
    const service = fakeService(live, (sent) => (sent.path === '/credits' ? new Response('{"data":{"total_credits":1}}', { headers: { 'content-type': 'application/json' } }) : undefined))
    const report = await check.checkService({ baseUrl: LIVE_BASE, managementKey: live.world.managementKey, fetch: service.fetch, timeoutMs: 10_000 })
    expect(result(report, 'shape GET /credits')?.live).toBe('200 json, 1 shape problem')
  })

  it('takes model ids of two segments of any length, and refuses one of three, naming the operation', async () => {
    const check = await freshCheck()
    const live = createSimulator()
    const service = fakeService(live)
    const model = live.world.models.paid
    const report = await check.checkService({ baseUrl: LIVE_BASE, managementKey: live.world.managementKey, models: [model], fetch: service.fetch, timeoutMs: 10_000 })
    expect(result(report, `shape GET /models/${model}/endpoints`)?.verdict).toBe('same')
    for (const bad of ['openai/gpt-4o/extra', 'openai/gpt 4o']) {
      await expect(check.checkService({ baseUrl: LIVE_BASE, managementKey: live.world.managementKey, models: [bad], fetch: service.fetch })).rejects.toThrow(
        `Failed to check the service: "models" must be an array of model ids such as "openai/gpt-4o", got "${bad}".`,
      )
    }
  })
})
