#!/usr/bin/env node
// The `model-access-sim` process (package.json "bin", built as dist/cli.js): its arguments, streams,
// environment, signals and launcher, handed to runCli (cli.ts), which holds every rule and which
// tests call in process. Only a child process runs this file: mutation testing leaves it out (decisions/0058).
import { runCli } from './cli.js'
import { captureLauncher } from './launcher.js'

// A reader that went away (`serve | head -1`) is no reason to stop serving.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error
})

void runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  // Read before the world loads and the server starts: see captureLauncher.
  launcher: process.argv[2] === 'serve' ? captureLauncher() : undefined,
  onSignal(stop) {
    process.on('SIGINT', stop).on('SIGTERM', stop)
    return () => process.off('SIGINT', stop).off('SIGTERM', stop)
  },
  exit: (code) => process.exit(code),
}).then((code) => {
  process.exitCode = code
})
