/**
 * Per-request cost of the provisioning operations through MSW: the simulator's `createHandlers(sim)`
 * against a bare msw handler that reads the request body as JSON (as any handler of a write must)
 * and answers the same body text, pre-serialised, side by side in one process.
 *
 * Cases:
 * - (a) `POST /keys` `{ name, limit, workspace_id }`: a key is created on every simulator request, in
 *   the organisation's second workspace (so the page of cases d and e stays the same);
 * - (b) `PATCH /keys/{hash}` `{ name }` on one key, the name changing every request;
 * - (c) `GET /models`: a page of the catalog over 300 models;
 * - (d) `GET /keys` (a 100-key page), a write between requests to a key of another workspace (a
 *   create, an update or a delete in turn): pages are invalidated by what changed, not flushed, so
 *   this is as fast as an unchanged page;
 * - (e) `GET /keys` after 5,000 writes to the organisation's other workspace, nothing between
 *   requests: the writes leave no cost behind.
 *
 * Target of every case: median ns/request through `createHandlers` <= 1.25x the bare handler's.
 *
 *   npm run bench:provisioning
 *
 * Prints tables, writes benchmarks/results/provisioning.md and .json. Before timing, each case's
 * answer is checked against the simulator's state. Exits 1 when a target is missed.
 */
import os from 'node:os'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { type Figure, figure, fmtInt, fmtNs, fmtRatio, machine as describeMachine, machineLine, machineMarkdown, median, nowNs, table, writeReport, ratioSpread } from './support.js'
import { pkg, pkgMsw } from './package.js'

const { createSimulator } = pkg
const { createHandlers } = pkgMsw

const BATCH = 25
const WARMUP_ROUNDS = 3
const ROUNDS = 60
const TARGET_RATIO = 1.25
const MODELS = 300
const EXTRA_KEYS = 100
const BACKGROUND_WRITES = 5_000

const SIM_ORIGIN = 'https://openrouter.ai/api/v1'
const BARE_ORIGIN = 'https://bare.test/api/v1'

type Sim = ReturnType<typeof createSimulator>

interface Case {
  id: string
  label: string
  what: string
  method: 'GET' | 'POST' | 'PATCH'
  path: string
  /** The request body of request `i` (the same for both arms), or undefined for none. */
  body: ((i: number) => string) | undefined
  status: number
  /** Untimed, before each pair of requests. */
  between: (() => void) | undefined
  /** The bare arm's answer: the simulator's text for the same request, taken once before timing. */
  text: string
  simNs: number[]
  bareNs: number[]
}

function setUp(): { sim: Sim; headers: Record<string, string>; otherWorkspace: string } {
  const sim = createSimulator()
  // GET /models lists the text models; the default world's embedding models are not among them.
  const more = MODELS - sim.models.list().filter((m) => !m.architecture.output_modalities.includes('embeddings')).length
  for (let i = 0; i < more; i++) {
    sim.models.create({ id: `bench/model-${String(i).padStart(3, '0')}`, endpoints: [{}, {}] })
  }
  const now = sim.clock.now().getTime()
  for (let i = 0; i < EXTRA_KEYS; i++) sim.keys.create({ userId: sim.world.userId, name: `bench key ${i}`, createdAt: now - 86_400_000 + i * 1000 })
  const otherWorkspace = sim.workspaces.create({ userId: sim.world.userId, name: 'Bench other', slug: 'bench-other' }).id
  return { sim, headers: { authorization: `Bearer ${sim.world.managementKey}`, 'content-type': 'application/json' }, otherWorkspace }
}

async function request(origin: string, c: Pick<Case, 'method' | 'path' | 'body'>, headers: Record<string, string>, i: number): Promise<{ status: number; text: string }> {
  const res = await fetch(`${origin}${c.path}`, { method: c.method, headers, ...(c.body && { body: c.body(i) }) })
  return { status: res.status, text: await res.text() }
}

/** One timed request: fetch and read the body as JSON. */
async function timed(origin: string, c: Case, headers: Record<string, string>, i: number): Promise<bigint> {
  const start = nowNs()
  const res = await fetch(`${origin}${c.path}`, { method: c.method, headers, ...(c.body && { body: c.body(i) }) })
  const body = (await res.json()) as unknown
  const ns = nowNs() - start
  if (res.status !== c.status || typeof body !== 'object' || body === null) throw new Error(`${c.label}: ${c.method} ${origin}${c.path} answered ${res.status}`)
  return ns
}

let counter = 0

async function batch(c: Case, headers: Record<string, string>): Promise<{ sim: number; bare: number }> {
  let sim = 0n
  let bare = 0n
  for (let i = 0; i < BATCH; i++) {
    c.between?.()
    const n = counter++
    if (i % 2 === 0) {
      sim += await timed(SIM_ORIGIN, c, headers, n)
      bare += await timed(BARE_ORIGIN, c, headers, n)
    } else {
      bare += await timed(BARE_ORIGIN, c, headers, n)
      sim += await timed(SIM_ORIGIN, c, headers, n)
    }
  }
  return { sim: Number(sim) / BATCH, bare: Number(bare) / BATCH }
}

async function main(): Promise<void> {
  const startedAt = new Date()
  const loadAtStart = os.loadavg()[0] as number
  const machine = describeMachine()
  console.log(`provisioning benchmark — ${machineLine(machine)}`)
  const { sim, headers, otherWorkspace } = setUp()
  const texts = new Map<string, string>()
  const bare = (method: 'get' | 'post' | 'patch', path: string, status: number) =>
    http[method](new RegExp(`^${`${BARE_ORIGIN}${path}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\?.*)?$`), async ({ request: req }) => {
      if (method !== 'get') await req.json()
      return new HttpResponse(texts.get(`${method} ${path}`), { status, headers: { 'content-type': 'application/json' } })
    })
  const patched = sim.keys.create({ userId: sim.world.userId, name: 'patched', workspaceId: otherWorkspace }).record.hash
  const server = setupServer(...createHandlers(sim), bare('post', '/keys', 201), bare('patch', `/keys/${patched}`, 200), bare('get', '/models', 200), bare('get', '/keys', 200))
  server.listen({ onUnhandledRequest: 'error' })

  // Writes to the other workspace, for cases d and e: a create, an update and a delete in turn.
  const background: string[] = []
  let turn = 0
  const otherWrite = (): void => {
    const step = turn++ % 3
    if (step === 0 || background.length === 0) background.push(sim.keys.create({ userId: sim.world.userId, workspaceId: otherWorkspace, name: `bg ${turn}` }).record.hash)
    else if (step === 1) sim.keys.update(background[background.length - 1] as string, { name: `bg renamed ${turn}` })
    else {
      const hash = background.pop() as string
      const res = sim.handle({ method: 'DELETE', path: `/keys/${hash}`, authorization: headers['authorization'] as string })
      if (res.status !== 200) throw new Error(`DELETE /keys answered ${res.status}`)
    }
  }

  try {
    const cases: Case[] = [
      { id: 'create-key', label: 'a', what: 'POST /keys { name, limit, workspace_id }', method: 'POST' as const, path: '/keys', body: (i: number) => JSON.stringify({ name: `bench ${i}`, limit: 10, workspace_id: otherWorkspace }), status: 201, between: undefined },
      { id: 'update-key', label: 'b', what: 'PATCH /keys/{hash} { name }', method: 'PATCH' as const, path: `/keys/${patched}`, body: (i: number) => JSON.stringify({ name: `renamed ${i}` }), status: 200, between: undefined },
      { id: 'list-models', label: 'c', what: `GET /models (${MODELS} models)`, method: 'GET' as const, path: '/models', body: undefined, status: 200, between: undefined },
      { id: 'keys-writes-between', label: 'd', what: 'GET /keys, a write to another workspace between requests', method: 'GET' as const, path: '/keys', body: undefined, status: 200, between: otherWrite },
    ].map((c) => ({ ...c, text: '', simNs: [], bareNs: [] }))

    // The bare arm's bodies, and a check of each simulator answer.
    for (const c of cases) {
      const answer = await request(SIM_ORIGIN, c, headers, counter++)
      if (answer.status !== c.status) throw new Error(`case ${c.label}: ${c.method} ${c.path} answered ${answer.status}: ${answer.text.slice(0, 300)}`)
      texts.set(`${c.method.toLowerCase()} ${c.path}`, answer.text)
      c.text = answer.text
    }
    const created = JSON.parse(cases[0]?.text as string) as { key: string; data: { hash: string } }
    if (sim.keys.get(created.data.hash)?.name === undefined || !created.key.startsWith('sk-or-v1-')) throw new Error('POST /keys answered a key the simulator does not hold')
    const models = (JSON.parse(cases[2]?.text as string) as { data: unknown[] }).data
    if (models.length < MODELS) throw new Error(`GET /models listed ${models.length} models, expected at least ${MODELS}`)
    const page = (JSON.parse(cases[3]?.text as string) as { data: { hash: string }[] }).data
    if (page.length !== 100) throw new Error(`GET /keys served ${page.length} keys, expected 100`)
    // A write to another workspace leaves the page as it was.
    otherWrite()
    if ((await request(SIM_ORIGIN, cases[3] as Case, headers, 0)).text !== cases[3]?.text) throw new Error('a write to another workspace changed the GET /keys page')

    console.log(`checked ${cases.length} cases; timing ${ROUNDS} rounds (+${WARMUP_ROUNDS} warm-up) of ${BATCH} requests per arm, interleaved…`)
    const run = async (list: Case[], rounds: number, warmup: number): Promise<void> => {
      for (let round = 0; round < warmup + rounds; round++) {
        for (const c of list.map((_, i) => list[(i + round) % list.length] as Case)) {
          const ns = await batch(c, headers)
          if (round >= warmup) {
            c.simNs.push(ns.sim)
            c.bareNs.push(ns.bare)
          }
        }
      }
    }
    const timingStart = nowNs()
    await run(cases, ROUNDS, WARMUP_ROUNDS)

    // Case e: after thousands of writes, the same page with nothing between requests.
    const pageBefore = (await request(SIM_ORIGIN, cases[3] as Case, headers, 0)).text
    for (let i = 0; i < BACKGROUND_WRITES; i++) otherWrite()
    const after: Case = { id: 'keys-after-writes', label: 'e', what: `GET /keys after ${fmtInt(BACKGROUND_WRITES)} writes to another workspace`, method: 'GET', path: '/keys', body: undefined, status: 200, between: undefined, text: '', simNs: [], bareNs: [] }
    if ((await request(SIM_ORIGIN, after, headers, 0)).text !== pageBefore) throw new Error('writes to another workspace changed the GET /keys page')
    await run([after], ROUNDS, WARMUP_ROUNDS)
    cases.push(after)
    console.log(`timed in ${(Number(nowNs() - timingStart) / 1e9).toFixed(1)} s`)

    const figures: Figure[] = []
    const rows: string[][] = []
    for (const c of cases) {
      const ratios = c.simNs.map((s, i) => s / (c.bareNs[i] as number))
      const ratio = median(ratios)
      const spread = ratioSpread(ratios)
      rows.push([c.label, c.what, fmtInt(c.text.length || (cases[3]?.text.length ?? 0)), fmtNs(median(c.bareNs)), fmtNs(median(c.simNs)), fmtRatio(ratio), spread])
      figures.push(figure({ id: `ratio-${c.id}`, what: `(${c.label}) ${c.what}: createHandlers / bare msw handler, ns/request`, measured: ratio, unit: 'x', runs: ROUNDS, op: '<=', bound: TARGET_RATIO, display: `${fmtRatio(ratio)} (rounds ${spread})` }))
    }
    const perRequest = table(['case', 'request', 'body chars', 'bare msw ns/req (median)', 'createHandlers ns/req (median)', 'ratio (median of rounds)', 'min–max ratio of rounds'], rows, ['l', 'l', 'r', 'r', 'r', 'r', 'r'])
    console.log(`\n${perRequest.text}`)
    writeReport(
      'provisioning',
      `# Provisioning per-request benchmark

Generated by \`npm run bench:provisioning\` (\`tsx benchmarks/provisioning.ts\`) on ${startedAt.toISOString()}.

${machineMarkdown(machine)}
| Load average (1 min) | ${loadAtStart.toFixed(2)} at the start, ${(os.loadavg()[0] as number).toFixed(2)} at the end |

## Method

- \`createSimulator()\` (the default world), ${EXTRA_KEYS} more keys of \`sim.world.userId\` in its default workspace, models up to ${MODELS} in all
  (\`sim.models.create\`, two endpoints each), and a second workspace of the same organisation. Requests carry \`Bearer \${sim.world.managementKey}\`
  and \`content-type: application/json\`.
- One \`setupServer(...createHandlers(sim), ...bare)\`. Each bare handler reads the request body as JSON when it has one (a handler of a write
  must) and answers \`new HttpResponse(text, { status, headers: { 'content-type': 'application/json' } })\`, where \`text\` is the simulator's
  answer to the same request, taken once before timing.
- Each request in both arms is \`await fetch(url, init)\` then \`await res.json()\`, timed with \`process.hrtime.bigint()\`. A batch is ${BATCH}
  pairs of requests, one of each arm back to back, the arm that goes first alternating. ${WARMUP_ROUNDS} warm-up rounds, then ${ROUNDS} measured
  rounds of one batch per case, the case that goes first rotating. The ratio is the median of the per-round ratios; the spread is their min–max.
- Case d runs a write to the other workspace before every pair, outside the timed region: \`sim.keys.create\`, \`sim.keys.update\` and
  \`DELETE /keys/{hash}\` in turn. Case e runs after ${fmtInt(BACKGROUND_WRITES)} such writes, with nothing between requests.

## Per request

${perRequest.markdown}
`,
      figures,
    )
  } finally {
    server.close()
  }
}

await main()
