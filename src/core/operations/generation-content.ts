// A generation's stored content and feedback on the wire (decisions/0053): `GET /generation/content`
// shows the prompt and reply kept with a generation while the store keeps it, and
// `POST /generation/feedback` records feedback on it. Another organisation's generation is as
// absent as one that never existed (or was let go): 404.
import { BodyReader } from '../body.js'
import { ApiError } from '../errors.js'
import type { StoreContext } from '../store/context.js'
import { generationOf, withFeedback } from '../store/generations.js'
import type { GenerationState } from '../store/state.js'
import { type Operation, clone, jsonAnswer } from './operation.js'

/** The organisation's generation the query's `id` names: 400 without an id, 404 for one it has not (another's, or one let go). */
export function queriedGeneration(ctx: StoreContext, query: URLSearchParams, userId: string): GenerationState {
  const id = query.get('id')
  if (id === null || id === '') throw ApiError.badParameter('id', 'is required: the id of a generation (gen-...)')
  const generation = generationOf(ctx, id, userId)
  if (generation === undefined) throw ApiError.notFound({ resource: 'generation' })
  return generation
}

/** The categories the service takes, as the official SDK lists them. */
export const FEEDBACK_CATEGORIES = ['latency', 'incoherence', 'incorrect_response', 'formatting', 'billing', 'api_error', 'other'] as const

const FEEDBACK_FIELDS: ReadonlySet<string> = new Set(['generation_id', 'category', 'comment'])

export const GENERATION_CONTENT_OPERATIONS: readonly Operation[] = [
  {
    name: 'listGenerationContent',
    method: 'GET',
    template: '/generation/content',
    auth: 'key',
    run({ ctx, query, principal }) {
      const generation = queriedGeneration(ctx, query, principal.userId)
      // Embeddings keep no content: their input is not a prompt, their output not text.
      if (generation.content === undefined) throw ApiError.notFound({ resource: 'generation_content' })
      const { input, completion, reasoning } = generation.content
      return jsonAnswer(200, { data: { error: null, input: clone(input), output: { completion, reasoning } } })
    },
  },
  {
    name: 'submitGenerationFeedback',
    method: 'POST',
    template: '/generation/feedback',
    auth: 'management',
    run({ ctx, json, principal }) {
      const body: BodyReader = new BodyReader(json()).known(FEEDBACK_FIELDS)
      const id = body.string('generation_id', { minLength: 1 })
      const category = body.optionalEnum('category', FEEDBACK_CATEGORIES)
      if (category === undefined) body.fail('category', `is required: one of ${FEEDBACK_CATEGORIES.join(', ')}`)
      const comment = body.optionalString('comment', { maxLength: 10_000 }) ?? null
      const generation = generationOf(ctx, id, principal.userId)
      if (generation === undefined) throw ApiError.notFound({ resource: 'generation' })
      withFeedback(ctx, generation, { category, comment, at: ctx.clock.nowMs() })
      return jsonAnswer(200, { data: { success: true } })
    },
  },
]
