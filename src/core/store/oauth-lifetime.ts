// How long an OAuth code lives, in a module of its own: the package's entry points
// export it without loading the simulator (decisions/0072).

/**
 * How long an authorization code is accepted after it is made, on the simulator clock: 10 minutes,
 * the longest RFC 6749 (section 4.1.2) recommends; the service does not publish its own (decisions/0049).
 *
 * @example
 * import { OAUTH_CODE_LIFETIME_MS } from 'model-access-sim'
 * console.log(OAUTH_CODE_LIFETIME_MS / 60_000)
 * //=> 10
 */
export const OAUTH_CODE_LIFETIME_MS = 10 * 60_000
