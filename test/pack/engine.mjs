// Where the built package loads its engine from (decisions/0072), checked on the installed
// tarball: on Node a script beside the build, read and compiled on the first createSimulator() and
// never at import, given the entry points' own copies of the modules they share with it;
// everywhere else a module imported with the rest. Run by test/pack/run.sh from the consumer
// project:
//
//   node engine.mjs <consumer dir> <repository root>      (the root's esbuild bundles)
//
// Each check runs in a child process of its own, on a copy of the installed package where it
// removes something: a check passes only if the engine it expects is the one used.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { checks } from './checks-lib.mjs'

const [consumer, root] = process.argv.slice(2).map((dir) => resolve(dir))
assert.ok(consumer && root, 'usage: node engine.mjs <consumer dir> <repository root>')
const { installed, dist, work, projectWithout, run, npx, bundler } = checks(consumer, root, 'engine-checks')

// 1. What the build holds: the script, which calls nothing it is not given, and a root whose
// static graph (with `#engine` resolved as Node resolves it) holds none of the engine's code.
const script = readFileSync(join(dist, 'engine.script.js'), 'utf8')
assert.doesNotMatch(script, /\brequire\(/, 'the script requires nothing')
assert.match(script, /__shared\["src\/core\/errors\.ts"\]/, 'the script is given the errors module')
assert.match(script, /function handleRequest\(/, 'the script holds the router')
for (const ext of ['.js', '.cjs']) {
  // Outside Node `#engine` is the engine's modules, which import the kernel: the kernel must not import it.
  assert.doesNotMatch(readFileSync(join(dist, `kernel${ext}`), 'utf8'), /#engine/, `kernel${ext} does not import the engine`)
}
const imports = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).imports
for (const [format, ext] of [['import', '.js'], ['require', '.cjs']]) {
  assert.equal(imports['#engine'].node[format], `./dist/engine-node${ext}`)
  assert.equal(imports['#engine'][format], `./dist/engine-embedded${ext}`)
  const seen = new Set()
  const walk = (file) => {
    if (seen.has(file)) return
    seen.add(file)
    const text = readFileSync(file, 'utf8')
    for (const [, specifier] of text.matchAll(/(?:\bfrom|\bimport|require\()\s*["'](\.\/[^"']+|#[^"']+)["']/g)) {
      // `#...` as Node resolves it (package.json "imports", the `node` condition), from dist/.
      const mapped = { '#engine': `engine-node${ext}`, '#default-world': `default-world-node${ext}`, '#kernel': `kernel${ext}` }[specifier]
      if (specifier.startsWith('#') && mapped === undefined) throw new Error(`${file} imports ${specifier}, which this check does not know`)
      walk(mapped === undefined ? resolve(dirname(file), specifier) : join(dist, mapped))
    }
  }
  walk(join(dist, `index${ext}`))
  const texts = [...seen].map((file) => readFileSync(file, 'utf8'))
  const bytes = texts.reduce((sum, text) => sum + text.length, 0)
  assert.ok(!texts.some((text) => /function handleRequest\(|function createSimulator\(/.test(text)), `the root's graph (${format}) holds no engine code`)
  assert.ok(bytes < 200_000, `the root's graph (${format}) is ${bytes} characters, not the engine's 700,000`)
  assert.ok(seen.size <= 5, `the root opens ${seen.size} files (${format}): each costs an import 1.5-2 ms`)
  console.log(`the root (${format}) loads ${seen.size} files, ${Math.round(bytes / 1024)} KB, and none of the engine`)
}

// Counts the reads of the engine's script: node:fs's readFileSync, the one the loader calls
// (through process.getBuiltinModule, the same module object), wrapped before anything loads.
const counter = `
const fs = process.getBuiltinModule('node:fs')
const read = fs.readFileSync
globalThis.engineReads = 0
fs.readFileSync = function (file, ...rest) {
  if (String(file).endsWith('engine.script.js')) globalThis.engineReads++
  return read.call(this, file, ...rest)
}
`
writeFileSync(join(consumer, 'engine-counter.cjs'), counter)
const importAll = {
  esm: 'const root = await import("model-access-sim"); const msw = await import("model-access-sim/msw"); const server = await import("model-access-sim/server")',
  cjs: 'const root = require("model-access-sim"); const msw = require("model-access-sim/msw"); const server = require("model-access-sim/server")',
}
const ext = { esm: 'mjs', cjs: 'cjs' }
const nodeChecks = `
const assert = ${'${REQUIRE_ASSERT}'}
const log = []
log.push("after import " + globalThis.engineReads)
let thrown
try { root.createSimulator({ seedd: 1 }) } catch (error) { thrown = error }
assert.ok(thrown instanceof root.SimulatorError, "the engine throws the root's SimulatorError")
assert.equal(thrown.code, root.SimulatorErrorCode.InvalidArgument)
log.push("after the first call " + globalThis.engineReads)
const sim = root.createSimulator()
const keys = sim.handle({ method: "GET", path: "/keys", authorization: "Bearer " + sim.world.managementKey })
assert.equal(keys.status, 200)
assert.equal(msw.createHandlers(sim).length > 0, true)
assert.ok(Array.isArray(keys.body.data) && keys.body.data instanceof Array, "the engine's arrays are this realm's")
assert.equal(root.validateWorld({}).length > 0, true)
log.push("after a simulator " + globalThis.engineReads)
console.log(log.join("; "))
`
for (const format of ['esm', 'cjs']) {
  const code = `${importAll[format]}\n${nodeChecks.replace('${REQUIRE_ASSERT}', format === 'esm' ? '(await import("node:assert/strict")).default' : 'require("node:assert/strict")')}`
  const got = run(consumer, `engine-check.${ext[format]}`, code, ['--require', './engine-counter.cjs'])
  assert.equal(got.status, 0, `${format}: ${got.err}`)
  assert.equal(got.out, 'after import 0; after the first call 1; after a simulator 1', `${format}: the script is read on the first call, once`)
}
console.log('Node (ESM and CJS): the import reads no engine; the first createSimulator() reads it once; its errors are the root\'s classes')

// 2. Without the script: the import works, createSimulator() fails saying what to do, and works
// once the file is back (the failure is not kept).
const noScript = projectWithout('no-script', ['engine.script.js'])
for (const format of ['esm', 'cjs']) {
  const code = `${format === 'esm' ? 'const root = await import("model-access-sim"); const { copyFileSync } = await import("node:fs")' : 'const root = require("model-access-sim"); const { copyFileSync } = require("node:fs")'}
console.log("imported", typeof root.createSimulator, root.DEFAULT_SEED, root.maskSecret("sk-or-v1-admin"))
try { root.createSimulator(); console.log("no error") } catch (error) { console.log(error.message) }
copyFileSync(${JSON.stringify(join(dist, 'engine.script.js'))}, "node_modules/model-access-sim/dist/engine.script.js")
console.log("back", root.createSimulator().handle({ method: "GET", path: "/models" }).status)
`
  const got = run(noScript, `check.${ext[format]}`, code)
  assert.equal(got.status, 0, `${format} without the script: ${got.err}`)
  assert.match(got.out, /^imported function 42 sk-or-v1-\.\.\.n\n/, `${format}: the import and the values the root holds work without the engine`)
  assert.match(got.out, /could not read its engine from \S*engine\.script\.js \(ENOENT\)/, `${format}: the error names the file`)
  assert.match(got.out, /A bundle of the package for Node must copy dist\/engine\.script\.js beside its output/, `${format}: the error says what to do`)
  assert.ok(got.out.endsWith('\nback 200'), `${format}: with the file back, the same process loads the engine`)
  rmSync(join(noScript, 'node_modules', 'model-access-sim', 'dist', 'engine.script.js'))
}
console.log('without the script, the import works, createSimulator() names the file and what to do, and works once it is back')

// 3. A process that refuses code made from strings gets an error that says so and what to do.
{
  const got = run(consumer, 'engine-strict.mjs', 'const root = await import("model-access-sim")\ntry { root.createSimulator() } catch (error) { console.log(error.message) }\n', ['--disallow-code-generation-from-strings'])
  assert.equal(got.status, 0, got.err)
  assert.match(got.out, /could not compile its engine .*--disallow-code-generation-from-strings/)
}
console.log('under --disallow-code-generation-from-strings, createSimulator() says why and what to do')

// 4. Other runtimes, fetched with npx as Node 24 is. Bun reads the script as Node does; Deno
// resolves `deno` first and imports the engine as a module.
const listModels = 'const sim = createSimulator(); const res = sim.handle({ method: "GET", path: "/models" }); console.log(res.status, res.body.data.length)'
const listed = run(consumer, 'engine-listed.mjs', `import { createSimulator } from "model-access-sim"\n${listModels}\n`)
assert.equal(listed.status, 0, listed.err)
assert.match(listed.out, /^200 \d+$/)
const noEmbedded = projectWithout('no-embedded', ['engine-embedded.js', 'engine-embedded.cjs'])
writeFileSync(join(noEmbedded, 'runtime.mjs'), `import { createSimulator } from "model-access-sim"\n${listModels}\n`)
let got = npx(['bun@1', 'runtime.mjs'], noEmbedded)
assert.equal(got.status, 0, `Bun without the embedded engine: ${got.err}`)
assert.equal(got.out, listed.out, 'Bun compiles the script')
writeFileSync(join(noScript, 'runtime.mjs'), `import { createSimulator } from "model-access-sim"\n${listModels}\n`)
got = npx(['deno@2', 'run', '--quiet', 'runtime.mjs'], noScript)
assert.equal(got.status, 0, `Deno without the script: ${got.err}`)
assert.equal(got.out, listed.out, 'Deno imports the engine as a module')
console.log('Bun compiles the script; Deno imports the engine as a module')

// 5. Bundles, with the repository's esbuild: for the browser the engine is a module of the
// bundle; for Node the script must be copied beside the bundle, as the error says.
const bundle = await bundler(`import { createSimulator } from "model-access-sim"\n${listModels}\n`)
const browser = await bundle('browser', join(work, 'browser', 'bundle.mjs'))
assert.doesNotMatch(browser, /engine\.script\.js|\(0, eval\)/, 'the browser bundle neither reads nor compiles a script')
got = run(join(work, 'browser'), 'bundle.mjs', browser)
assert.equal(got.status, 0, `the browser bundle: ${got.err}`)
assert.equal(got.out, listed.out, 'the browser bundle lists the default world')
const node = await bundle('node', join(work, 'node', 'bundle.mjs'))
cpSync(join(dist, 'default-world.jsonl'), join(work, 'node', 'default-world.jsonl'))
got = run(join(work, 'node'), 'bundle.mjs', node)
assert.notEqual(got.status, 0, 'the Node bundle without the script fails')
assert.match(got.err, /A bundle of the package for Node must copy dist\/engine\.script\.js beside its output/)
cpSync(join(dist, 'engine.script.js'), join(work, 'node', 'engine.script.js'))
got = run(join(work, 'node'), 'bundle.mjs', node)
assert.equal(got.status, 0, `the Node bundle with the script: ${got.err}`)
assert.equal(got.out, listed.out, 'the Node bundle lists the default world')
console.log('an esbuild bundle for the browser holds the engine; one for Node compiles the script copied beside it')
// 6. Vitest, the package left to Node (as installed) and inlined (transformed by Vite, which
// resolves `#engine` itself): one engine either way, whose errors are the root's class. Vitest is
// the repository's own, linked into the project.
const vitestProject = join(work, 'vitest')
cpSync(installed, join(vitestProject, 'node_modules', 'model-access-sim'), { recursive: true })
for (const name of ['vitest', 'msw']) {
  const from = name === 'vitest' ? join(root, 'node_modules', name) : join(consumer, 'node_modules', name)
  spawnSync('ln', ['-s', from, join(vitestProject, 'node_modules', name)])
}
writeFileSync(join(vitestProject, 'package.json'), '{"type":"module"}\n')
writeFileSync(join(vitestProject, 'engine.test.mjs'), `import { expect, test } from 'vitest'
import { setupServer } from 'msw/node'
import { createSimulator, SimulatorError } from 'model-access-sim'
import { createHandlers } from 'model-access-sim/msw'
import { simTest } from 'model-access-sim/vitest'

test('a simulator of the root, through the msw handlers', async () => {
  const sim = createSimulator()
  const server = setupServer(...createHandlers(sim))
  server.listen({ onUnhandledRequest: 'error' })
  try {
    const res = await fetch('https://openrouter.ai/api/v1/keys', { headers: { authorization: \`Bearer \${sim.world.managementKey}\` } })
    expect(res.status).toBe(200)
  } finally {
    server.close()
  }
  expect(() => createSimulator({ seedd: 1 })).toThrow(SimulatorError)
  expect(sim.handle({ method: 'GET', path: '/models' }).body.data).toBeInstanceOf(Array)
})

simTest('simTest', async ({ sim }) => {
  expect((await fetch('https://openrouter.ai/api/v1/models')).status).toBe(200)
  expect(sim.journal.list()).toHaveLength(1)
})
`)
for (const [how, config] of [
  ['left to Node', 'export default { test: { include: ["engine.test.mjs"] } }\n'],
  ['inlined', 'export default { test: { include: ["engine.test.mjs"], server: { deps: { inline: ["model-access-sim"] } } } }\n'],
]) {
  writeFileSync(join(vitestProject, 'vitest.config.mjs'), config)
  const child = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], { cwd: vitestProject, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1', CI: '1' } })
  assert.equal(child.status, 0, `vitest, the package ${how}:\n${child.stdout}\n${child.stderr}`)
  assert.match(child.stdout, /Tests\s+2 passed/, `vitest, the package ${how}: both tests ran`)
}
console.log('vitest, the package left to Node and inlined: one engine, whose errors are the root\'s class')
for (const file of ['engine-counter.cjs', 'engine-check.mjs', 'engine-check.cjs', 'engine-strict.mjs', 'engine-listed.mjs']) rmSync(join(consumer, file), { force: true })
rmSync(work, { recursive: true, force: true })
assert.ok(!existsSync(work))
