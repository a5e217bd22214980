// Starts big-file-server.ts in a process of its own and talks to it over IPC, for the tests that
// measure a server from outside (stalls.test.ts, journal-stall.test.ts).
import { type ChildProcess, fork } from 'node:child_process'

const BIG_FILE_SERVER = new URL('./big-file-server.ts', import.meta.url).pathname

export interface BigFileChild {
  child: ChildProcess
  port: number
  fileId: string
  managementKey: string
}

/**
 * A server of the default world, one file of `mib` MiB and `keys` keys more, in a process of its
 * own, added to `children` (for the test file to kill).
 */
export function bigFileServer(children: Set<ChildProcess>, mib: number, keys = 0): Promise<BigFileChild> {
  const child = fork(BIG_FILE_SERVER, [String(mib), String(keys)], { execArgv: ['--import', 'tsx', '--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  children.add(child)
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, ...(message as Omit<BigFileChild, 'child'>) }))
    child.once('exit', (code) => reject(new Error(`the server process exited (${code}) before it listened`)))
  })
}

/** What the server process answers a question with ('rss', 'delay'). */
export function ask<T>(child: ChildProcess, question: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (answer) => resolve(answer as T))
    child.send(question)
  })
}
