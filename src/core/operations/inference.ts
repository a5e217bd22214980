// Inference on the wire: chat completions and Responses (the money path, core/inference/) and the
// generations they leave behind.
import type { SimResponse } from '../protocol.js'
import { ApiError } from '../errors.js'
import { type InferenceOutcome, chatCompletion } from '../inference/chat.js'
import { generationOf } from '../store/generations.js'
import { createResponse } from '../inference/responses.js'
import { type Operation, clone, jsonAnswer, payloadResponse, withFrameRebuild, withResponder } from './operation.js'

/** An inference's answer: a JSON payload, or a stream (its frames, and `cancel` for the adapter to report a client gone early). */
function inferenceAnswer<T>(outcome: InferenceOutcome<T>): SimResponse {
  let response: SimResponse
  if (outcome.type === 'json') response = payloadResponse(outcome.answer)
  else {
    response = { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, type: 'stream', body: outcome.frames }
    // Not enumerable: the response stays plain data (the journal clones it), the method rides along.
    Object.defineProperty(response, 'cancel', { value: outcome.cancel, enumerable: false })
    withFrameRebuild(response, outcome.rebuild)
  }
  return outcome.responder === null ? response : withResponder(response, outcome.responder)
}

export const INFERENCE_OPERATIONS: readonly Operation[] = [
  {
    name: 'createChatCompletion',
    method: 'POST',
    template: '/chat/completions',
    auth: 'key',
    run({ ctx, principal, request, json, inference, unknownFields }) {
      return inferenceAnswer(chatCompletion(ctx, inference, principal, json(), request.path, unknownFields))
    },
  },
  {
    name: 'createResponses',
    method: 'POST',
    template: '/responses',
    auth: 'key',
    run({ ctx, principal, request, json, inference, unknownFields }) {
      return inferenceAnswer(createResponse(ctx, inference, principal, json(), request.path, unknownFields))
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
