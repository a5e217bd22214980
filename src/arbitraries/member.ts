import fc from 'fast-check'
import { fieldsOf } from '../core/store/check.js'
import type { OrganizationMember } from '../core/store/members.js'
import { checkConstraints } from './internal/constraints.js'
import { fakerText } from './internal/faker.js'
import { userId } from './internal/ids.js'
import { nullable } from './internal/stats.js'

/** Options of {@link member}: none yet, so any given is refused. */
export type MemberConstraints = Record<string, never>
export const MEMBER_CONSTRAINT_NAMES = fieldsOf<MemberConstraints>({})

/**
 * Arbitrary organisation member as `GET /organization/members` lists it (decisions/0051), one the
 * official SDK parses and the simulator would answer: a user id (`user_` and 27 letters and
 * digits), an email address, a first and a last name each a person's or null, and `org:member` or
 * `org:admin`. Shrinks toward a member without names.
 *
 * @example
 * import fc from 'fast-check'
 * import { member } from 'model-access-sim/arbitraries'
 * const members = fc.sample(member(), { seed: 1, numRuns: 100 })
 * console.log(members.every((m) => m.id.startsWith('user_') && m.email.includes('@')))
 * //=> true
 */
export function member(constraints: MemberConstraints = {}): fc.Arbitrary<OrganizationMember> {
  checkConstraints('member', constraints, MEMBER_CONSTRAINT_NAMES)
  return fc
    .tuple(
      userId,
      fakerText((f) => f.internet.email().toLowerCase()),
      nullable(fakerText((f) => f.person.firstName())),
      nullable(fakerText((f) => f.person.lastName())),
      fc.constantFrom('org:member', 'org:admin') as fc.Arbitrary<OrganizationMember['role']>,
    )
    // A plain object, as JSON.parse builds one (fc.record's have no prototype).
    .map(([id, email, first_name, last_name, role]): OrganizationMember => ({ id, email, first_name, last_name, role }))
}
