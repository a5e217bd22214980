import { SimulatorError, SimulatorErrorCode } from '../errors.js'
import { type InstantInput, toEpochMs } from '../time.js'
import { ArgumentChecker, fieldsOf } from './check.js'
import { type StoreContext, atomically } from './context.js'
import { put } from './versions.js'
import { type FileOrigin, type FileProvider, type FileState, fileScopeKey } from './state.js'
import { requireUser, resolveWorkspaceId } from './workspaces.js'

export interface CreateFileOptions {
  userId: string
  /** 1 to 256 characters of `[A-Za-z0-9_-]`; generated when absent. */
  id?: string | undefined
  /** UUID of one of the organisation's workspaces; default: its default workspace. */
  workspaceId?: string | undefined
  /** `server`: created by the service, downloadable. `upload`: uploaded by the user; download answers 400. */
  origin: FileOrigin
  bytes: Uint8Array | ArrayBuffer
  /** Sent in `content-disposition`; default: the file id. */
  filename?: string | undefined
  /** Stored with a provider through the caller's own key; absent: the service's own storage. */
  provider?: FileProvider | undefined
  createdAt?: InstantInput | undefined
}

/** A stored file as `sim.files.list()` describes it (the wire has no file record, only its bytes). */
export interface StoredFile {
  id: string
  userId: string
  workspaceId: string
  provider: FileProvider | null
  origin: FileOrigin
  filename: string
  size: number
  bytes: Uint8Array
  createdAt: string
}

export interface FileCollection {
  /**
   * Stores a file. A field that is not one of {@link CreateFileOptions} throws an INVALID_ARGUMENT
   * SimulatorError naming it, and stores nothing.
   */
  create(options: CreateFileOptions): StoredFile
  list(): StoredFile[]
}

export const FILE_ID = /^[A-Za-z0-9_-]{1,256}$/
const PROVIDERS: readonly FileProvider[] = ['openai', 'anthropic']
const ORIGINS: readonly FileOrigin[] = ['server', 'upload']
export const FILE_FIELDS = fieldsOf<CreateFileOptions>({
  userId: true,
  id: true,
  workspaceId: true,
  origin: true,
  bytes: true,
  filename: true,
  provider: true,
  createdAt: true,
})

function toStoredFile(file: FileState): StoredFile {
  return {
    id: file.id,
    userId: file.userId,
    workspaceId: file.workspaceId,
    provider: file.provider,
    origin: file.origin,
    filename: file.filename,
    size: file.bytes.byteLength,
    bytes: file.bytes.slice(),
    createdAt: new Date(file.createdAt).toISOString(),
  }
}

export function createFileCollection(ctx: StoreContext): FileCollection {
  const operation = 'create file'
  return {
    create: (options) =>
      atomically(ctx, () => {
        const check: ArgumentChecker = new ArgumentChecker(operation)
        check.knownFields(check.object(options, 'options'), FILE_FIELDS, '', 'a file')
        const userId = requireUser(ctx, options.userId, operation)
        const workspaceId = resolveWorkspaceId(ctx, userId, options.workspaceId, operation)
        const origin = check.oneOf(options.origin, ORIGINS, 'origin')
        const provider = options.provider === undefined ? null : check.oneOf(options.provider, PROVIDERS, 'provider')
        const raw: unknown = options.bytes
        let bytes: Uint8Array
        // Copy in, so a caller that later reuses its buffer cannot change what the simulator serves.
        if (raw instanceof Uint8Array) bytes = raw.slice()
        else if (raw instanceof ArrayBuffer) bytes = new Uint8Array(raw.slice(0))
        else check.fail('bytes', `must be a Uint8Array or an ArrayBuffer, got ${Array.isArray(raw) ? 'an array' : typeof raw}`)
        const createdAt = options.createdAt === undefined ? ctx.clock.nowMs() : toEpochMs(options.createdAt, operation, 'createdAt')
        let id: string
        if (options.id !== undefined) {
          id = check.string(options.id, 'id', FILE_ID, '1 to 256 characters of [A-Za-z0-9_-]')
          if (ctx.data.files.has(fileScopeKey(workspaceId, provider, id))) {
            throw new SimulatorError(
              SimulatorErrorCode.DuplicateFileId,
              `Failed to ${operation}: file id "${id}" already exists in workspace ${workspaceId} (${provider ?? 'service storage'}).`,
              { argument: 'id' },
            )
          }
        } else {
          do id = `file_${ctx.random.alphanumeric(24)}`
          while (ctx.data.files.has(fileScopeKey(workspaceId, provider, id)))
        }
        const filename = options.filename === undefined ? id : check.string(options.filename, 'filename', /^[^\r\n]{1,255}$/, 'one line of at most 255 characters')
        const file: FileState = { id, userId, workspaceId, provider, origin, filename, bytes, createdAt }
        put(ctx, 'files', fileScopeKey(workspaceId, provider, id), file)
        return toStoredFile(file)
      }),
    list: () => [...ctx.data.files.values()].map(toStoredFile),
  }
}
