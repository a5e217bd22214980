// `POST /embeddings` (decisions/0030): the money path of core/inference/embeddings.ts.
import { createEmbeddings } from '../inference/embeddings.js'
import { type Operation, payloadResponse, withGuardrailFlags, withResponder } from './operation.js'

export const EMBEDDINGS_OPERATIONS: readonly Operation[] = [
  {
    name: 'createEmbeddings',
    method: 'POST',
    template: '/embeddings',
    auth: 'key',
    run({ ctx, principal, request, sharedJson, inference, unknownFields }) {
      // The reader only reads the body: it is shared by requests with the same text (decisions/0063).
      const { payload, responder, flags } = createEmbeddings(ctx, inference, principal, sharedJson(), request.path, unknownFields)
      const response = payloadResponse(payload)
      if (flags.length > 0) withGuardrailFlags(response, flags)
      return responder === null ? response : withResponder(response, responder)
    },
  },
]
