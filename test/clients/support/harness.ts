// The child's side of the real-client tests (decisions/0040): a client script (test/clients/*.client.ts)
// runs under Node 24 in a process of its own, imports the real client from node_modules and this
// file, and hands runCases its cases. Each case runs twice, against a fresh simulator each time:
// through MSW in this process (the package's own handlers), then through a local server
// (startServer) over a real socket. A case asserts with node:assert; the result of each is one
// line on stdout that the vitest file (test/clients/support/child.ts) reads.
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { setupServer } from 'msw/node'
import { createSimulator, type Simulator } from '../../../src/index.js'
import { createHandlers } from '../../../src/msw/index.js'
import { startServer } from '../../../src/server/index.js'
import { CASE_LINE, type CaseResult, type TargetName, VERSION_LINE } from './lines.js'

/** Real model ids, as a user's code hard-codes them. */
export const MODELS = {
  chat: 'openai/gpt-4o-mini',
  other: 'anthropic/claude-haiku-4.5',
  embedding: 'openai/text-embedding-3-small',
} as const

/** What a case gets: where the service is, and keys for each outcome. */
export interface Target {
  /** `msw` (handlers in this process) or `server` (a local server over a socket). */
  name: TargetName
  /** The base URL to give the client: `https://openrouter.ai/api/v1`, or the server's. */
  baseURL: string
  /** The simulator behind it, fresh for each case. */
  sim: Simulator
  /** A new regular key of the default world's organisation, which has credits. */
  apiKey: string
  /** The hash of `apiKey`. */
  apiKeyHash: string
  /** A key whose daily limit is spent: 403. */
  spentKey: string
  /** A key of an organisation with no credits: 402 on a paid model. */
  brokeKey: string
}

export type Case = (target: Target) => Promise<void>

/** Tells the parent which version of each client package this process loaded. */
export function reportVersions(packages: readonly string[]): void {
  const require = createRequire(import.meta.url)
  for (const name of packages) {
    // The package's own package.json, found from its entry point (exports may hide ./package.json).
    const entry = require.resolve(name)
    let version: string | undefined
    for (let dir = dirname(entry); version === undefined; dir = dirname(dir)) {
      const file = join(dir, 'package.json')
      if (existsSync(file)) {
        const json = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string }
        if (json.name === name) version = json.version
      }
      if (dirname(dir) === dir && version === undefined) throw new Error(`no package.json of ${name} above ${entry}`)
    }
    process.stdout.write(`${VERSION_LINE}${JSON.stringify({ name, version })}\n`)
  }
}

function keysOf(sim: Simulator): Pick<Target, 'apiKey' | 'apiKeyHash' | 'spentKey' | 'brokeKey'> {
  const spent = sim.keys.create({ userId: sim.world.userId, name: 'spent', limit: 0.5, limitReset: 'daily', usage: { daily: 0.5 } })
  const broke = sim.users.create({ name: 'No credits' })
  // A key of its own, so what it spent is what the case spent.
  const own = sim.keys.create({ userId: sim.world.userId, name: 'client' })
  return {
    apiKey: own.key,
    apiKeyHash: own.record.hash,
    spentKey: spent.key,
    brokeKey: sim.keys.create({ userId: broke.id }).key,
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.constructor.name}: ${error.message}\n${error.stack ?? ''}`
  return String(error)
}

async function runOne(name: string, run: Case, target: Target): Promise<void> {
  const started = performance.now()
  let result: CaseResult
  try {
    await run(target)
    result = { target: target.name, case: name, ok: true, ms: 0 }
  } catch (error) {
    result = { target: target.name, case: name, ok: false, error: describeError(error), ms: 0 }
  }
  result.ms = Math.round(performance.now() - started)
  process.stdout.write(`${CASE_LINE}${JSON.stringify(result)}\n`)
}

/**
 * Runs every case through MSW, then through a local server, each against a fresh default-world
 * simulator, and prints one result line per case and target. A case that throws fails alone.
 */
export async function runCases(cases: Record<string, Case>): Promise<void> {
  const msw = setupServer()
  msw.listen({ onUnhandledRequest: 'error' })
  try {
    for (const [name, run] of Object.entries(cases)) {
      const sim = createSimulator()
      msw.resetHandlers(...createHandlers(sim))
      await runOne(name, run, { name: 'msw', baseURL: 'https://openrouter.ai/api/v1', sim, ...keysOf(sim) })
    }
  } finally {
    msw.close()
  }
  for (const [name, run] of Object.entries(cases)) {
    const sim = createSimulator()
    const server = await startServer(sim, { port: 0 })
    try {
      await runOne(name, run, { name: 'server', baseURL: server.url, sim, ...keysOf(sim) })
    } finally {
      await server.close()
    }
  }
}

/** The chat completions the simulator answered with `status`, in order. */
export function chats(sim: Simulator, status = 200): ReturnType<Simulator['journal']['list']> {
  return sim.journal.list({ operation: 'createChatCompletion' }).filter((entry) => entry.status === status)
}

/** What the key spent, in USD, read from the simulator. */
/**
 * Holds the case's key (`apiKey`) to a guardrail that allows only MODELS.other: a request for
 * MODELS.chat is then a 403 whose message names the guardrail, its id and the rule, charging nothing.
 */
export function guardKey(target: Target): { id: string; refusal: RegExp } {
  const guardrail = target.sim.guardrails.create({ userId: target.sim.world.userId, rules: { name: 'Support plan', allowed_models: [MODELS.other] } })
  target.sim.guardrails.assignKeys(guardrail.id, [target.apiKeyHash])
  return { id: guardrail.id, refusal: new RegExp(`Guardrail "Support plan" \\(${guardrail.id}\\) refused the request: allowed_models does not list ${MODELS.chat}`) }
}

export function spentBy(sim: Simulator, hash: string): number {
  const key = sim.keys.get(hash)
  if (key === undefined) throw new Error(`no key ${hash}`)
  return key.usage
}

/**
 * What the simulator could not satisfy in the requests' schemas (the journal's warnings,
 * decisions/0048): empty when every default reply was valid for what its request asked.
 */
export function schemaWarnings(sim: Simulator): string[] {
  return sim.journal.list({ hasWarnings: true }).flatMap((entry) => entry.warnings)
}
