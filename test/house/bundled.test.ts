// The packages the build copies into dist/ (decisions/0062): none of them is a dependency a user
// installs, each is a pinned devDependency the build reads, and THIRD-PARTY-NOTICES.md carries the
// license of the exact version installed. `npx tsx scripts/bundled-dependencies.ts` rewrites it.
import { readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BUNDLED, noticesText } from '../../scripts/bundled-dependencies.js'
import { root } from '../support/source-imports.js'

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>
  devDependencies: Record<string, string>
  files: string[]
}

describe('the bundled dependencies', () => {
  it('are not dependencies a user installs, and the package has no other', () => {
    expect(manifest.dependencies ?? {}).toEqual({})
  })

  it('are devDependencies pinned to one version, so that a build copies known code', () => {
    for (const name of BUNDLED) expect(manifest.devDependencies[name], name).toMatch(/^\d+\.\d+\.\d+$/)
  })

  it('have their licenses in THIRD-PARTY-NOTICES.md, for the versions installed, and the file ships', () => {
    const committed = readFileSync(join(root, 'THIRD-PARTY-NOTICES.md'), 'utf8')
    expect(committed, 'run npx tsx scripts/bundled-dependencies.ts').toBe(noticesText())
    for (const name of BUNDLED) {
      const { version } = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }
      expect(committed).toContain(`## ${name} ${version} (MIT)`)
      expect(version).toBe(manifest.devDependencies[name])
    }
    expect(manifest.files).toContain('THIRD-PARTY-NOTICES.md')
  })

  it('are every package the source imports besides the peers and node', () => {
    const peers = new Set(['msw', '@faker-js/faker', 'fast-check', 'vitest'])
    const imported = new Set<string>()
    for (const file of sourceFiles(join(root, 'src'))) {
      for (const [, specifier = ''] of readFileSync(file, 'utf8').matchAll(/^(?:import|export|\})[^\n'"]*from '([^.'][^']*)'/gm)) {
        const name = specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/')
        if (!specifier.startsWith('node:') && !builtinModules.includes(name) && !peers.has(name)) imported.add(name)
      }
    }
    expect([...imported].sort()).toEqual([...BUNDLED].sort())
  })
})

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  )
}
