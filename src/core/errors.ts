import { describe } from './describe.js'
import type { ErrorEnvelope } from './types.js'

/**
 * Canonical message of each error status.
 *
 * @example
 * import { ERROR_MESSAGES } from 'model-access-sim'
 * console.log(ERROR_MESSAGES[403])
 * //=> Only management keys can perform this operation
 */
export const ERROR_MESSAGES = {
  400: 'Invalid request parameters',
  401: 'Missing Authentication header',
  402: 'Insufficient credits. Add more using https://openrouter.ai/settings/credits',
  403: 'Only management keys can perform this operation',
  404: 'Resource not found',
  413: 'Request body too large',
  429: 'Rate limit exceeded',
  500: 'Internal Server Error',
  502: 'Provider returned error',
  503: 'Service temporarily unavailable',
} as const

export type ErrorStatus = keyof typeof ERROR_MESSAGES

/**
 * The 401 messages: one per way a credential can fail, so a test can tell them apart. The envelope's
 * `metadata.reason` carries the key (`'disabled'`, ...).
 *
 * @example
 * import { AUTH_MESSAGES } from 'model-access-sim'
 * console.log(AUTH_MESSAGES.expired)
 * //=> API key has expired
 */
export const AUTH_MESSAGES = {
  missing: ERROR_MESSAGES[401],
  malformed: "Malformed Authentication header: expected 'Bearer <API key>'",
  unknown: 'Invalid API key: no key matches the bearer secret',
  disabled: 'API key is disabled',
  expired: 'API key has expired',
} as const

export type AuthFailure = keyof typeof AUTH_MESSAGES

/**
 * An error that the router turns into an HTTP error envelope. Thrown inside `core` only; it never
 * crosses an adapter.
 */
export class ApiError extends Error {
  readonly status: number
  readonly metadata: Record<string, unknown> | undefined
  readonly headers: Record<string, string>

  constructor(
    status: ErrorStatus,
    options: { message?: string | undefined; metadata?: Record<string, unknown> | undefined; headers?: Record<string, string> | undefined } = {},
  ) {
    super(options.message ?? ERROR_MESSAGES[status])
    this.name = 'ApiError'
    this.status = status
    this.metadata = options.metadata
    this.headers = options.headers ?? {}
  }

  /** 400 naming the offending parameter and why it was refused. */
  static badParameter(parameter: string, reason: string, value?: string): ApiError {
    return new ApiError(400, { metadata: value === undefined ? { parameter, reason } : { parameter, reason, value } })
  }

  static notFound(metadata?: Record<string, unknown>): ApiError {
    return new ApiError(404, metadata === undefined ? {} : { metadata })
  }
}

/**
 * Builds the error body: `code` equals the status, `metadata` only when there
 * is some, `user_id` only when the caller is known.
 *
 * @example
 * import { errorEnvelope } from 'model-access-sim'
 * console.log(errorEnvelope(404))
 * //=> {"error":{"code":404,"message":"Resource not found"}}
 * console.log(errorEnvelope(400, { metadata: { parameter: 'offset' }, userId: 'user_1' }))
 * //=> {"error":{"code":400,"message":"Invalid request parameters","metadata":{"parameter":"offset"}},"user_id":"user_1"}
 */
export function errorEnvelope(
  status: number,
  given: { message?: string | undefined; metadata?: Record<string, unknown> | undefined; userId?: string | undefined } | null = {},
): ErrorEnvelope {
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
    throw invalidArgument('build an error envelope', 'status', `must be an HTTP status from 100 to 599, got ${describe(status)}`)
  }
  if (given !== null && (typeof given !== 'object' || Array.isArray(given))) throw invalidArgument('build an error envelope', 'options', `must be an options object, got ${describe(given)}`)
  const options = given ?? {}
  const message = options.message ?? (ERROR_MESSAGES as Record<number, string>)[status] ?? 'Error'
  const envelope: ErrorEnvelope = {
    error: options.metadata === undefined ? { code: status, message } : { code: status, message, metadata: options.metadata },
  }
  if (options.userId !== undefined) envelope.user_id = options.userId
  return envelope
}

/**
 * Codes of {@link SimulatorError}, one per way the programmatic API refuses input.
 *
 * @example
 * import { SimulatorErrorCode } from 'model-access-sim'
 * console.log(SimulatorErrorCode.DuplicateSlug)
 * //=> DUPLICATE_SLUG
 */
export const SimulatorErrorCode = {
  InvalidArgument: 'INVALID_ARGUMENT',
  UnknownUser: 'UNKNOWN_USER',
  UnknownWorkspace: 'UNKNOWN_WORKSPACE',
  UnknownKey: 'UNKNOWN_KEY',
  DuplicateId: 'DUPLICATE_ID',
  DuplicateSlug: 'DUPLICATE_SLUG',
  DuplicateFileId: 'DUPLICATE_FILE_ID',
  InvalidPricing: 'INVALID_PRICING',
  InvalidSnapshot: 'INVALID_SNAPSHOT',
  /** A workspace that still holds keys cannot be deleted (decisions/0022). */
  WorkspaceHasKeys: 'WORKSPACE_HAS_KEYS',
  /** A preset reference (`sim.presets.update`, `delete`, `versions`) names no preset (decisions/0050). */
  UnknownPreset: 'UNKNOWN_PRESET',
  /** A member reference (`sim.members.remove`, a guardrail's members) names no member of the organisation (decisions/0051). */
  UnknownMember: 'UNKNOWN_MEMBER',
  /** A member that keys still name as their creator cannot be removed (decisions/0051). */
  MemberHasKeys: 'MEMBER_HAS_KEYS',
  /** A guardrail id (`sim.guardrails.update`, `delete`, assignments) names no guardrail (decisions/0051). */
  UnknownGuardrail: 'UNKNOWN_GUARDRAIL',
  /** `sim.byok.update` names no BYOK credential (decisions/0054). */
  UnknownByok: 'UNKNOWN_BYOK',
} as const

export type SimulatorErrorCode = (typeof SimulatorErrorCode)[keyof typeof SimulatorErrorCode]

/**
 * Thrown by the simulator's programmatic API (`sim.keys.create`, `sim.clock.set`, ...) on bad
 * input. The store is left exactly as it was. `argument` names the offending option.
 *
 * @example
 * import { createSimulator, SimulatorError } from 'model-access-sim'
 * const sim = createSimulator({ world: 'empty' })
 * try {
 *   sim.keys.create({ userId: 'user_nobody' })
 * } catch (error) {
 *   if (error instanceof SimulatorError) console.log(error.code, error.argument)
 *   //=> UNKNOWN_USER userId
 * }
 */
export class SimulatorError extends Error {
  readonly code: SimulatorErrorCode
  readonly argument: string | undefined
  readonly details: unknown

  constructor(code: SimulatorErrorCode, message: string, options: { argument?: string | undefined; details?: unknown } = {}) {
    super(message)
    this.name = 'SimulatorError'
    this.code = code
    this.argument = options.argument
    this.details = options.details
  }
}

/** Shorthand for an {@link SimulatorErrorCode.InvalidArgument} error about one argument. */
export function invalidArgument(operation: string, argument: string, problem: string): SimulatorError {
  return new SimulatorError(SimulatorErrorCode.InvalidArgument, `Failed to ${operation}: "${argument}" ${problem}.`, {
    argument,
  })
}
