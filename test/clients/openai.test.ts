import { describeClient, devDependencyPins, runNodeClient } from './support/child.js'

// The openai JS client, unchanged, in a Node 24 child process (openai.client.ts): every case through
// MSW in that process and through a local server (decisions/0040).
const CASES = [
  'chat',
  'stream with its usage (stream_options.include_usage)',
  'runTools with a scripted tool call',
  'structured output with parse and zod',
  'embeddings',
  'legacy completions.create, streamed too',
  'usage.cost in the raw usage, charged to the key',
  '400 as BadRequestError naming the field',
  '402 as an APIError with status 402',
  '403 as PermissionDeniedError',
]

describeClient('the openai JS client', () => runNodeClient('openai.client.ts'), devDependencyPins(['openai', 'zod']), CASES)
