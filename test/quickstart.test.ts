// `npm start` runs examples/quickstart.ts: the default world through MSW, read with the official SDK.
// It must run to its end and show what a new user came for: a priced completion whose cost the
// generation and the key agree on, the refusal at the key's limit, the 402 of an organisation nearly
// out of credits, and the night price of the time-windowed model.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

const SCRIPT = fileURLToPath(new URL('../examples/quickstart.ts', import.meta.url))
const TIMEOUT_MS = 60_000

describe('npm start (examples/quickstart.ts)', () => {
  let run: { code: number | null; stdout: string; stderr: string }

  beforeAll(async () => {
    run = await new Promise((resolve) => {
      execFile(process.execPath, ['--import', fileURLToPath(import.meta.resolve('tsx')), SCRIPT], { timeout: TIMEOUT_MS, env: { ...process.env, COLUMNS: '100' } }, (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr })
      })
    })
  }, TIMEOUT_MS + 10_000)

  it('runs to its end without an error', () => {
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('What next')
  })

  it('shows a priced completion whose usage.cost equals the generation total_cost', () => {
    const lines = run.stdout.split('\n')
    const header = lines.findIndex((line) => line.startsWith('POST /chat/completions'))
    expect(header).toBeGreaterThan(0)
    const row = (lines[header + 3] ?? '').trim().split(/\s{2,}/)
    // model, provider, tokens, usage.cost, total_cost, usage_daily, limit_remaining
    // The answer's model: the dated canonical slug of the model asked for.
    expect(row[0]).toBe('meta-llama/llama-3.3-70b-instruct-2024-12-06')
    expect(Number(row[3])).toBeGreaterThan(0.000001)
    expect(row[4]).toBe(row[3])
    expect(Number(row[5])).toBeCloseTo(0.999999 + Number(row[3]), 10)
    expect(row[6]).toBe('0')
  })

  it('shows the refusal at the limit, the 402 of the low-credit organisation, and a cheaper night', () => {
    expect(run.stdout).toContain('The same request again -> 403 Key limit exceeded (daily limit).')
    expect(run.stdout).toMatch(/-> 402 This request requires more credits, or fewer max_tokens\. You requested up to \d+ tokens, but can only afford \d+\n/)
    expect(run.stdout).toMatch(/\.\.\.and with maxTokens 100 -> served, usage\.cost 0\.\d+ USD/)
    const day = /^ {2}12:00 +\d+ \+ \d+ +(\S+)$/m.exec(run.stdout)?.[1]
    const night = /^ {2}22:00 +\d+ \+ \d+ +(\S+)$/m.exec(run.stdout)?.[1]
    expect(Number(night)).toBeGreaterThan(0)
    expect(Number(night)).toBeLessThan(Number(day))
  })
})
