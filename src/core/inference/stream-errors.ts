// The error chunk of a mid-stream fault (decisions/0026): what a stream says when its provider
// fails after it started. The service sends it as an ordinary `data:` event carrying
// `error: { code, message, metadata }` and a choice with `finish_reason: "error"`; the official
// SDK reads `code` as an integer and `metadata.error_type` as its ApiErrorType.
import type { StreamFault } from '../faults.js'
import { ERROR_MESSAGES } from '../errors.js'
import type { StreamCut } from './stream.js'

/** The SDK's ApiErrorType of an HTTP status, as the service classes its errors. */
export function errorTypeOf(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request'
    case 401:
      return 'authentication'
    case 402:
      return 'payment_required'
    case 403:
      return 'permission_denied'
    case 404:
      return 'not_found'
    case 408:
    case 504:
    case 524:
      return 'timeout'
    case 413:
      return 'payload_too_large'
    case 422:
      return 'unprocessable'
    case 429:
      return 'rate_limit_exceeded'
    case 502:
    case 503:
      return 'provider_unavailable'
    case 529:
      return 'provider_overloaded'
    default:
      return status < 500 ? 'invalid_request' : 'server'
  }
}

/** The cut a mid-stream fault makes: after its chunks, its status and message (the status's canonical message by default). */
export function streamCut(fault: StreamFault): StreamCut {
  const { status, message, metadata } = fault.respond
  return {
    afterChunks: fault.afterChunks,
    error: {
      code: status,
      message: message ?? (ERROR_MESSAGES as Record<number, string>)[status] ?? 'Error',
      metadata: { error_type: errorTypeOf(status), ...metadata },
    },
  }
}
