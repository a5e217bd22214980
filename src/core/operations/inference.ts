// Inference on the wire: chat completions, Responses and legacy text completions (the money
// path, core/inference/) and the generations they leave behind.
import type { Principal } from '../auth.js'
import type { OperationName, SimResponse } from '../protocol.js'
import type { StoreContext } from '../store/context.js'
import type { UnknownFields } from '../body.js'
import { type InferenceOutcome, type InferenceRuntime, chatCompletion } from '../inference/chat.js'
import { queriedGeneration } from './generation-content.js'
import { createResponse } from '../inference/responses.js'
import { createCompletion } from '../inference/completions.js'
import { type Operation, clone, jsonAnswer, payloadResponse, withFrameRebuild, withGuardrailFlags, withResponder, withSettle, withWarnings } from './operation.js'

/** An inference's answer: a JSON payload, or a stream (its frames, and `cancel` for the adapter to report a client gone early). */
function inferenceAnswer<T>(outcome: InferenceOutcome<T>): SimResponse {
  let response: SimResponse
  if (outcome.type === 'json') response = payloadResponse(outcome.answer)
  else {
    response = { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, type: 'stream', body: outcome.frames }
    // Not enumerable: the response stays plain data (the journal clones it). The router makes the
    // settling the response's `cancel`, once it has journaled the request.
    withSettle(response, outcome.settle)
    withFrameRebuild(response, outcome.rebuild)
  }
  if (outcome.warnings.length > 0) withWarnings(response, outcome.warnings)
  if (outcome.flags !== undefined) withGuardrailFlags(response, outcome.flags)
  return outcome.responder === null ? response : withResponder(response, outcome.responder)
}

/**
 * What runs one inference request of an operation: chat completions, Responses, text completions.
 * `unknownFields` says what its body reader does with a field it does not know (decisions/0036).
 */
type Inference = (ctx: StoreContext, runtime: InferenceRuntime, principal: Principal, body: Record<string, unknown>, path: string, unknownFields?: UnknownFields) => InferenceOutcome<unknown>

/** The row of a `POST` inference operation: its body through `run`, its outcome as the answer. */
const inferenceRow = (name: OperationName, template: string, run: Inference): Operation => ({
  name,
  method: 'POST',
  template,
  auth: 'key',
  // Inference readers only read their body: the parsed body is shared by requests with the same text (decisions/0063).
  run: ({ ctx, principal, request, sharedJson, inference, unknownFields }) => inferenceAnswer(run(ctx, inference, principal, sharedJson(), request.path, unknownFields)),
})

export const INFERENCE_OPERATIONS: readonly Operation[] = [
  inferenceRow('createChatCompletion', '/chat/completions', chatCompletion),
  inferenceRow('createResponses', '/responses', createResponse),
  inferenceRow('createCompletion', '/completions', createCompletion),
  {
    name: 'getGeneration',
    method: 'GET',
    template: '/generation',
    auth: 'key',
    run({ ctx, query, principal }) {
      // Another organisation's generation is as absent as one that never existed (or was let go).
      return jsonAnswer(200, { data: clone(queriedGeneration(ctx, query, principal.userId).wire) })
    },
  },
]
