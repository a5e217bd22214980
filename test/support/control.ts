// The control API in process, called as the server calls it (test/server/control-api*.test.ts).
import { expect } from 'vitest'
import type { Simulator } from '../../src/index.js'
import { type ControlAnswer, createControlApi } from '../../src/core/control-api.js'

export interface Answer {
  status: number
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the fields of its own answer.
  body: any
}

/** The control API of `sim`, called as the server calls it; an answer in parts is joined and parsed. */
export function controlOf(sim: Simulator<unknown>, options?: Parameters<typeof createControlApi>[1]) {
  const api = createControlApi(sim, options)
  return (method: string, path: string, body?: unknown, query = ''): Answer => {
    const text = body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body)
    return read(api.handle({ method, path, query: new URLSearchParams(query), body: text }))
  }
}

/** An answer of the control API as status and body: parts joined and parsed, bytes as they are (none: undefined). */
export function read(answer: ControlAnswer): Answer {
  if (answer.type === 'parts') return { status: answer.status, body: JSON.parse([...answer.parts].join('')) }
  if (answer.type === 'json') return { status: answer.status, body: answer.body }
  expect(answer.type).toBe('bytes')
  return { status: answer.status, body: (answer.body as Uint8Array).byteLength === 0 ? undefined : answer.body }
}

/** A simulator object that is not createSimulator's (a wrapper of one): the control API has only its public API. */
export function wrapper(sim: Simulator<unknown>): Simulator<unknown> {
  return Object.create(sim) as Simulator<unknown>
}
