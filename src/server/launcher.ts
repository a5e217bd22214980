// Stopping with the launcher (decisions/0019). `npx model-access-sim serve &` and `npm run serve`
// put the server under npm and a `sh -c`, and neither passes a signal on: `kill $!` ended npm and
// left the server holding its port. So the server watches the processes that started it and stops
// when one of them goes away.
//
// What is watched: the parent, and above it every "wrapper" (npm, npx, pnpm, yarn, tsx, corepack, a
// `sh -c`) up to the first process that is none of these, the launcher (a CI step's shell, a test
// runner). A process whose parent exits is given a new parent, so each watched link is checked by
// reading the child's parent id again; a dead process that nobody has reaped yet (a zombie) still
// answers `kill(pid, 0)`, which is why liveness alone is not enough. On Linux the links are read
// from /proc; elsewhere from `ps`; where neither works, only the server's own parent is watched.
import { execFile, execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'

/** One link of the chain: `child`'s parent was `parent` when the server started. */
interface Link {
  child: number
  parent: number
}

interface ProcessInfo {
  ppid: number
  args: string[]
}

/** A process's parent and arguments from /proc, or undefined when it is gone or /proc is not there. */
function procInfo(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The name in parentheses may hold spaces and parentheses itself: fields start after the last `)`.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg !== '')
    return { ppid: Number(fields[1]), args }
  } catch {
    return undefined
  }
}

/** The same through `ps` (macOS, the BSDs): slower, so used only where /proc is missing. */
function psInfo(pid: number): ProcessInfo | undefined {
  try {
    const line = execFileSync('ps', ['-o', 'ppid=', '-o', 'args=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000 }).trim()
    const match = /^(\d+)\s+(.*)$/.exec(line)
    return match ? { ppid: Number(match[1]), args: (match[2] as string).split(/\s+/) } : undefined
  } catch {
    return undefined
  }
}

const WRAPPERS = new Set(['npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'tsx', 'corepack'])
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ash', 'ksh', 'mksh'])

/**
 * Whether a process only runs another on someone's behalf: npm and friends (which retitle
 * themselves `npm exec …`, or run as `node …/npm-cli.js`), tsx, and a shell given `-c`.
 */
export function isWrapper(args: readonly string[]): boolean {
  // A retitled process shows its whole title as one argument.
  const [first = '', ...rest] = args.length === 1 ? (args[0] as string).split(' ') : args
  const name = basename(first).replace(/\.(c|m)?js$/, '')
  if (WRAPPERS.has(name)) return true
  if (SHELLS.has(name.replace(/^-/, ''))) return rest[0] === '-c'
  if (name === 'node' || name === 'nodejs') {
    const script = scriptOf(rest)
    const scriptName = basename(script).replace(/\.(c|m)?js$/, '')
    return WRAPPERS.has(scriptName) || WRAPPERS.has(scriptName.replace(/-cli$/, '')) || /[/\\]node_modules[/\\](npm|pnpm|yarn|tsx|corepack)[/\\]/.test(script)
  }
  return false
}

/** Node's options that take the next argument as their value (`--import tsx`). */
const NODE_VALUE_OPTIONS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader', '--conditions', '-C', '--env-file', '--title', '--input-type'])

/** The script a node command line runs: its first argument that is neither an option nor an option's value. */
function scriptOf(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (NODE_VALUE_OPTIONS.has(arg)) i++
    else if (!arg.startsWith('-')) return arg
  }
  return ''
}

/** The links from this process up to its launcher: its own, and each wrapper's above it. */
function chain(read: (pid: number) => ProcessInfo | undefined): Link[] {
  const links: Link[] = [{ child: process.pid, parent: process.ppid }]
  let pid = process.ppid
  // Bounded: a chain longer than this is not a launcher's.
  for (let depth = 0; depth < 16 && pid > 1; depth++) {
    const info = read(pid)
    if (info === undefined || !isWrapper(info.args)) break
    links.push({ child: pid, parent: info.ppid })
    pid = info.ppid
  }
  return links
}

/** The chain from this process to its launcher, as it was when captured. */
export interface Launcher {
  /** The pids watched, the server's parent first, the launcher last. */
  readonly watched: readonly number[]
  /**
   * Calls `onGone` once, with the pid that went, when the server's parent, a wrapper above it, or
   * the launcher has exited since the capture: checked at once, then every `intervalMs`. The timer
   * does not keep the process alive. Returns a function that ends the watch.
   */
  watch(onGone: (pid: number) => void, intervalMs?: number): () => void
}

/**
 * Reads the chain of processes that started this one. Call it as early as possible: a launcher
 * signalled while the server was still starting (`kill $!` right after `&`) has already handed its
 * children to another parent by the time the server listens, and a chain read then would start
 * from that new parent and never see the launcher go.
 */
export function captureLauncher(): Launcher {
  const linux = procInfo(process.pid) !== undefined
  const read = linux ? procInfo : process.platform === 'win32' ? () => undefined : psInfo
  const links = chain(read)
  return {
    watched: links.map((link) => link.parent),
    watch(onGone, intervalMs = 500) {
      let done = false
      let busy = false
      const gone = (pid: number): void => {
        if (done) return
        done = true
        clearInterval(timer)
        onGone(pid)
      }
      const check = (parentOf: (pid: number) => number | undefined): void => {
        for (const { child, parent } of links) {
          if (parent <= 1) continue
          if (parentOf(child) !== parent) return gone(parent)
        }
      }
      const poll = (): void => {
        if (process.ppid !== (links[0] as Link).parent) return gone((links[0] as Link).parent)
        if (links.length === 1) return
        if (linux) return check((pid) => procInfo(pid)?.ppid)
        if (busy) return
        // One `ps` for every link, off the event loop.
        busy = true
        execFile('ps', ['-o', 'pid=', '-o', 'ppid=', '-p', links.map((link) => link.child).join(',')], { timeout: 5_000 }, (error, stdout) => {
          busy = false
          if (error !== null && stdout === '') return
          const parents = new Map(
            stdout
              .trim()
              .split('\n')
              .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]),
          )
          check((pid) => parents.get(pid))
        })
      }
      const timer = setInterval(poll, intervalMs)
      timer.unref()
      poll()
      return () => {
        done = true
        clearInterval(timer)
      }
    },
  }
}
