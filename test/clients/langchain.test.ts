import { describeClient, devDependencyPins, runNodeClient } from './support/child.js'

// LangChain's ChatOpenAI, ChatOpenRouter and OpenAIEmbeddings, unchanged, in a Node 24 child process
// (langchain.client.ts): every case through MSW in that process and through a local server (decisions/0040).
const CHAT_CASES = [
  'invoke',
  'stream with its usage_metadata',
  'bindTools and tool.invoke(toolCall) back to the model',
  'withStructuredOutput',
  'withStructuredOutput with a nested zod schema and no rule: an object the schema parses',
  "withStructuredOutput by function calling and no rule: the forced call's arguments parse",
  'bindTools with tool_choice "any" and no rule: the tool the user names, args valid',
  'a streamed tool call with no rule: chunks that concat to valid args',
  'a tool loop with no rule: one call with valid args, then text',
  '400 as its typed error, naming the field',
  '402 as its typed error',
  '403 as its typed error',
  "a guardrail's 403 as its typed error, naming the guardrail, nothing charged",
]
const CASES = [
  ...CHAT_CASES.map((name) => `ChatOpenAI: ${name}`),
  ...CHAT_CASES.map((name) => `ChatOpenRouter: ${name}`),
  'ChatOpenRouter: usage.cost in llmOutput.tokenUsage, charged to the key',
  'OpenAIEmbeddings',
]

describeClient('LangChain', () => runNodeClient('langchain.client.ts'), devDependencyPins(['@langchain/core', '@langchain/openai', '@langchain/openrouter', 'zod']), CASES)
