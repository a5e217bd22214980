// The vector length of an embedding model, in a module of its own: the package's entry points
// export it without loading the simulator (decisions/0072).

/**
 * The vector length of a model when a request gives no `dimensions`, and the most it may ask for:
 * the published output size of the well-known embedding models (by id, any variant), else 1536.
 */
export const EMBEDDING_DIMENSIONS: Readonly<Record<string, number>> = {
  'openai/text-embedding-3-small': 1536,
  'openai/text-embedding-3-large': 3072,
  'openai/text-embedding-ada-002': 1536,
  'mistralai/mistral-embed-2312': 1024,
  'mistralai/codestral-embed-2505': 1536,
  'google/gemini-embedding-001': 3072,
  'qwen/qwen3-embedding-8b': 4096,
  'qwen/qwen3-embedding-4b': 2560,
  'qwen/qwen3-embedding-0.6b': 1024,
  'baai/bge-m3': 1024,
  'baai/bge-large-en-v1.5': 1024,
  'baai/bge-base-en-v1.5': 768,
  'intfloat/multilingual-e5-large': 1024,
  'sentence-transformers/all-minilm-l6-v2': 384,
  'sentence-transformers/all-mpnet-base-v2': 768,
  'thenlper/gte-large': 1024,
  'thenlper/gte-base': 768,
}

/** The vector length of an embedding model the table does not name. */
export const DEFAULT_EMBEDDING_DIMENSIONS = 1536

/**
 * The vector length of a model: {@link EMBEDDING_DIMENSIONS} for its id without a variant, else
 * {@link DEFAULT_EMBEDDING_DIMENSIONS}.
 *
 * @example
 * import { embeddingDimensions } from 'model-access-sim'
 * console.log(embeddingDimensions('openai/text-embedding-3-large'), embeddingDimensions('acme/embed-1:free'))
 * //=> 3072 1536
 */
export function embeddingDimensions(modelId: string): number {
  const colon = modelId.indexOf(':')
  const base = colon === -1 ? modelId : modelId.slice(0, colon)
  return Object.hasOwn(EMBEDDING_DIMENSIONS, base) ? (EMBEDDING_DIMENSIONS[base] as number) : DEFAULT_EMBEDDING_DIMENSIONS
}
