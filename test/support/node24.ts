// Node 24 for what needs Node 22+ (the real clients' engines, decisions/0040) while the suite may run
// on Node 20: the test/clients/ child processes, and the README examples tagged ` (node 24)`.
import { execFileSync } from 'node:child_process'

let node24: string | undefined

/**
 * The path of a Node 24 binary: the clients' engines say Node 22+, and this machine may run the suite
 * on Node 20. From `npx -p node@24` (the npm registry's `node` package), cached by npx after the first.
 */
export function node24Path(): string {
  if (node24 !== undefined) return node24
  if (Number(process.versions.node.split('.')[0]) >= 24) return (node24 = process.execPath)
  try {
    node24 = execFileSync('npx', ['-y', '-p', 'node@24', 'node', '-p', 'process.execPath'], { encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'] }).trim()
  } catch (error) {
    throw new Error(
      `The real clients (test/clients/, and the README examples tagged (node 24)) need Node 22+ and run on Node 24, but "npx -y -p node@24 node" failed: ${String(error)}\n` +
        'Install Node 24 (run the suite with it), or let npx reach the npm registry to fetch the node@24 package.',
    )
  }
  return node24
}
