// The `model-access-sim` command: serve a simulator over HTTP, and write or check world specs.
// Arguments are read with node:util's parseArgs (decisions/0013): strict, so an unknown flag is an
// error that shows the usage. Exit codes: 0 success, 1 a problem reported on stderr, 2 a usage error.
// runCli is the whole command, with the process around it given as a CliIo; cli-entry.ts is the
// process (decisions/0058), and tests call runCli in process.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import pkg from '../../package.json' with { type: 'json' }
import { type Simulator, createSimulator, validateWorld } from '../core/simulator.js'
import type { RateLimit } from '../core/store/state.js'
import { SimulatorError } from '../core/errors.js'
import type { WorldKey, WorldSpec } from '../core/worlds/spec.js'
import { type RequestLogEntry, type SimulatorServer, DEFAULT_PORT, startServer } from './index.js'
import type { Launcher } from './launcher.js'
import { isLoopbackName } from './trust.js'

const NAME = 'model-access-sim'

/** A problem to report on stderr with an exit code: 1 for a bad value, 2 for bad usage. */
class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
    readonly usage?: string,
  ) {
    super(message)
  }
}

/** The process around the command: cli-entry.ts gives the real one, tests a recording one. */
export interface CliIo {
  stdout(text: string): void
  stderr(text: string): void
  /** The environment variables it reads: MODEL_ACCESS_SIM_CONTROL_TOKEN, MODEL_ACCESS_SIM_KEY, MODEL_ACCESS_SIM_REGULAR_KEY. */
  env: Readonly<Record<string, string | undefined>>
  /** The chain of processes that started `serve`, read as the process started (launcher.ts); undefined when not read. */
  launcher?: Launcher | undefined
  /** Calls `stop` on SIGINT and SIGTERM, every time; returns a function that stops listening. */
  onSignal(stop: () => void): () => void
  /** Ends the process at once: a stop that takes longer than its deadline. */
  exit(code: number): void
}

const USAGE = {
  main: `Usage: ${NAME} <command> [options]

Commands:
  serve             serve a simulator over HTTP, with a control API
  world generate    write a generated world spec
  world check PATH  list every problem of a world spec
  import            read an account from the live service into a world spec (GETs only)
  check             check the simulator's rules against the live service (GETs only)

Options:
  -h, --help        show help (also after a command: ${NAME} serve --help)
  -v, --version     show the version`,
  serve: `Usage: ${NAME} serve [options]

Serves the simulated model-access API at http://HOST:PORT/api/v1 and its control API at /__sim.

Options:
  --port N             port to listen on; 0 picks a free one (default ${DEFAULT_PORT})
  --host HOST          interface to bind (default 127.0.0.1; 0.0.0.0 exposes it to the network)
  --seed N             seed of everything created after the world loads (default 42)
  --world WORLD        default (the embedded world), empty, or PATH.json, a world spec (default: default)
  --now ISO            start of the simulator clock, such as 2026-03-02T10:00:00Z
  --clock MODE         virtual (the default: time moves only through the control API, so answers
                       are the same on every run) or real (time follows the wall clock from --now,
                       so rate limits refill and keys expire while a client waits)
  --rate-limit R/I     a token bucket per key: R requests per interval I (500ms, 1s, 1m, 1h), such as 60/1m
  --journal-limit N    requests the journal keeps (default 1000; 0 keeps none)
  --journal-bytes N    bytes the journal's entries may count (default 67108864, 64 MiB; 0 keeps
                       none); whichever of the two bounds is reached first drops the oldest
  --strict-requests    refuse an inference request with a field neither the SDK nor real clients
                       send (a 400 naming it), instead of ignoring it and listing it on the
                       journal entry's ignoredFields
  --tool-rounds N      default replies with tools and tool_choice auto call a tool while fewer than N
                       assistant turns follow the last user turn, then answer text (default 1: one
                       call, then text after the tool's result; 0: a call only when required)
  --no-control         serve no control API (every /__sim path answers 404)
  --no-cors            send no CORS headers, so web pages of other origins cannot read the
                       operations' answers (by default any origin may, as on the real service;
                       the control API never grants one)
  --control-token T    control clients must send "authorization: Bearer T" (or set the environment
                       variable MODEL_ACCESS_SIM_CONTROL_TOKEN, which ps does not show); needed for
                       the control API on a --host other than loopback
  --log FORMAT         pretty, json or off (default pretty). json: the first line is a JSON object
                       {"event":"ready","url",...} with the URL, control URL and keys, then one
                       object per request
  --ready-file PATH    once listening, write that JSON object to PATH (removed when it stops)
  --no-exit-with-launcher
                       keep serving after the process that started it exits (by default it stops
                       then, npm, npx, tsx and sh -c in between included)
  -h, --help           show this help`,
  world: `Usage: ${NAME} world generate --seed N [--size small|default|large] [--out PATH]
       ${NAME} world check PATH`,
  generate: `Usage: ${NAME} world generate --seed N [--size small|default|large] [--out PATH]

Writes generateWorld({ seed, size }) as JSON (needs @faker-js/faker installed).

Options:
  --seed N        seed of the world (default 42)
  --size SIZE     small (2 organisations, 12 keys), default (4, 50) or large (250, 100000) (default: default)
  --out PATH      file to write (default: standard output)
  -h, --help      show this help`,
  import: `Usage: ${NAME} import --base-url URL --key MANAGEMENT_KEY [options]

Reads an account from a live service, with GETs only, into a world spec that serve --world loads:
every workspace and every key of each; the credits; the endpoints of the models given; every video
model; the files given. Keys keep their
hashes, names, limits, dates and usage figures. Secrets cannot be read: each key gets a fresh one,
printed on stderr as HASH NAME SECRET lines. The key you give is never written or printed.

Options:
  --base-url URL            the service, such as https://openrouter.ai/api/v1
  --key KEY                 a management key of the account (or the environment variable
                            MODEL_ACCESS_SIM_KEY, which keeps it out of the shell history)
  --models A/S,...          models whose endpoints and prices to bring
  --workspaces ID,...       workspaces (UUID or slug) to read even if the account's list omits them
  --files ID,...            files whose bytes to bring
  --out PATH                file to write (default: standard output); written only when all succeeded
  -h, --help                show this help`,
  liveCheck: `Usage: ${NAME} check --base-url URL --key MANAGEMENT_KEY [options]

Runs the simulator's rules against a live service, with GETs only unless --allow-writes, and reports
drift: the shape of each operation's answers (every field, type, null and enumeration the simulator
declares), the statuses of errors (401, 403, 404, 400) and their envelope, key order, what an
anonymous caller sees. Prints a table of rule, simulator, live and verdict; exits 1 on any drift.
Keys are never printed.

Options:
  --base-url URL            the service, such as https://openrouter.ai/api/v1
  --key KEY                 a management key (or the environment variable MODEL_ACCESS_SIM_KEY)
  --regular-key KEY         a regular key of the same account, for the 403 rule
                            (or MODEL_ACCESS_SIM_REGULAR_KEY)
  --models A/S,...          models whose endpoints to check
  --files ID,...            server-created files to download and check
  --allow-extra-fields      a field the simulator does not declare is not drift
  --allow-writes            also create, update and delete a throwaway key named
                            "model-access-sim check" with a zero limit, checking each answer
  --timeout MS              per request (default 30000)
  --json                    the report as JSON instead of a table
  -h, --help                show this help`,
  check: `Usage: ${NAME} world check PATH

Lists every problem of the world spec in PATH, each with its JSON path, and exits 1 if there is one.`,
} as const

/** Runs a parseArgs call, turning its errors (an unknown flag, a missing value) into usage errors. */
function parsed<T extends { positionals: string[] }>(usage: string, args: readonly string[], read: () => T, positionals = 0): T {
  let result: T
  try {
    result = read()
  } catch (error) {
    // parseArgs reads `--port -1` as a flag with no value followed by a flag `-1`: that is a bad
    // value (exit 1), as `--port abc` is, not a misused command.
    const flag = /^Option '(--[\w-]+)' argument is ambiguous/.exec((error as Error).message)?.[1]
    const value = flag === undefined ? undefined : args[args.indexOf(flag) + 1]
    if (flag !== undefined && value !== undefined && /^-\d/.test(value)) throw new CliError(`${flag} takes no negative value, got ${JSON.stringify(value)}`, 1)
    // parseArgs throws only TypeErrors (an unknown option, a missing value).
    throw new CliError((error as Error).message, 2, usage)
  }
  if (result.positionals.length > positionals) throw new CliError(`unexpected argument ${JSON.stringify(result.positionals[positionals])}`, 2, usage)
  return result
}

const HELP = { help: { type: 'boolean', short: 'h' } } as const

function integer(value: string | undefined, flag: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback
  const n = /^-?\d+$/.test(value) ? Number(value) : Number.NaN
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new CliError(`--${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`, 1)
  return n
}

function oneOf<T extends string>(value: string | undefined, flag: string, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback
  if (!allowed.includes(value as T)) throw new CliError(`--${flag} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`, 1)
  return value as T
}

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const

/** `60/1m` as a rate limit: 60 requests a minute. */
function parseRateLimit(value: string): RateLimit {
  const match = /^(\d+)\/(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value)
  const requests = match ? Number(match[1]) : 0
  const intervalMs = match ? Number(match[2]) * UNIT_MS[match[3] as keyof typeof UNIT_MS] : 0
  if (!match) throw new CliError(`--rate-limit must be REQUESTS/INTERVAL with a unit (ms, s, m, h), such as 60/1m, got ${JSON.stringify(value)}`, 1)
  // The shape is right: say which half is not (a limit of 0 requests is no limit to test with; leave the flag out for none).
  if (requests < 1) throw new CliError(`--rate-limit needs at least 1 request per interval, got ${JSON.stringify(value)} (leave the flag out for no rate limit)`, 1)
  if (!Number.isSafeInteger(requests)) throw new CliError(`--rate-limit takes at most ${Number.MAX_SAFE_INTEGER} requests per interval, got ${JSON.stringify(value)}`, 1)
  if (!(intervalMs >= 1) || !Number.isSafeInteger(intervalMs)) throw new CliError(`--rate-limit needs an interval of a whole number of milliseconds, at least 1ms, got ${JSON.stringify(value)}`, 1)
  return { requests, intervalMs }
}

function readJson(path: string, what: string): unknown {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new CliError(`cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`, 1)
  }
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw new CliError(`${what} ${path} is not JSON: ${(error as Error).message}`, 1)
  }
}

/** A world file, checked: the first problem (by its JSON path) is the error, with a count of the rest. */
function loadWorldFile(path: string): WorldSpec {
  const spec = readJson(path, 'world file')
  const problems = validateWorld(spec)
  const first = problems[0]
  if (first !== undefined) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problems: ${NAME} world check ${path} lists them)` : ''
    throw new CliError(`world file ${path} is not a valid world: ${first.path}: ${first.message}${more}`, 1)
  }
  return spec as WorldSpec
}

/**
 * A usable secret of each kind: the handles' when they name one that works (not disabled, not
 * expired at the clock's start), else the first such key of the spec.
 */
function keysOf(sim: Simulator<unknown>, spec: WorldSpec | undefined): { management?: string; regular?: string } {
  const handles = sim.world as Record<string, unknown>
  const now = sim.clock.nowMs()
  const usable = (key: WorldKey): boolean =>
    key.disabled !== true && (key.expiresAt === undefined || key.expiresAt === null || Date.parse(key.expiresAt) > now)
  // A handle names a secret of the spec's keys, or one of a world that is not a file (the default).
  const works = (secret: unknown): secret is string => {
    if (typeof secret !== 'string') return false
    const key = spec?.keys?.find((k) => k.secret === secret)
    return spec === undefined || key === undefined || usable(key)
  }
  const found: { management?: string; regular?: string } = {}
  if (works(handles['managementKey'])) found.management = handles['managementKey']
  if (works(handles['apiKey'])) found.regular = handles['apiKey']
  for (const key of spec?.keys ?? []) {
    if (!usable(key)) continue
    if (key.management === true) found.management ??= key.secret
    else found.regular ??= key.secret
  }
  return found
}

/** How the control API answers, for the banner. */
type ControlState = 'open' | 'token' | 'off' | 'needs-token'

function banner(url: string, controlUrl: string, control: ControlState, keys: { management?: string; regular?: string }, sim: Simulator<unknown>): string {
  const management = keys.management ?? 'sk-or-v1-…'
  const controlLine = {
    open: `  control API:    ${controlUrl} (GET ${controlUrl}/health, POST ${controlUrl}/reset, ...)`,
    token: `  control API:    ${controlUrl} (send "authorization: Bearer <your control token>")`,
    off: '  control API:    off',
    'needs-token': '  control API:    off (bound beyond loopback without --control-token)',
  }[control]
  const lines = [
    `${NAME} ${pkg.version}: the model-access API at ${url}`,
    `  clock: ${sim.clock.now().toISOString()} (${sim.clock.mode})`,
    keys.management ? `  management key: ${keys.management}` : '  management key: none in this world (create one through the control API)',
    keys.regular ? `  regular key:    ${keys.regular}` : '  regular key:    none in this world',
    controlLine,
    '',
    'Try it:',
    `  curl -s ${url}/keys -H "Authorization: Bearer ${management}"`,
    '',
    `  // TypeScript, with the official SDK (@openrouter/sdk)`,
    `  const sdk = new OpenRouter({ apiKey: '${management}', serverURL: '${url}' })`,
    `  console.log((await sdk.apiKeys.list()).data.length)`,
    '',
    `  # Python, standard library only`,
    `  python3 -c "import json, urllib.request as r; q = r.Request('${url}/keys', headers={'Authorization': 'Bearer ${management}'}); print(len(json.load(r.urlopen(q))['data']), 'keys')"`,
    '',
    ...spendingLines(url, sim),
  ]
  if (!keys.management && control === 'open') {
    lines.push(
      'No key yet? Create an organisation and a management key:',
      `  curl -s -X POST ${controlUrl}/users -H 'content-type: application/json' -d '{"name":"Acme"}'`,
      `  curl -s -X POST ${controlUrl}/keys -H 'content-type: application/json' -d '{"userId":"USER_ID","management":true}'`,
      '',
    )
  }
  lines.push('Stop with Ctrl+C.', '')
  return lines.join('\n')
}

/**
 * A priced completion to try, when the world names a key near its limit and a paid model (the
 * default world and generated ones do): its `usage.cost` is what the key is charged, and the same
 * command a second time is refused with 403 at the key's limit.
 */
function spendingLines(url: string, sim: Simulator<unknown>): string[] {
  const handles = sim.world as { nearLimitKey?: unknown; models?: { paid?: unknown } }
  const key = handles.nearLimitKey
  const model = handles.models?.paid
  if (typeof key !== 'string' || typeof model !== 'string') return []
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }] })
  return [
    'Spend: a priced completion (usage.cost is what the key is charged). This key has 0.000001 USD left',
    'of its daily limit, so the same command a second time answers 403 "Key limit exceeded":',
    `  curl -s ${url}/chat/completions -H "Authorization: Bearer ${key}" -H 'content-type: application/json' -d '${body}'`,
    '',
  ]
}

function logLine(format: 'pretty' | 'json', entry: RequestLogEntry): string {
  if (format === 'json') return JSON.stringify(entry)
  return `${entry.time} ${entry.method} ${entry.path} ${entry.status === 0 ? 'dropped' : entry.status} ${entry.operation ?? '-'} ${entry.ms.toFixed(1)}ms`
}

async function serve(args: string[], io: CliIo): Promise<number> {
  const { values } = parsed(USAGE.serve, args, () =>
    parseArgs({
      args,
      strict: true,
      options: {
        ...HELP,
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        world: { type: 'string' },
        now: { type: 'string' },
        clock: { type: 'string' },
        'rate-limit': { type: 'string' },
        'journal-limit': { type: 'string' },
        'journal-bytes': { type: 'string' },
        'strict-requests': { type: 'boolean' },
        'tool-rounds': { type: 'string' },
        'no-control': { type: 'boolean' },
        'no-cors': { type: 'boolean' },
        'control-token': { type: 'string' },
        'ready-file': { type: 'string' },
        'no-exit-with-launcher': { type: 'boolean' },
        log: { type: 'string' },
      },
    }),
  )
  if (values.help) return help(io, USAGE.serve)
  const port = integer(values.port, 'port', 0, 65_535, DEFAULT_PORT)
  const seed = integer(values.seed, 'seed', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 42)
  const journalLimit = integer(values['journal-limit'], 'journal-limit', 0, Number.MAX_SAFE_INTEGER, 1_000)
  // Left to the simulator's default when not given.
  const journalBytes = values['journal-bytes'] === undefined ? undefined : integer(values['journal-bytes'], 'journal-bytes', 0, Number.MAX_SAFE_INTEGER, 0)
  const clock = oneOf(values.clock, 'clock', ['virtual', 'real'] as const, 'virtual')
  const toolRounds = values['tool-rounds'] === undefined ? undefined : integer(values['tool-rounds'], 'tool-rounds', 0, Number.MAX_SAFE_INTEGER, 1)
  const logFormat = oneOf(values.log, 'log', ['pretty', 'json', 'off'] as const, 'pretty')
  const rateLimit = values['rate-limit'] === undefined ? null : parseRateLimit(values['rate-limit'])
  const worldArg = values.world ?? 'default'
  const spec = worldArg === 'default' || worldArg === 'empty' ? undefined : loadWorldFile(worldArg)
  let sim: Simulator<unknown>
  try {
    sim = createSimulator({
      seed,
      world: spec ?? (worldArg as 'default' | 'empty'),
      clock,
      rateLimit,
      journalLimit,
      ...(journalBytes !== undefined && { journalBytes }),
      strictRequests: values['strict-requests'] === true,
      ...(toolRounds !== undefined && { replies: { toolRounds } }),
      ...(values.now !== undefined && { now: values.now }),
    }) as Simulator<unknown>
  } catch (error) {
    if (!(error instanceof SimulatorError)) throw error
    // The options this command passes on are checked above, but for the clock's start.
    throw new CliError(error.argument === 'now' ? `--now must be an ISO 8601 instant with a time and an offset, such as 2026-03-02T10:00:00Z, got ${JSON.stringify(values.now)}` : error.message, 1)
  }
  const controlToken = values['control-token'] ?? (io.env['MODEL_ACCESS_SIM_CONTROL_TOKEN'] || undefined)
  // A ready file left by an earlier run must not tell a waiting script that this one is ready.
  if (values['ready-file'] !== undefined) rmSync(values['ready-file'], { force: true })
  const server = await startServer(sim, {
    port,
    ...(values.host !== undefined && { host: values.host }),
    control: !values['no-control'],
    cors: !values['no-cors'],
    ...(controlToken !== undefined && { controlToken }),
    ...(logFormat !== 'off' && { onRequest: (entry: RequestLogEntry) => io.stdout(`${logLine(logFormat, entry)}\n`) }),
  }).catch((error: unknown) => {
    if (error instanceof SimulatorError && error.argument === 'controlToken') {
      // Named as the user gave it: the flag, or the environment variable when there was no flag.
      const source = values['control-token'] !== undefined ? '--control-token' : 'MODEL_ACCESS_SIM_CONTROL_TOKEN'
      throw new CliError(`${source} ${error.message.replace(/^.*"controlToken" /, '')}`, 1)
    }
    throw new CliError(error instanceof Error ? error.message.replace(/^Failed to start the server: /, 'cannot start the server: ') : String(error), 1)
  })
  const control: ControlState = values['no-control'] ? 'off' : controlToken !== undefined ? 'token' : isLoopbackName(values.host ?? '127.0.0.1') ? 'open' : 'needs-token'
  const keys = keysOf(sim, spec)
  const ready = readyLine(server, control, keys, sim)
  if (logFormat === 'json') io.stdout(`${JSON.stringify(ready)}\n`)
  else io.stdout(banner(server.url, server.controlUrl, control, keys, sim))
  const readyFile = values['ready-file']
  if (readyFile !== undefined) {
    try {
      writeReadyFile(readyFile, ready)
    } catch (error) {
      await server.close()
      throw new CliError(`cannot write the ready file ${readyFile}: ${(error as Error).message}`, 1)
    }
  }
  return stopOnSignalOrLauncher(server, io, { launcher: values['no-exit-with-launcher'] ? undefined : io.launcher, readyFile })
}

/** What `--log json` prints first and `--ready-file` holds: where the server is and the keys to use. */
interface ReadyLine {
  event: 'ready'
  version: string
  pid: number
  url: string
  /** null when the control API is off. */
  controlUrl: string | null
  port: number
  /** A usable management key and regular key of the world (null when it has none). */
  managementKey: string | null
  regularKey: string | null
  clock: { now: string; mode: string }
  /** The world's handles, as `GET /__sim/world` and `sim.world` give them. */
  handles: unknown
}

function readyLine(server: SimulatorServer, control: ControlState, keys: { management?: string; regular?: string }, sim: Simulator<unknown>): ReadyLine {
  return {
    event: 'ready',
    version: pkg.version,
    pid: process.pid,
    url: server.url,
    controlUrl: control === 'open' || control === 'token' ? server.controlUrl : null,
    port: server.port,
    managementKey: keys.management ?? null,
    regularKey: keys.regular ?? null,
    clock: { now: sim.clock.now().toISOString(), mode: sim.clock.mode },
    handles: sim.world,
  }
}

/** Written whole under another name, then renamed: a reader polling for the file never reads half of it. */
function writeReadyFile(path: string, ready: ReadyLine): void {
  const partial = `${path}.${process.pid}.partial`
  writeFileSync(partial, `${JSON.stringify(ready)}\n`)
  renameSync(partial, path)
}

/** How long a stop may take before the process exits without waiting for the rest. */
const STOP_DEADLINE_MS = 2_000

/**
 * Serves until SIGINT or SIGTERM, or until the process that started it goes away (launcher.ts), then
 * closes the server. A close that has not finished within STOP_DEADLINE_MS (a large answer still
 * being written to a client that does not read) does not hold the process: it exits regardless.
 */
function stopOnSignalOrLauncher(server: SimulatorServer, io: CliIo, options: { launcher: Launcher | undefined; readyFile: string | undefined }): Promise<number> {
  return new Promise<number>((resolve) => {
    let stopping = false
    let stopWatch: (() => void) | undefined
    const stop = (): void => {
      if (stopping) return
      stopping = true
      stopWatch?.()
      if (options.readyFile !== undefined) rmSync(options.readyFile, { force: true })
      const deadline = setTimeout(() => {
        io.stderr(`${NAME}: connections still open ${STOP_DEADLINE_MS} ms after the stop; exiting without them\n`)
        io.exit(0)
      }, STOP_DEADLINE_MS)
      deadline.unref()
      // Signals are heard until the server has closed: a second Ctrl+C meanwhile is not the default kill.
      const closed = (): void => {
        clearTimeout(deadline)
        stopSignals()
        resolve(0)
      }
      server.close().then(closed, closed)
    }
    // Every signal, not the first only: a second Ctrl+C while closing is the same close.
    const stopSignals = io.onSignal(stop)
    stopWatch = options.launcher?.watch((why) => {
      io.stderr(`${NAME}: ${why}; stopping\n`)
      stop()
    })
  })
}

async function generate(args: string[], io: CliIo): Promise<number> {
  const { values } = parsed(USAGE.generate, args, () =>
    parseArgs({ args, strict: true, options: { ...HELP, seed: { type: 'string' }, size: { type: 'string' }, out: { type: 'string' } } }),
  )
  if (values.help) return help(io, USAGE.generate)
  const seed = integer(values.seed, 'seed', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 42)
  const size = oneOf(values.size, 'size', ['small', 'default', 'large'] as const, 'default')
  let fixtures: typeof import('../fixtures/index.js')
  try {
    fixtures = await import('../fixtures/index.js')
  } catch (error) {
    throw new CliError(`world generate needs @faker-js/faker: npm install --save-dev @faker-js/faker (${(error as Error).message})`, 1)
  }
  const text = `${JSON.stringify(fixtures.generateWorld({ seed, size }), null, 2)}\n`
  if (values.out === undefined) {
    io.stdout(text)
    return 0
  }
  try {
    writeFileSync(values.out, text)
  } catch (error) {
    throw new CliError(`cannot write ${values.out}: ${(error as Error).message}`, 1)
  }
  io.stderr(`${NAME}: wrote a ${size} world (seed ${seed}) to ${values.out}\n`)
  return 0
}

function check(args: string[], io: CliIo): number {
  const { values, positionals } = parsed(USAGE.check, args, () => parseArgs({ args, strict: true, allowPositionals: true, options: HELP }), 1)
  if (values.help) return help(io, USAGE.check)
  const path = positionals[0]
  if (path === undefined) throw new CliError('world check needs the PATH of a world spec', 2, USAGE.check)
  const spec = readJson(path, 'world file')
  const problems = validateWorld(spec)
  for (const problem of problems) io.stdout(`${problem.path}: ${problem.message}\n`)
  if (problems.length > 0) {
    io.stderr(`${NAME}: ${path}: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n`)
    return 1
  }
  const count = (list: unknown): number => (Array.isArray(list) ? list.length : 0)
  const s = spec as WorldSpec
  io.stdout(
    `${path}: a valid world: ${count(s.users)} users, ${count(s.workspaces)} workspaces, ${count(s.keys)} keys, ${count(s.files)} files, ${count(s.models)} models, ${count(s.videoModels)} video models\n`,
  )
  return 0
}

/** A comma-separated list flag, without empty items. */
function list(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(',').map((item) => item.trim()).filter((item) => item !== '')
}

/** The management key from --key or MODEL_ACCESS_SIM_KEY; never echoed. */
function managementKeyOf(value: string | undefined, usage: string, io: CliIo): string {
  const key = value ?? io.env['MODEL_ACCESS_SIM_KEY']
  if (key === undefined || key === '') throw new CliError('a management key is needed: --key KEY, or the environment variable MODEL_ACCESS_SIM_KEY', 2, usage)
  return key
}

async function importCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parsed(USAGE.import, args, () =>
    parseArgs({
      args,
      strict: true,
      options: { ...HELP, 'base-url': { type: 'string' }, key: { type: 'string' }, models: { type: 'string' }, workspaces: { type: 'string' }, files: { type: 'string' }, out: { type: 'string' } },
    }),
  )
  if (values.help) return help(io, USAGE.import)
  if (values['base-url'] === undefined) throw new CliError('import needs --base-url URL', 2, USAGE.import)
  const managementKey = managementKeyOf(values.key, USAGE.import, io)
  const { importWorld } = await import('../live/index.js')
  const models = list(values.models)
  const workspaces = list(values.workspaces)
  const files = list(values.files)
  let imported: Awaited<ReturnType<typeof importWorld>>
  try {
    imported = await importWorld({
      baseUrl: values['base-url'],
      managementKey,
      ...(models && { models }),
      ...(workspaces && { workspaces }),
      ...(files && { files }),
      onProgress: (event) => io.stderr(`${NAME}: ${event.message}\n`),
    })
  } catch (error) {
    // Every message names the request or the option; none carries the key (src/live/import.ts).
    throw new CliError(`import failed: ${error instanceof Error ? error.message : String(error)}`, 1)
  }
  const text = `${JSON.stringify(imported.world, null, 2)}\n`
  if (values.out === undefined) io.stdout(text)
  else {
    try {
      writeFileSync(values.out, text)
    } catch (error) {
      throw new CliError(`cannot write ${values.out}: ${(error as Error).message}`, 1)
    }
  }
  const w = imported.world
  io.stderr(
    `${NAME}: imported ${w.keys?.length ?? 0} keys (a fresh management key included), ${w.workspaces?.length ?? 0} more workspaces besides the default, ` +
      `${w.models?.length ?? 0} models, ${w.videoModels?.length ?? 0} video models, ${w.files?.length ?? 0} files${values.out === undefined ? '' : ` to ${values.out}`}\n`,
  )
  io.stderr(`${NAME}: fresh secrets (HASH NAME SECRET); the management key: ${imported.world.handles?.managementKey}\n`)
  for (const { hash, name, secret } of imported.secrets) io.stderr(`${hash} ${JSON.stringify(name)} ${secret}\n`)
  return 0
}

async function liveCheck(args: string[], io: CliIo): Promise<number> {
  const { values } = parsed(USAGE.liveCheck, args, () =>
    parseArgs({
      args,
      strict: true,
      options: {
        ...HELP,
        'base-url': { type: 'string' },
        key: { type: 'string' },
        'regular-key': { type: 'string' },
        models: { type: 'string' },
        files: { type: 'string' },
        'allow-extra-fields': { type: 'boolean' },
        'allow-writes': { type: 'boolean' },
        timeout: { type: 'string' },
        json: { type: 'boolean' },
      },
    }),
  )
  if (values.help) return help(io, USAGE.liveCheck)
  if (values['base-url'] === undefined) throw new CliError('check needs --base-url URL', 2, USAGE.liveCheck)
  const managementKey = managementKeyOf(values.key, USAGE.liveCheck, io)
  const regularKey = values['regular-key'] ?? (io.env['MODEL_ACCESS_SIM_REGULAR_KEY'] || undefined)
  // Read before the check, whose failures are reported as its own: a bad --timeout is the flag's.
  const timeoutMs = integer(values.timeout, 'timeout', 1, 600_000, 30_000)
  const { checkService, formatReport } = await import('../live/index.js')
  let report: Awaited<ReturnType<typeof checkService>>
  try {
    report = await checkService({
      baseUrl: values['base-url'],
      managementKey,
      regularKey,
      models: list(values.models),
      files: list(values.files),
      allowExtraFields: values['allow-extra-fields'] ?? false,
      allowWrites: values['allow-writes'] ?? false,
      timeoutMs,
    })
  } catch (error) {
    throw new CliError(`check failed: ${error instanceof Error ? error.message : String(error)}`, 1)
  }
  io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`)
  return report.drift > 0 ? 1 : 0
}

function help(io: CliIo, text: string): number {
  io.stdout(`${text}\n`)
  return 0
}

/**
 * Runs the command `argv` names (the arguments after the program's name) and resolves to its exit
 * code: 0 success, 1 a problem (its message on stderr), 2 a usage error (the message and the usage
 * on stderr). `serve` resolves once it has stopped: on a signal, or when its launcher has gone.
 * A failure nobody foresaw is reported on stderr with its stack, as exit code 1.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await command(argv, io)
  } catch (error) {
    if (!(error instanceof CliError)) {
      io.stderr(`${NAME}: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
      return 1
    }
    io.stderr(`${NAME}: ${error.message}\n`)
    if (error.usage !== undefined) io.stderr(`\n${error.usage}\n`)
    return error.exitCode
  }
}

async function command(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined || command === '-h' || command === '--help') return help(io, USAGE.main)
  if (command === '-v' || command === '--version') return help(io, pkg.version)
  if (command === 'serve') return await serve(rest, io)
  if (command === 'import') return await importCommand(rest, io)
  if (command === 'check') return await liveCheck(rest, io)
  if (command === 'world') {
    const [sub, ...args] = rest
    if (sub === undefined || sub === '-h' || sub === '--help') return help(io, USAGE.world)
    if (sub === 'generate') return await generate(args, io)
    if (sub === 'check') return check(args, io)
    throw new CliError(`unknown world command ${JSON.stringify(sub)}`, 2, USAGE.world)
  }
  throw new CliError(`unknown command ${JSON.stringify(command)}`, 2, USAGE.main)
}
