// What the Chromium tests share: the browser's path and flags, and a page's script bundled for it.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium'
/** Without the networking flags Chromium stalls on machines with no way out. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run']
export const STEP_TIMEOUT_MS = 30_000

/** Throws, saying how to install it, when Chromium is missing: these tests drive a real browser. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: this test drives a real browser. ` +
        'Install it with `apt-get update && apt-get install -y chromium` (Debian), or set CHROMIUM_PATH to a Chromium binary.',
    )
  }
}

/** A page's script (a file of test/browser), bundled with what it imports for the browser, as one ES module. */
export async function bundlePage(file: string): Promise<string> {
  const bundle = await build({
    entryPoints: [join(import.meta.dirname, file)],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  })
  return bundle.outputFiles[0]?.text ?? ''
}
