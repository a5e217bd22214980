import { Faker, base, en } from '@faker-js/faker'
import fc from 'fast-check'

/**
 * Text from faker, seeded from fast-check's own random stream, so a failing run replays with its
 * fast-check seed and its text shrinks toward the text of seed 0. Each arbitrary gets its own
 * faker instance: the global one would make the text depend on whatever else used it.
 */
export function fakerText<T>(produce: (faker: Faker) => T): fc.Arbitrary<T> {
  let faker: Faker | undefined
  return fc.nat().map((seed) => {
    // Reseeding and producing happen in one synchronous call, so sharing the instance is safe.
    faker ??= new Faker({ locale: [en, base] })
    faker.seed(seed)
    return produce(faker)
  })
}

/** Lower-case words joined by `-`, as slugs and ids want them. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}
