// The world file format, in a module of its own: the package's entry points
// export it without loading the simulator (decisions/0072).

/**
 * The format tag every world spec carries; a spec with another one is refused.
 *
 * @example
 * import { createSimulator, WORLD_FORMAT } from 'model-access-sim'
 * const sim = createSimulator({
 *   world: {
 *     format: WORLD_FORMAT,
 *     users: [{ id: 'user_acme', name: 'Acme', credits: { total: 50 } }],
 *     keys: [{ userId: 'user_acme', management: true, secret: 'sk-or-v1-admin' }],
 *     handles: { admin: 'sk-or-v1-admin' },
 *   },
 * })
 * console.log(WORLD_FORMAT, sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.admin}` }).status)
 * console.log(sim.handle({ method: 'GET', path: '/credits', authorization: `Bearer ${sim.world.admin}` }).body)
 * //=> model-access-sim/world@1 200
 * //=> {"data":{"total_credits":50,"total_usage":0}}
 */
export const WORLD_FORMAT = 'model-access-sim/world@1'
