// A live service in process for the tests of src/live: a `fetch` that answers from a simulator,
// as the service at `LIVE_BASE` would, with no socket. It records every request sent to it, and an
// `alter` may replace any answer, as a service that differs from the simulator would send it.
import type { Simulator } from '../../src/index.js'
import { toResponse } from '../../src/msw/index.js'
import { answer, parseBaseUrl } from '../../src/msw/route.js'

export const LIVE_BASE = 'https://live.model-access-sim.test/api/v1'

/** One request as the service saw it: the path below the base, its query, its headers and body. */
export interface Sent {
  method: string
  path: string
  query: URLSearchParams
  headers: Headers
  body: string | null
  redirect: RequestRedirect | undefined
  /** The signal the caller gave, which ends the request when it aborts. */
  signal: AbortSignal | undefined
}

/** Replaces the simulator's answer to a request; `undefined` keeps it. May throw, as a failing fetch does. */
export type Alter = (sent: Sent, answer: () => Promise<Response>) => Response | undefined | Promise<Response | undefined>

export interface FakeService {
  fetch: typeof fetch
  sent: Sent[]
}

export function fakeService(sim: Pick<Simulator<unknown>, 'handle'>, alter: Alter = () => undefined): FakeService {
  const base = parseBaseUrl('fake the live service', LIVE_BASE)
  const sent: Sent[] = []
  const fetchFn: typeof fetch = async (input, init) => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    const body = request.body === null ? null : await request.clone().text()
    const seen: Sent = { method: request.method, path: url.pathname.replace(/^\/api\/v1/, ''), query: url.searchParams, headers: request.headers, body, redirect: init?.redirect, signal: init?.signal ?? undefined }
    sent.push(seen)
    const simulated = async () => toResponse(await answer(sim, base, request), request.method, request)
    return (await alter(seen, simulated)) ?? simulated()
  }
  return { fetch: fetchFn, sent }
}

/** A JSON answer, as a service sends one. */
export const jsonAnswer = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
