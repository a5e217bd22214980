// The documentation of the repository: README.md, then the guides of docs/ by name. Read by the
// script that writes the generated lists (docs-lists.ts) and by the tests that run the examples.
import { existsSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')

/** The documentation files, relative to the repository's root: README.md, then docs/*.md by name. */
export function docFiles(): string[] {
  const guides = existsSync(join(ROOT, 'docs')) ? readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')) : []
  guides.sort()
  return ['README.md', ...guides.map((name) => `docs/${name}`)]
}
