// How serve finds and watches the processes that started it (src/server/launcher.ts, decisions/0019),
// in process: captureLauncher driven by process tables of the tests' own, and this machine's reader
// (/proc, ps) read for this process. test/server/launcher.test.ts starts real launchers around a
// real server; this file is what mutation testing runs against launcher.ts (decisions/0058).
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type ProcessInfo, type ProcessReader, alive, captureLauncher, hostReader, isWrapper, procInfo, psInfo, psParents } from '../../src/server/launcher.js'

const SELF = 100

interface Table extends ProcessReader {
  /** The processes by pid; change them to make one exit or move. */
  processes: Map<number, ProcessInfo>
  /** Every parents() call's pids. */
  asked: number[][]
  /** Settles the oldest pending parents() call. */
  answer(parents: Map<number, number> | undefined): Promise<void>
}

/** A process table: this process is 100, its parent and each process above it given as [pid, ppid, args, pgid]. */
function table(rows: [pid: number, ppid: number, args: string, pgid?: number][], kind: ProcessReader['kind'] = 'proc'): Table {
  const processes = new Map<number, ProcessInfo>(rows.map(([pid, ppid, args, pgid]) => [pid, { ppid, pgid: pgid ?? 7, args: args.split(' ') }]))
  const pending: ((parents: Map<number, number> | undefined) => void)[] = []
  const asked: number[][] = []
  return {
    processes,
    asked,
    pid: SELF,
    ppid: () => processes.get(SELF)?.ppid ?? 1,
    kind,
    info: (pid) => processes.get(pid),
    parents(pids) {
      asked.push([...pids])
      return new Promise((resolve) => pending.push(resolve))
    },
    alive: (pid) => processes.has(pid),
    async answer(parents) {
      pending.shift()?.(parents)
      await Promise.resolve()
    },
  }
}

/** Server 100 under `sh -c` 90, under `npm run` 80, under the CI shell 70. */
const NPM_RUN: [number, number, string][] = [
  [SELF, 90, 'node dist/cli.js serve'],
  [90, 80, 'sh -c model-access-sim serve'],
  [80, 70, 'npm run serve'],
  [70, 60, 'bash ci.sh'],
]

function watching(reader: ProcessReader, intervalMs?: number): { why: string[]; stop: () => void } {
  const why: string[] = []
  const stop = captureLauncher(reader).watch((reason) => why.push(reason), intervalMs)
  return { why, stop }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('captureLauncher: the chain it watches', () => {
  it('watches the parent and every wrapper above it, up to the launcher', () => {
    expect(captureLauncher(table(NPM_RUN)).watched).toEqual([90, 80, 70])
  })

  it('watches only the parent when that is no wrapper, or cannot be read', () => {
    expect(captureLauncher(table([[SELF, 70, 'node cli.js'], [70, 60, 'bash ci.sh']])).watched).toEqual([70])
    expect(captureLauncher(table([[SELF, 70, 'node cli.js']])).watched).toEqual([70])
  })

  it('reads at most 16 wrappers above the parent: a longer chain is not a launcher\'s', () => {
    const rows: [number, number, string][] = [[SELF, 200, 'node cli.js']]
    for (let pid = 200; pid < 230; pid++) rows.push([pid, pid + 1, 'sh -c x'])
    const watched = captureLauncher(table(rows)).watched
    expect(watched).toHaveLength(17)
    expect(watched.at(-1)).toBe(216)
  })

  it('watches the parent when this process itself cannot be read', () => {
    const reader = table([[70, 60, 'bash ci.sh']])
    reader.ppid = () => 70
    expect(captureLauncher(reader).watched).toEqual([70])
  })

  it('stops at init, even when init is itself a shell given -c (a container\'s)', () => {
    expect(captureLauncher(table([[SELF, 90, 'node cli.js'], [90, 1, 'npm exec model-access-sim', 90], [1, 0, 'sh -c npm exec model-access-sim', 1]])).watched).toEqual([90, 1])
  })
})

describe('captureLauncher: a launcher gone while the server started', () => {
  it('takes a server handed to init while in another process\'s group for one whose launcher exited', () => {
    const { why } = watching(table([[SELF, 1, 'node cli.js', 77]]))
    expect(why).toEqual(['the process that started this server exited while it was starting'])
  })

  it('takes a wrapper handed to init while in another process\'s group for one whose launcher exited', () => {
    const { why } = watching(table([[SELF, 90, 'node cli.js'], [90, 1, 'npm exec model-access-sim', 77]]))
    expect(why).toEqual(['the process that started this server exited while it was starting'])
  })

  it('does not take a process started under init on purpose, in a group of its own or init\'s, for an orphan', () => {
    for (const pgid of [SELF, 1, 0]) expect(watching(table([[SELF, 1, 'node cli.js', pgid]])).why, String(pgid)).toEqual([])
    expect(watching(table([[SELF, 90, 'node cli.js'], [90, 1, 'npm exec model-access-sim', 90]])).why).toEqual([])
  })
})

describe('Launcher.watch', () => {
  it('reports the parent gone when this process has a new one, at once when it already has', () => {
    const reader = table(NPM_RUN)
    const launcher = captureLauncher(reader)
    reader.processes.set(SELF, { ppid: 1, pgid: 7, args: ['node'] })
    const why: string[] = []
    launcher.watch((reason) => why.push(reason))
    expect(why).toEqual(['process 90, which started this server, has exited'])
  })

  it('checks every 500 ms unless told otherwise, reports once, and then ends its timer', () => {
    vi.useFakeTimers()
    const reader = table(NPM_RUN)
    const { why } = watching(reader)
    expect(why).toEqual([])
    // npm exits: the shell under it is handed to init.
    reader.processes.set(90, { ppid: 1, pgid: 7, args: ['sh', '-c', 'x'] })
    vi.advanceTimersByTime(499)
    expect(why).toEqual([])
    vi.advanceTimersByTime(1)
    expect(why).toEqual(['process 80, which started this server, has exited'])
    expect(vi.getTimerCount()).toBe(0)
    vi.advanceTimersByTime(5_000)
    expect(why).toHaveLength(1)
  })

  it('checks at the interval it is given, and reports a wrapper that is gone from the table', () => {
    vi.useFakeTimers()
    const reader = table(NPM_RUN)
    const { why } = watching(reader, 50)
    reader.processes.delete(90)
    reader.processes.set(SELF, { ppid: 90, pgid: 7, args: ['node'] })
    vi.advanceTimersByTime(50)
    expect(why).toEqual(['process 80, which started this server, has exited'])
  })

  it('sees the launcher go, above the wrappers', () => {
    vi.useFakeTimers()
    const reader = table(NPM_RUN)
    const { why } = watching(reader)
    reader.processes.set(80, { ppid: 1, pgid: 7, args: ['npm', 'run', 'serve'] })
    vi.advanceTimersByTime(500)
    expect(why).toEqual(['process 70, which started this server, has exited'])
  })

  it('reports nothing once ended, and leaves no timer', () => {
    vi.useFakeTimers()
    const reader = table(NPM_RUN)
    const { why, stop } = watching(reader)
    stop()
    expect(vi.getTimerCount()).toBe(0)
    reader.processes.set(SELF, { ppid: 1, pgid: 7, args: ['node'] })
    vi.advanceTimersByTime(5_000)
    expect(why).toEqual([])
  })

  it('with ps, reads every link with one call at a time, and reports what it read', async () => {
    vi.useFakeTimers()
    const reader = table(NPM_RUN, 'ps')
    const { why } = watching(reader)
    expect(reader.asked).toEqual([[SELF, 90, 80]])
    // A call still under way is not repeated.
    vi.advanceTimersByTime(1_000)
    expect(reader.asked).toHaveLength(1)
    // A ps that read nothing is no news, and the next poll asks again.
    await reader.answer(undefined)
    expect(why).toEqual([])
    vi.advanceTimersByTime(500)
    expect(reader.asked).toHaveLength(2)
    await reader.answer(new Map([[SELF, 90], [90, 80], [80, 70]]))
    expect(why).toEqual([])
    vi.advanceTimersByTime(500)
    await reader.answer(new Map([[SELF, 90], [90, 1], [80, 70]]))
    expect(why).toEqual(['process 80, which started this server, has exited'])
  })

  it('with ps, reports nothing that arrives after the watch ended', async () => {
    const reader = table(NPM_RUN, 'ps')
    const { why, stop } = watching(reader)
    stop()
    await reader.answer(new Map([[SELF, 90], [90, 1], [80, 70]]))
    expect(why).toEqual([])
  })

  it('with ps, reports once: an answer that arrives after the parent was seen gone says nothing more', async () => {
    vi.useFakeTimers()
    const reader = table(NPM_RUN, 'ps')
    const { why } = watching(reader)
    reader.processes.set(SELF, { ppid: 1, pgid: 7, args: ['node'] })
    vi.advanceTimersByTime(500)
    expect(why).toEqual(['process 90, which started this server, has exited'])
    await reader.answer(new Map([[SELF, 1], [90, 1], [80, 1]]))
    expect(why).toHaveLength(1)
  })

  it('does not check a link to init: init does not exit, and ps may not list a wrapper that init adopted', async () => {
    const reader = table([[SELF, 90, 'node cli.js'], [90, 1, 'npm exec model-access-sim', 90]], 'ps')
    const { why } = watching(reader)
    expect(reader.asked).toEqual([[SELF, 90]])
    await reader.answer(new Map([[SELF, 90]]))
    expect(why).toEqual([])
  })

  it('does not take a parent it cannot read for one that exited, where processes are read from /proc', () => {
    expect(watching(table([[SELF, 70, 'node cli.js']])).why).toEqual([])
  })

  it('with ps, asks nothing when the parent is the launcher: its own parent id says it all', () => {
    vi.useFakeTimers()
    const reader = table([[SELF, 70, 'node cli.js'], [70, 60, 'bash ci.sh']], 'ps')
    const { why } = watching(reader)
    vi.advanceTimersByTime(1_000)
    expect(reader.asked).toEqual([])
    reader.processes.set(SELF, { ppid: 1, pgid: 7, args: ['node'] })
    vi.advanceTimersByTime(500)
    expect(why).toEqual(['process 70, which started this server, has exited'])
  })

  it('on Windows, which does not reparent, asks whether the parent is alive', () => {
    vi.useFakeTimers()
    const reader = table([[SELF, 70, 'node cli.js'], [70, 60, 'cmd.exe']], 'none')
    const { why } = watching(reader)
    vi.advanceTimersByTime(1_000)
    expect(why).toEqual([])
    reader.processes.delete(70)
    vi.advanceTimersByTime(500)
    expect(why).toEqual(['process 70, which started this server, has exited'])
  })
})

describe('this machine\'s processes', () => {
  let dir = ''
  const children: ChildProcess[] = []
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL')
    if (dir !== '') rmSync(dir, { recursive: true, force: true })
    dir = ''
  })

  /** A pid no process has. */
  const NOBODY = 2 ** 22 + 12_345

  it('reads this process from /proc: its parent, its group and its arguments', () => {
    const info = procInfo(process.pid)
    expect(info?.ppid).toBe(process.ppid)
    const stat = readFileSync('/proc/self/stat', 'utf8')
    expect(info?.pgid).toBe(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]))
    expect(info?.args).toEqual(readFileSync('/proc/self/cmdline', 'utf8').split('\0').filter((arg) => arg !== ''))
    expect(procInfo(NOBODY)).toBeUndefined()
  })

  it('reads a process whose name holds parentheses and spaces', async () => {
    dir = mkdtempSync(join(tmpdir(), 'model-access-sim-launcher-'))
    const odd = join(dir, 'a) (b c')
    symlinkSync(process.execPath, odd)
    const child = spawn(odd, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
    children.push(child)
    await vi.waitFor(() => expect(readFileSync(`/proc/${child.pid}/stat`, 'utf8')).toContain('(a) (b c)'))
    expect(procInfo(child.pid as number)).toEqual({ ppid: process.pid, pgid: procInfo(process.pid)?.pgid, args: [odd, '-e', 'setTimeout(() => {}, 60000)'] })
  })

  it('reads the same through ps, its columns however wide, its arguments split at any run of spaces', async () => {
    const info = psInfo(process.pid)
    expect(info?.ppid).toBe(process.ppid)
    expect(info?.pgid).toBe(procInfo(process.pid)?.pgid)
    expect(info?.args[0]).toBe(procInfo(process.pid)?.args[0])
    // init: a parent of 0, narrower than ps's column, so padded.
    expect(psInfo(1)).toMatchObject({ ppid: 0, pgid: procInfo(1)?.pgid })
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', 'x  y'], { stdio: 'ignore' })
    children.push(child)
    await vi.waitFor(() => expect(psInfo(child.pid as number)?.args).toEqual([process.execPath, '-e', 'setTimeout(()', '=>', '{},', '60000)', 'x', 'y']))
    expect(psInfo(NOBODY)).toBeUndefined()
  })

  it('reads the parents of several processes with one ps, and nothing of processes that are not there', async () => {
    expect(await psParents([process.pid, NOBODY])).toEqual(new Map([[process.pid, process.ppid]]))
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
    children.push(child)
    expect(await psParents([process.pid, child.pid as number])).toEqual(new Map([[process.pid, process.ppid], [child.pid as number, process.pid]]))
    expect(await psParents([NOBODY])).toBeUndefined()
  })

  it('knows a process that runs, one that does not, and one it may not signal', () => {
    expect(alive(process.pid)).toBe(true)
    expect(alive(NOBODY)).toBe(false)
    expect(alive(1)).toBe(true)
  })

  it('reads /proc where it is there, else ps, and on Windows neither', async () => {
    const linux = hostReader()
    expect(linux).toMatchObject({ pid: process.pid, kind: 'proc', info: procInfo, parents: psParents, alive })
    expect(linux.ppid()).toBe(process.ppid)
    expect(hostReader(false, 'darwin')).toMatchObject({ kind: 'ps', info: psInfo })
    const windows = hostReader(false, 'win32')
    expect(windows.kind).toBe('none')
    expect(windows.info(process.pid)).toBeUndefined()
    // This process, started by vitest, watches its parent first.
    expect(captureLauncher().watched[0]).toBe(process.ppid)
  })
})

describe('isWrapper', () => {
  it('names each package runner, under its own name, as node\'s script, retitled, or with an extension', () => {
    for (const args of [['npm'], ['npx'], ['pnpm'], ['pnpx'], ['yarn'], ['tsx'], ['corepack'], ['/usr/bin/yarn.js'], ['node', '/x/pnpm.cjs'], ['node', '/x/yarn.mjs'], ['nodejs', '/x/npx-cli.js'], ['pnpm exec model-access-sim']]) {
      expect(isWrapper(args), args.join(' ')).toBe(true)
    }
  })

  it('names a login shell given -c, and every shell it knows', () => {
    for (const shell of ['sh', 'bash', 'dash', 'zsh', 'ash', 'ksh', 'mksh', '-bash']) expect(isWrapper([shell, '-c', 'x']), shell).toBe(true)
    expect(isWrapper(['fish', '-c', 'x'])).toBe(false)
    // Only a leading dash is a login shell's.
    expect(isWrapper(['da-sh', '-c', 'x'])).toBe(false)
  })

  it('drops only a script extension at the end of a name, and -cli only at its end', () => {
    for (const args of [['ts.jsx'], ['node', '/x/ts.jsx'], ['node', '/x/np-clim.js']]) expect(isWrapper(args), args.join(' ')).toBe(false)
  })

  it('reads a script only of node: a package runner\'s file run by another program is none', () => {
    expect(isWrapper(['python3', '/p/node_modules/npm/x.py'])).toBe(false)
    expect(isWrapper(['python3', 'npm'])).toBe(false)
  })

  it('finds node\'s script past its options, those that take a value included', () => {
    expect(isWrapper(['node', '--import', 'tsx', '/p/node_modules/npm/bin/npm-cli.js'])).toBe(true)
    expect(isWrapper(['node', '-r', 'x', '--conditions', 'y', '--no-warnings', '/p/node_modules/pnpm/bin/pnpm.cjs'])).toBe(true)
    expect(isWrapper(['node', '--title', 'npm', 'server.js'])).toBe(false)
    for (const option of ['--require', '--loader', '--experimental-loader', '-C', '--env-file', '--input-type']) expect(isWrapper(['node', option, 'npm', 'server.js']), option).toBe(false)
    expect(isWrapper(['node', '--inspect'])).toBe(false)
    expect(isWrapper(['node', 'C:\\p\\node_modules\\yarn\\bin\\yarn.js'])).toBe(true)
    expect(isWrapper(['node', '/p/node_modules/corepack/dist/corepack.js'])).toBe(true)
    expect(isWrapper(['node', '/p/node_modules/other/npm/x.js'])).toBe(false)
    expect(isWrapper([])).toBe(false)
  })
})
