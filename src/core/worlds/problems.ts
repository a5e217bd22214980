// What checking a world spec reports: shared by the spec's reader (spec.ts) and the responder
// rules' (responders.ts).
import type { SimulatorErrorCode } from '../errors.js'

/** One problem of a world spec: where it is (`world.keys[3].limit`) and what is wrong there. */
export interface WorldProblem {
  path: string
  /** The SimulatorError code a load would throw with. */
  code: SimulatorErrorCode
  message: string
}
