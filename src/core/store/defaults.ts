/** Realistic default values for fields a caller leaves out. Plain data: no faker in core. */

export const PROVIDERS = [
  { name: 'OpenAI', tag: 'openai' },
  { name: 'Anthropic', tag: 'anthropic' },
  { name: 'Google AI Studio', tag: 'google-ai-studio' },
  { name: 'Amazon Bedrock', tag: 'amazon-bedrock' },
  { name: 'Azure', tag: 'azure' },
  { name: 'Together', tag: 'together' },
  { name: 'Fireworks', tag: 'fireworks' },
  { name: 'DeepInfra', tag: 'deepinfra' },
  { name: 'Groq', tag: 'groq' },
  { name: 'Cerebras', tag: 'cerebras' },
  { name: 'Mistral', tag: 'mistral' },
  { name: 'xAI', tag: 'xai' },
  { name: 'Z.AI', tag: 'z-ai' },
  { name: 'Moonshot AI', tag: 'moonshotai' },
  { name: 'Novita', tag: 'novita' },
  { name: 'Parasail', tag: 'parasail' },
  { name: 'SambaNova', tag: 'sambanova' },
  { name: 'Nebius', tag: 'nebius' },
  { name: 'Chutes', tag: 'chutes' },
  { name: 'BaseTen', tag: 'baseten' },
] as const

export const KEY_NAMES = [
  'Production backend',
  'Staging',
  'CI pipeline',
  'Local development',
  'Analytics worker',
  'Mobile app',
  'Batch summariser',
  'Support assistant',
  'Evaluation harness',
  'Data labelling',
  'Search reranker',
  'Nightly jobs',
] as const

export const DEFAULT_SUPPORTED_PARAMETERS = [
  'max_tokens',
  'temperature',
  'top_p',
  'stop',
  'frequency_penalty',
  'presence_penalty',
  'seed',
  'response_format',
  'tools',
  'tool_choice',
] as const

/** The default workspace every organisation starts with. */
export const DEFAULT_WORKSPACE = { name: 'Default Workspace', slug: 'default' } as const
