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
// from /proc; on macOS and the BSDs from `ps`; on Windows, which neither reparents nor keeps
// zombies, only the server's own parent is watched, by asking whether it is alive.
//
// A launcher that exits before the chain is read (`kill $!` right after `&`, while tsx compiles)
// has already handed its children to init. Such a process is told apart from one started under
// init on purpose by its process group: it keeps the launcher's, where a container's init, systemd
// or `setsid` give their child a group of its own.
//
// What is read of the processes is a ProcessReader: hostReader() reads this machine's, and tests
// drive captureLauncher with a table of their own.
import { execFile, execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'

/** One link of the chain: `child`'s parent was `parent` when the server started. */
interface Link {
  child: number
  parent: number
}

export interface ProcessInfo {
  ppid: number
  /** Its process group. */
  pgid: number
  args: string[]
}

/** A process's parent and arguments from /proc, or undefined when it is gone or /proc is not there. */
export function procInfo(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The name in parentheses may hold spaces and parentheses itself: fields start after the last `)`.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg !== '')
    return { ppid: Number(fields[1]), pgid: Number(fields[2]), args }
  } catch {
    return undefined
  }
}

/** The same through `ps` (macOS, the BSDs): slower, so used only where /proc is missing. */
export function psInfo(pid: number): ProcessInfo | undefined {
  try {
    const line = execFileSync('ps', ['-o', 'ppid=', '-o', 'pgid=', '-o', 'args=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000 }).trim()
    const match = /^(\d+)\s+(\d+)\s+(.*)$/.exec(line)
    return match ? { ppid: Number(match[1]), pgid: Number(match[2]), args: (match[3] as string).split(/\s+/) } : undefined
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

/**
 * Whether a process of the chain was handed to init while the server started: its parent is 1, yet
 * it is in another process's group. Whatever starts a process under init on purpose (a container's
 * init, systemd, `setsid`) gives it a group of its own; a process whose launcher died keeps the
 * launcher's group.
 */
function orphaned(pid: number, info: ProcessInfo | undefined): boolean {
  return info !== undefined && info.ppid === 1 && info.pgid > 1 && info.pgid !== pid
}

/** The links from this process up to its launcher (its own, and each wrapper's above it), and whether the launcher had gone already. */
function chain(reader: ProcessReader): { links: Link[]; gone: boolean } {
  const links: Link[] = [{ child: reader.pid, parent: reader.ppid() }]
  let gone = orphaned(reader.pid, reader.info(reader.pid))
  let pid = (links[0] as Link).parent
  // Bounded: a chain longer than this is not a launcher's.
  for (let depth = 0; depth < 16 && pid > 1 && !gone; depth++) {
    const info = reader.info(pid)
    if (info === undefined || !isWrapper(info.args)) break
    links.push({ child: pid, parent: info.ppid })
    gone = orphaned(pid, info)
    pid = info.ppid
  }
  return { links, gone }
}

/** Whether a process exists (EPERM: it does, and is someone else's). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The parent of each process, by one `ps` off the event loop; undefined when ps read none of them. */
export function psParents(pids: readonly number[]): Promise<Map<number, number> | undefined> {
  return new Promise((resolve) => {
    execFile('ps', ['-o', 'pid=', '-o', 'ppid=', '-p', pids.join(',')], { timeout: 5_000 }, (error, stdout) => {
      if (error !== null && stdout === '') return resolve(undefined)
      resolve(
        new Map(
          stdout
            .trim()
            .split('\n')
            .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]),
        ),
      )
    })
  })
}

/** What the launcher's capture and watch read of the processes. */
export interface ProcessReader {
  /** This process's id. */
  readonly pid: number
  /** Its parent's id now: a process whose parent exits is given another. */
  ppid(): number
  /**
   * How the watch reads the links: `proc`, each with info() at every poll; `ps`, all with one
   * parents() off the event loop; `none` (Windows, which neither reparents nor keeps zombies), only
   * whether the server's parent is alive.
   */
  readonly kind: 'proc' | 'ps' | 'none'
  /** A process's parent, group and arguments; undefined when it is gone or cannot be read. */
  info(pid: number): ProcessInfo | undefined
  parents(pids: readonly number[]): Promise<Map<number, number> | undefined>
  alive(pid: number): boolean
}

/** This machine's processes: /proc where it is there (Linux), else `ps`, and on Windows neither. */
export function hostReader(hasProc: boolean = procInfo(process.pid) !== undefined, platform: NodeJS.Platform = process.platform): ProcessReader {
  const kind = hasProc ? 'proc' : platform === 'win32' ? 'none' : 'ps'
  return {
    pid: process.pid,
    ppid: () => process.ppid,
    kind,
    info: kind === 'proc' ? procInfo : kind === 'ps' ? psInfo : () => undefined,
    parents: psParents,
    alive,
  }
}

/** The chain from this process to its launcher, as it was when captured. */
export interface Launcher {
  /** The pids watched, the server's parent first, the launcher last. */
  readonly watched: readonly number[]
  /**
   * Calls `onGone` once, with what went, when the server's parent, a wrapper above it, or
   * the launcher has exited since the capture: checked at once, then every `intervalMs`. The timer
   * does not keep the process alive. Returns a function that ends the watch.
   */
  watch(onGone: (why: string) => void, intervalMs?: number): () => void
}

/**
 * Reads the chain of processes that started this one. Call it as early as possible: a launcher
 * signalled while the server was still starting (`kill $!` right after `&`) has already handed its
 * children to another parent by the time the server listens, and a chain read then would start
 * from that new parent and never see the launcher go.
 */
export function captureLauncher(reader: ProcessReader = hostReader()): Launcher {
  const { links, gone: goneAtStart } = chain(reader)
  return {
    watched: links.map((link) => link.parent),
    watch(onGone, intervalMs = 500) {
      let done = false
      let busy = false
      const gone = (pid: number): void => {
        if (done) return
        done = true
        clearInterval(timer)
        onGone(pid === 0 ? 'the process that started this server exited while it was starting' : `process ${pid}, which started this server, has exited`)
      }
      const check = (parentOf: (pid: number) => number | undefined): void => {
        for (const { child, parent } of links) {
          if (parent <= 1) continue
          if (parentOf(child) !== parent) return gone(parent)
        }
      }
      const poll = (): void => {
        if (goneAtStart) return gone(0)
        if (reader.ppid() !== (links[0] as Link).parent) return gone((links[0] as Link).parent)
        // Windows gives an orphan no new parent, and keeps no zombies: the parent's pid is asked.
        if (reader.kind === 'none' && !reader.alive((links[0] as Link).parent)) return gone((links[0] as Link).parent)
        if (links.length === 1) return
        if (reader.kind === 'proc') return check((pid) => reader.info(pid)?.ppid)
        if (busy) return
        // One `ps` for every link, off the event loop.
        busy = true
        void reader.parents(links.map((link) => link.child)).then((parents) => {
          busy = false
          if (parents !== undefined) check((pid) => parents.get(pid))
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
