// What a client's child process prints for the vitest file to read: one line per case and target,
// and one per client package it loaded. No imports, so the vitest side loads nothing of the child's.

/** Where a case ran: `msw` (the handlers, in the client's process) or `server` (a local server, over a socket). */
export type TargetName = 'msw' | 'server'
export const TARGETS: readonly TargetName[] = ['msw', 'server']

/** The prefixes of the lines the parent reads; anything else the client prints is left alone. */
export const CASE_LINE = '@@client-case '
export const VERSION_LINE = '@@client-version '

/** One case's result, as printed. */
export interface CaseResult {
  target: TargetName
  case: string
  ok: boolean
  /** The failure: the error's class and message, then its stack. */
  error?: string
  ms: number
}
