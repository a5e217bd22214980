// The `model-access-sim` command as the tests start it: src/server/cli-entry.ts and everything it imports,
// bundled by esbuild (the compiler tsx runs) into one ES module that plain node runs, as the
// published bin is one file that tsup bundled (decisions/0035). Started through `--import tsx`,
// each process compiled and loaded some hundred modules: 1 to 2 s a start on a busy 2-core machine,
// paid by every command a test runs; the bundle starts in a fraction of that.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build } from 'esbuild'

const ROOT = resolve(import.meta.dirname, '../..')

export interface BundledCli {
  /** The bundle's absolute path: `node <path> serve ...` runs the command. */
  path: string
  /** Removes the bundle and its directory. */
  remove(): void
}

/** Bundles the CLI from the current sources into a temporary directory of its own. */
export async function bundleCli(): Promise<BundledCli> {
  const dir = mkdtempSync(join(tmpdir(), 'model-access-sim-cli-bundle-'))
  const path = join(dir, 'cli.mjs')
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/server/cli-entry.ts'],
    outfile: path,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  })
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
