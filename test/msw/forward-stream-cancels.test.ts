// forwardStreamCancels against a stand-in for MSW's life-cycle events: it cancels MSW's copy of an
// event stream, and only of an event stream, and the function it returns takes its listener off.
import { describe, expect, it } from 'vitest'
import { forwardStreamCancels, type LifeCycleEvents } from '../../src/msw/index.js'
import { simulatorErrorOf } from '../support/server.js'

type Listener = (args: { response: Response }) => void

/** The events of an MSW server: the listeners on `response:mocked`, and what was taken off. */
function events() {
  const listeners: Listener[] = []
  const removed: Listener[] = []
  const server: LifeCycleEvents = {
    events: {
      on(event, listener) {
        expect(event).toBe('response:mocked')
        listeners.push(listener)
      },
      removeListener(event, listener) {
        expect(event).toBe('response:mocked')
        removed.push(listener)
      },
    },
  }
  return { server, listeners, removed }
}

/** A response whose body says whether it was cancelled. */
function response(contentType: string | null): { response: Response; cancelled: () => boolean } {
  let cancelled = false
  const body = new ReadableStream<Uint8Array>({
    cancel() {
      cancelled = true
    },
  })
  const headers: Record<string, string> = contentType === null ? {} : { 'content-type': contentType }
  return { response: new Response(body, { headers }), cancelled: () => cancelled }
}

describe('forwardStreamCancels', () => {
  it("cancels the copy of an event stream, and leaves any other answer's copy alone", async () => {
    const { server, listeners } = events()
    forwardStreamCancels(server)
    expect(listeners).toHaveLength(1)
    const listener = listeners[0] as Listener
    const stream = response('text/event-stream; charset=utf-8')
    const json = response('application/json')
    const none = response(null)
    for (const each of [stream, json, none]) listener({ response: each.response })
    await new Promise((resolve) => setImmediate(resolve))
    expect([stream.cancelled(), json.cancelled(), none.cancelled()]).toEqual([true, false, false])
    expect(json.response.bodyUsed || json.response.body?.locked).toBe(false)
  })

  it('takes an answer without a body, or a locked one, without throwing', async () => {
    const { server, listeners } = events()
    forwardStreamCancels(server)
    const listener = listeners[0] as Listener
    expect(() => listener({ response: new Response(null, { headers: { 'content-type': 'text/event-stream' } }) })).not.toThrow()
    const locked = response('text/event-stream')
    locked.response.body?.getReader()
    // The cancel of a locked body rejects; the listener swallows it (an unhandled rejection fails the run).
    expect(() => listener({ response: locked.response })).not.toThrow()
    await new Promise((resolve) => setImmediate(resolve))
    expect(locked.cancelled()).toBe(false)
  })

  it('returns a function that takes the same listener off', () => {
    const { server, listeners, removed } = events()
    const stop = forwardStreamCancels(server)
    expect(removed).toEqual([])
    stop()
    expect(removed).toEqual(listeners)
    expect(removed).toHaveLength(1)
  })

  it.each([
    [undefined, 'undefined'],
    [null, 'null'],
    [{}, 'a value of type object'],
    [{ events: { on() {} } }, 'a value of type object'],
    [{ events: { removeListener() {} } }, 'a value of type object'],
  ])('refuses %j, naming the server', (bad, described) => {
    const error = simulatorErrorOf(() => forwardStreamCancels(bad as never))
    expect([error.argument, error.message]).toEqual([
      'server',
      `Failed to forward stream cancels: "server" must be an MSW server or worker with life-cycle events (setupServer(), setupWorker()), got ${described}.`,
    ])
  })
})
