// Determinism across processes: the same seed and the same requests, JSON and streamed (one cut by
// a mid-stream error, one cancelled by its client), give byte-identical answers, frames and
// generations in two separate node processes, and in this one.
import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { transcript } from '../support/transcript.js'

const ROOT = resolve(import.meta.dirname, '../..')

/** The transcript a fresh node process prints for a seed. */
function inProcess(seed: number): Promise<string> {
  return new Promise((resolveRun, reject) => {
    execFile(process.execPath, ['--import', 'tsx', 'test/support/transcript.ts', String(seed)], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`))
      else resolveRun(stdout)
    })
  })
}

describe('the same seed and requests', () => {
  it('give byte-identical answers, streams and generations in separate processes', async () => {
    const [first, second] = await Promise.all([inProcess(42), inProcess(42)])
    expect(first.length).toBeGreaterThan(10_000)
    expect(first).toContain('data: [DONE]')
    expect(first).toContain('"finish_reason":"error"')
    expect(first).toContain('"cancelled":true')
    expect(second).toBe(first)
    expect(transcript(42)).toBe(first)
    // And a different seed gives a different session.
    expect(transcript(43)).not.toBe(first)
  }, 90_000)
})
