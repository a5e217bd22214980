// Responders in world files (decisions/0027): the JSON form of `POST /__sim/responders`, checked as
// `sim.inference.respond` checks a rule, each error naming its path in the spec
// (`world.responders[2].match.lastUserMessage.regex`).
import type { CatalogNames } from '../store/models.js'
import { describe } from '../describe.js'
import { SimulatorError, SimulatorErrorCode } from '../errors.js'
import { type ResponderError, type ResponderMatch, type ResponderReply, type ResponderRule, checkRule, responderFromJson } from '../inference/responders.js'
import type { WorldProblem } from './problems.js'

/** A regular expression as JSON: its pattern and flags (`d`, `i`, `m`, `s`, `u`, `v`). */
export interface WorldRegExp {
  regex: string
  flags?: string | undefined
}

/** A responder rule as a world spec (and `POST /__sim/responders`) holds it: plain JSON. */
export interface WorldResponder {
  match?: Omit<ResponderMatch, 'lastUserMessage'> & { lastUserMessage?: string | WorldRegExp | undefined } | undefined
  reply?: ResponderReply | undefined
  error?: ResponderError | undefined
  times?: number | undefined
  name?: string | undefined
}

/** The SimulatorError of a rule's check, naming its path in the spec. */
function atPath(path: string, error: SimulatorError): SimulatorError {
  const field = error.argument === undefined || error.argument === 'rule' || error.argument === 'options' ? '' : error.argument
  const argument = field === '' ? path : `${path}.${field}`
  const message = error.message.replace(/^Failed to [^:]+: /, '')
  return new SimulatorError(error.code, `Failed to load world: ${path}: ${message}`, { argument, details: error.details })
}

/**
 * The spec's responder rules, checked, in the order given (as `sim.inference.respond` takes them);
 * `[]` without any. A bad rule throws a SimulatorError whose `argument` is its path; with
 * `problems`, each is reported there instead and left out.
 */
export function worldResponders(spec: { responders?: unknown }, problems?: WorldProblem[], names?: CatalogNames): ResponderRule[] {
  const list = spec.responders
  if (list === undefined) return []
  const report = (error: SimulatorError): void => {
    if (problems === undefined) throw error
    problems.push({ path: error.argument ?? 'world.responders', code: error.code, message: error.message.replace(/^Failed to load world: (?:world[\w.[\]]*: )?/, '') })
  }
  if (!Array.isArray(list)) {
    report(new SimulatorError(SimulatorErrorCode.InvalidArgument, `Failed to load world: "world.responders" must be an array of responder rules, got ${describe(list)}.`, { argument: 'world.responders' }))
    return []
  }
  const rules: ResponderRule[] = []
  for (let i = 0; i < list.length; i++) {
    const path = `world.responders[${i}]`
    try {
      rules.push(checkRule(responderFromJson(list[i]), names))
    } catch (error) {
      if (!(error instanceof SimulatorError)) throw error
      report(atPath(path, error))
    }
  }
  return rules
}
