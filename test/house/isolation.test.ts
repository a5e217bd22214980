// vitest shares one module graph among the files a worker runs (decisions/0035). A file that mocks a
// module, or configures a library for the whole process, would change what the files after it see,
// so it must run in the isolated project; this test finds every such file and holds the list to them.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ISOLATED } from '../../vitest.config.js'
import { root } from '../support/source-imports.js'

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : testFiles(path)
    return entry.name.endsWith('.test.ts') ? [relative(root, path)] : []
  })
}

/**
 * What changes the module graph or a library's settings for every file after it in the same
 * worker. (Seeding the shared faker is not on the list: no file relies on its unseeded draws.)
 */
const PROCESS_WIDE = /\bvi\.(mock|doMock)\(|\bfc\.configureGlobal\(/

describe('files that change the whole worker run isolated', () => {
  const files = [...testFiles(join(root, 'test')), ...testFiles(join(root, 'src'))]

  it('lists every file that mocks a module or configures a library globally', () => {
    const changing = files.filter((file) => PROCESS_WIDE.test(readFileSync(join(root, file), 'utf8')))
    expect(changing.length).toBeGreaterThan(0)
    expect(changing.filter((file) => !ISOLATED.includes(file))).toEqual([])
  })

  it('lists only files that exist', () => {
    expect(ISOLATED.filter((file) => !files.includes(file))).toEqual([])
  })
})
