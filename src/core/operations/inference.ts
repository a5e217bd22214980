// Inference on the wire: chat completions and Responses (the money path, core/inference/) and the
// generations they leave behind.
import type { SimResponse } from '../api.js'
import { ApiError } from '../errors.js'
import { chatCompletion } from '../inference/chat.js'
import { generationOf } from '../inference/generations.js'
import { createResponse } from '../inference/responses.js'
import type { StreamFrame } from '../inference/stream.js'
import { type Operation, clone, jsonAnswer, payloadResponse, withFrameRebuild } from './operation.js'

/** A stream's answer: its frames, and `cancel` for the adapter to report a client gone early. */
function streamAnswer(outcome: { frames: StreamFrame[]; cancel: (framesSent: number) => boolean; rebuild: () => StreamFrame[] }): SimResponse {
  const response: SimResponse = { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, type: 'stream', body: outcome.frames }
  // Not enumerable: the response stays plain data (the journal clones it), the method rides along.
  Object.defineProperty(response, 'cancel', { value: outcome.cancel, enumerable: false })
  return withFrameRebuild(response, outcome.rebuild)
}

export const INFERENCE_OPERATIONS: readonly Operation[] = [
  {
    name: 'createChatCompletion',
    method: 'POST',
    template: '/chat/completions',
    auth: 'key',
    run({ ctx, principal, request, json, inference }) {
      const outcome = chatCompletion(ctx, inference, principal, json(), request.path)
      if (outcome.type === 'json') return payloadResponse(outcome.answer)
      return streamAnswer(outcome)
    },
  },
  {
    name: 'createResponses',
    method: 'POST',
    template: '/responses',
    auth: 'key',
    run({ ctx, principal, request, json, inference }) {
      const outcome = createResponse(ctx, inference, principal, json(), request.path)
      if (outcome.type === 'json') return payloadResponse(outcome.answer)
      return streamAnswer(outcome)
    },
  },
  {
    name: 'getGeneration',
    method: 'GET',
    template: '/generation',
    auth: 'key',
    run({ ctx, query, principal }) {
      const id = query.get('id')
      if (id === null || id === '') throw ApiError.badParameter('id', 'is required: the id of a generation (gen-...)')
      // Another organisation's generation is as absent as one that never existed (or was let go).
      const generation = generationOf(ctx, id, principal.userId)
      if (generation === undefined) throw ApiError.notFound({ resource: 'generation' })
      return jsonAnswer(200, { data: clone(generation.wire) })
    },
  },
]
