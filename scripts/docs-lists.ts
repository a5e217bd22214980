// The lists in the documentation that mirror the code: the operations, the control API's routes and
// the fault presets. Each is read from the code through the public entry points (what a request is
// answered, not a private table), rendered as a Markdown table, and written between markers in
// README.md and docs/*.md:
//
//   <!-- generated: operations -->
//   ...what this script writes...
//   <!-- /generated -->
//
//   npm run docs:lists            rewrites every marked block
//   npm run docs:lists -- --check exits 1, naming each stale block, when one differs
//
// test/docs-lists.test.ts runs the check in CI. A list's name is one of LISTS' keys; a block naming
// another is an error, not something to skip.
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createSimulator, OPERATION_NAMES } from '../src/index.js'
import { JOURNAL_OUTCOMES } from '../src/core/journal.js'
import { startServer } from '../src/server/index.js'
import { docFiles } from './doc-files.js'

const ROOT = resolve(import.meta.dirname, '..')

// --- Reading the code --------------------------------------------------------------------------
// One function per list, each the only place that knows where its list comes from.

/** A simulated operation: its name (`OPERATION_NAMES`), its request, and who may call it. */
export interface OperationFact {
  name: string
  method: string
  template: string
  who: 'anyone' | 'any valid key' | 'management key' | 'any valid key but a management key'
}

/**
 * The operations, in the order of `OPERATION_NAMES` (the root entry point). Each one's request is
 * read from the router's own answer to a path it does not simulate (a 404 listing every operation
 * as `METHOD /template`), and checked by sending it: the journal must name that operation. Who may
 * call it is what the router answers to no key, a regular key and a management key.
 */
export function readOperations(): OperationFact[] {
  const sim = createSimulator()
  const notSimulated = sim.handle({ method: 'GET', path: '/__docs-lists' })
  const message = (notSimulated.body as { error?: { message?: string } } | undefined)?.error?.message ?? ''
  const listed = /; it simulates (.+)$/.exec(message)?.[1]?.split(', ')
  if (listed === undefined) throw new Error(`the router's 404 for an unknown path no longer lists the operations: ${JSON.stringify(message)}`)
  const byName = new Map<string, OperationFact>()
  for (const request of listed) {
    const [method, template] = request.split(' ') as [string, string]
    const path = template.replace(/\{[^}]+\}/g, 'docs-lists')
    const status = (secret: string | undefined): { status: number; message: string } => {
      const body = method === 'POST' || method === 'PATCH' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}
      const res = sim.handle({ method, path, ...(secret !== undefined && { authorization: `Bearer ${secret}` }), ...body })
      return { status: res.status, message: (res.body as { error?: { message?: string } } | undefined)?.error?.message ?? '' }
    }
    const anonymous = status(undefined)
    const name = sim.journal.list().at(-1)?.operation
    if (name === undefined || name === null) throw new Error(`${request}, from the router's list, is not journaled as an operation`)
    const regular = status(sim.world.apiKey)
    const management = status(sim.world.managementKey)
    const who: OperationFact['who'] =
      anonymous.status !== 401 ? 'anyone'
      : regular.status === 403 ? 'management key'
      : management.status === 403 ? 'any valid key but a management key'
      : 'any valid key'
    byName.set(name, { name, method, template, who })
  }
  const missing = OPERATION_NAMES.filter((name) => !byName.has(name))
  if (missing.length > 0 || byName.size !== OPERATION_NAMES.length) throw new Error(`OPERATION_NAMES and the router's list differ: ${missing.join(', ') || [...byName.keys()].join(', ')}`)
  return OPERATION_NAMES.map((name) => byName.get(name) as OperationFact)
}

/** A route of the control API, and a fault preset as `POST /__sim/faults` takes it. */
export interface ControlFacts {
  routes: { method: string; path: string }[]
  presets: { name: string; status: number; message: string; retryAfter: string | undefined }[]
}

/**
 * The control API's routes and the fault presets, from a server (`model-access-sim/server`) on a free
 * port: the routes as its 404 for an unknown control route lists them, the presets as its 400 for
 * an unknown preset lists them, each then added and answered once to see what it answers.
 */
export async function readControl(): Promise<ControlFacts> {
  const sim = createSimulator()
  const server = await startServer(sim, { port: 0 })
  try {
    const control = `${server.controlUrl as string}`
    const json = { 'content-type': 'application/json' }
    const unknownRoute = (await (await fetch(`${control}/__docs-lists`)).json()) as { error: { message: string } }
    const routes = /; the control API has (.+)$/.exec(unknownRoute.error.message)?.[1]?.split(', ')
    if (routes === undefined) throw new Error(`the control API's 404 no longer lists its routes: ${JSON.stringify(unknownRoute.error.message)}`)
    const unknownPreset = (await (await fetch(`${control}/faults`, { method: 'POST', headers: json, body: JSON.stringify({ preset: '__docs-lists' }) })).json()) as { error: { message: string } }
    const names = /must be one of (.+), got /.exec(unknownPreset.error.message)?.[1]?.split(', ')
    if (names === undefined) throw new Error(`the control API's 400 for an unknown preset no longer lists them: ${JSON.stringify(unknownPreset.error.message)}`)
    const presets: ControlFacts['presets'] = []
    for (const name of names) {
      const added = await fetch(`${control}/faults`, { method: 'POST', headers: json, body: JSON.stringify({ preset: name, operation: 'listKeys' }) })
      if (added.status !== 201) throw new Error(`the preset ${name} is listed but not added: ${added.status} ${await added.text()}`)
      const answer = await fetch(`${server.url}/keys`, { headers: { authorization: `Bearer ${sim.world.managementKey}` } })
      const body = (await answer.json()) as { error: { message: string } }
      presets.push({ name, status: answer.status, message: body.error.message, retryAfter: answer.headers.get('retry-after') ?? undefined })
      await fetch(`${control}/faults`, { method: 'DELETE' })
    }
    return {
      routes: routes.map((route) => {
        const [method, path] = route.split(' ') as [string, string]
        return { method, path }
      }),
      presets,
    }
  } finally {
    await server.close()
  }
}

// --- What each control route takes and answers ---------------------------------------------------
// The routes come from the code; what they take and answer is written here, one line each. A route
// without a line, or a line without a route, fails the script and the test, naming it.

const CONTROL_ROUTES: Record<string, { body: string; answer: string }> = {
  'GET /__sim/health': { body: '', answer: '200 `{ "status": "ok" }`' },
  'GET /__sim/world': { body: '', answer: "200 the world's handles (`sim.world`)" },
  'GET /__sim/world/export': { body: '', answer: '200 the current state as a world spec (`sim.exportWorld()`); `?bodies=false` leaves files\' content out (to read, not to load)' },
  'POST /__sim/reset': { body: '', answer: '204 (`sim.reset()`)' },
  'POST /__sim/snapshots': { body: '', answer: '201 `{ "id": "snap-1" }`; the server keeps it' },
  'POST /__sim/snapshots/{id}/restore': { body: '', answer: '204' },
  'DELETE /__sim/snapshots/{id}': { body: '', answer: '204; the server forgets it' },
  'GET /__sim/clock': { body: '', answer: '200 `{ "now": ISO }`' },
  'PUT /__sim/clock': { body: '`{ "now": ISO }`', answer: '200 `{ "now": ISO }`' },
  'POST /__sim/clock/advance': { body: '`{ "ms": number }`', answer: '200 `{ "now": ISO }`' },
  'POST /__sim/users': { body: '`sim.users.create` options', answer: '201 the user' },
  'POST /__sim/workspaces': { body: '`sim.workspaces.create` options', answer: '201 the workspace' },
  'POST /__sim/keys': { body: '`sim.keys.create` options, or a key as answered (`usage` as records)', answer: '201 the key: `hash`, `secret`, …, `usage` as records' },
  'PATCH /__sim/keys/{hash}': { body: '`sim.keys.update` changes', answer: '200 the key' },
  'POST /__sim/usage': { body: '`{ keyHash, cost, byok?, at? }`', answer: '200 the key' },
  'POST /__sim/models': { body: 'create options, `created` an ISO string (as in world specs)', answer: '201 the model' },
  'POST /__sim/video-models': { body: 'create options, `created` an ISO string (as in world specs)', answer: '201 the video model' },
  'POST /__sim/files': { body: "as a world spec's file: `text` or `base64` content", answer: '201 the file, without its content' },
  'GET /__sim/faults': { body: '', answer: '200 `{ "data": [{ name, matched, fired }] }`' },
  'POST /__sim/faults': { body: 'a fault rule, `path` a glob string; or `{ "preset": …, …options }`', answer: '201 `{ "name": … }`' },
  'DELETE /__sim/faults': { body: '', answer: '204: every fault rule removed' },
  'DELETE /__sim/faults/{name}': { body: '', answer: '204' },
  'PUT /__sim/latency': { body: 'a latency rule', answer: '204' },
  'DELETE /__sim/latency': { body: '', answer: '204' },
  'GET /__sim/journal': {
    body: '',
    answer:
      '200 `{ "data": [entries] }`, a download\'s bytes as base64. Query: `operation`, `status`, `method`, `keyHash`, `outcome`, `responder`, `hasIgnoredFields`, `hasWarnings`, `flagged`, `after`, `limit`, `bodies` (`operation=none`: requests no operation names; `responder=NAME`: requests that responder rule answered; `hasIgnoredFields=true`: inference requests with fields that were accepted and ignored; `hasWarnings=true`: default replies that could not satisfy the request\'s schemas; `flagged=true`: requests a guardrail content filter flagged, with `guardrailFlags`; `outcome` is one of ' +
        JOURNAL_OUTCOMES.map((outcome) => `\`${outcome}\``).join(', ') +
        ': `cut-short` a stream the client left early, with `cutShort`, and `client-left` an answer whose client left during a real wait, decisions/0044); see below for paging',
  },
  'DELETE /__sim/journal': { body: '', answer: '204' },
  'GET /__sim/responders': { body: '', answer: '200 `{ "data": [{ name, used, remaining }] }` (`sim.inference.responders.list()`)' },
  'POST /__sim/responders': { body: 'a responder rule (`sim.inference.respond`), a RegExp as `{ "regex": "refund", "flags": "i" }`', answer: '201 `{ "name": … }`' },
  'DELETE /__sim/responders': { body: '', answer: '204: every responder rule removed' },
  'DELETE /__sim/responders/{name}': { body: '', answer: '204' },
  'POST /__sim/credits': { body: '`{ userId, amount }` (USD)', answer: '200 the organisation as a world spec holds it, `credits: { total, retiredUsage? }` included (`sim.credits.add`)' },
  'POST /__sim/presets': { body: '`sim.presets.create` options', answer: '201 the preset as a world spec holds it, every version included' },
  'PATCH /__sim/presets/{id}': { body: '`sim.presets.update` changes (a new `config` or `systemPrompt` is a new version)', answer: '200 the preset' },
  'DELETE /__sim/presets/{id}': { body: '', answer: '204' },
  'GET /__sim/oauth/codes': { body: '', answer: '200 `{ "data": [codes] }`, oldest first, used and expired ones too (`sim.oauth.codes.list()`)' },
  'POST /__sim/oauth/codes': { body: '`sim.oauth.codes.create` options (`userId`, `callbackUrl`, `codeChallenge`, …)', answer: '201 the code: `code` (for `POST /auth/keys`), `expiresAt`, …' },
  'GET /__sim/oauth/codes/{code}': { body: '', answer: '200 the code, with `usedAt` and `keyHash` once exchanged' },
  'POST /__sim/budgets': { body: '`sim.budgets.set` options (`workspace`, `interval`, `limitUsd`, `includeByokInBudgets`)', answer: '200 the budget as `GET /workspaces/{workspace_ref}/budgets/{interval}` shows it' },
  'DELETE /__sim/budgets/{workspace}/{interval}': { body: '', answer: '204; 404 when the workspace has no budget for the interval' },
  'POST /__sim/activity': { body: '`sim.activity.record` entry (`userId`, `date`, `keyHash`, `model`, `provider`, `requests`, `usage`, `promptTokens`, `completionTokens`, ...)', answer: '200 the day\'s row as `GET /activity?group_by=workspace` would list it alone' },
  'POST /__sim/guardrails': { body: '`sim.guardrails.create` options (`{ userId, rules }`)', answer: '201 the guardrail as `GET /guardrails/{id}` shows it' },
  'PATCH /__sim/guardrails/{id}': { body: 'rules to change, as `sim.guardrails.update` takes them', answer: '200 the guardrail' },
  'DELETE /__sim/guardrails/{id}': { body: '', answer: '204, its assignments gone with it' },
  'POST /__sim/members': { body: '`sim.members.add` options (`workspaces` for its places in workspaces)', answer: '201 the member as `GET /organization/members` lists it' },
  'DELETE /__sim/members/{userId}/{memberId}': { body: '', answer: '204 (`sim.members.remove`)' },
  'POST /__sim/byok': { body: '`sim.byok.create` options (`userId`, `provider`, `key`, `workspace`, `isByokOnly`, …)', answer: '201 the credential as `GET /byok/{id}` shows it (never the raw key)' },
  'GET /__sim/byok': { body: '', answer: '200 `{ "data": [credentials] }`, every organisation\'s, oldest first' },
  'DELETE /__sim/byok/{id}': { body: '', answer: '204; 404 when no credential has the id' },
}

// --- Rendering --------------------------------------------------------------------------------

/** What the code says, read once per run. */
export interface CodeFacts {
  operations: OperationFact[]
  control: ControlFacts
}

export async function readCode(): Promise<CodeFacts> {
  return { operations: readOperations(), control: await readControl() }
}

const cell = (text: string): string => text.replace(/\|/g, '\\|')

/** Each list by its marker name: the Markdown the block holds, without the markers. */
export const LISTS: Record<string, (facts: CodeFacts) => string> = {
  operations: ({ operations }) =>
    ['| operation | request | who may call |', '|---|---|---|', ...operations.map((o) => `| \`${o.name}\` | \`${o.method} ${o.template}\` | ${o.who} |`)].join('\n'),
  'control-routes': ({ control }) => {
    const routes = control.routes.map((r) => `${r.method} ${r.path}`)
    const undescribed = routes.filter((route) => CONTROL_ROUTES[route] === undefined)
    const gone = Object.keys(CONTROL_ROUTES).filter((route) => !routes.includes(route))
    if (undescribed.length > 0 || gone.length > 0) {
      throw new Error(
        `scripts/docs-lists.ts: CONTROL_ROUTES and the control API differ.${undescribed.length > 0 ? ` Routes without a line: ${undescribed.join(', ')}.` : ''}${gone.length > 0 ? ` Lines without a route: ${gone.join(', ')}.` : ''}`,
      )
    }
    return ['| route | body | answer |', '|---|---|---|', ...routes.map((route) => `| \`${route}\` | ${cell(CONTROL_ROUTES[route]?.body ?? '')} | ${cell(CONTROL_ROUTES[route]?.answer ?? '')} |`)].join('\n')
  },
  'fault-presets': ({ control }) =>
    [
      '| preset | answers |',
      '|---|---|',
      ...control.presets.map((p) => `| \`${p.name}\` | ${p.status} \`${cell(p.message)}\`${p.retryAfter === undefined ? '' : `, with \`Retry-After: ${p.retryAfter}\` (\`retryAfterSeconds\`)`} |`),
    ].join('\n'),
}

const OPEN = /^<!-- generated: ([\w-]+) -->$/
const CLOSE = '<!-- /generated -->'

/** A marked block: its file, list name, first line (1-based), what it holds and what it should. */
export interface Block {
  file: string
  name: string
  line: number
  committed: string
  generated: string
}

/** Every marked block of `text`, and the text with each rewritten. Throws on a bad marker, naming it. */
export function rewrite(file: string, text: string, facts: CodeFacts): { blocks: Block[]; text: string } {
  const lines = text.split('\n')
  const out: string[] = []
  const blocks: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    out.push(line)
    const open = OPEN.exec(line.trimEnd())
    if (open === null) {
      if (line.trimEnd() === CLOSE) throw new Error(`${file}:${i + 1}: ${CLOSE} without a <!-- generated: NAME --> before it`)
      continue
    }
    const name = open[1] as string
    const render = LISTS[name]
    if (render === undefined) throw new Error(`${file}:${i + 1}: no list named "${name}" (the lists: ${Object.keys(LISTS).join(', ')})`)
    let end = i + 1
    while (end < lines.length && (lines[end] as string).trimEnd() !== CLOSE) {
      if (OPEN.test((lines[end] as string).trimEnd())) break
      end++
    }
    if (end === lines.length || (lines[end] as string).trimEnd() !== CLOSE) throw new Error(`${file}:${i + 1}: the block "${name}" is not closed by ${CLOSE}`)
    const committed = lines.slice(i + 1, end).join('\n')
    const generated = render(facts)
    blocks.push({ file, name, line: i + 1, committed, generated })
    out.push(generated, CLOSE)
    i = end
  }
  return { blocks, text: out.join('\n') }
}

/** Reads the code and every doc file; writes the files whose blocks changed (unless `check`). */
export async function run(check: boolean): Promise<Block[]> {
  const facts = await readCode()
  const stale: Block[] = []
  for (const file of docFiles()) {
    const path = join(ROOT, file)
    const before = readFileSync(path, 'utf8')
    const { blocks, text } = rewrite(file, before, facts)
    stale.push(...blocks.filter((b) => b.committed !== b.generated))
    if (!check && text !== before) writeFileSync(path, text)
  }
  return stale
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const check = process.argv.includes('--check')
  run(check).then(
    (stale) => {
      for (const b of stale) console.log(`${b.file}:${b.line}: the "${b.name}" list ${check ? 'differs from the code' : 'rewritten'}`)
      if (check && stale.length > 0) {
        console.log('run `npm run docs:lists` to rewrite them')
        process.exitCode = 1
      } else if (stale.length === 0) console.log('every generated list matches the code')
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error)
      process.exitCode = 1
    },
  )
}
