import { ApiError } from './errors.js'
import { UUID } from './store/check.js'

/** The one value of a query parameter, or undefined; a repeated parameter is ambiguous: 400. */
export function single(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name)
  if (values.length > 1) throw ApiError.badParameter(name, 'must be given at most once', values.join(','))
  return values[0]
}

export function booleanParam(query: URLSearchParams, name: string): boolean | undefined {
  const value = single(query, name)
  if (value === undefined) return undefined
  if (value === 'true') return true
  if (value === 'false') return false
  throw ApiError.badParameter(name, 'must be "true" or "false"', value)
}

export function offsetParam(query: URLSearchParams, name: string): number | undefined {
  const value = single(query, name)
  if (value === undefined) return undefined
  const n = Number(value)
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw ApiError.badParameter(name, 'must be a non-negative integer', value)
  return n
}

export function uuidParam(query: URLSearchParams, name: string): string | undefined {
  const value = single(query, name)
  if (value === undefined) return undefined
  if (!UUID.test(value)) throw ApiError.badParameter(name, 'must be a UUID', value)
  return value.toLowerCase()
}

export function enumParam<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[]): T | undefined {
  const value = single(query, name)
  if (value === undefined) return undefined
  if (!allowed.includes(value as T)) throw ApiError.badParameter(name, `must be one of ${allowed.join(', ')}`, value)
  return value as T
}

/** Decodes one percent-encoded path segment; a malformed escape is a bad parameter. */
export function decodeSegment(segment: string, name: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw ApiError.badParameter(name, 'is not valid percent-encoding', segment)
  }
}
