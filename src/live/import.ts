// importWorld: an account on a live model-access service, read with GETs only, as a world spec.
// Keys keep their hashes, names, limits, dates and usage figures (as usage records that reproduce
// them at the import instant); secrets cannot be read, so each key gets a fresh one. The management
// key the import is given is sent only as the bearer header of its own requests.
import { randomBytes } from 'node:crypto'
import { ArgumentChecker, fieldsOf } from '../core/store/check.js'
import { describe } from '../core/describe.js'
import { invalidArgument } from '../core/errors.js'
import { createSimulator, type Simulator } from '../core/simulator.js'
import type { ApiKey, ModelWithEndpoints, VideoModel, Workspace } from '../core/types.js'
import type { WorldSpec } from '../core/worlds/spec.js'

export interface ImportWorldOptions {
  /** The service's base URL, such as `https://openrouter.ai/api/v1`. */
  baseUrl: string
  /** A management key of the account. Sent only to `baseUrl`; never written anywhere. */
  managementKey: string
  /** `author/slug` ids of the models whose endpoints (and prices) to bring. */
  models?: readonly string[] | undefined
  /** Workspaces (UUID or slug) to bring besides the default one and those the keys name. */
  workspaces?: readonly string[] | undefined
  /** Ids of files whose bytes to bring. */
  files?: readonly string[] | undefined
  /** Default `globalThis.fetch`. */
  fetch?: typeof fetch | undefined
  /** Told about every request, page and wait, for a progress display. */
  onProgress?: ((event: ImportProgress) => void) | undefined
  /** How many times one request answered 429 is tried again, after its `Retry-After`. Default 5. */
  maxRetries?: number | undefined
  /** The longest `Retry-After` waited, in milliseconds; a longer one stops the import. Default 60,000. */
  maxWaitMs?: number | undefined
  /** The import instant: the spec's `now`, at which the usage figures hold. Default: now. */
  now?: Date | number | string | undefined
}

/** One step of an import, for progress output. */
export interface ImportProgress {
  kind: 'keys' | 'workspace' | 'credits' | 'model' | 'video-models' | 'file' | 'wait'
  /** What was read (never a secret): `GET /keys?offset=100 (workspace 0f1e...): 100 keys`. */
  message: string
}

/** Handles of an imported world: the fresh secrets, and where things are. */
export interface ImportedHandles {
  /** A fresh management key of the imported organisation (the real one is never written). */
  managementKey: string
  userId: string
  defaultWorkspaceId: string
  /** Workspace UUIDs by slug. */
  workspaces: Record<string, string>
  /** Each imported key's fresh secret, by hash. */
  keys: Record<string, string>
  /** The models and files brought. */
  models: string[]
  files: string[]
}

/** What `importWorld` returns: the world spec, and each key's fresh secret. */
export interface ImportedWorld {
  world: WorldSpec<ImportedHandles>
  /** Every imported key: its hash, name and the fresh secret that now authenticates as it. */
  secrets: { hash: string; name: string; secret: string }[]
}

const OPERATION = 'import a world'

/** A request to the live service failed; the message names it. The key is never part of it. */
class ImportFailure extends Error {
  override readonly name = 'ImportError'
}

/** Workspaces asked for per page of `GET /workspaces`. */
const WORKSPACE_PAGE = 100

const freshSecret = (): string => `sk-or-v1-${randomBytes(32).toString('hex')}`

const IMPORT_OPTION_FIELDS = fieldsOf<ImportWorldOptions>({
  baseUrl: true,
  managementKey: true,
  models: true,
  workspaces: true,
  files: true,
  fetch: true,
  onProgress: true,
  maxRetries: true,
  maxWaitMs: true,
  now: true,
})

function checkOptions(options: unknown): asserts options is ImportWorldOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalidArgument(OPERATION, 'options', `must be an options object, got ${describe(options)}`)
  // Only the field's name is shown, never a value: a misplaced one may be a secret.
  new ArgumentChecker(OPERATION).knownFields(options, IMPORT_OPTION_FIELDS, '', 'the options of importWorld')
  const o = options as Record<string, unknown>
  const base = typeof o['baseUrl'] === 'string' && URL.canParse(o['baseUrl']) ? new URL(o['baseUrl']) : undefined
  if (!base || (base.protocol !== 'http:' && base.protocol !== 'https:')) {
    throw invalidArgument(OPERATION, 'baseUrl', `must be an absolute http: or https: URL such as "https://openrouter.ai/api/v1", got ${describe(o['baseUrl'])}`)
  }
  if (typeof o['managementKey'] !== 'string' || !/^\S{8,512}$/.test(o['managementKey'])) {
    // The value itself is never echoed: it may be a real secret with a typo.
    throw invalidArgument(OPERATION, 'managementKey', 'must be a management key: 8 to 512 characters without white space')
  }
  for (const list of ['models', 'workspaces', 'files'] as const) {
    const value = o[list]
    if (value !== undefined && (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v !== ''))) {
      throw invalidArgument(OPERATION, list, `must be an array of non-empty strings, got ${describe(value)}`)
    }
  }
  for (const fn of ['fetch', 'onProgress'] as const) {
    if (o[fn] !== undefined && typeof o[fn] !== 'function') throw invalidArgument(OPERATION, fn, `must be a function, got ${describe(o[fn])}`)
  }
  for (const n of ['maxRetries', 'maxWaitMs'] as const) {
    const value = o[n]
    if (value !== undefined && (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)) throw invalidArgument(OPERATION, n, `must be a non-negative integer, got ${describe(value)}`)
  }
}

/**
 * Reads an account from a live service, with GETs only, into a world spec that
 * `createSimulator({ world })` and `model-access-sim serve --world` load: every workspace of the
 * account (`GET /workspaces`, all pages) and every key of each (all pages, disabled keys too); the
 * organisation's credits (`GET /credits`); the endpoints of the models given; every video model;
 * the bytes of the files given. Keys keep their hashes, names, labels, limits, dates and usage figures, the figures as
 * usage records that reproduce them at the import instant (the spec's `now`). Real secrets cannot
 * be read, so every key gets a fresh secret and the organisation a fresh management key: the
 * spec's handles and `secrets` name them. The management key given is sent only as the bearer
 * header of these requests, and appears in nothing returned.
 *
 * A 429 waits its `Retry-After` and tries again (`maxRetries`, `maxWaitMs`); any other error stops
 * the import with an `ImportError` naming the request. Nothing is returned from a failed import.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * import { startServer } from 'model-access-sim/server'
 * import { importWorld } from 'model-access-sim/live'
 *
 * // A live service: here, the simulator itself over HTTP.
 * const live = createSimulator()
 * const server = await startServer(live, { port: 0 })
 * const { world, secrets } = await importWorld({ baseUrl: server.url, managementKey: live.world.managementKey, models: ['deepseek/deepseek-chat-v3.1'] })
 * await server.close()
 *
 * const sim = createSimulator({ world })
 * const res = sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}` })
 * console.log(res.status, secrets.length > 0, sim.models.get('deepseek/deepseek-chat-v3.1') !== undefined)
 * //=> 200 true true
 */
export async function importWorld(options: ImportWorldOptions): Promise<ImportedWorld> {
  checkOptions(options)
  const base = options.baseUrl.replace(/\/+$/, '')
  const fetchImpl = options.fetch ?? globalThis.fetch
  const maxRetries = options.maxRetries ?? 5
  const maxWaitMs = options.maxWaitMs ?? 60_000
  const progress = (kind: ImportProgress['kind'], message: string): void => options.onProgress?.({ kind, message })
  const authorization = `Bearer ${options.managementKey}`

  /** GET `path`; 429 waits and tries again; anything but 2xx stops the import, naming the request. */
  async function get(path: string): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      let res: Response
      try {
        res = await fetchImpl(`${base}${path}`, { method: 'GET', headers: { authorization, accept: 'application/json' } })
      } catch (error) {
        throw new ImportFailure(`GET ${path} failed: ${error instanceof Error ? error.message : String(error)}`)
      }
      if (res.ok) return res
      const text = await res.text().catch(() => '')
      if (res.status === 429 && attempt < maxRetries) {
        const seconds = Number(res.headers.get('retry-after') ?? '1')
        const waitMs = Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : 1000
        if (waitMs > maxWaitMs) throw new ImportFailure(`GET ${path} answered 429 with Retry-After ${seconds} s, longer than the ${maxWaitMs} ms allowed to wait (maxWaitMs)`)
        progress('wait', `GET ${path}: 429, waiting ${waitMs} ms (Retry-After), then attempt ${attempt + 2} of ${maxRetries + 1}`)
        await new Promise((done) => setTimeout(done, waitMs))
        continue
      }
      let reason = text.slice(0, 200)
      try {
        reason = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? reason
      } catch {
        // Not an envelope: the start of the body says what it was.
      }
      throw new ImportFailure(`GET ${path} answered ${res.status}${res.status === 429 ? ` after ${maxRetries + 1} attempts` : ''}: ${reason}`)
    }
  }
  async function json<T>(path: string): Promise<T> {
    const res = await get(path)
    try {
      return (await res.json()) as T
    } catch {
      throw new ImportFailure(`GET ${path} answered ${res.status} with a body that is not JSON`)
    }
  }

  /** Every key of a workspace (the default one without an id), all pages, disabled ones included. */
  const keys = new Map<string, ApiKey>()
  async function listKeys(workspaceId: string | undefined): Promise<ApiKey[]> {
    const found: ApiKey[] = []
    for (let offset = 0; ; ) {
      const query = new URLSearchParams({ include_disabled: 'true' })
      if (offset > 0) query.set('offset', String(offset))
      if (workspaceId !== undefined) query.set('workspace_id', workspaceId)
      const page = await json<{ data?: ApiKey[] }>(`/keys?${query}`)
      if (!Array.isArray(page.data)) throw new ImportFailure(`GET /keys?${query} answered without a data array`)
      progress('keys', `GET /keys?${query}: ${page.data.length} keys`)
      if (page.data.length === 0) break
      for (const key of page.data) if (!keys.has(key.hash)) keys.set(key.hash, key)
      found.push(...page.data)
      offset += page.data.length
    }
    return found
  }

  // 1. Keys of the default workspace, which also says which workspace that is.
  const defaultKeys = await listKeys(undefined)
  const workspaces = new Map<string, Workspace>()
  async function readWorkspace(idOrSlug: string): Promise<Workspace> {
    const { data } = await json<{ data: Workspace }>(`/workspaces/${encodeURIComponent(idOrSlug)}`)
    progress('workspace', `GET /workspaces/${idOrSlug}: ${data.name} (${data.slug})`)
    workspaces.set(data.id, data)
    return data
  }
  const defaultId = defaultKeys[0]?.workspace_id
  const defaultWorkspace = defaultId !== undefined ? await readWorkspace(defaultId) : await readWorkspace('default')
  // Every workspace of the account, page by page, until a page is empty or the total is reached.
  for (let offset = 0; ; ) {
    const query = new URLSearchParams({ offset: String(offset), limit: String(WORKSPACE_PAGE) })
    const page = await json<{ data?: Workspace[]; total_count?: number }>(`/workspaces?${query}`)
    if (!Array.isArray(page.data)) throw new ImportFailure(`GET /workspaces?${query} answered without a data array`)
    progress('workspace', `GET /workspaces?${query}: ${page.data.length} workspaces`)
    for (const workspace of page.data) if (!workspaces.has(workspace.id)) workspaces.set(workspace.id, workspace)
    offset += page.data.length
    if (page.data.length === 0 || (typeof page.total_count === 'number' && offset >= page.total_count)) break
  }
  // 2. The workspaces given and those the keys name, each with its keys.
  for (const wanted of options.workspaces ?? []) {
    const known = [...workspaces.values()].some((w) => w.id === wanted.toLowerCase() || w.slug === wanted)
    if (!known) await readWorkspace(wanted)
  }
  const listed = new Set([defaultWorkspace.id])
  for (let pending = [...workspaces.keys()].filter((id) => !listed.has(id)); pending.length > 0; pending = [...workspaces.keys()].filter((id) => !listed.has(id))) {
    for (const id of pending) {
      listed.add(id)
      for (const key of await listKeys(id)) if (!workspaces.has(key.workspace_id)) await readWorkspace(key.workspace_id)
    }
  }
  for (const key of keys.values()) if (!workspaces.has(key.workspace_id)) await readWorkspace(key.workspace_id)

  // 3. Models, video models and files.
  const models: ModelWithEndpoints[] = []
  for (const id of options.models ?? []) {
    const slash = id.indexOf('/')
    if (slash < 1) throw invalidArgument(OPERATION, 'models', `must hold author/slug model ids, got ${JSON.stringify(id)}`)
    const path = `/models/${encodeURIComponent(id.slice(0, slash))}/${id.slice(slash + 1).split('/').map(encodeURIComponent).join('/')}/endpoints`
    const { data } = await json<{ data: ModelWithEndpoints }>(path)
    progress('model', `GET ${path}: ${data.endpoints.length} endpoints`)
    models.push(data)
  }
  const videos = await json<{ data: VideoModel[] }>('/videos/models')
  progress('video-models', `GET /videos/models: ${videos.data.length} video models`)
  const files: { id: string; filename: string; bytes: Uint8Array }[] = []
  for (const id of options.files ?? []) {
    const path = `/files/${encodeURIComponent(id)}/content`
    const res = await get(path)
    const bytes = new Uint8Array(await res.arrayBuffer())
    const disposition = res.headers.get('content-disposition') ?? ''
    const named = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1] ?? /filename="?([^";]+)"?/i.exec(disposition)?.[1]
    let filename = id
    try {
      filename = named === undefined ? id : decodeURIComponent(named)
    } catch {
      filename = named ?? id
    }
    progress('file', `GET ${path}: ${bytes.byteLength} bytes`)
    files.push({ id, filename, bytes })
  }

  // 4. The world: built through the simulator's own creators, so it loads as it was checked.
  const sim = createSimulator({ world: 'empty', ...(options.now !== undefined && { now: options.now }) }) as Simulator<unknown>
  const creators = new Map<string, number>()
  for (const key of keys.values()) if (key.creator_user_id !== null) creators.set(key.creator_user_id, (creators.get(key.creator_user_id) ?? 0) + 1)
  const owner = [...creators.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? defaultWorkspace.created_by ?? undefined
  // What the organisation bought, and what its deleted keys spent: its total usage less what the
  // keys still there spent (each to 10^-10 USD, so float noise does not make a retired figure).
  const credits = await json<{ data?: { total_credits?: unknown; total_usage?: unknown } }>('/credits')
  const totalCredits = credits.data?.total_credits
  const totalUsage = credits.data?.total_usage
  if (typeof totalCredits !== 'number' || typeof totalUsage !== 'number' || !(totalCredits >= 0) || !(totalUsage >= 0)) {
    throw new ImportFailure('GET /credits answered without numbers total_credits and total_usage')
  }
  progress('credits', `GET /credits: ${totalCredits} USD bought, ${totalUsage} USD used`)
  const tenths = (usd: number): number => Math.round(usd * 1e10)
  const retiredTenths = tenths(totalUsage) - [...keys.values()].reduce((sum, key) => sum + tenths(key.usage), 0)
  const user = sim.users.create({
    ...(owner !== undefined && /^user_[A-Za-z0-9]{1,64}$/.test(owner) && { id: owner }),
    credits: { total: totalCredits, ...(retiredTenths > 0 && { retiredUsage: retiredTenths / 1e10 }) },
    name: 'Imported organisation',
    createdAt: Date.parse(defaultWorkspace.created_at),
    defaultWorkspaceId: defaultWorkspace.id,
    defaultWorkspaceGuardrailId: defaultWorkspace.default_guardrail_id,
    defaultWorkspace: workspaceFields(defaultWorkspace),
  })
  for (const workspace of workspaces.values()) {
    if (workspace.id === defaultWorkspace.id) continue
    sim.workspaces.create({ userId: user.id, id: workspace.id, defaultGuardrailId: workspace.default_guardrail_id, ...workspaceFields(workspace), name: workspace.name })
  }
  const secrets: ImportedWorld['secrets'] = []
  for (const key of keys.values()) {
    const { key: secret } = sim.keys.load(key, { userId: user.id, secret: freshSecret() })
    secrets.push({ hash: key.hash, name: key.name, secret })
  }
  const management = sim.keys.create({ userId: user.id, management: true, name: 'Imported management key', secret: freshSecret() })
  for (const model of models) sim.models.create({ ...model, created: model.created * 1000 })
  for (const video of videos.data) sim.videoModels.create({ ...video, created: video.created * 1000 })
  for (const file of files) sim.files.create({ userId: user.id, id: file.id, filename: file.filename, bytes: file.bytes, origin: 'server' })

  const handles: ImportedHandles = {
    managementKey: management.key,
    userId: user.id,
    defaultWorkspaceId: defaultWorkspace.id,
    workspaces: Object.fromEntries([...workspaces.values()].map((w) => [w.slug, w.id])),
    keys: Object.fromEntries(secrets.map((s) => [s.hash, s.secret])),
    models: models.map((m) => m.id),
    files: files.map((f) => f.id),
  }
  const world = { ...sim.exportWorld(), handles } as WorldSpec<ImportedHandles>
  return { world, secrets }
}

/** A workspace record as the options `workspaces.create` (or a user's default workspace) takes. */
function workspaceFields(w: Workspace) {
  return {
    name: w.name,
    slug: w.slug,
    description: w.description,
    defaultTextModel: w.default_text_model,
    defaultImageModel: w.default_image_model,
    defaultProviderSort: w.default_provider_sort,
    createdAt: w.created_at,
    updatedAt: w.updated_at,
    createdBy: w.created_by,
    includeByokInBudgets: w.include_byok_in_budgets,
    ioLoggingApiKeyIds: w.io_logging_api_key_ids,
    ioLoggingSamplingRate: w.io_logging_sampling_rate,
    isDataDiscountLoggingEnabled: w.is_data_discount_logging_enabled,
    isObservabilityBroadcastEnabled: w.is_observability_broadcast_enabled,
    isObservabilityIoLoggingEnabled: w.is_observability_io_logging_enabled,
  }
}
