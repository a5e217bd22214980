/**
 * Throughput of server mode over loopback: 32 keep-alive connections sending GET /keys (a page of
 * the default world's keys, with a management key) and GET /videos/models, against the simulator's
 * server and against a bare node:http server that answers with the same bytes, pre-serialised.
 *
 *   npm run bench:server
 *
 * Each server runs in a child process of its own, so the load generator here does not share its
 * event loop. Rounds alternate between the two servers; the figures are medians. Every answer must
 * be 200 and byte-identical to the bare server's.
 *
 * Target (this machine class): for each request, the cost ratio (bare requests per second over the
 * simulator server's) is at most 1.5x.
 *
 * Writes benchmarks/results/server.md and server.json; exits 1 when a target is missed.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { Agent, request as httpRequest } from 'node:http'
import { fileURLToPath } from 'node:url'
import { type Figure, figure, fmtInt, fmtRatio, machine as describeMachine, machineLine, machineMarkdown, median, table, writeReport, ratioSpread } from './support.js'
import { pkg, pkgServer } from './package.js'

const { createSimulator } = pkg

const CONNECTIONS = 32
const REQUESTS_PER_ROUND = 4_000
const ROUNDS = 5
const WARMUP_REQUESTS = 1_000
const TARGET_RATIO = 1.5

const sim = createSimulator()
const PATHS = ['/keys', '/videos/models'] as const
const AUTH = `Bearer ${sim.world.managementKey}`

/** The child process: `tsx benchmarks/server.ts serve sim|bare` prints its port and serves until killed. */
async function serveChild(kind: string): Promise<void> {
  if (kind === 'sim') {
    const { startServer } = await pkgServer()
    const server = await startServer(createSimulator({ journalLimit: 0 }), { port: 0 })
    process.stdout.write(`${server.port}\n`)
    return
  }
  const { createServer } = await import('node:http')
  const bodies = new Map(
    PATHS.map((path) => {
      const res = sim.handle({ method: 'GET', path, authorization: AUTH })
      return [`/api/v1${path}`, Buffer.from(JSON.stringify(res.body))]
    }),
  )
  const server = createServer((req, res) => {
    const body = bodies.get(req.url ?? '') as Buffer
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.byteLength) })
    res.end(body)
  })
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as { port: number }).port}\n`))
}

function startChild(kind: 'sim' | 'bare'): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'serve', kind], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve({ child, port: Number(chunk.toString().trim()) }))
    child.once('exit', (code) => reject(new Error(`the ${kind} server exited with ${code}`)))
  })
}

function get(agent: Agent, port: number, path: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: `/api/v1${path}`, agent, headers: { authorization: AUTH } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`${path}: ${res.statusCode}`))))
    })
    req.on('error', reject)
    req.end()
  })
}

/** Requests per second for `count` requests of one path over CONNECTIONS connections. */
async function run(port: number, path: string, count: number, expected: Buffer | undefined): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next++ < count) {
        const body = await get(agent, port, path)
        if (expected !== undefined && !body.equals(expected)) throw new Error(`${path}: the answer differs from the bare server's`)
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  agent.destroy()
  return count / seconds
}

async function main(): Promise<void> {
  const m = describeMachine()
  console.log(machineLine(m))
  const simServer = await startChild('sim')
  const bare = await startChild('bare')
  try {
    const rows: string[][] = []
    const figures: Figure[] = []
    for (const path of PATHS) {
      const expected = await get(new Agent(), bare.port, path)
      await run(simServer.port, path, WARMUP_REQUESTS, expected)
      await run(bare.port, path, WARMUP_REQUESTS, expected)
      const simRates: number[] = []
      const bareRates: number[] = []
      for (let round = 0; round < ROUNDS; round++) {
        simRates.push(await run(simServer.port, path, REQUESTS_PER_ROUND, expected))
        bareRates.push(await run(bare.port, path, REQUESTS_PER_ROUND, expected))
      }
      const simRate = median(simRates)
      const bareRate = median(bareRates)
      // Each round's pair, side by side: the spread of the ratio from round to round.
      const roundRatios = bareRates.map((b, i) => b / (simRates[i] as number))
      const spread = ratioSpread(roundRatios)
      rows.push([`GET ${path}`, fmtInt(expected.byteLength), fmtInt(Math.round(bareRate)), fmtInt(Math.round(simRate)), fmtRatio(bareRate / simRate), spread])
      figures.push(
        figure({
          id: `ratio-${path.slice(1).replaceAll('/', '-')}`,
          what: `GET ${path} over loopback, ${CONNECTIONS} connections: bare node:http req/s / simulator server req/s`,
          measured: bareRate / simRate,
          unit: 'x',
          runs: ROUNDS,
          op: '<=',
          bound: TARGET_RATIO,
          display: `${fmtRatio(bareRate / simRate)} (rounds ${spread})`,
        }),
      )
    }
    const { text, markdown } = table(['request', 'body bytes', 'bare node:http (req/s)', 'simulator server (req/s)', 'cost ratio', 'min–max ratio of rounds'], rows, ['l', 'r', 'r', 'r', 'r', 'r'])
    console.log(`\n${text}`)
    writeReport(
      'server',
      `# Server mode throughput\n\n${machineMarkdown(m)}\n\n${CONNECTIONS} keep-alive connections over loopback, ${fmtInt(REQUESTS_PER_ROUND)} requests a round (after ${fmtInt(WARMUP_REQUESTS)} warm-up requests to each server), median of ${ROUNDS} rounds alternating between the servers; each server in its own process. The cost ratio is the bare server's median requests per second over the simulator's; its spread is the min–max of each round's pair.\n\n${markdown}\n`,
      figures,
    )
  } finally {
    simServer.child.kill()
    bare.child.kill()
  }
}

if (process.argv[2] === 'serve') await serveChild(process.argv[3] ?? 'sim')
else await main()
