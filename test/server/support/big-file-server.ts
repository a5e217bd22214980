// A server in a process of its own, for tests that measure it from outside: its event loop and its
// memory are not the test's. Run with `node --import tsx big-file-server.ts MiB [KEYS]`; it serves the
// default world plus one server-created file of MiB mebibytes (and KEYS more keys, 0 by default),
// and talks over IPC:
//   -> { port, fileId, managementKey }   once listening
//   <- 'rss'  -> { rss }                  its resident set size, in bytes, after a GC when exposed
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { type DefaultWorld, type WorldKey, type WorldSpec, createSimulator } from '../../../src/index.js'
import { startServer } from '../../../src/server/index.js'

const mib = Number(process.argv[2] ?? '1')
const keyCount = Number(process.argv[3] ?? '0')
/** The default world with `keyCount` keys more, as a spec: 100,000 load in about a second. */
function bigWorld(): WorldSpec<DefaultWorld> {
  const base = createSimulator().exportWorld()
  const userId = base.users?.[0]?.id ?? ''
  const more: WorldKey[] = Array.from({ length: keyCount }, (_, i) => ({ userId, secret: `sk-or-v1-more-${String(i).padStart(12, '0')}`, name: `key ${i}` }))
  return { ...base, keys: [...(base.keys ?? []), ...more] }
}
// The journal keeps every download (each counts its bytes against the byte budget, 64 MiB by default).
const journalBytes = 1024 * 1024 * 1024
const sim = keyCount === 0 ? createSimulator({ journalBytes }) : createSimulator({ world: bigWorld(), journalBytes })
/** The file, made in a function so that its bytes are only the store's afterwards. */
function createFile(): { id: string } {
  const bytes = new Uint8Array(mib * 1024 * 1024)
  for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i & 255
  return sim.files.create({ userId: sim.world.userId, id: 'file_big', origin: 'server', bytes })
}
const file = createFile()
const server = await startServer(sim, { port: 0 })
const delay = monitorEventLoopDelay({ resolution: 5 })
delay.enable()
process.on('message', (message) => {
  if (message === 'delay') {
    process.send?.({ maxDelayMs: delay.max / 1e6 })
    delay.reset()
    return
  }
  if (message !== 'rss') return
  ;(globalThis as { gc?: () => void }).gc?.()
  process.send?.({ rss: process.memoryUsage().rss })
})
process.on('disconnect', () => void server.close().then(() => process.exit(0)))
process.send?.({ port: server.port, fileId: file.id, managementKey: sim.world.managementKey })
