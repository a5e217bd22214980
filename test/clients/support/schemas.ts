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
