// toResponse's stream answer against a stream built by hand, whose `cancel` records what it is told:
// a frame is made only when the reader asks for it, a client that leaves (its reader's cancel, or
// the abort of the Request being answered) is told once with the frames it was given, and the tee
// MSW makes of the body (a clone) hands the client's cancel through at once.
import { describe, expect, it } from 'vitest'
import type { SimResponse } from '../../src/index.js'
import { toResponse } from '../../src/msw/index.js'

const FRAMES = ['data: one\n\n', 'data: two\n\n', 'data: three\n\n']

/** A stream answer of three frames; `told` lists every cancel the simulator was given. */
function stream(realDelay = false) {
  const told: number[] = []
  const response = {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    type: 'stream',
    body: FRAMES.map((data, i) => ({ data, atMs: i })),
    ...(realDelay && { realDelay: true }),
    cancel: (framesSent: number) => {
      told.push(framesSent)
      return true
    },
  } as unknown as SimResponse
  return { response, told }
}

const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes)
const post = (signal?: AbortSignal) => new Request('https://sim.test/api/v1/chat/completions', { method: 'POST', ...(signal && { signal }) })

describe('a stream answer as a Response', () => {
  it('yields its frames one by one and ends, telling the simulator nothing', async () => {
    const { response, told } = stream()
    const reader = (toResponse(response, 'POST', post()).body as ReadableStream<Uint8Array>).getReader()
    const read: string[] = []
    for (let next = await reader.read(); !next.done; next = await reader.read()) read.push(text(next.value))
    expect(read).toEqual(FRAMES)
    expect(told).toEqual([])
  })

  it("a reader's cancel is the client leaving with the frames it read, told once", async () => {
    const { response, told } = stream()
    const controller = new AbortController()
    const reader = (toResponse(response, 'POST', post(controller.signal)).body as ReadableStream<Uint8Array>).getReader()
    expect(text((await reader.read()).value)).toBe(FRAMES[0])
    await reader.cancel()
    controller.abort()
    expect(told).toEqual([1])
  })

  it("the abort of the Request is the client leaving: its next read fails with the abort's reason", async () => {
    const { response, told } = stream()
    const controller = new AbortController()
    const reader = (toResponse(response, 'POST', post(controller.signal)).body as ReadableStream<Uint8Array>).getReader()
    await reader.read()
    await reader.read()
    const reason = new Error('gone')
    controller.abort(reason)
    await expect(reader.read()).rejects.toBe(reason)
    expect(told).toEqual([2])
  })

  it('a Request already aborted is a client given nothing', async () => {
    const { response, told } = stream()
    const reason = new Error('gone before')
    const reader = (toResponse(response, 'POST', post(AbortSignal.abort(reason))).body as ReadableStream<Uint8Array>).getReader()
    await expect(reader.read()).rejects.toBe(reason)
    expect(told).toEqual([0])
  })

  it('an abort after the last frame changes nothing', async () => {
    const { response, told } = stream()
    const controller = new AbortController()
    const res = toResponse(response, 'POST', post(controller.signal))
    expect(await res.text()).toBe(FRAMES.join(''))
    controller.abort()
    expect(told).toEqual([])
  })

  it('an abort during the real wait before a frame: the frame is not given, and the read fails', async () => {
    const { response, told } = stream(true)
    const controller = new AbortController()
    const reader = (toResponse(response, 'POST', post(controller.signal)).body as ReadableStream<Uint8Array>).getReader()
    expect(text((await reader.read()).value)).toBe(FRAMES[0])
    // The second frame comes 1 ms of real time after the first: abort while the read waits for it.
    const second = reader.read()
    controller.abort()
    await expect(second).rejects.toMatchObject({ name: 'AbortError' })
    expect(told).toEqual([1])
  })
})

describe('a stream answer built by hand without a cancel', () => {
  it("takes a reader's cancel and an abort without throwing", async () => {
    const { response } = stream()
    const { cancel: _cancel, ...bare } = response as SimResponse & { cancel: unknown }
    const controller = new AbortController()
    const first = (toResponse(bare as SimResponse, 'POST', post(controller.signal)).body as ReadableStream<Uint8Array>).getReader()
    await first.read()
    await expect(first.cancel()).resolves.toBeUndefined()
    const second = (toResponse(bare as SimResponse, 'POST', post(controller.signal)).body as ReadableStream<Uint8Array>).getReader()
    controller.abort()
    await expect(second.read()).rejects.toMatchObject({ name: 'AbortError' })
  })
})

describe("MSW's clone of a stream answer (a tee of its body)", () => {
  it('gives each branch every frame, and pulls a frame only when a branch asks', async () => {
    const { response, told } = stream()
    const res = toResponse(response, 'POST', post())
    const copy = res.clone()
    const client = (res.body as ReadableStream<Uint8Array>).getReader()
    const other = (copy.body as ReadableStream<Uint8Array>).getReader()
    expect(text((await client.read()).value)).toBe(FRAMES[0])
    expect(text((await other.read()).value)).toBe(FRAMES[0])
    // A cancel now tells the frames the branches asked for: one, not one read ahead.
    await client.cancel()
    expect(told).toEqual([1])
    expect(await other.read()).toEqual({ done: true, value: undefined })
  })

  it("the copy's cancel leaves the client's branch reading to the end", async () => {
    const { response, told } = stream()
    const res = toResponse(response, 'POST', post())
    const copy = res.clone()
    await (copy.body as ReadableStream<Uint8Array>).cancel()
    expect(await res.text()).toBe(FRAMES.join(''))
    expect(told).toEqual([])
  })

  it("an abort fails both branches' reads with its reason", async () => {
    const { response, told } = stream()
    const controller = new AbortController()
    const res = toResponse(response, 'POST', post(controller.signal))
    const copy = res.clone()
    const client = (res.body as ReadableStream<Uint8Array>).getReader()
    const other = (copy.body as ReadableStream<Uint8Array>).getReader()
    const reason = new Error('gone')
    controller.abort(reason)
    await expect(client.read()).rejects.toBe(reason)
    await expect(other.read()).rejects.toBe(reason)
    expect(told).toEqual([0])
  })
})

describe('toResponse: the simulator is told of a client leaving once, and only before the end', () => {
  it("a reader's cancel alone, with no abort after it, tells the frames read", async () => {
    const { response, told } = stream()
    const reader = (toResponse(response, 'POST', post()).body as ReadableStream<Uint8Array>).getReader()
    expect(text((await reader.read()).value)).toBe(FRAMES[0])
    await reader.cancel()
    expect(told).toEqual([1])
  })

  it("an abort, then the cancel of the client's branch of MSW's clone: told once", async () => {
    const { response, told } = stream()
    const controller = new AbortController()
    const res = toResponse(response, 'POST', post(controller.signal))
    const copy = res.clone()
    const client = (res.body as ReadableStream<Uint8Array>).getReader()
    expect(text((await client.read()).value)).toBe(FRAMES[0])
    controller.abort(new Error('gone'))
    await client.cancel()
    await (copy.body as ReadableStream<Uint8Array>).cancel()
    expect(told).toEqual([1])
  })

  it("MSW's copy read to the end first: the client's later cancel of frames already made tells nothing", async () => {
    const { response, told } = stream()
    const res = toResponse(response, 'POST', post())
    const copy = res.clone()
    expect(await copy.text()).toBe(FRAMES.join(''))
    const client = (res.body as ReadableStream<Uint8Array>).getReader()
    expect(text((await client.read()).value)).toBe(FRAMES[0])
    await client.cancel()
    expect(told).toEqual([])
  })
})
