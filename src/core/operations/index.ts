// The rows of the router's table, resource by resource: one row per operation name, in the order
// of OPERATION_NAMES (which is the order the catch-all's message lists them in).
import { ACTIVITY_OPERATIONS } from './activity.js'
import { ANALYTICS_OPERATIONS } from './analytics.js'
import { BUDGET_OPERATIONS } from './budgets.js'
import { BYOK_OPERATIONS } from './byok.js'
import { CATALOG_OPERATIONS } from './catalog.js'
import { CREDIT_OPERATIONS } from './credits.js'
import { EMBEDDINGS_OPERATIONS } from './embeddings.js'
import { FILE_OPERATIONS } from './files.js'
import { GENERATION_CONTENT_OPERATIONS } from './generation-content.js'
import { GUARDRAIL_OPERATIONS } from './guardrails.js'
import { INFERENCE_OPERATIONS } from './inference.js'
import { KEY_OPERATIONS } from './keys.js'
import { MEMBER_OPERATIONS } from './members.js'
import { MODELS_USER_OPERATIONS } from './models-user.js'
import { OAUTH_OPERATIONS } from './oauth.js'
import { OPERATION_NAMES } from '../protocol.js'
import { PRESET_OPERATIONS } from './presets.js'
import type { Operation } from './operation.js'
import { WORKSPACE_OPERATIONS } from './workspaces.js'

const order = (operation: Operation): number => OPERATION_NAMES.indexOf(operation.name)

/** Every simulated operation. */
export const OPERATIONS: readonly Operation[] = [...KEY_OPERATIONS, ...CATALOG_OPERATIONS, ...FILE_OPERATIONS, ...WORKSPACE_OPERATIONS, ...CREDIT_OPERATIONS, ...INFERENCE_OPERATIONS, ...EMBEDDINGS_OPERATIONS, ...OAUTH_OPERATIONS, ...PRESET_OPERATIONS, ...BUDGET_OPERATIONS, ...MEMBER_OPERATIONS, ...GUARDRAIL_OPERATIONS, ...ACTIVITY_OPERATIONS, ...ANALYTICS_OPERATIONS, ...GENERATION_CONTENT_OPERATIONS, ...MODELS_USER_OPERATIONS, ...BYOK_OPERATIONS].sort((a, b) => order(a) - order(b))
