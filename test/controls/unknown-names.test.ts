// A fault or responder that names a provider or model the simulator does not have is refused, naming
// it (decisions/0042): a misspelt name would make a rule that never fires, and a test that passes
// while testing nothing.
import { describe, expect, it } from 'vitest'
import { createControlApi } from '../../src/core/control-api.js'
import { SimulatorError, WORLD_FORMAT, type WorldSpec, createSimulator, validateWorld } from '../../src/index.js'
import { MODEL, chat, chatWorld } from '../inference/support.js'

function refusal(run: () => unknown): SimulatorError {
  try {
    run()
  } catch (error) {
    if (error instanceof SimulatorError) return error
    throw error
  }
  throw new Error('expected a SimulatorError')
}

describe('a rule naming what the simulator does not have', () => {
  it('is refused by sim.faults, naming the provider and listing the known ones, and adds nothing', () => {
    const { sim } = chatWorld()
    for (const add of [
      () => sim.faults.providerDown({ provider: 'Alfa' }),
      () => sim.faults.add({ provider: 'Alfa', respond: { status: 502 } }),
      () => sim.faults.add({ provider: 'Alfa', afterChunks: 2, respond: { status: 500 } }),
    ]) {
      const error = refusal(add)
      expect(error.code).toBe('INVALID_ARGUMENT')
      expect(error.argument).toBe('provider')
      expect(error.message).toContain('"Alfa"')
      expect(error.message).toContain('Alpha, Beta, Gamma')
    }
    expect(sim.faults.list()).toEqual([])
  })

  it('takes a provider in any case, and the fault fires', () => {
    const { sim, key } = chatWorld()
    sim.faults.providerDown({ provider: 'ALPHA' })
    expect(chat(sim, key, { model: MODEL, provider: { only: ['Alpha'], allow_fallbacks: false } }).status).toBe(502)
  })

  it('is refused by sim.inference.respond for a model or provider, and adds nothing', () => {
    const { sim } = chatWorld()
    expect(refusal(() => sim.inference.respond({ match: { model: 'acme/chatt' }, reply: { content: 'x' } })).argument).toBe('match.model')
    const provider = refusal(() => sim.inference.respond({ match: { provider: 'Gama' }, reply: { content: 'x' } }))
    expect([provider.argument, provider.message.includes('"Gama"')]).toEqual(['match.provider', true])
    expect(sim.inference.responders.list()).toEqual([])
    sim.inference.respond({ match: { model: MODEL, provider: 'gamma' }, reply: { content: 'x' } })
    expect(sim.inference.responders.list()).toHaveLength(1)
  })

  it('says a simulator without models has no providers yet', () => {
    const sim = createSimulator({ world: 'empty' })
    expect(refusal(() => sim.faults.providerDown({ provider: 'OpenAI' })).message).toContain('it has no models yet')
  })

  it('is a 400 naming it over the control API', () => {
    const { sim } = chatWorld()
    const control = createControlApi(sim)
    const post = (path: string, body: unknown) => {
      const answer = control.handle({ method: 'POST', path, query: new URLSearchParams(), body: JSON.stringify(body) })
      if (!('body' in answer)) throw new Error('answered in parts')
      return answer as { status: number; body: any }
    }
    const fault = post('/faults', { preset: 'providerDown', provider: 'DeepSek' })
    expect([fault.status, fault.body.error.metadata.argument]).toEqual([400, 'provider'])
    expect(fault.body.error.message).toContain('"DeepSek"')
    const responder = post('/responders', { match: { model: 'acme/nope' }, reply: { content: 'x' } })
    expect([responder.status, responder.body.error.metadata.argument]).toEqual([400, 'match.model'])
    expect(sim.faults.list()).toEqual([])
    expect(sim.inference.responders.list()).toEqual([])
  })

  it('is a problem of a world spec at its path, and a world that names its own model loads', () => {
    const world: WorldSpec = {
      format: WORLD_FORMAT,
      models: [{ id: 'acme/chat', endpoints: [{ provider_name: 'Solo' }] }],
      responders: [
        { match: { model: 'acme/chat' }, reply: { content: 'ok' } },
        { match: { model: 'acme/chatt' }, reply: { content: 'typo' } },
        { match: { provider: 'Sol' }, reply: { content: 'typo' } },
      ],
    }
    expect(validateWorld(world).map((problem) => problem.path)).toEqual(['world.responders[1].match.model', 'world.responders[2].match.provider'])
    expect(refusal(() => createSimulator({ world })).argument).toBe('world.responders[1].match.model')
    expect(createSimulator({ world: { ...world, responders: world.responders!.slice(0, 1) } }).inference.responders.list()).toHaveLength(1)
  })
})
