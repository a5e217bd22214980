// Where the built package reads its default world from (decisions/0059, 0066, 0067), checked on the
// installed tarball: on Node a file beside the build, read on the first load of the default world
// and never at import; everywhere else the texts embedded in a module, string literals inside the
// function that answers them. Run by test/pack/run.sh from the consumer project:
//
//   node default-world.mjs <consumer dir> <repository root>      (the root's esbuild bundles)
//
// Each check runs in a child process of its own, on a copy of the installed package with one of
// its two sources removed: a check passes only if the source it expects is the one used. Bun and
// Deno are fetched with npx, as Node 24 is elsewhere in CI.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { checks } from './checks-lib.mjs'

const [consumer, root] = process.argv.slice(2).map((dir) => resolve(dir))
assert.ok(consumer && root, 'usage: node default-world.mjs <consumer dir> <repository root>')
const { dist, work, projectWithout, run, npx, bundler } = checks(consumer, root, 'default-world-checks')

// 1. What the build holds: the file, and the embedded texts once per format, inside a function.
const lines = readFileSync(join(dist, 'default-world.jsonl'), 'utf8').split('\n')
assert.equal(lines.length, 4, 'default-world.jsonl is three lines and a final line break')
assert.equal(lines[3], '')
const [spec, spans, models] = lines.slice(0, 3).map((line) => JSON.parse(line))
assert.equal(spec.format, 'model-access-sim/world@1')
assert.deepEqual(spec.models, [])
assert.equal(spans.length, models.length)
spans.forEach(([id, start, end], i) => {
  assert.equal(models[i].id, id)
  assert.deepEqual(JSON.parse(lines[2].slice(start, end)), models[i], `the span of ${id}`)
})
for (const format of ['.js', '.cjs']) {
  const files = readdirSync(dist).filter((name) => name.endsWith(format))
  const holding = files.filter((name) => /["']\{\\?"format\\?":\\?"model-access-sim\/world@1/.test(readFileSync(join(dist, name), 'utf8')))
  assert.deepEqual(holding, [`default-world-embedded${format}`], `only the embedded module holds the world's text (${format})`)
  const text = readFileSync(join(dist, holding[0]), 'utf8')
  assert.match(text, /defaultWorldTexts = \(\) => texts \?\?= \{ spec: ["']\{\\?"format\\?":/, `the texts are literals inside the function that answers them (${format})`)
  // The same texts as the file, character for character: the two builds load the same world.
  const module = format === '.js' ? await import(pathToFileURL(join(dist, holding[0])).href) : createRequire(import.meta.url)(join(dist, holding[0]))
  assert.deepEqual(module.defaultWorldTexts(), { spec: lines[0], spans: lines[1], models: lines[2] }, `the embedded texts are the file's lines (${format})`)
}
console.log(`the build holds the world once per format, and default-world.jsonl: ${models.length} models`)

const importRoot = {
  esm: 'const { createSimulator } = await import("model-access-sim")',
  cjs: 'const { createSimulator } = require("model-access-sim")',
}
// GET /models on the default world: its status, its count and an FNV-1a hash of the whole body,
// so that two runs agree only if they loaded the same world.
const listModels = [
  'const sim = createSimulator(); const res = sim.handle({ method: "GET", path: "/models" }); const text = JSON.stringify(res.body)',
  'let hash = 2166136261; for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0',
  'console.log(res.status, res.body.data.length, hash.toString(16))',
].join('; ')
const ext = { esm: 'mjs', cjs: 'cjs' }

// 2. Node reads the file: the embedded modules removed, the default world still loads.
// `listed` is what GET /models answers on the default world, which every other check must match.
const listed = run(consumer, 'default-world-listed.mjs', `import { createSimulator } from "model-access-sim"\n${listModels}\n`)
rmSync(join(consumer, 'default-world-listed.mjs'))
assert.equal(listed.status, 0, listed.err)
assert.match(listed.out, /^200 \d+ [0-9a-f]+$/)
const noEmbedded = projectWithout('no-embedded', ['default-world-embedded.js', 'default-world-embedded.cjs'])
for (const format of ['esm', 'cjs']) {
  const got = run(noEmbedded, `check.${ext[format]}`, `${importRoot[format]}\n${listModels}\n`)
  assert.equal(got.status, 0, `${format} without the embedded module: ${got.err}`)
  assert.equal(got.out, listed.out, `${format}: GET /models`)
}
console.log('Node (ESM and CJS) loads the default world from default-world.jsonl, without the embedded module')
// The ES module build finds the file by its own URL, whatever globals the process has: `node -e`
// defines a global `__dirname` ('.', here a directory without the file), and so can a shim.
for (const [how, args] of [
  ['import() under node -e', ['-e', `import("model-access-sim").then(({ createSimulator }) => { ${listModels} })`]],
  ['a global __dirname', ['--input-type=module', '-e', `globalThis.__dirname = "/nowhere"; ${importRoot.esm}\n${listModels}`]],
]) {
  const child = spawnSync(process.execPath, args, { cwd: noEmbedded, encoding: 'utf8', timeout: 60_000 })
  assert.equal(child.status, 0, `${how}: ${child.stderr}`)
  assert.equal(child.stdout.trim(), listed.out, `${how}: GET /models`)
}
console.log('the ES module build reads the file beside itself under node -e and with a global __dirname')

// 3. ...on the first load, not at import: without the file, the import and a simulator of another
// world work, and createSimulator() fails saying what to do.
const noFile = projectWithout('no-file', ['default-world.jsonl'])
for (const format of ['esm', 'cjs']) {
  const code = `${importRoot[format]}
const other = createSimulator({ world: { format: "model-access-sim/world@1", now: "2026-01-01T00:00:00.000Z", models: [] } })
console.log("other", other.handle({ method: "GET", path: "/models" }).status)
try { createSimulator(); console.log("no error") } catch (error) { console.log(error.message) }
// The file put back: the same process loads the default world, nothing half-made kept from the failure.
${format === 'esm' ? 'const { copyFileSync } = await import("node:fs")' : 'const { copyFileSync } = require("node:fs")'}
copyFileSync(${JSON.stringify(join(dist, 'default-world.jsonl'))}, "node_modules/model-access-sim/dist/default-world.jsonl")
{ ${listModels} }
`
  const got = run(noFile, `check.${ext[format]}`, code)
  assert.equal(got.status, 0, `${format} without the file: ${got.err}`)
  assert.match(got.out, /^other 200\n/, `${format}: a simulator of another world never reads the file`)
  assert.match(got.out, /could not read its default world from \S*default-world\.jsonl \(ENOENT\)/, `${format}: the error names the file`)
  assert.match(got.out, /A bundle of the package for Node must copy dist\/default-world\.jsonl beside its output/, `${format}: the error says what to do`)
  assert.ok(got.out.endsWith(`\n${listed.out}`), `${format}: with the file back, the same process loads the default world`)
  rmSync(join(noFile, 'node_modules', 'model-access-sim', 'dist', 'default-world.jsonl'))
}
console.log('without the file, the import and other worlds work, createSimulator() names the file and what to do, and works once it is back')

// 4. Other runtimes, fetched with npx as Node 24 is. Bun reads the file as Node does. Deno
// resolves `deno` first and gets the embedded world: reading a file beside the package would need
// --allow-read, which a plain `deno run` or `deno test` does not grant.
let got
const runtimeCheck = `import { createSimulator } from "model-access-sim"\n${listModels}\n`
writeFileSync(join(noEmbedded, 'runtime.mjs'), runtimeCheck)
got = npx(['bun@1', 'runtime.mjs'], noEmbedded)
assert.equal(got.status, 0, `Bun without the embedded module: ${got.err}`)
assert.equal(got.out, listed.out, 'Bun lists the default world from the file')
writeFileSync(join(noFile, 'runtime.mjs'), runtimeCheck)
got = npx(['deno@2', 'run', '--quiet', 'runtime.mjs'], noFile)
assert.equal(got.status, 0, `Deno without the file or any permission: ${got.err}`)
assert.equal(got.out, listed.out, 'Deno lists the embedded default world')
console.log('Bun reads the file; Deno, with no permission, gets the world embedded')

// 5. Bundles, with the repository's esbuild: for the browser the world is embedded; for Node the
// file must be copied beside the bundle, as the error says.
const bundle = await bundler(`import { createSimulator } from "model-access-sim"\n${listModels}\n`)
const browser = await bundle('browser', join(work, 'browser', 'bundle.mjs'))
assert.doesNotMatch(browser, /default-world\.jsonl|getBuiltinModule/, 'the browser bundle does not read a file')
assert.match(browser, /["']\{\\?"format\\?":\\?"model-access-sim\/world@1/, 'the browser bundle embeds the world')
got = run(join(work, 'browser'), 'bundle.mjs', readFileSync(join(work, 'browser', 'bundle.mjs'), 'utf8'))
assert.equal(got.status, 0, `the browser bundle: ${got.err}`)
assert.equal(got.out, listed.out, 'the browser bundle lists the default world')
const node = await bundle('node', join(work, 'node', 'bundle.mjs'))
assert.doesNotMatch(node, /["']\{\\?"format\\?":\\?"model-access-sim\/world@1/, 'the Node bundle does not embed the world')
// The engine's script beside it (test/pack/engine.mjs checks the bundle without it).
cpSync(join(dist, 'engine.script.js'), join(work, 'node', 'engine.script.js'))
got = run(join(work, 'node'), 'bundle.mjs', node)
assert.notEqual(got.status, 0, 'the Node bundle without the file fails')
assert.match(got.err, /A bundle of the package for Node must copy dist\/default-world\.jsonl beside its output/)
cpSync(join(dist, 'default-world.jsonl'), join(work, 'node', 'default-world.jsonl'))
got = run(join(work, 'node'), 'bundle.mjs', node)
assert.equal(got.status, 0, `the Node bundle with the file: ${got.err}`)
assert.equal(got.out, listed.out, 'the Node bundle lists the default world')
console.log('an esbuild bundle for the browser embeds the world; one for Node reads the file copied beside it')
rmSync(work, { recursive: true, force: true })
assert.ok(!existsSync(work))
