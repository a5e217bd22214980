// The formats the generator makes and the validator checks, each as ajv-formats' full mode checks
// it (its rules, restated), so that a generated value passes a client's ajv too. A format this does
// not know is not checked (as ajv with strict: false) and is generated as a plain string.
import { toBase64 } from '../base64.js'
import type { Draw } from './draw.js'
import { FIRST_NAMES, LAST_NAMES, WORDS } from './words.js'

const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const TIME = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i
const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i
const HOSTNAME = /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$/i
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)'
const IPV4 = new RegExp(`^(?:${OCTET}\\.){3}${OCTET}$`)
const HEX_GROUP = /^[0-9a-f]{1,4}$/i
const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i
const DURATION = /^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$/
// ajv-formats' uri and uri-reference rules (RFC 3986), built from shared parts.
const PCT = '%[0-9a-f]{2}'
const IP6_IN_URI =
  "(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\\.[a-z0-9\\-._~!$&'()*+,;=:]+)"
const IP4_IN_URI = '(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)'
function uriRule(quote: string, scheme: string): RegExp {
  const seg = `(?:[a-z0-9\\-._~!$&'${quote}()*+,;=:@]|${PCT})`
  const authority = `(?:(?:[a-z0-9\\-._~!$&'()*+,;=:]|${PCT})*@)?(?:\\[${IP6_IN_URI}\\]|${IP4_IN_URI}|(?:[a-z0-9\\-._~!$&'${quote}()*+,;=]|${PCT})*)(?::\\d*)?`
  const hier = `(?:\\/?\\/${authority}(?:\\/${seg}*)*|\\/(?:${seg}+(?:\\/${seg}*)*)?|${seg}+(?:\\/${seg}*)*)`
  const tail = `(?:\\?(?:[a-z0-9\\-._~!$&'${quote}()*+,;=:@/?]|${PCT})*)?(?:#(?:[a-z0-9\\-._~!$&'${quote}()*+,;=:@/?]|${PCT})*)?`
  return new RegExp(`^${scheme}${hier}${scheme.endsWith('?') ? `?${tail}` : tail}$`, 'i')
}
let uriRules: { uri: RegExp; reference: RegExp } | undefined

function isDate(text: string): boolean {
  const m = DATE.exec(text)
  if (m === null) return false
  const year = Number(m[1])
  const month = Number(m[2])
  const day = Number(m[3])
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : (DAYS[month] as number))
}

/** RFC 3339 full-time: a time zone is required (ajv-formats 3's `time`). */
function isTime(text: string): boolean {
  const m = TIME.exec(text)
  if (m === null) return false
  const hr = Number(m[1])
  const min = Number(m[2])
  const sec = Number(m[3])
  const sign = m[5] === '-' ? -1 : 1
  const tzH = Number(m[6] ?? 0)
  const tzM = Number(m[7] ?? 0)
  if (tzH > 23 || tzM > 59 || m[4] === undefined) return false
  if (hr <= 23 && min <= 59 && sec < 60) return true
  const utcMin = min - tzM * sign
  const utcHr = hr - tzH * sign - (utcMin < 0 ? 1 : 0)
  return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1) && sec < 61
}

function isIpv6(text: string): boolean {
  const halves = text.split('::')
  if (halves.length > 2) return false
  const groups = halves.flatMap((half) => (half === '' ? [] : half.split(':')))
  let count = 0
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i] as string
    if (i === groups.length - 1 && group.includes('.') && (halves.length === 1 || (halves[1] as string) !== '')) {
      if (!IPV4.test(group)) return false
      count += 2
    } else if (HEX_GROUP.test(group)) count++
    else return false
  }
  return halves.length === 2 ? count <= 7 : count === 8
}

/** Whether `text` is a valid `format`; undefined for a format this does not check. */
export function formatValid(format: string, text: string): boolean | undefined {
  switch (format) {
    case 'date':
      return isDate(text)
    case 'time':
      return isTime(text)
    case 'date-time': {
      const parts = text.split(/t|\s/i)
      return parts.length === 2 && isDate(parts[0] as string) && isTime(parts[1] as string)
    }
    case 'email':
      return EMAIL.test(text)
    case 'hostname':
      return HOSTNAME.test(text)
    case 'ipv4':
      return IPV4.test(text)
    case 'ipv6':
      return isIpv6(text)
    case 'uuid':
      return UUID.test(text)
    case 'duration':
      return DURATION.test(text)
    case 'uri':
      uriRules ??= { uri: uriRule('', '(?:[a-z][a-z0-9+\\-.]*:)'), reference: uriRule('"', '(?:[a-z][a-z0-9+\\-.]*:)?') }
      return /\/|:/.test(text) && uriRules.uri.test(text)
    case 'uri-reference':
      uriRules ??= { uri: uriRule('', '(?:[a-z][a-z0-9+\\-.]*:)'), reference: uriRule('"', '(?:[a-z][a-z0-9+\\-.]*:)?') }
      return uriRules.reference.test(text)
    case 'jwt':
      return JWT.test(text)
    default:
      return undefined
  }
}

/** A compact JWT: three base64url parts, the last (the signature) possibly empty. */
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/

const base64url = (text: string): string => toBase64(new TextEncoder().encode(text)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')

/** A JWT as a test sees one: an HS256 header, a subject and an issue time, and a signature of drawn bytes. */
function makeJwt(draw: Draw): string {
  const signature = new Uint8Array(32)
  for (let i = 0; i < signature.length; i++) signature[i] = draw.int(0, 255)
  const claims = { sub: makeUuid(draw), iat: draw.int(1_700_000_000, 1_800_000_000) }
  return `${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url(JSON.stringify(claims))}.${toBase64(signature).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0')
}

/** A date between 2000 and 2030 (days up to 28: valid in every month). */
export function makeDate(draw: Draw): string {
  return `${draw.int(2000, 2030)}-${pad(draw.int(1, 12))}-${pad(draw.int(1, 28))}`
}

function makeTime(draw: Draw): string {
  return `${pad(draw.int(0, 23))}:${pad(draw.pick([0, 15, 30, 45]))}:00Z`
}

export function makeUuid(draw: Draw): string {
  let hex = ''
  for (let i = 0; i < 4; i++) hex += draw.u32().toString(16).padStart(8, '0')
  const variant = '89ab'[draw.int(0, 3)] as string
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

export function makeEmail(draw: Draw): string {
  return `${draw.pick(FIRST_NAMES)}.${draw.pick(LAST_NAMES)}@example.com`.toLowerCase()
}

/** The formats {@link makeFormat} makes. */
const MADE: ReadonlySet<string> = new Set(['date', 'time', 'date-time', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid', 'duration', 'uri', 'uri-reference', 'jwt'])

/** Whether {@link makeFormat} makes values of `format` (without drawing one). */
export const makesFormat = (format: string): boolean => MADE.has(format)

/** A value of `format`, or undefined for a format this does not make. */
export function makeFormat(format: string, draw: Draw): string | undefined {
  switch (format) {
    case 'date':
      return makeDate(draw)
    case 'time':
      return makeTime(draw)
    case 'date-time':
      return `${makeDate(draw)}T${makeTime(draw)}`
    case 'email':
      return makeEmail(draw)
    case 'hostname':
      return `${draw.pick(WORDS)}.example.com`
    case 'ipv4':
      return `${draw.int(1, 223)}.${draw.int(0, 255)}.${draw.int(0, 255)}.${draw.int(1, 254)}`
    case 'ipv6':
      return `2001:db8:${draw.int(0, 0xffff).toString(16)}:${draw.int(0, 0xffff).toString(16)}::${draw.int(1, 0xffff).toString(16)}`
    case 'uuid':
      return makeUuid(draw)
    case 'duration':
      return draw.chance(0.5) ? `P${draw.int(1, 30)}D` : `PT${draw.int(1, 12)}H${draw.int(0, 59)}M`
    case 'uri':
      return `https://example.com/${draw.pick(WORDS)}`
    case 'uri-reference':
      return `/${draw.pick(WORDS)}/${draw.pick(WORDS)}`
    case 'jwt':
      return makeJwt(draw)
    default:
      return undefined
  }
}
