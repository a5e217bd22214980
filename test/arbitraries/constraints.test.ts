// A constraint an arbitrary does not have is refused when the arbitrary is built: a misspelt
// `hasLimt: false` used to be ignored, so the property ranged over keys with limits too. So are
// constraints that are not an object.
import { describe, expect, it } from 'vitest'
import { apiKey, endpoint, modelWithEndpoints, pricing, pricingOverride, requestContext, videoModel, workspace, world } from '../../src/arbitraries/index.js'
import { simulatorErrorOf } from '../support/server.js'

const builders: [string, (constraints: never) => unknown, string][] = [
  ['apiKey', apiKey, 'workspaceId, disabled, hasLimit, minCreatedAt, maxCreatedAt'],
  ['endpoint', endpoint, 'pricing, anonymous'],
  ['modelWithEndpoints', modelWithEndpoints, 'minEndpoints, maxEndpoints, endpoint, minCreatedAt, maxCreatedAt'],
  ['pricingOverride', pricingOverride, 'kind'],
  ['pricing', pricing, 'kind, minOverrides, maxOverrides, discount'],
  ['requestContext', requestContext as (constraints: never) => unknown, 'minPromptTokens, maxPromptTokens, minAt, maxAt, atType'],
  ['videoModel', videoModel, 'minCreatedAt, maxCreatedAt'],
  ['workspace', workspace, 'minCreatedAt, maxCreatedAt'],
  ['world', world, 'maxUsers, maxWorkspacesPerUser, maxKeys, maxUsageRecords, maxModels, maxVideoModels, maxFiles'],
]

describe.each(builders)('%s', (name, build, known) => {
  it('refuses a constraint it does not have, naming it and listing the ones it has', () => {
    const error = simulatorErrorOf(() => build({ hasLimt: false } as never))
    expect(error.code).toBe('INVALID_ARGUMENT')
    expect(error.argument).toBe('hasLimt')
    expect(error.message).toBe(`Failed to build the ${name} arbitrary: "hasLimt" is not a constraint of ${name}. Please pass only ${known}.`)
  })

  it.each([null, 'small', [1]])('refuses constraints that are not an object: %j', (constraints) => {
    const error = simulatorErrorOf(() => build(constraints as never))
    expect(error.argument).toBe('constraints')
    expect(error.message).toMatch(new RegExp(`^Failed to build the ${name} arbitrary: the constraints must be an object, got `))
  })

  it('builds with no constraints', () => {
    expect(typeof (build(undefined as never) as { generate?: unknown }).generate).toBe('function')
  })
})
