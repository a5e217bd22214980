import fc from 'fast-check'
import { providerOf } from '../core/store/catalog.js'
import { fieldsOf } from '../core/store/check.js'
import { PROVIDERS } from '../core/store/defaults.js'
import type { Provider } from '../core/types.js'
import { checkConstraints } from './internal/constraints.js'
import { fakerText } from './internal/faker.js'
import { nullable } from './internal/stats.js'

/** The constraints this arbitrary takes; any other is refused. */
export const PROVIDER_CONSTRAINT_NAMES = fieldsOf<ProviderConstraints>({ names: true })

/** Options of {@link provider}. */
export interface ProviderConstraints {
  /** Where the name comes from: `'known'` (the providers the simulator's endpoints default to) or `'any'` (those, company names, and any non-empty text); default `'any'`. */
  names?: 'known' | 'any' | undefined
}

const COUNTRIES = ['US', 'CA', 'GB', 'DE', 'FR', 'NL', 'FI', 'SE', 'CH', 'IE', 'JP', 'SG', 'KR', 'CN', 'IN'] as const
const country = fc.constantFrom(...COUNTRIES)

/**
 * Arbitrary provider of `GET /providers`, one the official SDK parses: a provider name, the slug and
 * `.example` pages the simulator derives from it (decisions/0023 in the repository), and the
 * optional fields varied as the service's may be: `privacy_policy_url` sometimes null, the terms and
 * status pages absent, null or set, `headquarters` absent, null or a country code, `datacenters`
 * absent, null, empty or a few country codes.
 *
 * @example
 * import fc from 'fast-check'
 * import { provider } from 'model-access-sim/arbitraries'
 * const providers = fc.sample(provider({ names: 'known' }), { seed: 1, numRuns: 50 })
 * console.log(providers.every((p) => /^[a-z0-9-]+$/.test(p.slug) && p.name.length > 0))
 * //=> true
 */
export function provider(constraints: ProviderConstraints = {}): fc.Arbitrary<Provider> {
  checkConstraints('provider', constraints, PROVIDER_CONSTRAINT_NAMES)
  const known = fc.constantFrom(...PROVIDERS.map((p) => p.name))
  const names =
    constraints.names === 'known'
      ? known
      : fc.oneof({ arbitrary: known, weight: 3 }, { arbitrary: fakerText((f) => f.company.name()), weight: 2 }, { arbitrary: fc.string({ minLength: 1, maxLength: 24, unit: 'grapheme' }), weight: 1 })
  const maybe = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null | undefined> => fc.option(nullable(arbitrary), { nil: undefined })
  return fc
    .record({
      name: names,
      privacy: fc.boolean(),
      terms: fc.constantFrom('set', 'null', 'absent'),
      status: fc.constantFrom('set', 'null', 'absent'),
      headquarters: maybe(country),
      datacenters: maybe(fc.uniqueArray(country, { maxLength: 4 })),
    })
    .map((drawn): Provider => {
      const { name, slug, privacy_policy_url, terms_of_service_url, status_page_url } = providerOf(drawn.name)
      const entry: Provider = { name, slug, privacy_policy_url: drawn.privacy ? privacy_policy_url : null }
      if (drawn.terms !== 'absent') entry.terms_of_service_url = drawn.terms === 'set' ? (terms_of_service_url ?? null) : null
      if (drawn.status !== 'absent') entry.status_page_url = drawn.status === 'set' ? (status_page_url ?? null) : null
      if (drawn.headquarters !== undefined) entry.headquarters = drawn.headquarters
      if (drawn.datacenters !== undefined) entry.datacenters = drawn.datacenters
      return entry
    })
}
