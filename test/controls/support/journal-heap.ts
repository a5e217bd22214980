// The heap a journal of 40 refused 10 MB bodies (and 20 more given as strings) keeps, measured in a process of its own (run with
// `node --import tsx --expose-gc journal-heap.ts`): the test's own allocations and other files'
// simulators are not in it. Sends { grownBytes, entries } over IPC and exits.
import { createSimulator } from '../../../src/index.js'

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with --expose-gc')

/** The heap and the array buffers (a Uint8Array body is one), after collecting twice. */
function retained(): number {
  gc?.()
  gc?.()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return heapUsed + arrayBuffers
}

// A budget far above what 40 whole bodies would count: the default (64 MiB) would hide a missing cap.
const sim = createSimulator({ journalBytes: 2 ** 40 })
const request = (body: Uint8Array) => ({ method: 'POST', path: '/chat/completions', headers: { 'content-type': 'application/json' }, body })
// One refused request first, so that the code's first-use costs are in the baseline.
sim.handle(request(new Uint8Array(16)))
const before = retained()
for (let i = 0; i < 40; i++) {
  // A fresh body each time: a journal that kept it (or its text) would keep 10 MB more per request.
  const status = sim.handle(request(new Uint8Array(10_000_000).fill(0x61 + (i % 26)))).status
  if (status !== 401) throw new Error(`expected 401, got ${status}`)
}
// Bodies given as strings too: a kept slice of one could keep the whole string alive.
for (let i = 0; i < 20; i++) {
  const status = sim.handle({ ...request(new Uint8Array(0)), body: String.fromCharCode(0x61 + i).repeat(10_000_000) }).status
  if (status !== 401) throw new Error(`expected 401, got ${status}`)
}
const grownBytes = retained() - before
process.send?.({ grownBytes, entries: sim.journal.list().length - 1 }, () => process.exit(0))
