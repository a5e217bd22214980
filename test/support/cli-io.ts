// runCli with a recording CliIo: its streams, environment, signals, launcher and exit, so that a test
// runs the command in process (test/server/cli-run.test.ts, cli-mut.test.ts).
import type { CliIo } from '../../src/server/cli.js'
import type { Launcher } from '../../src/server/launcher.js'

export interface Recorder {
  io: CliIo
  stdout(): string
  stderr(): string
  /** Codes the command asked to exit with at once (a stop past its deadline). */
  exits: number[]
  /** Sends what SIGINT or SIGTERM would: calls every stop the command listens with. */
  signal(): void
  /** How many stops listen for signals now. */
  listening(): number
  /** Resolves at the command's first write to stdout. */
  written: Promise<void>
}

export function recorder(options: { env?: Record<string, string>; launcher?: Launcher } = {}): Recorder {
  let out = ''
  let err = ''
  let wrote: () => void = () => {}
  const written = new Promise<void>((resolve) => {
    wrote = resolve
  })
  const stops = new Set<() => void>()
  const exits: number[] = []
  const io: CliIo = {
    stdout(text) {
      out += text
      wrote()
    },
    stderr(text) {
      err += text
    },
    env: options.env ?? {},
    launcher: options.launcher,
    onSignal(stop) {
      stops.add(stop)
      return () => stops.delete(stop)
    },
    exit: (code) => exits.push(code),
  }
  return {
    io,
    stdout: () => out,
    stderr: () => err,
    exits,
    signal: () => {
      for (const stop of [...stops]) stop()
    },
    listening: () => stops.size,
    written,
  }
}
