// `serve` stops with whatever started it (decisions/0019): npx and `npm run` do not pass SIGTERM on,
// and the server used to keep its port after them. Each test starts the server the way a CI script
// does, signals the launcher's process only (or its process group), and checks the port is free.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createConnection } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { isWrapper } from '../../src/server/launcher.js'

const ROOT = resolve(import.meta.dirname, '../..')
const CLI = join(ROOT, 'src/server/cli-entry.ts')
/** npm, then tsx compiling the CLI cold, on a busy 2-core machine. */
const START_TIMEOUT_MS = 30_000
/** The watch polls every 500 ms; the close itself takes milliseconds. Generous for a loaded machine. */
const STOP_WITHIN_MS = 5_000

interface Started {
  child: ChildProcess
  /** The server's own process, from its ready line. */
  pid: number
  port: number
  stderr(): string
}

const children = new Set<ChildProcess>()
const serverPids = new Set<number>()

/** Whether the process runs (a zombie, dead but not yet reaped, does not). */
function running(pid: number): boolean {
  if (existsSync('/proc')) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
    } catch {
      return false
    }
  }
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      done(true)
    })
    socket.once('error', () => done(false))
  })
}

/** Milliseconds until nothing accepts on the port and the server's process is gone; fails after `ms`. */
async function stoppedWithin(started: Started, ms: number): Promise<number> {
  const from = performance.now()
  while (performance.now() - from < ms) {
    if (!(await accepts(started.port)) && !running(started.pid)) return performance.now() - from
    await new Promise((wait) => setTimeout(wait, 50))
  }
  // The processes around it say which link of the chain the watch missed.
  const processes = execFileSync('ps', ['-eo', 'pid,ppid,stat,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => /npm|npx|sh -c|cli(-entry)?\.ts/.test(line))
  throw new Error(`the server (pid ${started.pid}) still ran ${ms} ms after the signal; stderr:\n${started.stderr()}\nprocesses:\n${processes.join('\n')}`)
}

/** Runs `command` and waits for the server's JSON ready line. */
function start(command: string, args: string[], options: { cwd: string; detached?: boolean }): Promise<Started> {
  // npm must not look for updates or ask anything: these runs use what is on disk.
  const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_offline: 'true', npm_config_fund: 'false', npm_config_yes: 'false' }
  const child = spawn(command, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: options.detached ?? false })
  children.add(child)
  let out = ''
  let err = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within ${START_TIMEOUT_MS} ms; stdout:\n${out}\nstderr:\n${err}`)), START_TIMEOUT_MS)
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const newline = out.indexOf('\n')
      if (newline === -1) return
      clearTimeout(timer)
      const ready = JSON.parse(out.slice(0, newline)) as { pid: number; port: number }
      serverPids.add(ready.pid)
      resolveStart({ child, pid: ready.pid, port: ready.port, stderr: () => err })
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${command} exited (${code}) before the ready line; stdout:\n${out}\nstderr:\n${err}`))
    })
  })
}

/** A project that has the command installed as npm installs a bin: node_modules/.bin/model-access-sim. */
let project = ''
const SERVE = ['serve', '--port', '0', '--log', 'json', '--world', 'empty']

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'model-access-sim-launcher-'))
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true })
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'launcher-test', private: true, scripts: { sim: `model-access-sim ${SERVE.join(' ')}` } }))
  const bin = join(project, 'node_modules', '.bin', 'model-access-sim')
  // The real bin is dist/cli.js under node; this one runs the source, as the rest of the tests do.
  const tsx = fileURLToPath(import.meta.resolve('tsx'))
  writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" --import "${tsx}" "${CLI}" "$@"\n`)
  chmodSync(bin, 0o755)
})

afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  children.clear()
  for (const pid of serverPids) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  serverPids.clear()
})

afterAll(() => {
  if (project !== '') rmSync(project, { recursive: true, force: true })
})

describe('serve stops with its launcher', { timeout: 60_000 }, () => {
  it('frees its port within seconds of a SIGTERM to npx alone', async () => {
    const started = await start('npx', ['--no', 'model-access-sim', ...SERVE], { cwd: project })
    expect(started.pid).not.toBe(started.child.pid)
    expect(await accepts(started.port)).toBe(true)
    started.child.kill('SIGTERM')
    expect(await stoppedWithin(started, STOP_WITHIN_MS)).toBeLessThan(STOP_WITHIN_MS)
    expect(started.stderr()).toMatch(/which started this server, has exited; stopping/)
  })

  it('frees its port within seconds of a SIGTERM to `npm run` alone', async () => {
    const started = await start('npm', ['run', '--silent', 'sim'], { cwd: project })
    expect(await accepts(started.port)).toBe(true)
    started.child.kill('SIGTERM')
    expect(await stoppedWithin(started, STOP_WITHIN_MS)).toBeLessThan(STOP_WITHIN_MS)
  })

  it('frees its port within seconds of a SIGTERM to the repository\'s own `npm run serve` (npm, sh -c, tsx, the CLI)', async () => {
    const started = await start('npm', ['run', '--silent', 'serve', '--', ...SERVE.slice(1)], { cwd: ROOT })
    expect(await accepts(started.port)).toBe(true)
    started.child.kill('SIGTERM')
    expect(await stoppedWithin(started, STOP_WITHIN_MS)).toBeLessThan(STOP_WITHIN_MS)
  })

  it('is not reached by a SIGINT to npx alone, and stops on a SIGINT to the process group, as the README says', async () => {
    const started = await start('npx', ['--no', 'model-access-sim', ...SERVE], { cwd: project, detached: true })
    started.child.kill('SIGINT')
    // Longer than the watch's poll: npx ignored the SIGINT and is still there, so the server serves.
    await new Promise((wait) => setTimeout(wait, 1_500))
    expect(started.child.exitCode).toBeNull()
    expect(await accepts(started.port)).toBe(true)
    process.kill(-(started.child.pid as number), 'SIGINT')
    expect(await stoppedWithin(started, STOP_WITHIN_MS)).toBeLessThan(STOP_WITHIN_MS)
  })

  it('keeps serving after its launcher exits with --no-exit-with-launcher, until signalled itself', async () => {
    const started = await start('npx', ['--no', 'model-access-sim', ...SERVE, '--no-exit-with-launcher'], { cwd: project })
    started.child.kill('SIGTERM')
    await new Promise((wait) => setTimeout(wait, 1_500))
    expect(await accepts(started.port)).toBe(true)
    process.kill(started.pid, 'SIGTERM')
    expect(await stoppedWithin(started, STOP_WITHIN_MS)).toBeLessThan(STOP_WITHIN_MS)
  })
})

describe('serve signalled while it starts', { timeout: 60_000 }, () => {
  it('stops when npx is killed before the server has read who started it: it finds itself under init in npx\'s process group', async () => {
    // Recognised in the process list by a ready file of its own.
    const marker = join(project, `ready-${process.pid}-${Date.now()}.json`)
    const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_offline: 'true' }
    const child = spawn('npx', ['--no', 'model-access-sim', ...SERVE, '--ready-file', marker], { cwd: project, env, stdio: 'ignore' })
    children.add(child)
    // Long enough for npx to have started the CLI, short of tsx having compiled it.
    const servers = (): number[] =>
      readdirSync('/proc')
        .filter((name) => /^\d+$/.test(name))
        .filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker) && running(Number(pid))
          } catch {
            return false
          }
        })
        .map(Number)
        .filter((pid) => pid !== child.pid)
    const deadline = performance.now() + 10_000
    while (servers().length === 0 && performance.now() < deadline) await new Promise((wait) => setTimeout(wait, 20))
    const started = servers()
    expect(started.length).toBeGreaterThan(0)
    for (const pid of started) serverPids.add(pid)
    child.kill('SIGTERM')
    // It loads, listens, sees at its first check that its launcher went, and stops: nothing is left.
    const stopped = performance.now() + START_TIMEOUT_MS
    while (servers().length > 0 && performance.now() < stopped) await new Promise((wait) => setTimeout(wait, 100))
    expect(servers()).toEqual([])
    expect(existsSync(marker)).toBe(false)
  })
})

describe('isWrapper', () => {
  it('names npm, npx, tsx and a shell given -c as wrappers, and a CI shell, a test runner or the server as not', () => {
    for (const args of [['npm exec model-access-sim serve'], ['npm run serve'], ['sh', '-c', 'model-access-sim serve'], ['/bin/bash', '-c', 'x'], ['node', '/usr/lib/node_modules/npm/bin/npm-cli.js', 'run', 'serve'], ['node', '/repo/node_modules/.bin/tsx', 'src/server/cli.ts'], ['/usr/local/bin/npx', 'x'], ['node', '/p/node_modules/tsx/dist/cli.mjs', 'a.ts']]) {
      expect(isWrapper(args), args.join(' ')).toBe(true)
    }
    for (const args of [['bash', 'script.sh'], ['/bin/bash'], ['-bash'], ['node', '/repo/node_modules/vitest/vitest.mjs'], ['python3', '-m', 'unittest'], ['node', '--import', 'tsx', 'src/server/cli.ts', 'serve'], ['sh', 'ci.sh', '-c']]) {
      expect(isWrapper(args), args.join(' ')).toBe(false)
    }
  })
})
