/**
 * Chat completions (`POST /chat/completions`, each routed, priced, charged to the key and the
 * organisation, journaled and stored as a generation), against bare handlers that send the same
 * bytes, and beside `@copilotkit/aimock` serving a chat completion, all in one run.
 *
 * 1. Through MSW: `setupServer(...createHandlers(sim), bare)` in this process; the bare arm is an
 *    `http.post` handler that reads the request body (`await request.text()`, as a handler written
 *    by hand does) and answers the simulator's body text. The simulator's handlers take the body's
 *    text from what the request was made from where Node keeps it (decisions/0064), which skips
 *    the stream that `text()` runs: part of what the library saves its users, so it is measured.
 *    Pairs of requests alternate which arm goes first; BATCH pairs a round; the figure is the
 *    median of the rounds' ratios, with their min–max. Target: at most 1.25x.
 * 2. Through the server: the simulator's `startServer` and a bare node:http server (each in its own
 *    child process) that reads the request body and writes the same bytes: the JSON answer, and a
 *    100-chunk stream in one write, as the simulator's server writes one without real waits. CONNECTIONS
 *    keep-alive connections over loopback, rounds alternating between the servers; the ratio is bare
 *    req/s over simulator req/s, median of rounds with min–max. Target: at most 1.5x, each.
 * 3. aimock: `new LLMock({ port: 0 })` with one `onMessage` fixture, in its own child process, loaded
 *    the same way in the same rounds as 2. Goal: the simulator's server answers more chat completions
 *    per second than aimock does (aimock prices and charges nothing; it replays a fixture).
 *
 *   npm run bench:chat
 *
 * Every answer is checked: status 200 and the body's shape (and, for the bare servers, bytes equal
 * to a simulator answer's). Writes benchmarks/results/chat.md and chat.json; exits 1 when a target
 * is missed.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Agent, request as httpRequest } from 'node:http'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { type Figure, figure, fmtInt, fmtRatio, machine as describeMachine, machineLine, machineMarkdown, median, nowNs, table, writeReport, ratioSpread } from './support.js'
import { pkg, pkgMsw, pkgServer } from './package.js'

const { createSimulator } = pkg
const { createHandlers } = pkgMsw

const MODEL = 'bench/chat'
const STREAM_CHUNKS = 100
/** 16 characters a content chunk (src/core/inference/stream.ts): 100 chunks of text. */
const STREAM_TEXT = 'The quick brown fox jumps over the lazy dog; '.repeat(40).slice(0, 16 * STREAM_CHUNKS)
const MSW_BATCH = 25
const MSW_WARMUP_ROUNDS = 4
const MSW_ROUNDS = Number(process.env.ROUNDS_MSW ?? 41)
const CONNECTIONS = 16
const REQUESTS_PER_ROUND = 3_000
const WARMUP_REQUESTS = 1_000
const ROUNDS = Number(process.env.ROUNDS ?? 7)
const TARGET_MSW = 1.25
const TARGET_SERVER = 1.5
const SIM_ORIGIN = 'https://openrouter.ai/api/v1'
const BARE_ORIGIN = 'https://bare.test/api/v1'
const CHAT_BODY = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello there, how are you today?' }] })
const STREAM_BODY = JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'Tell me a long story.' }] })
/** A tool whose schema the default reply's call must satisfy (decisions/0048): the schema is compiled once, then reused. */
const WEATHER_TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { enum: ['celsius', 'fahrenheit'] }, days: { type: 'integer', minimum: 1, maximum: 7 }, notes: { type: 'array', items: { type: 'string' }, maxItems: 3 } },
      required: ['city', 'unit', 'days', 'notes'],
      additionalProperties: false,
    },
  },
}
const TOOL_BODY = JSON.stringify({ model: MODEL, tool_choice: 'required', tools: [WEATHER_TOOL], messages: [{ role: 'user', content: 'What is the weather in Lisbon this week?' }] })
const STREAM_TOOL_BODY = JSON.stringify({ model: MODEL, stream: true, tool_choice: 'required', tools: [WEATHER_TOOL], messages: [{ role: 'user', content: 'What is the weather in Lisbon this week?' }] })
const STRUCTURED_BODY = JSON.stringify({
  model: MODEL,
  messages: [{ role: 'user', content: 'Describe a customer.' }],
  response_format: {
    type: 'json_schema',
    json_schema: {
      name: 'customer',
      strict: true,
      schema: {
        type: 'object',
        properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' }, age: { type: 'integer', minimum: 18, maximum: 99 }, tier: { enum: ['free', 'pro', 'team'] }, tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 } },
        required: ['name', 'email', 'age', 'tier', 'tags'],
        additionalProperties: false,
      },
    },
  },
})
/** The bodies the bare server answers, each with the simulator's bytes for it. */
const BODIES = [CHAT_BODY, STREAM_BODY, STREAM_TOOL_BODY]

/**
 * A simulator with one organisation (credits for millions of requests), one key and one model.
 * `governed`: the key is held by a guardrail (its models, providers and a daily limit) and its
 * workspace by a daily budget, none of them reached (decisions/0052, 0055).
 */
function chatSimulator(governed = false) {
  const sim = createSimulator({ world: 'empty', seed: 5, now: '2026-03-02T10:00:00Z' })
  const org = sim.users.create({ name: 'Bench', credits: { total: 100_000_000 } })
  const { key, record } = sim.keys.create({ userId: org.id, name: 'bench' })
  sim.models.create({
    id: MODEL,
    endpoints: [
      { provider_name: 'Alpha', pricing: { prompt: '0.000001', completion: '0.000002' } },
      { provider_name: 'Beta', pricing: { prompt: '0.0000005', completion: '0.000001' } },
    ],
  })
  sim.inference.respond({ match: { lastUserMessage: /story/ }, reply: { content: STREAM_TEXT } })
  if (governed) {
    const guardrail = sim.guardrails.create({ userId: org.id, rules: { name: 'Bench plan', allowed_models: [MODEL], allowed_providers: ['alpha', 'beta'], limit_usd: 100_000, reset_interval: 'daily' } })
    sim.guardrails.assignKeys(guardrail.id, [record.hash])
    sim.budgets.set({ workspace: record.workspace_id, interval: 'daily', limitUsd: 100_000 })
  }
  return { sim, key }
}

// ---------------------------------------------------------------------------------------------
// Child processes: `tsx benchmarks/chat.ts serve sim|bare|aimock` prints its port and serves until killed.

async function serveChild(kind: string): Promise<void> {
  // Exit on SIGTERM (kill), so that a child run with --cpu-prof writes its profile.
  process.once('SIGTERM', () => process.exit(0))
  // A line on stdin asks for the CPU time this process has used, in µs (user + system).
  process.stdin.on('data', () => {
    const { user, system } = process.cpuUsage()
    process.stdout.write(`${user + system}\n`)
  })
  if (kind === 'sim') {
    const { sim, key } = chatSimulator()
    const { startServer } = await pkgServer()
    const server = await startServer(sim, { port: 0 })
    process.stdout.write(`${server.port} ${key}\n`)
    return
  }
  if (kind === 'aimock') {
    const { LLMock } = await import('@copilotkit/aimock')
    const mock = new LLMock({ port: 0, host: '127.0.0.1', logLevel: 'silent' })
    mock.onMessage('Hello there', { content: 'Hi! I am a simulated model.' })
    await mock.start()
    process.stdout.write(`${new URL(mock.url).port} -\n`)
    return
  }
  // The bare server: the bytes a simulator answered, taken from one request of each kind.
  const { sim, key } = chatSimulator()
  const answers = new Map<string, Buffer | Buffer[]>()
  for (const body of BODIES) {
    const answer = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key}`, body })
    if (answer.status !== 200) throw new Error(`the simulator answered ${answer.status} to ${body.slice(0, 80)}`)
    answers.set(body, answer.type === 'stream' ? answer.body.map((f) => Buffer.from(f.data)) : Buffer.from(JSON.stringify(answer.body)))
  }
  const { createServer } = await import('node:http')
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const answer = answers.get(Buffer.concat(chunks).toString())
      if (answer === undefined) {
        res.writeHead(400).end()
      } else if (Array.isArray(answer)) {
        // As the simulator's server writes a stream without real waits: its frames in one write.
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
        res.end(Buffer.concat(answer))
      } else {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(answer.byteLength) })
        res.end(answer)
      }
    })
  })
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as { port: number }).port} -\n`))
}

interface Child {
  child: ChildProcess
  port: number
  key: string
}

/** The CPU time, in µs, a child process has used so far. */
function cpuOf(target: Child): Promise<number> {
  return new Promise((resolve) => {
    target.child.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())))
    target.child.stdin?.write('\n')
  })
}

function startChild(kind: 'sim' | 'bare' | 'aimock'): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'serve', kind], { stdio: ['pipe', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => {
      const [port, key] = chunk.toString().trim().split(' ')
      resolve({ child, port: Number(port), key: key ?? '-' })
    })
    child.once('exit', (code) => reject(new Error(`the ${kind} server exited with ${code}`)))
  })
}

function post(agent: Agent, port: number, path: string, key: string, body: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`${path}: ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 300)}`))))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

type Check = (body: Buffer) => void

const checkJson: Check = (body) => {
  const parsed = JSON.parse(body.toString()) as { object?: string; choices?: { message?: { content?: string | null; tool_calls?: unknown[] } }[] }
  const message = parsed.choices?.[0]?.message
  if (parsed.object !== 'chat.completion' || (typeof message?.content !== 'string' && message?.tool_calls?.length !== 1)) throw new Error(`not a chat completion: ${body.toString().slice(0, 200)}`)
}
/** A streamed tool call: its first delta, argument pieces, the finish chunk, the usage chunk, [DONE]. */
const checkToolStream: Check = (body) => {
  const text = body.toString()
  const pieces = text.split('\n\n').filter((e) => e.includes('"tool_calls"'))
  if (pieces.length < 3 || !text.endsWith('data: [DONE]\n\n')) throw new Error(`not a streamed tool call: ${text.slice(0, 200)}`)
}
const checkStream: Check = (body) => {
  const text = body.toString()
  const chunks = text.split('\n\n').filter((e) => e.startsWith('data: {"id"'))
  // 100 content chunks, the finish chunk and the usage chunk.
  if (chunks.length !== STREAM_CHUNKS + 2 || !text.endsWith('data: [DONE]\n\n')) throw new Error(`not a ${STREAM_CHUNKS}-chunk stream: ${chunks.length} chunks`)
}

/** CPU µs per request the server used, by server, over the timed rounds. */
const cpuPerRequest = new Map<string, number[]>()

/** Requests per second for `count` requests over CONNECTIONS connections; notes the server's CPU µs per request under `label`. */
async function load(target: Child, path: string, body: string, count: number, check: Check, label?: string): Promise<number> {
  const cpuBefore = label === undefined ? 0 : await cpuOf(target)
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next++ < count) check(await post(agent, target.port, path, target.key, body))
    }),
  )
  const seconds = (performance.now() - started) / 1000
  agent.destroy()
  if (label !== undefined) {
    const used = (await cpuOf(target)) - cpuBefore
    cpuPerRequest.set(label, [...(cpuPerRequest.get(label) ?? []), used / count])
  }
  return count / seconds
}

// ---------------------------------------------------------------------------------------------
// 1. MSW

async function mswRatio(requestBody: string, governed = false): Promise<{ ratios: number[]; simUs: number; bareUs: number; bytes: number }> {
  const { sim, key } = chatSimulator(governed)
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  const sample = sim.handle({ method: 'POST', path: '/chat/completions', authorization: headers.authorization, body: requestBody })
  const text = JSON.stringify(sample.body)
  const bare = http.post(`${BARE_ORIGIN}/chat/completions`, async ({ request }) => {
    await request.text()
    return new HttpResponse(text, { headers: { 'content-type': 'application/json' } })
  })
  const server = setupServer(...createHandlers(sim), bare)
  server.listen({ onUnhandledRequest: 'error' })
  const timed = async (url: string): Promise<bigint> => {
    const start = nowNs()
    const res = await fetch(url, { method: 'POST', headers, body: requestBody })
    const body = await res.text()
    const ns = nowNs() - start
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`)
    checkJson(Buffer.from(body))
    return ns
  }
  const urls = { sim: `${SIM_ORIGIN}/chat/completions`, bare: `${BARE_ORIGIN}/chat/completions` }
  const ratios: number[] = []
  const simUs: number[] = []
  const bareUs: number[] = []
  try {
    for (let round = 0; round < MSW_WARMUP_ROUNDS + MSW_ROUNDS; round++) {
      let simNs = 0n
      let bareNs = 0n
      for (let i = 0; i < MSW_BATCH; i++) {
        if (i % 2 === 0) {
          simNs += await timed(urls.sim)
          bareNs += await timed(urls.bare)
        } else {
          bareNs += await timed(urls.bare)
          simNs += await timed(urls.sim)
        }
      }
      if (round < MSW_WARMUP_ROUNDS) continue
      ratios.push(Number(simNs) / Number(bareNs))
      simUs.push(Number(simNs) / MSW_BATCH / 1000)
      bareUs.push(Number(bareNs) / MSW_BATCH / 1000)
    }
  } finally {
    server.close()
  }
  return { ratios, simUs: median(simUs), bareUs: median(bareUs), bytes: Buffer.byteLength(text) }
}

// ---------------------------------------------------------------------------------------------


function aimockVersion(): string {
  try {
    const here = dirname(fileURLToPath(import.meta.url))
    return (JSON.parse(readFileSync(join(here, '..', 'node_modules', '@copilotkit', 'aimock', 'package.json'), 'utf8')) as { version: string }).version
  } catch {
    return 'not installed'
  }
}

async function main(): Promise<void> {
  const m = describeMachine()
  console.log(`chat — ${machineLine(m)}`)
  const figures: Figure[] = []
  const rows: string[][] = []
  const cpuRows: string[][] = []

  // The plain reply, then default replies that follow the request (decisions/0048): the same target.
  const mswCases = [
    { id: 'msw-ratio', label: 'MSW, non-streamed', what: 'non-streamed chat completion', body: CHAT_BODY },
    { id: 'msw-tool-ratio', label: 'MSW, a required tool call', what: 'non-streamed chat completion with a required tool call (arguments made for its schema)', body: TOOL_BODY },
    { id: 'msw-structured-ratio', label: 'MSW, structured output', what: 'non-streamed chat completion with a json_schema response format (content made for its schema)', body: STRUCTURED_BODY },
    { id: 'msw-governed-ratio', label: 'MSW, a guardrail and a budget', what: 'non-streamed chat completion of a key held by a guardrail (models, providers, a daily limit) in a workspace with a daily budget', body: CHAT_BODY, governed: true },
  ]
  for (const c of mswCases) {
    const msw = await mswRatio(c.body, c.governed === true)
    const mswMedian = median(msw.ratios)
    console.log(`${c.label}: simulator ${msw.simUs.toFixed(1)} µs, bare ${msw.bareUs.toFixed(1)} µs a request; ratio ${fmtRatio(mswMedian)} (rounds ${ratioSpread(msw.ratios)})`)
    rows.push([c.label, fmtInt(msw.bytes), `${msw.bareUs.toFixed(0)} µs/request`, `${msw.simUs.toFixed(0)} µs/request`, fmtRatio(mswMedian), ratioSpread(msw.ratios)])
    figures.push(
      figure({
        id: c.id,
        what: `${c.what} through MSW: simulator µs/request over a bare msw handler answering the same body`,
        measured: mswMedian,
        unit: 'x',
        runs: msw.ratios.length,
        op: '<=',
        bound: TARGET_MSW,
        display: `${fmtRatio(mswMedian)} (rounds ${ratioSpread(msw.ratios)})`,
      }),
    )
  }

  const simServer = await startChild('sim')
  const bare = await startChild('bare')
  const aimock = await startChild('aimock')
  try {
    const cases = [
      { id: 'json', label: 'JSON', path: '/api/v1/chat/completions', body: CHAT_BODY, check: checkJson },
      { id: 'stream', label: `${STREAM_CHUNKS}-chunk stream`, path: '/api/v1/chat/completions', body: STREAM_BODY, check: checkStream },
      { id: 'stream-tool', label: 'streamed required tool call', path: '/api/v1/chat/completions', body: STREAM_TOOL_BODY, check: checkToolStream },
    ]
    const aimockCase = { path: '/v1/chat/completions', body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello there, how are you today?' }] }) }
    let simJsonRates: number[] = []
    const aimockRates: number[] = []
    for (const c of cases) {
      const bytes = (await post(new Agent(), bare.port, c.path, bare.key, c.body)).byteLength
      await load(simServer, c.path, c.body, WARMUP_REQUESTS, c.check)
      await load(bare, c.path, c.body, WARMUP_REQUESTS, c.check)
      if (c.id === 'json') await load(aimock, aimockCase.path, aimockCase.body, WARMUP_REQUESTS, checkJson)
      const simRates: number[] = []
      const bareRates: number[] = []
      for (let round = 0; round < ROUNDS; round++) {
        // The order within a round alternates too, so neither arm always runs after the other.
        if (round % 2 === 0) {
          simRates.push(await load(simServer, c.path, c.body, REQUESTS_PER_ROUND, c.check, `sim-${c.id}`))
          bareRates.push(await load(bare, c.path, c.body, REQUESTS_PER_ROUND, c.check, `bare-${c.id}`))
        } else {
          bareRates.push(await load(bare, c.path, c.body, REQUESTS_PER_ROUND, c.check, `bare-${c.id}`))
          simRates.push(await load(simServer, c.path, c.body, REQUESTS_PER_ROUND, c.check, `sim-${c.id}`))
        }
        if (c.id === 'json') aimockRates.push(await load(aimock, aimockCase.path, aimockCase.body, REQUESTS_PER_ROUND, checkJson, 'aimock-json'))
      }
      if (c.id === 'json') simJsonRates = simRates
      const ratios = bareRates.map((b, i) => b / (simRates[i] as number))
      const ratio = median(bareRates) / median(simRates)
      const simCpu = median(cpuPerRequest.get(`sim-${c.id}`) ?? [])
      const bareCpu = median(cpuPerRequest.get(`bare-${c.id}`) ?? [])
      cpuRows.push([`server, ${c.label}`, bareCpu.toFixed(0), simCpu.toFixed(0), fmtRatio(simCpu / bareCpu)])
      console.log(`server ${c.label}: bare ${fmtInt(Math.round(median(bareRates)))} req/s, simulator ${fmtInt(Math.round(median(simRates)))} req/s; ratio ${fmtRatio(ratio)} (rounds ${ratioSpread(ratios)})`)
      rows.push([`server, ${c.label}`, fmtInt(bytes), `${fmtInt(Math.round(median(bareRates)))} req/s`, `${fmtInt(Math.round(median(simRates)))} req/s`, fmtRatio(ratio), ratioSpread(ratios)])
      figures.push(
        figure({
          id: `server-${c.id}-ratio`,
          what: `chat completion (${c.label}) over loopback, ${CONNECTIONS} connections: bare node:http req/s over simulator server req/s`,
          measured: ratio,
          unit: 'x',
          runs: ROUNDS,
          op: '<=',
          bound: TARGET_SERVER,
          display: `${fmtRatio(ratio)} (rounds ${ratioSpread(ratios)})`,
        }),
      )
    }
    const aimockCpu = median(cpuPerRequest.get('aimock-json') ?? [])
    cpuRows.push(['aimock, JSON', '—', aimockCpu.toFixed(0), `simulator ${fmtRatio(median(cpuPerRequest.get('sim-json') ?? []) / aimockCpu)} aimock's`])
    const aheadRatios = simJsonRates.map((s, i) => s / (aimockRates[i] as number))
    const ahead = median(simJsonRates) / median(aimockRates)
    console.log(`aimock: ${fmtInt(Math.round(median(aimockRates)))} req/s; simulator over aimock ${fmtRatio(ahead)} (rounds ${ratioSpread(aheadRatios)})`)
    rows.push(['aimock server, JSON (same load)', '—', '—', `${fmtInt(Math.round(median(aimockRates)))} req/s (aimock)`, `simulator ${fmtRatio(ahead)} aimock's req/s`, ratioSpread(aheadRatios)])
    figures.push(
      figure({
        id: 'aimock-throughput',
        what: `non-streamed chat completions per second, simulator server over @copilotkit/aimock ${aimockVersion()} (same load, same rounds)`,
        measured: ahead,
        unit: 'x',
        runs: ROUNDS,
        op: '>=',
        bound: 1,
        display: `${fmtRatio(ahead)} (rounds ${ratioSpread(aheadRatios)}; ${fmtInt(Math.round(median(simJsonRates)))} against ${fmtInt(Math.round(median(aimockRates)))} req/s)`,
      }),
    )
  } finally {
    simServer.child.kill()
    bare.child.kill()
    aimock.child.kill()
  }

  const { text, markdown } = table(['case', 'body bytes', 'bare', 'simulator', 'cost ratio (median)', 'min–max of rounds'], rows, ['l', 'r', 'r', 'r', 'r', 'r'])
  const cpu = table(['server', 'bare: CPU µs/request', 'simulator (or aimock): CPU µs/request', 'ratio'], cpuRows, ['l', 'r', 'r', 'r'])
  console.log(`\n${text}\n\n${cpu.text}`)
  writeReport(
    'chat',
    `# Chat completions: MSW, server, and beside aimock

${machineMarkdown(m, [['@copilotkit/aimock', aimockVersion()]])}

The machine is shared with other engineers running test suites: the load average is often above its
two cores, so every ratio comes with its spread over rounds.

- **MSW**: one \`setupServer(...createHandlers(sim), bare)\`; each request is \`fetch\` (POST, JSON body)
  then \`res.text()\`. The bare arm is an \`http.post\` handler that reads the request body and answers the
  simulator's body text. Three requests, each its own run: a plain one, one with a required tool
  call (\`get_weather\`, four properties; the reply's arguments made for its schema), one with a
  \`json_schema\` response format (five properties; the content made for the schema). ${MSW_ROUNDS} rounds of ${MSW_BATCH} pairs (after ${MSW_WARMUP_ROUNDS} warm-up rounds), the arm that goes
  first alternating within each round; the ratio is the median of the rounds' ratios.
- **Server**: \`startServer(sim)\` against a bare node:http server that reads the body and writes the
  same bytes (a stream in one write, as the simulator's server writes one without real waits), each in a child process;
  ${CONNECTIONS} keep-alive connections, ${fmtInt(REQUESTS_PER_ROUND)} requests a round, ${ROUNDS} rounds alternating between the servers after
  ${fmtInt(WARMUP_REQUESTS)} warm-up requests each. The ratio is the bare server's median req/s over the simulator's.
- **aimock**: \`new LLMock({ port: 0 })\` with \`onMessage('Hello there', { content })\`, in a child
  process, loaded like the servers in the same rounds (POST /v1/chat/completions). aimock replays a
  fixture; the simulator routes, prices, charges, journals and records a generation for each request.

${markdown}

CPU time per request of each server process (user + system, \`process.cpuUsage()\` in the child, median of
the rounds; informational): on a machine other processes compete for, this is the cost a request
takes, where requests a second also follow how the scheduler shares the cores out.

${cpu.markdown}
`,
    figures,
  )
}

if (process.argv[2] === 'serve') await serveChild(process.argv[3] ?? 'sim')
else await main()
