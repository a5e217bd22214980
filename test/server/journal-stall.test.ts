// A large read does not hold the other requests up (issue 36 item 1, decisions/0047): while the
// journal of hundreds of MB, or the export of a 100,000-key world, is written, health probes sent
// every 5 ms are answered at once, and idle keep-alive clients can still make a request after it.
// The server runs in a process of its own (support/big-file-server.ts) and the large answer is read
// by another (support/read-url.mjs), so this process only probes: a probe's wait is the server's.
import { type ChildProcess, fork, spawn } from 'node:child_process'
import { Agent, request as httpRequest } from 'node:http'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type BundledCli, bundleCli } from '../support/cli.js'
import { ask, bigFileServer } from './support/big-file-child.js'

const READ_URL = new URL('./support/read-url.mjs', import.meta.url).pathname
const MIB = 1024 * 1024

/** Downloads of a file of FILE_MIB MiB whose journal (their bodies as base64) is read at once. */
const FILE_MIB = Number(process.env['STALL_FILE_MIB'] ?? 10)
const DOWNLOADS = Number(process.env['STALL_DOWNLOADS'] ?? 20)
const KEYS = Number(process.env['STALL_KEYS'] ?? 100_000)
/** Downloads of the same file through the command: a smaller journal. */
const CLI_DOWNLOADS = Number(process.env['STALL_CLI_DOWNLOADS'] ?? 12)
/** The keep-alive clients opened before the read, each to make a request after it. */
const KEEP_ALIVE = 32
const PROBE_EVERY_MS = 5

const children = new Set<ChildProcess>()
const agents = new Set<Agent>()

afterEach(() => {
  for (const agent of agents) agent.destroy()
  agents.clear()
  for (const child of children) child.kill('SIGKILL')
  children.clear()
})
afterAll(() => {
  for (const child of children) child.kill('SIGKILL')
})

interface Got {
  status: number
  bytes: number
  ms: number
}

/** GET a path through `agent` (a connection of its own when false) and read the answer to its end. */
function get(port: number, path: string, agent: Agent | false = false, headers: Record<string, string> = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const req = httpRequest({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
      let bytes = 0
      res.on('data', (chunk: Buffer) => (bytes += chunk.byteLength))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - started }))
    })
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer to ${path} within 30 s`)))
    req.on('error', reject)
    req.end()
  })
}

/** `KEEP_ALIVE` keep-alive connections, each made by a request and then left idle. */
async function keepAliveClients(port: number): Promise<Agent> {
  const agent = new Agent({ keepAlive: true, maxSockets: KEEP_ALIVE })
  agents.add(agent)
  const opened = await Promise.all(Array.from({ length: KEEP_ALIVE }, () => get(port, '/__sim/health', agent)))
  expect(opened.every((got) => got.status === 200)).toBe(true)
  expect(Object.values(agent.freeSockets).flat()).toHaveLength(KEEP_ALIVE)
  return agent
}

interface Read extends Got {
  firstByteMs: number
}

interface Probed {
  read: Read
  /** Each probe's wait for its answer, in ms, in the order sent. */
  waits: number[]
  /** The longest the server's event loop was held up during the read, in ms, when it says. */
  maxDelayMs: number | undefined
}

/**
 * Reads `path` to its end in another process while this one sends a health probe every 5 ms, each
 * on a connection of its own, without waiting for the one before. A server of big-file-server.ts
 * also tells how long its event loop was held up at most.
 */
async function probedRead(port: number, path: string, server?: ChildProcess): Promise<Probed> {
  if (server !== undefined) await ask(server, 'delay')
  const reader = fork(READ_URL, [String(port), path], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  children.add(reader)
  const read = new Promise<Read>((resolve, reject) => {
    reader.once('message', (message) => resolve(message as Read))
    reader.once('exit', (code) => reject(new Error(`the reader exited (${code}) before it read ${path}`)))
  })
  const waits: number[] = []
  const probes: Promise<void>[] = []
  const timer = setInterval(() => probes.push(get(port, '/__sim/health').then((got) => void waits.push(got.status === 200 ? got.ms : Infinity))), PROBE_EVERY_MS)
  try {
    const done = await read
    return { read: done, waits, maxDelayMs: server && (await ask<{ maxDelayMs: number }>(server, 'delay')).maxDelayMs }
  } finally {
    clearInterval(timer)
    await Promise.all(probes)
  }
}

/** The p-th percentile (0-100) of `values`, the nearest rank. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
}

const figures = (probed: Probed): string => {
  const { waits, read, maxDelayMs } = probed
  const ms = (value: number): string => value.toFixed(1)
  return `${waits.length} probes, p50 ${ms(percentile(waits, 50))} ms, p99 ${ms(percentile(waits, 99))} ms, max ${ms(Math.max(...waits))} ms; ${maxDelayMs === undefined ? '' : `the server's loop held up ${ms(maxDelayMs)} ms at most; `}read ${(read.bytes / 1e6).toFixed(0)} MB in ${ms(read.ms)} ms (${((read.bytes / 1e6 / read.ms) * 1000).toFixed(0)} MB/s)`
}

/** Every keep-alive client makes a request after the read: none finds its connection dead. */
async function afterRead(port: number, agent: Agent): Promise<void> {
  const outcomes = await Promise.allSettled(Array.from({ length: KEEP_ALIVE }, () => get(port, '/__sim/health', agent)))
  const failed = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [String(outcome.reason)] : outcome.value.status === 200 ? [] : [`status ${outcome.value.status}`]))
  expect(failed, `keep-alive clients that failed after the read: ${failed.join('; ')}`).toEqual([])
}

/**
 * The bar: probes answered within 100 ms (p99) and none held past 250 ms. A server that holds its
 * loop for the read makes every probe wait for the whole of it (331-1,112 ms at p99 before
 * decisions/0047); one that yields answers them in 7-38 ms at p99 alone on the machine, and up to
 * 54-92 ms when other processes load it, as a shared CI machine does (decisions/0047, "Later").
 */
function expectQuick(probed: Probed): void {
  expect(probed.read.status).toBe(200)
  expect(percentile(probed.waits, 99), figures(probed)).toBeLessThan(100)
  expect(Math.max(...probed.waits), figures(probed)).toBeLessThan(250)
}

/** The base64 of `count` downloads of a file of `mib` MiB, the least a journal of them holds. */
const journalOf = (count: number, mib: number): number => count * Math.ceil((mib * MIB) / 3) * 4

// One retry: today's server fails every attempt (it answers no probe until the whole read is written,
// 0.3-1.1 s), so a second attempt only absorbs a busy machine descheduling a process for a moment.
describe('a large read lets the other requests in', { timeout: 120_000, retry: 1 }, () => {
  it(`answers health probes within 100 ms (p99) during the journal of ${DOWNLOADS} downloads of a ${FILE_MIB} MiB file, and idle keep-alive clients survive it`, async () => {
    const server = await bigFileServer(children, FILE_MIB)
    const auth = { authorization: `Bearer ${server.managementKey}` }
    for (let i = 0; i < DOWNLOADS; i++) expect((await get(server.port, `/api/v1/files/${server.fileId}/content`, false, auth)).bytes).toBe(FILE_MIB * MIB)
    const agent = await keepAliveClients(server.port)
    const probed = await probedRead(server.port, '/__sim/journal', server.child)
    console.log(`journal: ${figures(probed)}`)
    expect(probed.read.bytes).toBeGreaterThan(journalOf(DOWNLOADS, FILE_MIB))
    expectQuick(probed)
    await afterRead(server.port, agent)
  })

  it(`answers health probes within 100 ms (p99) during the export of a world of ${KEYS} keys, and idle keep-alive clients survive it`, async () => {
    const server = await bigFileServer(children, 0, KEYS)
    const agent = await keepAliveClients(server.port)
    const probed = await probedRead(server.port, '/__sim/world/export', server.child)
    console.log(`export: ${figures(probed)}`)
    // Each key is some 380 bytes of JSON.
    expect(probed.read.bytes).toBeGreaterThan(KEYS * 300)
    expectQuick(probed)
    await afterRead(server.port, agent)
  })
})

describe('the same through the command', { timeout: 120_000, retry: 1 }, () => {
  let bundled: BundledCli | undefined
  beforeAll(async () => {
    bundled = await bundleCli()
  })
  afterAll(() => bundled?.remove())

  /** `serve` on a free port, its journal keeping up to 1 GiB; resolves with its ready line. */
  async function serveCli(): Promise<{ port: number; managementKey: string; userId: string }> {
    if (bundled === undefined) throw new Error('the CLI is not bundled')
    const child = spawn(process.execPath, [bundled.path, 'serve', '--port', '0', '--log', 'json', '--journal-bytes', String(1024 * MIB)], { stdio: ['ignore', 'pipe', 'inherit'] })
    children.add(child)
    let out = ''
    const ready = new Promise<string>((resolve, reject) => {
      // Read to the end: the request log of every probe follows the ready line.
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk
        if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')))
      })
      child.once('exit', (code) => reject(new Error(`serve exited (${code}) before it was ready: ${out}`)))
    })
    const line = JSON.parse(await ready) as { port: number; managementKey: string; handles: { userId: string } }
    return { port: line.port, managementKey: line.managementKey, userId: line.handles.userId }
  }

  it(`answers health probes within 100 ms (p99) during the journal of ${CLI_DOWNLOADS} downloads of a ${FILE_MIB} MiB file, and idle keep-alive clients survive it`, async () => {
    const server = await serveCli()
    const file = new Uint8Array(FILE_MIB * MIB).map((_, i) => i & 255)
    const created = await fetch(`http://127.0.0.1:${server.port}/__sim/files`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'file_big', userId: server.userId, origin: 'server', base64: Buffer.from(file).toString('base64') }),
    })
    expect(created.status).toBe(201)
    const auth = { authorization: `Bearer ${server.managementKey}` }
    for (let i = 0; i < CLI_DOWNLOADS; i++) expect((await get(server.port, '/api/v1/files/file_big/content', false, auth)).bytes).toBe(FILE_MIB * MIB)
    const agent = await keepAliveClients(server.port)
    const probed = await probedRead(server.port, '/__sim/journal')
    console.log(`journal through the command: ${figures(probed)}`)
    expect(probed.read.bytes).toBeGreaterThan(journalOf(CLI_DOWNLOADS, FILE_MIB))
    expectQuick(probed)
    await afterRead(server.port, agent)
  })
})
