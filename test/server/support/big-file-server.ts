// A server in a process of its own, for tests that measure it from outside: its event loop and its
// memory are not the test's. Run with `node --import tsx big-file-server.ts MiB`; it serves the
// default world plus one server-created file of MiB mebibytes, and talks over IPC:
//   -> { port, fileId, managementKey }   once listening
//   <- 'rss'  -> { rss }                  its resident set size, in bytes, after a GC when exposed
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createSimulator } from '../../../src/index.js'
import { startServer } from '../../../src/server/index.js'

const mib = Number(process.argv[2] ?? '1')
// The journal keeps every download (each counts its bytes against the byte budget, 64 MiB by default).
const sim = createSimulator({ journalBytes: 1024 * 1024 * 1024 })
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
