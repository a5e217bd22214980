import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { root, toSourceImports } from './support/source-imports.js'

const scratch = join(root, 'test', '.readme-examples')

/** The README's runnable examples: ```ts blocks whose first line is `// readme-example` or `// example: name`. */
function examples(): { name: string; code: string }[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  return [...readme.matchAll(/```ts\n(\/\/ (readme-example|example: [^\n]+)\n[\s\S]*?)```/g)].map((m) => ({
    name: (m[2] as string).replace(/^example: /, ''),
    code: toSourceImports(m[1] as string),
  }))
}

describe('README examples', () => {
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  it('has runnable examples, one of them the packed-tarball example', () => {
    const names = examples().map((e) => e.name)
    expect(names.filter((n) => n === 'readme-example')).toHaveLength(1)
    expect(names.length).toBeGreaterThanOrEqual(4)
  })

  it.each(examples().map((e) => [e.name, e.code]))('runs the %s example as written', async (name, code) => {
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, `${name.replace(/\W+/g, '-')}.ts`)
    writeFileSync(file, `${code}\nexport {}\n`)
    // Each example asserts with node:assert; importing it runs it, and a failed assertion rejects.
    await expect(import(pathToFileURL(file).href)).resolves.toBeDefined()
  })
})
