// File content: the download of a server-created file's bytes.
import { ApiError } from '../errors.js'
import { enumParam, uuidParam } from '../params.js'
import { FILE_ID } from '../store/files.js'
import { type FileProvider, fileScopeKey } from '../store/state.js'
import { defaultWorkspaceParam } from '../store/workspaces.js'
import type { Operation } from './operation.js'

const FILE_PROVIDERS: readonly FileProvider[] = ['openai', 'anthropic']

/**
 * `attachment; filename="..."`, with an RFC 8187 `filename*` when the name is not plain ASCII.
 * encodeURIComponent leaves `'()*` (and `!`) as they are; RFC 8187's attr-char allows `!` but not
 * the others, and a parser splits the value at a bare `'`.
 */
function contentDisposition(filename: string): string {
  if (/^[\x20-\x7e]*$/.test(filename) && !/["\\]/.test(filename)) return `attachment; filename="${filename}"`
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_')
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`
}

export const FILE_OPERATIONS: readonly Operation[] = [
  {
    name: 'getFileContent',
    method: 'GET',
    template: '/files/{file_id}/content',
    auth: 'management',
    run({ ctx, params, query, principal }) {
      const userId = principal.userId
      const fileId = params['file_id'] as string
      if (!FILE_ID.test(fileId)) throw ApiError.badParameter('file_id', 'must be 1 to 256 characters of [A-Za-z0-9_-]', fileId)
      const workspaceId = uuidParam(query, 'workspace_id') ?? defaultWorkspaceParam(ctx, userId)
      const provider = enumParam(query, 'provider', FILE_PROVIDERS) ?? null
      const file = ctx.data.files.get(fileScopeKey(workspaceId, provider, fileId))
      if (!file || file.userId !== userId) throw ApiError.notFound({ resource: 'file' })
      if (file.origin !== 'server') {
        throw ApiError.badParameter('file_id', 'the file was uploaded; only server-created files can be downloaded', fileId)
      }
      return {
        status: 200,
        headers: {
          'content-type': 'application/octet-stream',
          'content-length': String(file.bytes.byteLength),
          'content-disposition': contentDisposition(file.filename),
        },
        type: 'bytes',
        // The store's own bytes: the router hands the caller a copy, and the journal shares these.
        body: file.bytes,
      }
    },
  },
]
