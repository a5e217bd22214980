// What a request asks of its reply beyond its messages (decisions/0048): the function tools it
// declares and which it lets or makes the model call, the format of the answer (a JSON Schema, or
// any JSON object), reasoning, stop sequences, log probabilities and a seed. Read here for both
// `/chat/completions` and `/responses`, so that the default reply (compose.ts) follows the two alike.
// A tool's or a format's JSON Schema is checked and compiled as it is read: a structurally wrong
// schema is the request's 400, naming the keyword's path.
import type { BodyReader } from '../body.js'
import { type CompiledSchema, SchemaError, compileSchema } from '../schema/index.js'

/** Reasoning effort as the service takes it, least to most. */
export const EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const
export type Effort = (typeof EFFORTS)[number]

/** A function tool the request declares: its name, and its parameters' schema (null: none given, any object). */
export interface DeclaredTool {
  readonly name: string
  readonly schema: CompiledSchema | null
  /** The parameters' JSON text, part of what the tool's call is made from. */
  readonly text: string
}

/** `tool_choice`: absent is null (the model decides, as `auto`). */
export type ToolChoice = 'auto' | 'none' | 'required' | { readonly name: string }

/** The answer's format: JSON valid against a schema, any JSON object, or free text (null). */
export type OutputFormat =
  | { readonly type: 'json_object' }
  | { readonly type: 'json_schema'; readonly schema: CompiledSchema; readonly text: string }
  | null

/** What the request says of reasoning; every field null (or false) when it says nothing. */
export interface ReasoningAsk {
  readonly effort: Effort | null
  /** `reasoning.max_tokens`: a cap on the reasoning's tokens. */
  readonly maxTokens: number | null
  /** `reasoning.exclude` (or `include_reasoning: false`): reason and bill, but answer no reasoning text. */
  readonly exclude: boolean
  /** `reasoning.enabled`, or true when the request asks for reasoning in another way; null when it says nothing. */
  readonly enabled: boolean | null
}

/** What a request asks of its reply besides its messages. */
export interface ReplyDemands {
  readonly tools: readonly DeclaredTool[]
  readonly toolChoice: ToolChoice | null
  /** `parallel_tool_calls` (default true); the default reply makes one call either way. */
  readonly parallelToolCalls: boolean
  readonly format: OutputFormat
  readonly reasoning: ReasoningAsk
  /** Stop sequences, none empty. */
  readonly stop: readonly string[]
  /** Null: no log probabilities asked; else the number of alternatives per token (`top_logprobs`, 0 to 20). */
  readonly logprobs: number | null
  /** The request's `seed`: the same value gives the same reply. */
  readonly seed: number | null
}

const NO_REASONING: ReasoningAsk = Object.freeze({ effort: null, maxTokens: null, exclude: false, enabled: null })

/** A request that asks nothing beyond its messages: shared by every such request, never written to. */
export const NO_DEMANDS: ReplyDemands = Object.freeze({
  tools: Object.freeze([]) as readonly DeclaredTool[],
  toolChoice: null,
  parallelToolCalls: true,
  format: null,
  reasoning: NO_REASONING,
  stop: Object.freeze([]) as readonly string[],
  logprobs: null,
  seed: null,
})

/** Whether a request's demands are those of a plain request (the reply is today's default text). */
export const asksNothing = (demands: ReplyDemands): boolean => demands === NO_DEMANDS

/** A JSON Schema compiled at `path` of the body; a structural fault is the 400 naming the keyword's path. */
export function schemaAt(reader: BodyReader, path: string, value: unknown, json?: string): CompiledSchema {
  try {
    return compileSchema(value, path, json)
  } catch (error) {
    if (error instanceof SchemaError) reader.fail(error.path, error.reason)
    throw error
  }
}

/** A tool declared with `parameters` (null or absent: any object). */
export function declaredTool(reader: BodyReader, name: string, parameters: unknown, path: string): DeclaredTool {
  if (parameters === undefined || parameters === null) return { name, schema: null, text: '' }
  const text = JSON.stringify(parameters)
  return { name, schema: schemaAt(reader, path, parameters, text), text }
}

/**
 * Checks a tool choice against the declared tools: a named function must be one of them, and
 * `required` or a named function needs tools at all. `at` is the choice's path.
 */
export function checkToolChoice(reader: BodyReader, choice: ToolChoice | null, tools: readonly DeclaredTool[], at: string, nameAt: string): void {
  if (choice === null || choice === 'auto' || choice === 'none') return
  if (tools.length === 0) reader.fail(at, `is ${typeof choice === 'string' ? '"required"' : 'a named function'}, but the request declares no function tools`)
  if (typeof choice === 'object' && !tools.some((tool) => tool.name === choice.name)) {
    reader.fail(nameAt, `names no tool the request declares (declared: ${tools.map((tool) => tool.name).join(', ')})`, choice.name)
  }
}

/** An effort as the request gives it (null: not given); an unknown one is a 400 listing the known. */
export function readEffort(reader: BodyReader, value: unknown, at: string): Effort | null {
  if (value === undefined || value === null) return null
  if (typeof value !== 'string' || !(EFFORTS as readonly string[]).includes(value)) reader.fail(at, `must be one of ${EFFORTS.join(', ')}`, value)
  return value as Effort
}

/**
 * What `reasoning` (an object already checked), `reasoning_effort` and `include_reasoning` say,
 * read from the raw body: `reasoning.effort` wins over `reasoning_effort`; `include_reasoning:
 * false` is `exclude`, `true` asks for reasoning (decisions/0048).
 */
export function readReasoningAsk(reader: BodyReader, body: Record<string, unknown>, prefix = ''): ReasoningAsk {
  const raw = body['reasoning']
  const config = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined
  const shorthand = readEffort(reader, body['reasoning_effort'], `${prefix}reasoning_effort`)
  const effort = readEffort(reader, config?.['effort'], `${prefix}reasoning.effort`) ?? shorthand
  const include = body['include_reasoning']
  const maxTokens = typeof config?.['max_tokens'] === 'number' ? config['max_tokens'] : null
  const exclude = config?.['exclude'] === true || include === false
  const stated = config?.['enabled']
  const enabled = typeof stated === 'boolean' ? stated : config !== undefined || shorthand !== null || include === true ? true : null
  if (effort === null && maxTokens === null && !exclude && enabled === null) return NO_REASONING
  return { effort, maxTokens, exclude, enabled }
}

/** `stop`: a string or an array of strings (already checked); empty strings are no stop. */
export function stopSequences(value: unknown): readonly string[] {
  if (typeof value === 'string') return value === '' ? NO_DEMANDS.stop : [value]
  if (Array.isArray(value)) return (value as string[]).filter((s) => s !== '')
  return NO_DEMANDS.stop
}

/** Demands with every field given; the plain ones shared when nothing is asked. */
export function demandsOf(demands: ReplyDemands): ReplyDemands {
  const plain =
    demands.tools.length === 0 &&
    demands.toolChoice === null &&
    demands.format === null &&
    demands.reasoning === NO_REASONING &&
    demands.stop.length === 0 &&
    demands.logprobs === null &&
    demands.seed === null
  return plain ? NO_DEMANDS : demands
}
