// Reads one URL to its end in a process of its own, so that the bytes it reads cost the test's
// process nothing, and reports over IPC: { status, bytes, firstByteMs, ms }.
import { request } from 'node:http'

const [port, path] = process.argv.slice(2)
const started = performance.now()
request({ host: '127.0.0.1', port: Number(port), path }, (res) => {
  const firstByteMs = performance.now() - started
  let bytes = 0
  res.on('data', (chunk) => (bytes += chunk.length))
  res.on('end', () => {
    process.send({ status: res.statusCode, bytes, firstByteMs, ms: performance.now() - started })
    process.disconnect()
  })
}).end()
