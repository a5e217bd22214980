// How a key's label masks its secret, in a module of its own: the package's entry points
// export it without loading the simulator (decisions/0072).
import { describe } from '../describe.js'
import { invalidArgument } from '../errors.js'

/**
 * Masks a secret the way the service labels keys: the first 3 and last 4 characters after
 * `sk-or-v1-`. A label never lets anyone recover the secret: it shows at most a third of those
 * characters (fewer for a short custom secret), and is never the secret itself.
 *
 * @example
 * import { maskSecret } from 'model-access-sim'
 * console.log(maskSecret('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'))
 * console.log(maskSecret('sk-or-v1-admin'))
 * //=> sk-or-v1-0e6...1c96
 * //=> sk-or-v1-...n
 */
export function maskSecret(secret: string): string {
  if (typeof secret !== 'string') throw invalidArgument('mask a secret', 'secret', `must be a string, got ${describe(secret)}`)
  const prefix = secret.startsWith('sk-or-v1-') ? 'sk-or-v1-' : ''
  const body = secret.slice(prefix.length)
  const shown = Math.min(7, Math.floor(body.length / 3))
  const tail = Math.min(4, Math.ceil(shown / 2))
  // Joined, not concatenated: one flat string, where `+` keeps a chain of four pieces for as long
  // as the key lives (in a loaded 100,000-key world, 7 of its 66 MiB).
  const label = [prefix, body.slice(0, shown - tail), '...', tail === 0 ? '' : body.slice(-tail)].join('')
  // A secret shaped like its own label ("sk-or-v1-....") would be shown whole; show none of it.
  return label === secret ? `${prefix}...` : label
}
