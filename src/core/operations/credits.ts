// An organisation's credits on the wire (decisions/0021).
import { creditsOf } from '../store/credits.js'
import { type Operation, jsonAnswer } from './operation.js'

export const CREDIT_OPERATIONS: readonly Operation[] = [
  {
    name: 'getCredits',
    method: 'GET',
    template: '/credits',
    auth: 'management',
    run({ ctx, principal }) {
      return jsonAnswer(200, { data: creditsOf(ctx, principal.userId) })
    },
  },
]
