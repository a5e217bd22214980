// A client that cancels a streamed answer under MSW (decisions/0026; no longer needed since
// decisions/0045, whose own tee of the stream lets the cancel through). MSW clones every mocked
// response for its `response:mocked` life-cycle event; a clone is a tee of the body, and a tee
// cancels its source only once both branches are cancelled. On Node, with nobody reading the clone,
// the client's `reader.cancel()` (or the official SDK's `break` out of a stream) then never settles
// and never reaches the simulator (mswjs/interceptors#712). Cancelling the clone of each event
// stream as it is emitted lets the client's cancel through; the client's own branch is unaffected.
import { describe } from '../core/describe.js'
import { invalidArgument } from '../core/errors.js'

/** What `forwardStreamCancels` needs of an MSW server: its life-cycle events (`setupServer()`, `setupWorker()`). */
export interface LifeCycleEvents {
  events: {
    on(event: 'response:mocked', listener: (args: { response: Response }) => void): void
    removeListener(event: 'response:mocked', listener: (args: { response: Response }) => void): void
  }
}

/**
 * Cancels MSW's own copy of each `text/event-stream` answer, which no one reads. Returns a function
 * that undoes it. It was needed under msw 2 on Node for a client's cancel of a streamed answer
 * (`reader.cancel()`, the SDK's `break`) to settle and reach the simulator; the handlers of
 * `createHandlers` and `toResponse` now let it through themselves (decisions/0045), so calling this
 * changes nothing a test can see.
 *
 * @deprecated Not needed: `setupServer(...createHandlers(sim))` alone sees a client leave a stream.
 *
 * @example
 * import { setupServer } from 'msw/node'
 * import { createSimulator } from 'model-access-sim'
 * import { createHandlers, forwardStreamCancels } from 'model-access-sim/msw'
 *
 * const sim = createSimulator()
 * const server = setupServer(...createHandlers(sim))
 * const stop = forwardStreamCancels(server)
 * server.listen()
 * const res = await fetch('https://openrouter.ai/api/v1/chat/completions', {
 *   method: 'POST',
 *   headers: { authorization: `Bearer ${sim.world.apiKey}`, 'content-type': 'application/json' },
 *   body: JSON.stringify({ model: 'openai/gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true }),
 * })
 * const reader = res.body!.getReader()
 * await reader.read()
 * await reader.cancel()
 * console.log('cancelled')
 * //=> cancelled
 * stop()
 * server.close()
 */
export function forwardStreamCancels(server: LifeCycleEvents): () => void {
  const events = (server as Partial<LifeCycleEvents> | null | undefined)?.events
  if (typeof events?.on !== 'function' || typeof events.removeListener !== 'function') {
    throw invalidArgument('forward stream cancels', 'server', `must be an MSW server or worker with life-cycle events (setupServer(), setupWorker()), got ${describe(server)}`)
  }
  const listener = ({ response }: { response: Response }): void => {
    if (response.headers.get('content-type')?.startsWith('text/event-stream') !== true) return
    response.body?.cancel().catch(() => {})
  }
  server.events.on('response:mocked', listener)
  return () => server.events.removeListener('response:mocked', listener)
}
