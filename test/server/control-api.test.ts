// The control API in process (createControlApi, as the server mounts it under /__sim): the routes of
// presets, guardrails, members, BYOK, budgets, activity, credits and responders, the 404 of each
// unknown id, the journal's query, the error envelopes (400 naming the argument, 500 for a failure
// that is not the caller's), and a simulator object that is not createSimulator's own, answered from
// its public API.
import { describe, expect, it } from 'vitest'
import { createSimulator, SimulatorError } from '../../src/index.js'
import { type Answer, controlOf, read, wrapper } from '../support/control.js'


/** The 404 of an id the control API does not know. */
function expectUnknown(answer: Answer, what: string, reason: string, id: string): void {
  expect(answer).toEqual({ status: 404, body: { error: { code: 404, message: `Unknown ${what} ${JSON.stringify(id)}`, metadata: { reason, id } } } })
}

function expectBadArgument(answer: Answer, argument: string): void {
  expect(answer.status).toBe(400)
  expect(answer.body.error).toMatchObject({ code: 400, message: expect.stringMatching(/^Failed to /), metadata: { argument } })
}

describe('the control API: presets, guardrails, members', () => {
  it('creates, changes and deletes a preset, answering it as the export holds it; an unknown id is a 404', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    const created = control('POST', '/presets', { userId: sim.world.userId, slug: 'support', config: { temperature: 0.2 } })
    expect(created.status).toBe(201)
    const id = created.body.id as string
    const exported = () => control('GET', '/world/export').body.presets.find((p: { id: string }) => p.id === id)
    expect(created.body).toEqual(exported())
    const changed = control('PATCH', `/presets/${id}`, { config: { temperature: 0.5 } })
    expect(changed.status).toBe(200)
    expect(changed.body).toEqual(exported())
    expect(changed.body.versions).toHaveLength(2)
    expectUnknown(control('PATCH', '/presets/preset_nope', { config: {} }), 'preset', 'unknown_preset', 'preset_nope')
    expect(control('DELETE', `/presets/${id}`).status).toBe(204)
    expect(sim.presets.get(id)).toBeUndefined()
    expectUnknown(control('DELETE', `/presets/${id}`), 'preset', 'unknown_preset', id)
    expectBadArgument(control('POST', '/presets', { userId: sim.world.userId, slug: 'Not A Slug!' }), 'slug')
  })

  it('creates, changes and deletes a guardrail; an unknown id is a 404', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    const created = control('POST', '/guardrails', { userId: sim.world.userId, rules: { name: 'cap' } })
    expect(created.status).toBe(201)
    const id = created.body.id as string
    expect(created.body).toEqual(sim.guardrails.get(id))
    const changed = control('PATCH', `/guardrails/${id}`, { limit_usd: 3 })
    expect(changed).toEqual({ status: 200, body: sim.guardrails.get(id) })
    expect(changed.body.limit_usd).toBe(3)
    expectUnknown(control('PATCH', '/guardrails/nope', { limit_usd: 1 }), 'guardrail', 'unknown_guardrail', 'nope')
    expect(control('DELETE', `/guardrails/${id}`).status).toBe(204)
    expect(sim.guardrails.get(id)).toBeUndefined()
    expectUnknown(control('DELETE', `/guardrails/${id}`), 'guardrail', 'unknown_guardrail', id)
  })

  it('adds and removes a member; an unknown one is a 404 naming it', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    const userId = sim.world.userId
    const added = control('POST', '/members', { userId, id: 'user_ada' })
    expect(added).toEqual({ status: 201, body: sim.members.get(userId, 'user_ada') })
    expect(control('DELETE', `/members/${userId}/user_ada`).status).toBe(204)
    expect(sim.members.get(userId, 'user_ada')).toBeUndefined()
    expectUnknown(control('DELETE', `/members/${userId}/user_ada`), 'member', 'unknown_member', 'user_ada')
  })
})

describe('the control API: BYOK, budgets, activity, credits', () => {
  it('makes, lists and deletes a BYOK credential; an unknown one is a 404', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    const made = control('POST', '/byok', { userId: sim.world.userId, provider: 'openai', key: 'sk-proj-0123456789' })
    expect(made.status).toBe(201)
    expect(control('GET', '/byok')).toEqual({ status: 200, body: { data: sim.byok.list() } })
    expect(sim.byok.list().map((c) => c.id)).toEqual([made.body.id])
    expect(control('DELETE', `/byok/${made.body.id}`).status).toBe(204)
    expect(sim.byok.list()).toEqual([])
    expectUnknown(control('DELETE', `/byok/${made.body.id}`), 'byok credential', 'unknown_byok_credential', made.body.id)
  })

  it('sets and deletes a workspace budget; an unknown one is a 404 naming workspace and interval', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    const workspace = sim.world.workspaces.default
    const set = control('POST', '/budgets', { workspace, interval: 'daily', limitUsd: 1 })
    expect(set).toEqual({ status: 200, body: sim.budgets.get(workspace, 'daily') })
    expect(control('DELETE', `/budgets/${workspace}/daily`).status).toBe(204)
    expect(sim.budgets.get(workspace, 'daily')).toBeUndefined()
    expectUnknown(control('DELETE', `/budgets/${workspace}/daily`), 'budget', 'unknown_budget', `${workspace}/daily`)
  })

  it('records activity, answering the row', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    const row = { userId: sim.world.userId, date: '2026-03-01', keyHash: sim.world.apiKeyHash, model: 'openai/gpt-4.1-mini', provider: 'OpenAI', requests: 10, usage: 0.1, promptTokens: 1000, completionTokens: 500 }
    const answer = control('POST', '/activity', row)
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ date: expect.stringContaining('2026-03-01'), requests: 10, usage: 0.1 })
    expectBadArgument(control('POST', '/activity', { ...row, usage: -1 }), 'usage')
  })

  it('adds credits, answering the organisation as a world spec holds it', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    const answer = control('POST', '/credits', { userId: sim.world.userId, amount: 5 })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual(control('GET', '/world/export').body.users.find((u: { id: string }) => u.id === sim.world.userId))
  })
})

describe('the control API: responders, faults, snapshots by name', () => {
  it('adds, lists and removes responders; an unknown one is a 404', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    const added = control('POST', '/responders', { name: 'refunds', reply: { content: 'Five days.' } })
    expect(added.status).toBe(201)
    control('POST', '/responders', { name: 'other', reply: { content: 'No.' } })
    expect(control('GET', '/responders').body.data.map((r: { name: string }) => r.name)).toEqual(['other', 'refunds'])
    expect(control('DELETE', '/responders/refunds').status).toBe(204)
    expect(sim.inference.responders.list().map((r) => r.name)).toEqual(['other'])
    expectUnknown(control('DELETE', '/responders/refunds'), 'responder', 'unknown_responder', 'refunds')
    expect(control('DELETE', '/responders').status).toBe(204)
    expect(sim.inference.responders.list()).toEqual([])
  })

  it('removes a fault by its name, decoded from the path, and only that one', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    control('POST', '/faults', { name: 'video outage', operation: 'listVideoModels', respond: { status: 503 } })
    control('POST', '/faults', { name: 'keys', operation: 'listKeys', respond: { status: 500 } })
    expect(control('DELETE', '/faults/video%20outage').status).toBe(204)
    expect(sim.faults.list().map((f) => f.name)).toEqual(['keys'])
    expectUnknown(control('DELETE', '/faults/video%20outage'), 'fault', 'unknown_fault', 'video outage')
  })

  it('refuses a preset that is not a string, naming preset', () => {
    const sim = createSimulator()
    const answer = controlOf(sim)('POST', '/faults', { preset: 5 })
    expectBadArgument(answer, 'preset')
    expect(answer.body.error.message).toBe('Failed to read the request: "preset" must be one of providerDown, serviceUnavailable, internalError, got 5.')
  })

  it('deletes a snapshot it knows, and answers 404 for one it does not', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    const id = control('POST', '/snapshots').body.id as string
    expect(id).toBe('snap-1')
    expect(control('POST', '/snapshots').body.id).toBe('snap-2')
    expect(control('DELETE', `/snapshots/${id}`).status).toBe(204)
    expectUnknown(control('DELETE', `/snapshots/${id}`), 'snapshot', 'unknown_snapshot', id)
    expectUnknown(control('POST', `/snapshots/${id}/restore`), 'snapshot', 'unknown_snapshot', id)
    expect(control('POST', '/snapshots/snap-2/restore').status).toBe(204)
  })
})

describe('the control API: requests and their errors', () => {
  it('takes a path without its leading slash and a method in lower case', () => {
    const control = controlOf(createSimulator())
    expect(control('get', 'health')).toEqual({ status: 200, body: { status: 'ok' } })
    expect(control('get', '/clock').status).toBe(200)
  })

  it('answers an unknown route with a 404 naming its method and path', () => {
    const control = controlOf(createSimulator())
    const answer = control('patch', '/health/extra')
    expect(answer.status).toBe(404)
    expect(answer.body.error.metadata).toEqual({ reason: 'unknown_control_route', method: 'PATCH', path: '/__sim/health/extra' })
    expect(answer.body.error.message).toMatch(/^PATCH \/__sim\/health\/extra is not a control route; the control API has GET \/__sim\/health, GET \/__sim\/world, GET \/__sim\/world\/export, POST \/__sim\/reset, /)
    expect(answer.body.error.message).toContain('DELETE /__sim/members/{userId}/{memberId}, POST /__sim/byok, GET /__sim/byok, DELETE /__sim/byok/{id}, POST /__sim/credits')
  })

  it('reads a body of only white space as no body', () => {
    const sim = createSimulator()
    const answer = controlOf(sim)('POST', '/users', ' \n ')
    expect(answer.status).toBe(201)
    expect(answer.body.name).toBe('Acme Inc.')
  })

  it('names the body field, not the parameter, in a clock error', () => {
    const answer = controlOf(createSimulator())('PUT', '/clock', { now: 'yesterday' })
    expectBadArgument(answer, 'now')
    expect(answer.body.error.message).toContain('"now"')
    expect(answer.body.error.message).not.toContain('"instant"')
  })

  it('a SimulatorError without an argument names the body, and carries its details', () => {
    const sim = createSimulator()
    const failing = wrapper(sim)
    failing.reset = () => {
      throw new SimulatorError('INVALID_ARGUMENT' as never, 'Failed to reset: it went wrong.', { details: { why: 'test' } })
    }
    const answer = controlOf(failing)('POST', '/reset')
    expect(answer).toEqual({ status: 400, body: { error: { code: 400, message: 'Failed to reset: it went wrong.', metadata: { argument: 'body', code: 'INVALID_ARGUMENT', details: { why: 'test' } } } } })
    failing.reset = () => {
      throw new SimulatorError('INVALID_ARGUMENT' as never, 'Failed to reset: no details.')
    }
    expect(controlOf(failing)('POST', '/reset').body.error.metadata).toEqual({ argument: 'body', code: 'INVALID_ARGUMENT' })
  })

  it('answers a failure that is not a SimulatorError with a 500 giving its message', () => {
    const failing = wrapper(createSimulator())
    failing.reset = () => {
      throw new Error('the disk is full')
    }
    expect(controlOf(failing)('POST', '/reset')).toEqual({ status: 500, body: { error: { code: 500, message: 'Internal Server Error', metadata: { reason: 'the disk is full' } } } })
    failing.reset = () => {
      throw 'a string'
    }
    expect(controlOf(failing)('POST', '/reset').body.error.metadata).toEqual({ reason: 'a string' })
  })
})

describe('the control API: what a route does not read is refused before it acts', () => {
  it('refuses a body given to a route that takes none, changing nothing', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    control('POST', '/faults', { name: 'a', operation: 'listKeys', respond: { status: 500 } })
    control('POST', '/faults', { name: 'b', operation: 'listVideoModels', respond: { status: 503 } })
    sim.handle({ method: 'GET', path: '/videos/models' })
    for (const [method, path] of [
      ['DELETE', '/faults'],
      ['POST', '/reset'],
      ['DELETE', '/journal'],
      ['DELETE', '/responders'],
      ['DELETE', '/latency'],
      ['GET', '/health'],
    ] as const) {
      const refused = control(method, path, { name: 'a', keepJournal: true })
      expect([refused.status, refused.body.error.metadata.argument], `${method} ${path}`).toEqual([400, 'body'])
      expect(refused.body.error.message).toBe(`Failed to read the request: ${method} /__sim${path} takes no body.`)
      expect(control(method, path, [1]).status, `${method} ${path} with an array`).toBe(400)
    }
    expect(sim.faults.list().map((f) => f.name)).toEqual(['a', 'b'])
    expect(sim.journal.list()).toHaveLength(1)
    // An empty object, or no body, is no body.
    expect(control('DELETE', '/faults', {}).status).toBe(204)
    expect(sim.faults.list()).toEqual([])
    expect(control('POST', '/reset').status).toBe(204)
  })

  it('refuses a query parameter given to a route that takes none, naming it', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    for (const [method, path, query] of [
      ['GET', '/clock', 'at=2020'],
      ['GET', '/health', 'verbose=1'],
      ['GET', '/faults', 'name=a'],
      ['DELETE', '/journal', 'operation=listKeys'],
    ] as const) {
      const refused = control(method, path, undefined, query)
      const name = query.split('=')[0] as string
      expect([refused.status, refused.body.error.metadata.argument], `${method} ${path}?${query}`).toEqual([400, name])
      expect(refused.body.error.message).toBe(`Failed to read the request: "${name}" is not a parameter of ${method} /__sim${path}, which takes none.`)
    }
  })

  it('refuses a journal filter or export parameter given twice, naming it', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    for (const [path, query, name] of [
      ['/journal', 'operation=countModels&operation=listKeys', 'operation'],
      ['/journal', 'limit=1&limit=5', 'limit'],
      ['/world/export', 'bodies=false&bodies=true', 'bodies'],
    ] as const) {
      const refused = control('GET', path, undefined, query)
      expect([refused.status, refused.body.error.metadata.argument], `${path}?${query}`).toEqual([400, name])
      expect(refused.body.error.message).toMatch(new RegExp(`"${name}" is given 2 times; give it once`))
    }
  })

  it('refuses a fraction of a millisecond to advance the clock, which it would drop', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    const before = sim.clock.nowMs()
    const refused = control('POST', '/clock/advance', { ms: 0.5 })
    expect([refused.status, refused.body.error.metadata.argument]).toEqual([400, 'ms'])
    expect(sim.clock.nowMs()).toBe(before)
    expect(control('POST', '/clock/advance', { ms: 2 }).body.now).toBe(new Date(before + 2).toISOString())
  })
})

describe('the control API: the journal query', () => {
  function served() {
    const sim = createSimulator()
    sim.handle({ method: 'GET', path: '/videos/models' })
    sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}` })
    sim.handle({ method: 'POST', path: '/keys', authorization: `Bearer ${sim.world.apiKey}`, body: '{}' })
    return { sim, control: controlOf(sim) }
  }
  const seqs = (answer: Answer): number[] => answer.body.data.map((e: { seq: number }) => e.seq)

  it('filters on method, key, status, operation, outcome and the flags', () => {
    const { sim, control } = served()
    expect(seqs(control('GET', '/journal', undefined, 'method=POST'))).toEqual([3])
    const managementHash = sim.journal.list()[1]?.principal?.keyHash as string
    expect(seqs(control('GET', '/journal', undefined, `keyHash=${managementHash}`))).toEqual([2])
    expect(seqs(control('GET', '/journal', undefined, 'status=200'))).toEqual([1, 2])
    expect(seqs(control('GET', '/journal', undefined, 'operation=listKeys'))).toEqual([2])
    expect(seqs(control('GET', '/journal', undefined, 'outcome=response'))).toEqual([1, 2, 3])
    expect(seqs(control('GET', '/journal', undefined, 'responder=nobody'))).toEqual([])
    expect(seqs(control('GET', '/journal', undefined, 'hasWarnings=false'))).toEqual([1, 2, 3])
    expect(seqs(control('GET', '/journal', undefined, 'flagged=true'))).toEqual([])
    expect(seqs(control('GET', '/journal', undefined, 'flagged=false'))).toEqual([1, 2, 3])
    // An empty filter is no filter.
    expect(seqs(control('GET', '/journal', undefined, 'method=&status=&operation=&keyHash=&outcome=&responder='))).toEqual([1, 2, 3])
  })

  it('refuses a bad value of each, naming the parameter and what it takes', () => {
    const { control } = served()
    const cases = [
      ['status=2000', 'status', '"status" must be an HTTP status such as 404, got "2000"'],
      ['status=20x', 'status', '"status" must be an HTTP status such as 404, got "20x"'],
      ['outcome=maybe', 'outcome', '"outcome" must be one of response, network-error, never, cut-short, client-left, got "maybe"'],
      ['flagged=yes', 'flagged', '"flagged" must be true or false, got "yes"'],
      ['hasWarnings=1', 'hasWarnings', '"hasWarnings" must be true or false, got "1"'],
      ['limit=1.5', 'limit', '"limit" must be an integer from 1 to 10000, got "1.5"'],
      ['limit=1e3', 'limit', '"limit" must be an integer from 1 to 10000, got "1e3"'],
      ['limit=-1', 'limit', '"limit" must be an integer from 1 to 10000, got "-1"'],
      ['limit=%201', 'limit', '"limit" must be an integer from 1 to 10000, got " 1"'],
      ['status=x20', 'status', '"status" must be an HTTP status such as 404, got "x20"'],
      ['after=x1', 'after', `"after" must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}, got "x1"`],
      ['after=99999999999999999', 'after', `"after" must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}, got "99999999999999999"`],
    ] as const
    for (const [query, argument, problem] of cases) {
      const answer = control('GET', '/journal', undefined, query)
      expectBadArgument(answer, argument)
      expect(answer.body.error.message, query).toBe(`Failed to read the request: ${problem}.`)
    }
    const operation = control('GET', '/journal', undefined, 'operation=chat')
    expect(operation.body.error.message).toMatch(/^Failed to read the request: "operation" must be one of listKeys, getKey, .*createChatCompletion, .* or none, got "chat"\.$/)
    // A near miss is answered with what it probably meant, nearest first.
    const nearMiss = control('GET', '/journal', undefined, 'operation=createChatCompletions')
    expectBadArgument(nearMiss, 'operation')
    expect(nearMiss.body.error.message).toMatch(/ or none, got "createChatCompletions" \(did you mean "createChatCompletion" or "createCompletion"\?\)\.$/)
  })

  it('takes the bounds of limit and after', () => {
    const { control } = served()
    expect(seqs(control('GET', '/journal', undefined, 'limit=1'))).toEqual([1])
    expect(seqs(control('GET', '/journal', undefined, 'limit=10000'))).toEqual([1, 2, 3])
    expect(seqs(control('GET', '/journal', undefined, 'after=0'))).toEqual([1, 2, 3])
    expect(seqs(control('GET', '/journal', undefined, `after=${Number.MAX_SAFE_INTEGER}`))).toEqual([])
  })

  it('a page cut short names where the next starts; a page that is not, does not', () => {
    const { control } = served()
    expect(control('GET', '/journal', undefined, 'limit=2').body).toMatchObject({ nextAfter: 2 })
    expect(control('GET', '/journal', undefined, 'limit=3').body).not.toHaveProperty('nextAfter')
    expect(control('GET', '/journal', undefined, 'limit=1&after=1').body.nextAfter).toBe(2)
  })

  it('writes a download with the encoder it was given, a slice at a time', () => {
    const sim = createSimulator()
    const encoded: number[] = []
    const control = controlOf(sim, {
      toBase64: (bytes) => {
        encoded.push(bytes.byteLength)
        return Buffer.from(bytes).toString('base64')
      },
    })
    const download = sim.handle({ method: 'GET', path: `/files/${sim.world.files.report}/content`, authorization: `Bearer ${sim.world.managementKey}` })
    expect(download.status).toBe(200)
    const [entry] = control('GET', '/journal').body.data
    expect(encoded.length).toBeGreaterThan(0)
    expect(entry.response.body).toBe(Buffer.from(sim.journal.list()[0]?.response.body as Uint8Array).toString('base64'))
    expect(control('GET', '/journal', undefined, 'bodies=false').body.data[0].response).not.toHaveProperty('body')
  })
})

describe('the control API of a simulator object that is not createSimulator’s', () => {
  it('answers entities as its public API gives them', () => {
    const sim = createSimulator()
    const control = controlOf(wrapper(sim))
    const user = control('POST', '/users', { name: 'Wrapped' })
    expect(user).toEqual({ status: 201, body: sim.users.get(user.body.id) })
    const defaultUser = control('POST', '/users')
    expect(defaultUser.status).toBe(201)
    const workspace = control('POST', '/workspaces', { userId: user.body.id, name: 'W', slug: 'wrapped' })
    expect(workspace.status).toBe(201)
    expect(workspace.body.id).toBe(sim.workspaces.get('wrapped')?.id ?? workspace.body.id)
    const key = control('POST', '/keys', { userId: user.body.id, name: 'k' })
    expect(key.status).toBe(201)
    expect(key.body.record).toEqual(sim.keys.get(key.body.record.hash))
    const patched = control('PATCH', `/keys/${key.body.record.hash}`, { limit: 3 })
    expect(patched).toEqual({ status: 200, body: sim.keys.get(key.body.record.hash) })
    const used = control('POST', '/usage', { keyHash: key.body.record.hash, cost: 1 })
    expect(used).toEqual({ status: 200, body: sim.keys.get(key.body.record.hash) })
    const model = control('POST', '/models', { id: 'wrap/one' })
    expect(model).toEqual({ status: 201, body: sim.models.list().find((m) => m.id === 'wrap/one') })
    const video = control('POST', '/video-models', { id: 'wrap/video' })
    expect(video.status).toBe(201)
    expect(video.body.id).toBe('wrap/video')
    const file = control('POST', '/files', { userId: user.body.id, id: 'file_wrap', origin: 'server', text: 'hi' })
    expect(file.status).toBe(201)
    const { bytes: _bytes, ...stored } = sim.files.list().find((f) => f.id === 'file_wrap') as { bytes: Uint8Array }
    expect(file.body).toEqual(stored)
    const preset = control('POST', '/presets', { userId: sim.world.userId, slug: 'wrapped' })
    expect(preset).toEqual({ status: 201, body: sim.presets.get(preset.body.id) })
    expect(control('PATCH', `/presets/${preset.body.id}`, { config: { temperature: 1 } })).toEqual({ status: 200, body: sim.presets.get(preset.body.id) })
    const credits = control('POST', '/credits', { userId: sim.world.userId, amount: 2 })
    expect(credits.status).toBe(200)
    expect(credits.body).not.toHaveProperty('defaultWorkspaceId')
  })

  it('refuses a key given with its usage as records, which only createSimulator’s loader reads', () => {
    const sim = createSimulator()
    const key = { userId: sim.world.userId, secret: 'sk-or-v1-loaded-0123456789', usage: [{ at: '2026-03-02T09:00:00Z', cost: 1 }] }
    const loaded = controlOf(sim)('POST', '/keys', key)
    expect(loaded.status).toBe(201)
    expect(loaded.body.usage).toEqual([{ at: '2026-03-02T09:00:00.000Z', cost: 1 }])
    expectBadArgument(controlOf(wrapper(sim))('POST', '/keys', { ...key, secret: 'sk-or-v1-wrapped-0123456789' }), 'usage')
  })

  it('says why a key with usage records needs its secret, naming the key and not a world', () => {
    const sim = createSimulator()
    const before = sim.keys.list().length
    const refused = controlOf(sim)('POST', '/keys', { userId: sim.world.userId, name: 'k', usage: [{ at: '2026-03-02T09:00:00Z', cost: 1 }] })
    expect(refused.status).toBe(400)
    expect(refused.body.error.metadata.argument).toBe('secret')
    expect(refused.body.error.message).toMatch(/^Failed to load the key: "secret" must be a non-empty string, got undefined\. A key whose usage is a list of records is loaded as a world spec holds it/)
    expect(refused.body.error.message).toContain('give usage as figures')
    expect(sim.keys.list()).toHaveLength(before)
    // As figures, the same key is created with a new secret.
    const created = controlOf(sim)('POST', '/keys', { userId: sim.world.userId, name: 'k', usage: { total: 1 } })
    expect(created.status).toBe(201)
    expect(created.body.secret).toMatch(/^sk-or-v1-/)
  })

  it('a key loaded with its usage as records is a write like any other: a restore to an earlier snapshot and a reset take it away', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    const secret = 'sk-or-v1-loaded-0123456789'
    const status = () => sim.handle({ method: 'GET', path: '/key', authorization: `Bearer ${secret}` }).status
    const load = () => control('POST', '/keys', { userId: sim.world.userId, secret, usage: [{ at: '2026-03-02T09:00:00Z', cost: 1 }] })
    const count = sim.keys.list().length
    const before = sim.snapshot()
    expect(load().status).toBe(201)
    const after = sim.snapshot()
    expect([status(), sim.keys.list().length]).toEqual([200, count + 1])
    sim.restore(before)
    expect([status(), sim.keys.list().length]).toEqual([401, count])
    sim.restore(after)
    expect(status()).toBe(200)
    expect(control('POST', '/reset').status).toBe(204)
    expect([status(), sim.keys.list().length]).toEqual([401, count])
    // Loaded again after the reset, it is listed once in GET /keys.
    const again = load()
    expect(again.status).toBe(201)
    const listed = sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}` }).body as { data: { hash: string }[] }
    expect(listed.data.filter((k) => k.hash === again.body.hash)).toHaveLength(1)
  })

  it('exports the world whole, or without file contents on bodies=false', () => {
    const sim = createSimulator()
    const control = controlOf(wrapper(sim))
    expect(control('GET', '/world/export').body).toEqual(JSON.parse(JSON.stringify(sim.exportWorld())))
    const light = control('GET', '/world/export', undefined, 'bodies=false').body
    expect(light.files.length).toBeGreaterThan(0)
    expect(light.files).toEqual(sim.exportWorld().files?.map(({ base64: _b, text: _t, ...file }) => file))
  })

  it('gives its journal the filter the query names, and none the query leaves out', () => {
    const filters: unknown[] = []
    const recording = wrapper(createSimulator())
    Object.defineProperty(recording, 'journal', { value: { list: (filter: unknown) => (filters.push(filter), []) } })
    const control = controlOf(recording)
    control('GET', '/journal')
    control('GET', '/journal', undefined, 'operation=none&status=404&method=POST&keyHash=abc&outcome=cut-short&responder=refunds&hasIgnoredFields=true&hasWarnings=true&flagged=true')
    control('GET', '/journal', undefined, 'operation=listKeys&hasIgnoredFields=false&hasWarnings=false&flagged=false')
    expect(filters).toEqual([
      {},
      { operation: null, status: 404, method: 'POST', keyHash: 'abc', outcome: 'cut-short', responder: 'refunds', hasIgnoredFields: true, hasWarnings: true, flagged: true },
      { operation: 'listKeys', hasIgnoredFields: false, hasWarnings: false, flagged: false },
    ])
  })

  it('lists the journal from its public list: after, and bodies=false leaving the bodies out', () => {
    const sim = createSimulator()
    sim.handle({ method: 'GET', path: '/videos/models' })
    sim.handle({ method: 'GET', path: `/files/${sim.world.files.report}/content`, authorization: `Bearer ${sim.world.managementKey}` })
    const control = controlOf(wrapper(sim))
    const whole = control('GET', '/journal').body.data
    expect(whole.map((e: { seq: number }) => e.seq)).toEqual([1, 2])
    expect(whole[1].response.body).toBe(Buffer.from(sim.journal.list()[1]?.response.body as Uint8Array).toString('base64'))
    expect(control('GET', '/journal', undefined, 'after=1').body.data.map((e: { seq: number }) => e.seq)).toEqual([2])
    const light = control('GET', '/journal', undefined, 'bodies=false').body.data
    expect(light.map((e: { response: object }) => 'body' in e.response)).toEqual([false, false])
    expect(light[0].response.status).toBe(200)
  })
})
