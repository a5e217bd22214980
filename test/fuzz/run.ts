// `npm run fuzz`: the long run of the wire fuzz properties through sim.handle.
//
//   FUZZ_REQUESTS=200000   requests in all (default 200,000), 2,000 a world, the world kinds in turn
//   FUZZ_SEED=1234         the seed (default: a fresh one, printed first); the same seed, the same run
//   FUZZ_REPLAY=kind:world:request
//                          replays one request of a run (with FUZZ_SEED) and prints it whole, with its answer
//
// Exit code 1 on any violation of the wire contract, 0 otherwise.
import { ViolationLog, WORLD_KINDS, type WorldKind, type WorldSetup, runWorld, seedFromEnv, worldSetup } from './campaign.js'

const PER_WORLD = 2_000

function main(): number {
  const seed = seedFromEnv(Math.floor(Math.random() * 2 ** 31))
  const replay = process.env['FUZZ_REPLAY']
  if (replay !== undefined && replay !== '') {
    if (process.env['FUZZ_SEED'] === undefined) {
      console.error('FUZZ_REPLAY needs the FUZZ_SEED of the run it replays.')
      return 2
    }
    const match = /^([a-z-]+):(\d+):(\d+)$/.exec(replay)
    const kind = match?.[1] as WorldKind | undefined
    if (!match || kind === undefined || !WORLD_KINDS.includes(kind)) {
      console.error(`FUZZ_REPLAY must be kind:world:request with kind one of ${WORLD_KINDS.join(', ')}, got ${JSON.stringify(replay)}.`)
      return 2
    }
    const problems = runWorld(worldSetup(seed, kind, Number(match[2])), Number(match[3]) + 1, new ViolationLog(), (line) => console.log(line))
    return problems.length > 0 ? 1 : 0
  }

  const total = Number(process.env['FUZZ_REQUESTS'] ?? 200_000)
  if (!Number.isSafeInteger(total) || total < 1) {
    console.error(`FUZZ_REQUESTS must be a positive integer, got ${JSON.stringify(process.env['FUZZ_REQUESTS'])}.`)
    return 2
  }
  console.log(`wire fuzz: ${total} requests through sim.handle, seed ${seed} (FUZZ_SEED=${seed} replays this run)`)
  const log = new ViolationLog()
  const setups = new Map<string, WorldSetup>()
  const started = performance.now()
  const next = new Map<WorldKind, number>()
  for (let done = 0, world = 0; done < total; world++) {
    const kind = WORLD_KINDS[world % WORLD_KINDS.length] as WorldKind
    const index = next.get(kind) ?? 0
    next.set(kind, index + 1)
    const count = Math.min(PER_WORLD, total - done)
    const setup = worldSetup(seed, kind, index)
    const before = log.total
    runWorld(setup, count, log)
    // Only the worlds a report names are kept.
    if (log.total > before) setups.set(`${kind}:${index}`, setup)
    done += count
    const seconds = (performance.now() - started) / 1000
    console.log(`  ${done}/${total} requests, ${log.total} violating, ${seconds.toFixed(1)} s (${Math.round(done / seconds)}/s); last world ${kind}#${index}`)
  }
  if (log.total === 0) {
    console.log(`no violation in ${log.requests} requests (seed ${seed}).`)
    return 0
  }
  console.log(log.format(seed, setups))
  return 1
}

process.exitCode = main()
