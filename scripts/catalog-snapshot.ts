// The raw catalog snapshot: models.dev's data for the openrouter provider (MIT), read from a local
// clone of https://github.com/anomalyco/models.dev and written as ONE committed JSON file, so that
// the default world's catalog is made from a dated, reviewable source (decisions/0037).
//
//   npx tsx scripts/catalog-snapshot.ts <models.dev git dir> [commit]
//
// It reads `providers/openrouter/models/<author>/<slug>.toml` (one file per OpenRouter model id)
// and every `models/<x>/<y>.toml` their `base_model` names, parses them as they are (a TOML parser,
// a devDependency only: the package never parses TOML), and writes
// `fixtures/catalog/models-dev-openrouter-<date>.json` with the source commit, its date and the
// MIT notice. Run by hand when the catalog should move to a newer state; then `npm run fixtures`
// turns the snapshot into the default world (scripts/catalog-world.ts).
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parse } from 'smol-toml'

/** A parsed TOML file, as JSON data. */
export type TomlTable = Record<string, unknown>

/** The committed snapshot: the source, and the parsed files by model id. */
export interface CatalogSnapshot {
  source: {
    repository: string
    /** The commit the files were read at (40 hex digits). */
    commit: string
    /** The commit's date, `YYYY-MM-DD` (UTC): the state of the catalog. */
    date: string
    license: 'MIT'
    /** The license text of models.dev, as its LICENSE file has it. */
    notice: string
  }
  /** Each file of `providers/openrouter/models/`, by OpenRouter model id (`openai/gpt-5`), as parsed. */
  openrouter: Record<string, TomlTable>
  /** Each file of `models/` a `base_model` names, by that name (`openai/gpt-5`), as parsed. */
  baseModels: Record<string, TomlTable>
}

export const SNAPSHOT_REPOSITORY = 'https://github.com/anomalyco/models.dev'
const OPENROUTER_DIR = 'providers/openrouter/models/'

/** Parses one TOML file, naming it when it is not TOML. */
export function parseToml(path: string, text: string): TomlTable {
  try {
    // Through JSON, so that TOML dates and the parser's own classes become plain JSON data.
    return JSON.parse(JSON.stringify(parse(text))) as TomlTable
  } catch (error) {
    throw new Error(`catalog-snapshot: ${path} is not valid TOML: ${(error as Error).message}`)
  }
}

/** Sorted copy of a record, so the snapshot's text does not depend on the order files were read in. */
function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/**
 * The snapshot of a tree of files (path -> text): every openrouter model file, and the base model
 * files they name. A `base_model` whose file is missing is an error naming both files, so a
 * snapshot never holds a dangling reference.
 */
export function snapshotOf(files: ReadonlyMap<string, string>, source: CatalogSnapshot['source']): CatalogSnapshot {
  const openrouter: Record<string, TomlTable> = {}
  const baseModels: Record<string, TomlTable> = {}
  for (const [path, text] of files) {
    if (!path.startsWith(OPENROUTER_DIR) || !path.endsWith('.toml')) continue
    const id = path.slice(OPENROUTER_DIR.length, -'.toml'.length)
    openrouter[id] = parseToml(path, text)
  }
  if (Object.keys(openrouter).length === 0) throw new Error(`catalog-snapshot: no file under ${OPENROUTER_DIR}; is this a clone of models.dev?`)
  for (const [id, entry] of Object.entries(openrouter)) {
    const base = entry['base_model']
    if (base === undefined) continue
    if (typeof base !== 'string') throw new Error(`catalog-snapshot: ${OPENROUTER_DIR}${id}.toml has a base_model that is not a string`)
    if (base in baseModels) continue
    const path = `models/${base}.toml`
    const text = files.get(path)
    if (text === undefined) throw new Error(`catalog-snapshot: ${OPENROUTER_DIR}${id}.toml names base_model "${base}", but ${path} does not exist`)
    baseModels[base] = parseToml(path, text)
  }
  return { source, openrouter: sortedRecord(openrouter), baseModels: sortedRecord(baseModels) }
}

/** The snapshot's file name for its source date. */
export const snapshotFileName = (date: string): string => `models-dev-openrouter-${date}.json`

/** Reads the files a snapshot needs from a git directory at a commit (no work tree needed). */
function readGit(gitDir: string, commit: string): { files: Map<string, string>; source: CatalogSnapshot['source'] } {
  const git = (...args: string[]): string => execFileSync('git', ['-C', gitDir, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
  const sha = git('rev-parse', `${commit}^{commit}`).trim()
  // The committer's own calendar day, as the commit shows it.
  const date = git('show', '-s', '--format=%cs', sha).trim()
  const paths = git('ls-tree', '-r', '--name-only', sha).split('\n').filter((p) => (p.startsWith(OPENROUTER_DIR) || p.startsWith('models/')) && p.endsWith('.toml'))
  const files = new Map<string, string>()
  for (const path of paths) files.set(path, git('show', `${sha}:${path}`))
  const notice = git('show', `${sha}:LICENSE`)
  return { files, source: { repository: SNAPSHOT_REPOSITORY, commit: sha, date, license: 'MIT', notice } }
}

function main(): void {
  const [gitDir, commit = 'HEAD'] = process.argv.slice(2)
  if (gitDir === undefined) {
    console.error('Usage: npx tsx scripts/catalog-snapshot.ts <models.dev git dir> [commit]')
    process.exit(2)
  }
  const { files, source } = readGit(resolve(gitDir), commit)
  const snapshot = snapshotOf(files, source)
  const target = join(resolve(import.meta.dirname, '..'), 'fixtures', 'catalog', snapshotFileName(source.date))
  mkdirSync(dirname(target), { recursive: true })
  const text = `${JSON.stringify(snapshot, null, 1)}\n`
  writeFileSync(target, text)
  console.log(`Wrote ${Object.keys(snapshot.openrouter).length} openrouter models and ${Object.keys(snapshot.baseModels).length} base models (${Buffer.byteLength(text)} bytes) of ${source.commit.slice(0, 7)} (${source.date}) to ${target}.`)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main()
