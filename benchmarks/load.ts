/**
 * A mixed load with a concurrent journal reader, over loopback: for DURATION_S seconds (60 by
 * default), 32 keep-alive connections send a seeded mix of every kind of request (chat completions
 * JSON and streamed, embeddings, the Responses API, key, keys, credits, models and generation reads,
 * and requests that must be refused: an unknown key, a body that is not JSON), spending through
 * eight keys provisioned over the API, while another connection reads `GET /__sim/journal` (the
 * default journal: 1,000 entries, 64 MiB) over and over.
 *
 *   npm run bench:load              (DURATION_S=10 npm run bench:load for a short run)
 *
 * The server runs in a child process of its own (the package's startServer on the default world,
 * with its default journal), so this process only sends and times.
 *
 * Targets (issue 36's load bar):
 * - no unexpected status: each kind of request has the status it must get;
 * - the p99 latency of the ordinary requests (all but the journal reads) under 100 ms;
 * - money exact: each key's `usage` (GET /keys/{hash}) is the sum of the `usage.cost` its answers
 *   reported, and the organisation's `total_usage` (GET /credits) moved by their sum, to the last
 *   digit (the decimals are summed as integers, never as floats).
 *
 * Writes benchmarks/results/load.md and load.json; exits 1 when a target is missed.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { Agent, request as httpRequest } from 'node:http'
import { fileURLToPath } from 'node:url'
import { type Figure, figure, fmtInt, fmtMs, machine as describeMachine, machineLine, machineMarkdown, prng, table, writeReport } from './support.js'
import { pkg, pkgServer } from './package.js'

const { createSimulator } = pkg

const DURATION_S = Number(process.env.DURATION_S ?? 60)
const CONNECTIONS = 32
const KEYS = 8
const TARGET_P99_MS = 100
const CHAT_MODEL = 'openai/gpt-4o-mini'
const EMBEDDING_MODEL = 'openai/text-embedding-3-small'

const world = createSimulator().world
const MANAGEMENT = `Bearer ${world.managementKey}`
const api = (path: string): string => `/api/v1${path}`

/** The child process: `tsx benchmarks/load.ts serve` prints its port and serves until killed. */
async function serveChild(): Promise<void> {
  const { startServer } = await pkgServer()
  const server = await startServer(createSimulator(), { port: 0 })
  process.stdout.write(`${server.port}\n`)
}

function startChild(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'serve'], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.stdout?.once('data', (chunk: Buffer) => resolve({ child, port: Number(chunk.toString().trim()) }))
  })
}

interface Answer {
  status: number
  text: string
  ms: number
}

function send(agent: Agent, port: number, method: string, path: string, authorization: string | null, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const headers: Record<string, string> = {}
    if (authorization !== null) headers.authorization = authorization
    if (body !== undefined) {
      headers['content-type'] = 'application/json'
      headers['content-length'] = String(Buffer.byteLength(body))
    }
    const req = httpRequest({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), ms: performance.now() - started }))
      res.on('error', reject)
    })
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer to ${method} ${path} within 30 s`)))
    req.on('error', reject)
    req.end(body)
  })
}

// ---------------------------------------------------------------------------------------------
// Exact decimals: a JSON number as written (`0.000123`, `1.23e-7`) to an integer of 10^-SCALE USD.

const SCALE = 20

export function decimalUnits(written: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(written)
  if (match === null) throw new Error(`not a JSON number: ${written}`)
  const [, sign, whole, fraction = '', exponent = '0'] = match as unknown as [string, string, string, string | undefined, string | undefined]
  const shift = SCALE - fraction.length + Number(exponent)
  if (shift < 0) throw new Error(`${written} has more than ${SCALE} decimal places`)
  const units = BigInt(whole + fraction) * 10n ** BigInt(shift)
  return sign === '-' ? -units : units
}

/** The last `"<field>":<number>` of a JSON text, as written. */
function lastNumber(text: string, field: string): string | undefined {
  const pattern = new RegExp(`"${field}":(-?[0-9][0-9.eE+-]*)`, 'g')
  let found: string | undefined
  for (const match of text.matchAll(pattern)) found = match[1]
  return found
}

// ---------------------------------------------------------------------------------------------

interface Kind {
  name: string
  /** Out of the weights' sum. */
  weight: number
  status: number
  /** Its answers report a cost charged to the key that sent it. */
  spends: boolean
  make: (key: Provisioned, lastGeneration: string | undefined) => { method: string; path: string; authorization: string | null; body?: string }
}

interface Provisioned {
  hash: string
  bearer: string
}

const chat = (stream: boolean, i: number): string =>
  JSON.stringify({ model: CHAT_MODEL, stream, messages: [{ role: 'user', content: `Hello there, request ${i}: how are you today?` }] })

let counter = 0
const KINDS: Kind[] = [
  { name: 'chat completion', weight: 24, status: 200, spends: true, make: (k) => ({ method: 'POST', path: '/chat/completions', authorization: k.bearer, body: chat(false, counter++) }) },
  { name: 'chat completion, streamed', weight: 10, status: 200, spends: true, make: (k) => ({ method: 'POST', path: '/chat/completions', authorization: k.bearer, body: chat(true, counter++) }) },
  { name: 'embeddings', weight: 10, status: 200, spends: true, make: (k) => ({ method: 'POST', path: '/embeddings', authorization: k.bearer, body: JSON.stringify({ model: EMBEDDING_MODEL, input: [`text ${counter++}`, 'another text'] }) }) },
  { name: 'Responses API', weight: 6, status: 200, spends: true, make: (k) => ({ method: 'POST', path: '/responses', authorization: k.bearer, body: JSON.stringify({ model: CHAT_MODEL, input: `Say something about ${counter++}.` }) }) },
  { name: 'GET /key', weight: 10, status: 200, spends: false, make: (k) => ({ method: 'GET', path: '/key', authorization: k.bearer }) },
  { name: 'GET /keys', weight: 8, status: 200, spends: false, make: () => ({ method: 'GET', path: '/keys?offset=0', authorization: MANAGEMENT }) },
  { name: 'GET /credits', weight: 5, status: 200, spends: false, make: () => ({ method: 'GET', path: '/credits', authorization: MANAGEMENT }) },
  { name: 'GET /models/{author}/{slug}/endpoints', weight: 6, status: 200, spends: false, make: () => ({ method: 'GET', path: `/models/${CHAT_MODEL}/endpoints`, authorization: null }) },
  { name: 'GET /generation', weight: 6, status: 200, spends: false, make: (k, last) => ({ method: 'GET', path: `/generation?id=${last ?? ''}`, authorization: k.bearer }) },
  { name: 'unknown key (401)', weight: 8, status: 401, spends: false, make: () => ({ method: 'GET', path: '/key', authorization: 'Bearer sk-or-v1-0000000000000000000000000000000000000000000000000000000000000000' }) },
  { name: 'body not JSON (400)', weight: 7, status: 400, spends: false, make: (k) => ({ method: 'POST', path: '/chat/completions', authorization: k.bearer, body: '{"model":' }) },
]

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number
}

async function main(): Promise<void> {
  const m = describeMachine()
  console.log(`load — ${machineLine(m)}; ${DURATION_S} s, ${CONNECTIONS} connections and a journal reader`)
  const { child, port } = await startChild()
  const setup = new Agent({ keepAlive: true, maxSockets: 1 })
  try {
    // Credits for the whole run, and the keys it spends through, made over the API.
    const topUp = await send(setup, port, 'POST', '/__sim/credits', null, JSON.stringify({ userId: world.userId, amount: 1_000_000 }))
    if (topUp.status !== 200) throw new Error(`POST /__sim/credits: ${topUp.status} ${topUp.text}`)
    const keys: Provisioned[] = []
    for (let i = 0; i < KEYS; i++) {
      const made = await send(setup, port, 'POST', api('/keys'), MANAGEMENT, JSON.stringify({ name: `load ${i}`, limit: 100_000 }))
      if (made.status !== 201) throw new Error(`POST /keys: ${made.status} ${made.text}`)
      const { data, key } = JSON.parse(made.text) as { data: { hash: string }; key: string }
      keys.push({ hash: data.hash, bearer: `Bearer ${key}` })
    }
    const usageBefore = lastNumber((await send(setup, port, 'GET', api('/credits'), MANAGEMENT)).text, 'total_usage') as string

    const spent = new Map<string, bigint>(keys.map((k) => [k.hash, 0n]))
    const latencies: number[] = []
    const byKind = new Map<string, { count: number; ms: number[] }>(KINDS.map((k) => [k.name, { count: 0, ms: [] }]))
    const unexpected: string[] = []
    const totalWeight = KINDS.reduce((sum, k) => sum + k.weight, 0)
    const deadline = performance.now() + DURATION_S * 1000
    const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })

    const worker = async (index: number): Promise<void> => {
      const random = prng(1000 + index)
      let lastGeneration: string | undefined
      while (performance.now() < deadline) {
        let pick = random() * totalWeight
        const kind = KINDS.find((k) => (pick -= k.weight) < 0) ?? (KINDS[0] as Kind)
        // A generation is read once this connection has made one.
        const chosen = kind.name === 'GET /generation' && lastGeneration === undefined ? (KINDS[0] as Kind) : kind
        const key = keys[Math.floor(random() * keys.length)] as Provisioned
        const r = chosen.make(key, lastGeneration)
        const answer = await send(agent, port, r.method, api(r.path), r.authorization, r.body)
        latencies.push(answer.ms)
        const seen = byKind.get(chosen.name) as { count: number; ms: number[] }
        seen.count++
        seen.ms.push(answer.ms)
        if (answer.status !== chosen.status) {
          if (unexpected.length < 20) unexpected.push(`${chosen.name}: ${answer.status} ${answer.text.slice(0, 200)}`)
          else unexpected.push('')
          continue
        }
        if (!chosen.spends) continue
        const cost = lastNumber(answer.text, 'cost')
        if (cost === undefined) {
          unexpected.push(`${chosen.name}: an answer with no usage.cost: ${answer.text.slice(0, 200)}`)
          continue
        }
        spent.set(key.hash, (spent.get(key.hash) as bigint) + decimalUnits(cost))
        const id = /"id":"(gen-[^"]+)"/.exec(answer.text)?.[1]
        if (id !== undefined) lastGeneration = id
      }
    }

    // The journal reader: its own connection, one whole read after another until the deadline.
    const reads: { ms: number; bytes: number }[] = []
    const reader = async (): Promise<void> => {
      const own = new Agent({ keepAlive: true, maxSockets: 1 })
      try {
        while (performance.now() < deadline) {
          const answer = await send(own, port, 'GET', '/__sim/journal', null)
          if (answer.status !== 200) unexpected.push(`GET /__sim/journal: ${answer.status} ${answer.text.slice(0, 200)}`)
          reads.push({ ms: answer.ms, bytes: Buffer.byteLength(answer.text) })
        }
      } finally {
        own.destroy()
      }
    }

    const started = performance.now()
    await Promise.all([...Array.from({ length: CONNECTIONS }, (_, i) => worker(i)), reader()])
    const seconds = (performance.now() - started) / 1000
    agent.destroy()

    // Money: every key's usage, and the organisation's, against what the answers reported.
    const mismatches: string[] = []
    let total = 0n
    for (const key of keys) {
      const read = await send(setup, port, 'GET', api(`/keys/${key.hash}`), MANAGEMENT)
      const usage = lastNumber(read.text, 'usage')
      const expected = spent.get(key.hash) as bigint
      total += expected
      if (usage === undefined || decimalUnits(usage) !== expected) mismatches.push(`key ${key.hash}: usage ${usage}, the answers' costs add up to ${expected} × 10^-${SCALE} USD`)
    }
    const usageAfter = lastNumber((await send(setup, port, 'GET', api('/credits'), MANAGEMENT)).text, 'total_usage') as string
    const moved = decimalUnits(usageAfter) - decimalUnits(usageBefore)
    if (moved !== total) mismatches.push(`credits: total_usage moved by ${moved}, the answers' costs add up to ${total} (× 10^-${SCALE} USD)`)

    const sorted = [...latencies].sort((a, b) => a - b)
    const p99 = percentile(sorted, 0.99)
    const readMs = reads.map((r) => r.ms).sort((a, b) => a - b)
    const readMiB = reads.reduce((sum, r) => sum + r.bytes, 0) / 1024 / 1024
    const kindRows = KINDS.map((k) => {
      const seen = byKind.get(k.name) as { count: number; ms: number[] }
      const ms = [...seen.ms].sort((a, b) => a - b)
      return [k.name, String(k.status), fmtInt(seen.count), fmtMs(percentile(ms, 0.5)), fmtMs(percentile(ms, 0.99)), fmtMs(ms[ms.length - 1] ?? Number.NaN)]
    })
    kindRows.push(['GET /__sim/journal (the reader)', '200', fmtInt(reads.length), fmtMs(percentile(readMs, 0.5)), fmtMs(percentile(readMs, 0.99)), fmtMs(readMs[readMs.length - 1] ?? Number.NaN)])
    const kinds = table(['request', 'status', 'count', 'p50 ms', 'p99 ms', 'max ms'], kindRows, ['l', 'r', 'r', 'r', 'r', 'r'])
    console.log(kinds.text)
    console.log(`${fmtInt(latencies.length)} ordinary requests in ${seconds.toFixed(1)} s (${fmtInt(Math.round(latencies.length / seconds))} req/s); p50 ${fmtMs(percentile(sorted, 0.5))} ms, p99 ${fmtMs(p99)} ms, max ${fmtMs(sorted[sorted.length - 1] ?? Number.NaN)} ms`)
    console.log(`journal reads: ${fmtInt(reads.length)}, ${readMiB.toFixed(0)} MiB in all, ${(readMiB / Math.max(reads.length, 1)).toFixed(1)} MiB each on average`)
    for (const line of unexpected.filter((l) => l !== '')) console.log(`unexpected: ${line}`)
    for (const line of mismatches) console.log(`money: ${line}`)
    const spentUsd = `${total / 10n ** BigInt(SCALE)}.${(total % 10n ** BigInt(SCALE)).toString().padStart(SCALE, '0').replace(/0+$/, '')}`
    console.log(`spent through the ${KEYS} keys: ${spentUsd} USD, matched exactly: ${mismatches.length === 0 ? 'yes' : 'no'}`)

    const figures: Figure[] = [
      figure({ id: 'unexpected-statuses', what: 'answers with a status other than the one their kind must get (and spending answers with no cost)', measured: unexpected.length, unit: 'entries', runs: 1, op: '<=', bound: 0 }),
      figure({ id: 'p99-ms', what: `p99 latency of the ordinary requests (${CONNECTIONS} connections, a journal reader beside them)`, measured: p99, unit: 'ms', runs: 1, op: '<=', bound: TARGET_P99_MS }),
      figure({ id: 'money-mismatches', what: "keys (and the organisation's credits) whose usage is not the exact sum of the costs their answers reported", measured: mismatches.length, unit: 'entries', runs: 1, op: '<=', bound: 0 }),
    ]
    const markdown = `# Load with a concurrent journal reader

${machineMarkdown(m)}

## Method

- \`benchmarks/load.ts\` (\`npm run bench:load\`): the package's \`startServer\` on the default world, default journal (1,000
  entries, 64 MiB), in a child process; ${CONNECTIONS} keep-alive connections for ${DURATION_S} s, each sending a seeded mix of
  the requests below through ${KEYS} keys provisioned over \`POST /keys\`; one more connection reads \`GET /__sim/journal\` whole,
  again and again, the whole time.
- Every answer must have its kind's status. Money: each key's \`usage\` must be the exact sum of the \`usage.cost\` its answers
  reported, and \`GET /credits\`' \`total_usage\` must have moved by the sum over all keys (decimals summed as integers).

## Results

${fmtInt(latencies.length)} ordinary requests in ${seconds.toFixed(1)} s (${fmtInt(Math.round(latencies.length / seconds))} req/s): p50 ${fmtMs(percentile(sorted, 0.5))} ms,
p99 ${fmtMs(p99)} ms, max ${fmtMs(sorted[sorted.length - 1] ?? Number.NaN)} ms. The journal was read ${fmtInt(reads.length)} times,
${readMiB.toFixed(0)} MiB in all. Unexpected statuses: ${unexpected.length}. The keys spent ${spentUsd} USD; money mismatches: ${mismatches.length}.

${kinds.markdown}
`
    writeReport('load', markdown, figures)
  } finally {
    setup.destroy()
    child.kill()
  }
}

if (process.argv[2] === 'serve') await serveChild()
else await main()
