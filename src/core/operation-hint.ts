// The end of the message that refuses an unknown operation name: what it probably meant.
import { nearestIds } from './inference/nearest-ids.js'
import { OPERATION_NAMES } from './protocol.js'

/**
 * What an unknown operation name probably meant, as the end of the message that refuses it:
 * ` (did you mean "createResponses"?)`, or `''` when no name is near. The message lists every
 * operation, too many to scan for a letter too many or too few, or another case: the usual slips.
 * `names`: the operations the refusing argument takes (default every one).
 */
export function operationHint(name: unknown, names: readonly string[] = OPERATION_NAMES): string {
  if (typeof name !== 'string' || name === '') return ''
  const lower = name.toLowerCase()
  const sameLetters = names.find((known) => known.toLowerCase() === lower)
  const near = sameLetters !== undefined ? [sameLetters] : nearestIds(name, names)
  return near.length === 0 ? '' : ` (did you mean ${near.map((known) => JSON.stringify(known)).join(' or ')}?)`
}
