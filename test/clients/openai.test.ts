import { describeClient, devDependencyPins, runNodeClient } from './support/child.js'

// The openai JS client, unchanged, in a Node 24 child process (openai.client.ts): every case through
// MSW in that process and through a local server (decisions/0040).
const CASES = [
  'its own parameters are fields the simulator knows',
  'chat',
  'stream with its usage (stream_options.include_usage)',
  'runTools with a scripted tool call',
  'structured output with parse and zod',
  'parse with zodResponseFormat and no rule: parsed, valid for the zod schema',
  'parse with formats, bounds, patterns, a discriminated union and recursion, no rule: zod parses it',
  'a streamed parse with zodResponseFormat and no rule: content in pieces, parsed at the end',
  'tool_choice "required" with zodFunction tools and no rule: the tool the user names, arguments zod parses',
  'tool_choice naming a function, no rule: that function, arguments zod parses',
  'runTools with a zod tool and no rule: one call with parsed args, then text',
  'a streamed tool call with no rule: arguments in pieces that add up to JSON zod parses',
  'responses.parse with zodTextFormat and no rule: output_parsed, valid for the zod schema',
  'responses.stream with a zodResponsesFunction, tool_choice "required" and no rule: a function_call, arguments in pieces',
  'embeddings',
  'legacy completions.create, streamed too',
  'usage.cost in the raw usage, charged to the key',
  '400 as BadRequestError naming the field',
  '402 as an APIError with status 402',
  'a 503 retried under the default maxRetries: the retry answered, not a hang',
  '403 as PermissionDeniedError',
  "a guardrail's 403 as PermissionDeniedError naming the guardrail, nothing charged",
]

describeClient('the openai JS client', () => runNodeClient('openai.client.ts'), devDependencyPins(['openai', 'zod']), CASES)
