import fc from 'fast-check'
import { nameFromId } from '../../core/store/models.js'
import { fakerText, slugify } from './faker.js'

/** A model id and the display name the service derives from it. */
export interface ModelRef {
  id: string
  name: string
}

const TEXT_AUTHORS = ['openai', 'anthropic', 'google', 'meta-llama', 'mistralai', 'qwen', 'deepseek', 'x-ai', 'moonshotai', 'z-ai', 'cohere', 'amazon', 'microsoft', 'nvidia'] as const
const VIDEO_AUTHORS = ['google', 'openai', 'kwaivgi', 'bytedance', 'minimax', 'alibaba', 'runwayml', 'luma'] as const
const VARIANTS = ['free', 'thinking', 'nitro', 'extended', 'beta'] as const

/** `falcon-3.1-70b-instruct`: a faker word, a version, sometimes a size and a flavour. */
function modelSlug(sizes: boolean, flavours: readonly string[]): fc.Arbitrary<string> {
  return fakerText((f) => {
    const word = slugify(f.word.noun()) || 'model'
    const version = `${f.number.int({ min: 1, max: 5 })}${f.datatype.boolean() ? `.${f.number.int({ min: 0, max: 9 })}` : ''}`
    const size = sizes && f.datatype.boolean() ? `-${f.helpers.arrayElement([7, 8, 32, 70, 235, 405])}b` : ''
    const flavour = f.helpers.arrayElement(['', ...flavours])
    return `${word}-${version}${size}${flavour === '' ? '' : `-${flavour}`}`
  })
}


/** A text model id such as `mistralai/falcon-3.1-70b-instruct:free`, with its display name. */
export function textModelRef(): fc.Arbitrary<ModelRef> {
  return fc
    .tuple(fc.constantFrom(...TEXT_AUTHORS), modelSlug(true, ['instruct', 'chat', 'mini']), fc.option(fc.constantFrom(...VARIANTS), { nil: undefined }))
    .map(([author, slug, variant]) => ({
      id: `${author}/${slug}${variant === undefined ? '' : `:${variant}`}`,
      name: nameFromId(`${author}/${slug}${variant === undefined ? '' : `:${variant}`}`),
    }))
}

/** A video model id such as `google/veo-3.1` or `kwaivgi/kling-2-pro`, with its display name. */
export function videoModelRef(): fc.Arbitrary<ModelRef> {
  return fc
    .tuple(fc.constantFrom(...VIDEO_AUTHORS), modelSlug(false, ['pro', 'fast']))
    .map(([author, slug]) => ({ id: `${author}/${slug}`, name: nameFromId(`${author}/${slug}`) }))
}

/** "Provider: Model", without the author prefix the model's own name carries, as the simulator names endpoints. */
export function endpointName(providerName: string, modelName: string): string {
  return `${providerName}: ${modelName.replace(/^[^:]+: /, '')}`
}
