// The zod schemas the real-client cases give their clients when no responder rule answers
// (decisions/0048): shaped as apps write them, so that the default reply must satisfy nested
// objects and arrays, enums, and nullable or optional fields for each client's own parser.
import { z } from 'zod'

/** An answer's schema: a nested object that may be null, arrays of strings and of objects, an enum, a field that may be absent or null. */
export const Ticket = z.object({
  title: z.string(),
  priority: z.enum(['low', 'medium', 'high']),
  tags: z.array(z.string()),
  assignee: z.object({ name: z.string(), email: z.string().nullable() }).nullable(),
  steps: z.array(z.object({ order: z.number().int(), action: z.string() })),
  due: z.string().optional().nullable(),
})

/** A tool's parameters: an integer and an array of an enum's values. */
export const LookupOrder = z.object({ id: z.number().int(), include: z.array(z.enum(['items', 'shipping', 'payment'])) })

/** Another tool's parameters: a boolean and a nested object with a nullable enum. */
export const CreateTicket = z.object({ subject: z.string(), urgent: z.boolean(), customer: z.object({ email: z.string(), tier: z.enum(['free', 'pro']).nullable() }) })

/** What the user says to have `lookup_order` called when both tools are declared. */
export const LOOKUP_ASK = 'Can you lookup order 42 for me?'
/** What the user says when no tool's name is in it: the first tool declared (`create_ticket`) is called. */
export const TICKET_ASK = 'Open a ticket: my parcel is late.'

interface Part {
  name: string
  parts: Part[]
}
const Part: z.ZodType<Part> = z.lazy(() => z.object({ name: z.string(), parts: z.array(Part) }))

/**
 * A schema that asks more of each value: zod's string formats (each with the pattern zod checks),
 * length and number bounds, patterns, a discriminated union, and a recursive part.
 */
export const Exacting = z.object({
  contact: z.object({ email: z.email(), id: z.uuid(), site: z.url(), at: z.iso.datetime(), day: z.iso.date(), ip: z.ipv4() }),
  code: z.string().regex(/^[A-Z]{3}-\d{4}$/),
  name: z.string().min(3).max(8),
  score: z.number().min(10).max(12),
  step: z.number().int().multipleOf(5).gt(0).lt(20),
  labels: z.array(z.string()).min(2).max(3),
  shape: z.discriminatedUnion('kind', [z.object({ kind: z.literal('circle'), r: z.number() }), z.object({ kind: z.literal('square'), side: z.number() })]),
  root: Part,
})
