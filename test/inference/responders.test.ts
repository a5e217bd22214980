// Responders: what the simulated model answers, rule by rule, and their control routes.
import { describe, expect, it } from 'vitest'
import { createControlApi } from '../../src/core/control-api.js'
import { SimulatorError } from '../../src/index.js'
import { MODEL, chat, chatWorld, generation } from './support.js'

const content = (answer: { body: any }): string | null => answer.body.choices[0].message.content

describe('sim.inference.respond', () => {
  it('answers with the newest matching rule, and a rule with `times` steps aside once used up', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { content: 'older' } })
    const newer = sim.inference.respond({ reply: { content: 'newer' }, times: 2 })
    expect(newer.name).toBe('responder-2')
    expect([content(chat(sim, key, { model: MODEL })), content(chat(sim, key, { model: MODEL })), content(chat(sim, key, { model: MODEL }))]).toEqual(['newer', 'newer', 'older'])
    expect(sim.inference.responders.list()).toEqual([
      { name: 'responder-2', used: 2, remaining: 0 },
      { name: 'responder-1', used: 1, remaining: null },
    ])
  })

  it('matches on model, provider, key, the last user message (RegExp or substring) and tools', () => {
    const { sim, key, keyHash, org } = chatWorld()
    const other = sim.keys.create({ userId: org.id }).key
    sim.models.create({ id: 'acme/other', endpoints: [{ provider_name: 'Solo' }] })
    sim.inference.respond({ match: { model: 'acme/other' }, reply: { content: 'by model' } })
    sim.inference.respond({ match: { provider: 'gamma' }, reply: { content: 'by provider' } })
    sim.inference.respond({ match: { keyHash }, reply: { content: 'by key' } })
    sim.inference.respond({ match: { lastUserMessage: /refund/i }, reply: { content: 'by regexp' } })
    sim.inference.respond({ match: { lastUserMessage: 'invoice' }, reply: { content: 'by substring' } })
    sim.inference.respond({ match: { tools: true }, reply: { content: 'by tools' } })
    const user = (text: string) => [{ role: 'user', content: 'earlier refund question' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: text }]
    const tools = [{ type: 'function', function: { name: 'lookup' } }]
    expect(content(chat(sim, other, { model: MODEL, messages: user('hi'), tools }))).toBe('by tools')
    // Substrings are matched as written: "INVOICE" is not "invoice".
    expect(content(chat(sim, other, { model: MODEL, messages: user('the INVOICE please') }))).not.toBe('by substring')
    expect(content(chat(sim, other, { model: MODEL, messages: user('my invoice') }))).toBe('by substring')
    expect(content(chat(sim, other, { model: MODEL, messages: user('a Refund?') }))).toBe('by regexp')
    // Only the last user message counts: "refund" earlier in the conversation does not match.
    expect(content(chat(sim, key, { model: MODEL, messages: user('hello') }))).toBe('by key')
    expect(content(chat(sim, other, { model: MODEL, messages: user('hello'), provider: { only: ['Gamma'] } }))).toBe('by provider')
    expect(content(chat(sim, other, { model: 'acme/other', messages: user('hello') }))).toBe('by model')
    expect(content(chat(sim, other, { model: MODEL, messages: user('hello'), provider: { ignore: ['Gamma'] } }))).not.toMatch(/^by /)
  })

  it('replies with tool calls, reasoning, a finish reason and stated token counts, priced as stated', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({
      reply: { toolCalls: [{ name: 'lookup', arguments: '{"id":1}' }], reasoning: 'Need the order first.', usage: { promptTokens: 1000, completionTokens: 50, reasoningTokens: 20 } },
    })
    const answer = chat(sim, key, { model: MODEL, provider: { only: ['Alpha'] } })
    const choice = answer.body.choices[0]
    expect(choice.finish_reason).toBe('tool_calls')
    expect(choice.message).toEqual({
      role: 'assistant',
      content: null,
      refusal: null,
      reasoning: 'Need the order first.',
      reasoning_details: [{ type: 'reasoning.text', text: 'Need the order first.', format: 'unknown', index: 0 }],
      tool_calls: [{ type: 'function', index: 0, id: expect.stringMatching(/^call_/), function: { name: 'lookup', arguments: '{"id":1}' } }],
    })
    expect(answer.body.usage).toMatchObject({ prompt_tokens: 1000, completion_tokens: 50, completion_tokens_details: { reasoning_tokens: 20 } })
    // Alpha: 1,000 x 0.000001 + 50 x 0.000002.
    expect(answer.body.usage.cost).toBe(0.0011)
    expect(answer.body.usage.cost_details).toEqual({ upstream_inference_cost: null, upstream_inference_prompt_cost: 0.001, upstream_inference_completions_cost: 0.0001 })
    sim.inference.respond({ reply: { content: 'Blocked.', finishReason: 'content_filter' } })
    expect(chat(sim, key, { model: MODEL }).body.choices[0].finish_reason).toBe('content_filter')
  })

  it('cuts a reply at max_tokens with finish_reason "length", counting the cut tokens only', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { content: 'x'.repeat(400), toolCalls: [{ name: 'lookup', arguments: '{}' }] } })
    const answer = chat(sim, key, { model: MODEL, max_tokens: 10 })
    expect(answer.body.choices[0]).toMatchObject({ finish_reason: 'length', message: { content: 'x'.repeat(40) } })
    expect(answer.body.choices[0].message.tool_calls).toBeUndefined()
    expect(answer.body.usage.completion_tokens).toBe(10)
    expect(generation(sim, key, answer.body.id).body.data).toMatchObject({ finish_reason: 'length', tokens_completion: 10 })
  })

  it('makes a default reply from the seed and the request alone: the same request, the same text', () => {
    const a = chatWorld({ seed: 1 })
    const b = chatWorld({ seed: 1 })
    const c = chatWorld({ seed: 2 })
    const ask = (w: ReturnType<typeof chatWorld>, text: string) => content(chat(w.sim, w.key, { model: MODEL, messages: [{ role: 'user', content: text }] }))
    const first = ask(a, 'hello')
    expect(first).toMatch(/^[A-Z][a-z ]+\.$/)
    chat(b.sim, b.key, { model: MODEL, messages: [{ role: 'user', content: 'something else first' }] })
    expect(ask(b, 'hello')).toBe(first)
    expect(ask(a, 'hello!')).not.toBe(first)
    expect(ask(c, 'hello')).not.toBe(first)
  })

  it('refuses a malformed rule naming the field, and adds nothing', () => {
    const { sim } = chatWorld()
    const refused = (rule: unknown) => {
      try {
        sim.inference.respond(rule as never)
      } catch (error) {
        expect(error).toBeInstanceOf(SimulatorError)
        return (error as SimulatorError).argument
      }
      throw new Error('accepted')
    }
    expect(refused({ reply: { content: 'a' }, error: { status: 500 } })).toBe('rule')
    expect(refused({})).toBe('rule')
    expect(refused({ reply: { contnet: 'a' } })).toBe('reply.contnet')
    expect(refused({ match: { lastUserMessage: 5 }, reply: {} })).toBe('match.lastUserMessage')
    expect(refused({ error: { status: 200 } })).toBe('error.status')
    expect(refused({ reply: {}, times: 0 })).toBe('times')
    expect(refused({ reply: { usage: { completionTokens: 1, reasoningTokens: 2 } } })).toBe('reply.usage.reasoningTokens')
    expect(sim.inference.responders.list()).toEqual([])
  })

  it('removes rules by name, clears them, and sim.reset() clears them too', () => {
    const { sim } = chatWorld()
    const rule = sim.inference.respond({ reply: { content: 'scripted' } })
    sim.inference.respond({ name: 'kept', match: { model: MODEL }, reply: { content: 'x' } })
    sim.inference.responders.remove(rule.name)
    expect(sim.inference.responders.list().map((r) => r.name)).toEqual(['kept'])
    sim.inference.responders.clear()
    expect(sim.inference.responders.list()).toEqual([])
    sim.inference.respond({ reply: { content: 'scripted' } })
    sim.reset()
    expect(sim.inference.responders.list()).toEqual([])
    expect(sim.inference.respond({ reply: { content: 'again' } }).name).toBe('responder-1')
  })
})

describe('the responders control routes', () => {
  it('POST takes a rule as JSON with a regular expression as { regex, flags }; GET lists; DELETE removes', () => {
    const { sim, key } = chatWorld()
    const control = createControlApi(sim)
    const call = (method: string, path: string, body?: unknown) => {
      const answer = control.handle({ method, path, query: new URLSearchParams(), body: body === undefined ? null : JSON.stringify(body) })
      if (!('body' in answer)) throw new Error(`${method} ${path} answered in parts`)
      return answer
    }
    const created = call('POST', '/responders', { match: { lastUserMessage: { regex: 'refund', flags: 'i' } }, reply: { content: 'Over HTTP.' }, times: 1 })
    expect([created.status, created.body]).toEqual([201, { name: 'responder-1' }])
    expect(content(chat(sim, key, { model: MODEL, messages: [{ role: 'user', content: 'REFUND now' }] }))).toBe('Over HTTP.')
    expect(call('GET', '/responders').body).toEqual({ data: [{ name: 'responder-1', used: 1, remaining: 0 }] })
    const bad = call('POST', '/responders', { match: { lastUserMessage: { regex: '(' } }, reply: {} })
    expect(bad.status).toBe(400)
    expect((bad.body as any).error.metadata.argument).toBe('match.lastUserMessage.regex')
    expect(call('DELETE', '/responders/nope').status).toBe(404)
    expect(call('DELETE', '/responders/responder-1').status).toBe(204)
    call('POST', '/responders', { reply: { content: 'x' } })
    expect(call('DELETE', '/responders').status).toBe(204)
    expect(sim.inference.responders.list()).toEqual([])
  })
})
