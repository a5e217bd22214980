import { describeClient, devDependencyPins, runNodeClient } from './support/child.js'

// The Vercel AI SDK with the OpenRouter provider, unchanged, in a Node 24 child process
// (ai-sdk.client.ts): every case through MSW in that process and through a local server (decisions/0040).
const CASES = [
  'generateText',
  'streamText with its usage',
  'a tool loop with stopWhen and a scripted tool call',
  'structured output with Output.object',
  'Output.object with a nested zod schema and no rule: an object the schema parses',
  'toolChoice "required" and no rule: a call of the tool the user names, its input valid',
  'streamText with tools and no rule: a tool-call part with valid input, its input streamed in pieces',
  'an agent loop with stopWhen(stepCountIs(5)) and no rule: one tool round, then text',
  'embed',
  'usage.cost in the provider metadata, charged to the key',
  '400 as APICallError naming the field',
  '402 as APICallError',
  '403 as APICallError',
  "a guardrail's 403 as APICallError naming the guardrail, nothing charged",
]

describeClient('the AI SDK with the OpenRouter provider', () => runNodeClient('ai-sdk.client.ts'), devDependencyPins(['ai', '@openrouter/ai-sdk-provider', 'zod']), CASES)
