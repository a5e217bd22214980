// A client script for the harness's own test (test/clients/harness.test.ts): no real client, one
// case that passes and one that fails, through both targets.
import assert from 'node:assert/strict'
import { runCases } from './harness.js'

await runCases({
  'reaches the simulator': async (target) => {
    const answer = await fetch(`${target.baseURL}/key`, { headers: { authorization: `Bearer ${target.apiKey}` } })
    assert.equal(answer.status, 200)
    assert.equal(target.sim.journal.list({ operation: 'getCurrentKey' }).length, 1)
  },
  'fails on purpose': async () => {
    assert.equal(1, 2, 'a failing case')
  },
})
