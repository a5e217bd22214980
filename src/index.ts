// model-access-sim: the root entry point. It imports no msw, faker or fast-check.

export { createSimulator, validateWorld } from './core/simulator.js'
export { DEFAULT_NOW, DEFAULT_SEED } from './core/simulator-constants.js'
export { OPERATION_NAMES } from './core/protocol.js'
export { AUTH_MESSAGES, ERROR_MESSAGES, errorEnvelope, SimulatorError, SimulatorErrorCode } from './core/errors.js'
export { formatTimestamp } from './core/time.js'
export { maskSecret } from './core/store/mask.js'
export { byokFee } from './core/inference/byok-fee.js'
export { OAUTH_CODE_LIFETIME_MS } from './core/store/oauth-lifetime.js'
export { WORLD_FORMAT } from './core/worlds/format.js'
// The pricing functions as model-access-sim/pricing exports them, from the modules that define them:
// the root's own built module then holds all it imports (decisions/0072).
export { compilePricing } from './core/pricing/compile.js'
export { estimateCost, explainPricing, resolvePricing } from './core/pricing/resolve.js'
export { PricingError } from './core/pricing/errors.js'
export { validatePricing } from './core/pricing/validate.js'
export { pricingFromSdk } from './core/pricing/sdk.js'
export {
  DATA_REGIONS,
  ENDPOINT_STATUSES,
  INPUT_MODALITIES,
  INSTRUCT_TYPES,
  MODEL_CATEGORIES,
  OUTPUT_MODALITIES,
  OVERRIDABLE_PRICE_KEYS,
  PRICE_KEYS,
  QUANTIZATIONS,
  SUPPORTED_PARAMETERS,
  TOKENIZERS,
  VIDEO_ASPECT_RATIOS,
  VIDEO_FRAME_IMAGES,
  VIDEO_RESOLUTIONS,
  WEEKDAYS,
  WORKLOADS,
} from './core/types.js'

// Types
export type { EmptyWorld, Simulator, SimulatorOptions } from './core/simulator.js'
export type { DefaultWorld } from './core/worlds/default.js'
export type { WorldActivity, WorldBudget, WorldByok, WorldFile, WorldInstant, WorldKey, WorldModel, WorldPreset, WorldPresetVersion, WorldSpec, WorldUsageRecord, WorldUser, WorldVideoModel, WorldWorkspace } from './core/worlds/spec.js'
export type { WorldProblem } from './core/worlds/problems.js'
export type { WorldRegExp, WorldResponder } from './core/worlds/responders.js'
export type { LeftEarly, OperationName, SimRequest, SimResponse } from './core/protocol.js'
export type { AuthFailure, ErrorStatus } from './core/errors.js'
export type { ClockMode, SimulatorClock, WallTime } from './core/clock.js'
export type { Fault, FaultControls, FaultMatch, FaultResponse, FaultRule, FaultTiming, LatencyControls, LatencyRule } from './core/faults.js'
export type { RateLimit } from './core/store/state.js'
export type { CutShort, Journal, JournalEntry, JournalFilter, JournalOutcome } from './core/journal.js'
export type { Principal } from './core/auth.js'
export type { RecordUsageOptions, UsageCollection } from './core/store/usage.js'
export type { AddCreditsOptions, CreditCollection } from './core/store/credits.js'
export type { InstantInput } from './core/time.js'
export type { FileOrigin, FileProvider } from './core/store/state.js'
export type { SimulatorSnapshot } from './core/snapshot.js'
export type { CreateUserOptions, User, UserCollection, UserCreditsOptions } from './core/store/users.js'
export type { CreateWorkspaceOptions, DeleteWorkspaceOptions, UpdateWorkspaceOptions, WorkspaceCollection, WorkspaceRef } from './core/store/workspaces.js'
export type { CreateKeyOptions, KeyUsageInput } from './core/store/key-options.js'
export type { CreatedKey, KeyCollection, UpdateKeyOptions } from './core/store/keys.js'
export type { CreateOAuthCodeOptions, OAuthCode, OAuthCodeCollection, OAuthControls } from './core/store/oauth.js'
export type { BudgetInterval, CodeChallengeMethod } from './core/store/state.js'
export type { BudgetCollection, SetBudgetOptions, WorkspaceBudget } from './core/store/budgets.js'
export type { ActivityCollection, RecordActivityOptions } from './core/store/activity.js'
export type { ByokCollection, ByokKey, CreateByokOptions, UpdateByokOptions } from './core/store/byok.js'
export type { LoadKeyOptions, SdkKeyRecord } from './core/store/key-records.js'
export type { CreateFileOptions, FileCollection, StoredFile } from './core/store/files.js'
export type { CreateModelOptions, ModelCollection } from './core/store/models.js'
export type { CreatePresetOptions, PresetCollection, PresetRef, UpdatePresetOptions } from './core/store/presets.js'
export type { CreateGuardrailOptions, Guardrail, GuardrailCollection, GuardrailKeyAssignment, GuardrailMemberAssignment } from './core/store/guardrails.js'
export type { GuardrailBuiltinFilter, GuardrailContentFilter, GuardrailRules } from './core/store/state.js'
export type { CreateMemberOptions, MemberCollection, MemberWorkspaceOptions, OrganizationMember, WorkspaceMember } from './core/store/members.js'
export type { CreateVideoModelOptions, VideoModelCollection } from './core/store/video-models.js'
export type {
  CompiledPricing,
  ConditionExplanation,
  CostRequest,
  CostUsage,
  OverrideExplanation,
  PriceExplanation,
  PricingArgument,
  PricingExplanation,
  PricingIssue,
  PricingRequest,
  ResolvedPricing,
} from './pricing/index.js'
export type * from './core/types.js'
export type { AttemptFacts, InferenceControls, ResponderError, ResponderInfo, ResponderMatch, ResponderReply, ResponderRule, ResponderToolCall } from './core/inference/responders.js'
export type { ChatAssistantMessage, ChatChunk, ChatChunkError, ChatCompletion, ChatReasoningDetail, ChatStreamToolCall, ChatToolCall, ChatUsage, FinishReason, Generation, ProviderResponse } from './core/inference/wire.js'
export type { TextCompletion, TextCompletionChoice, TextCompletionChunk } from './core/inference/completions.js'
export type { StreamFrame } from './core/protocol.js'
export type { ResponderOperation } from './core/inference/responders.js'
export type { EmbeddingData, EmbeddingsResponse, EmbeddingsUsage } from './core/inference/embeddings.js'
export { embeddingDimensions } from './core/inference/dimensions.js'
