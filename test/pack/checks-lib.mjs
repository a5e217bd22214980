// What test/pack/default-world.mjs and test/pack/engine.mjs share: a scratch directory in the
// consumer project, copies of the installed package with a file removed, and the runners of a
// script under Node, npx (Bun, Deno) and the repository's esbuild.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * The checks' setting: the installed package and its dist/ in `consumer`, and `work`, a fresh
 * directory `name` there that every helper writes in.
 */
export function checks(consumer, root, name) {
  const installed = join(consumer, 'node_modules', 'model-access-sim')
  const dist = join(installed, 'dist')
  const work = join(consumer, name)
  rmSync(work, { recursive: true, force: true })
  mkdirSync(work)

  /** A project in `work` whose node_modules holds a copy of the installed package without `remove`. */
  function projectWithout(project, remove) {
    const dir = join(work, project)
    cpSync(installed, join(dir, 'node_modules', 'model-access-sim'), { recursive: true })
    for (const file of remove) rmSync(join(dir, 'node_modules', 'model-access-sim', 'dist', file))
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n')
    return dir
  }

  /** Writes `code` to `dir/file` and runs it with this Node (`args` before the file). */
  function run(dir, file, code, args = []) {
    writeFileSync(join(dir, file), code)
    const child = spawnSync(process.execPath, [...args, file], { cwd: dir, encoding: 'utf8', timeout: 60_000 })
    return { status: child.status, out: child.stdout.trim(), err: child.stderr.trim() }
  }

  /** `npx -y ...args` in `dir`: another runtime, fetched as Node 24 is elsewhere in CI. */
  function npx(args, dir) {
    const child = spawnSync('npx', ['-y', ...args], { cwd: dir, encoding: 'utf8', timeout: 300_000, env: { ...process.env, NO_COLOR: '1' } })
    return { status: child.status, out: child.stdout.trim(), err: `${child.error ?? ''}${child.stderr.trim()}` }
  }

  /** A bundler of `code` (an ES module importing the installed package) for a platform, with the repository's esbuild: the bundle's text. */
  async function bundler(code) {
    const { build } = await import(pathToFileURL(join(root, 'node_modules', 'esbuild', 'lib', 'main.js')).href)
    const entry = join(work, 'entry.mjs')
    writeFileSync(entry, code)
    return async (platform, outfile) => {
      await build({ entryPoints: [entry], bundle: true, format: 'esm', platform, outfile, logLevel: 'error', nodePaths: [join(consumer, 'node_modules')], absWorkingDir: consumer })
      return readFileSync(outfile, 'utf8')
    }
  }

  return { installed, dist, work, projectWithout, run, npx, bundler }
}
