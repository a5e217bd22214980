// model-access-sim/vitest: a vitest `test` whose every test gets its own simulator, mounted.
//
// One MSW server per vitest worker carries a single catch-all handler that routes each request to
// the simulator of the test that made it. A test that may run beside others (concurrent) is
// identified by an AsyncLocalStorage slot that its `sim` (or `network`) parameter enters when the
// test function destructures it, so concurrent tests each reach their own simulator; any other
// test is served as the only simulator test running, and enters nothing (decisions/0068).
// Outside simulator tests the server lets every request through, and it stops listening when no
// simulator test is running. decisions/0016-vitest-fixture.md has the why.
import { AsyncLocalStorage } from 'node:async_hooks'
// The module's own functions, not the globals: a test's fake timers replace those, and a close
// scheduled on a fake clock would wait for it (or be lost with it).
import { clearImmediate, setImmediate } from 'node:timers'
import { getResponse, http, type HttpHandler, type RequestHandler } from 'msw'
import { setupServer, type SetupServerApi } from 'msw/node'
import { test as baseTest, type TestAPI } from 'vitest'
import { describe } from '../core/describe.js'
import { invalidArgument } from '../core/errors.js'
import { createSimulator, type EmptyWorld, type Simulator, type SimulatorOptions } from '../core/simulator.js'
import { SIMULATOR_OPTION_NAMES } from '../core/simulator-constants.js'
import { ArgumentChecker, fieldsOf } from '../core/store/check.js'
import type { DefaultWorld } from '../core/worlds/default.js'
import type { WorldSpec } from '../core/worlds/spec.js'
import { toResponse } from '../msw/index.js'
import { answer, isUnder, parseBaseUrl, type SimBase } from '../msw/route.js'

/** What a request no handler of the test answers does, inside a simulator test. */
export type UnhandledRequestPolicy = 'error' | 'warn' | 'bypass'

/** MSW handlers of one test, ahead of its simulator. */
export interface SimNetwork {
  /**
   * Adds handlers for this test only (other hosts, or an override of one simulator route): they
   * are tried before the simulator, the latest first, and are gone when the test ends.
   */
  use(...handlers: RequestHandler[]): void
  /** `METHOD url` of every request in this test that nothing answered, in order. */
  readonly unhandled: readonly string[]
}

/** The fixtures `simTest` gives every test. */
export interface SimTestContext<World = DefaultWorld> {
  /** This test's simulator, mounted for `fetch` and the SDK; created fresh for each test. */
  sim: Simulator<World>
  /** This test's extra MSW handlers, and the requests nothing answered. */
  network: SimNetwork
}

/** Settings of `createSimTest`: the simulator's options, and how it is mounted. */
export interface CreateSimTestOptions extends Omit<SimulatorOptions, 'world'> {
  /** `'default'`, `'empty'` or a world spec; each test loads it afresh. Default `'default'`. */
  world?: 'default' | 'empty' | WorldSpec<object> | undefined
  /** Absolute http(s) base URL the simulator answers under. Default `https://openrouter.ai/api/v1`. */
  baseUrl?: string | undefined
  /**
   * A request in a simulator test that no handler answers: `'error'` (the default) fails it as a
   * network error and fails the test, naming the request; `'warn'` prints it and lets it through
   * to the network; `'bypass'` lets it through silently.
   */
  onUnhandledRequest?: UnhandledRequestPolicy | undefined
  /** Handlers every test starts with (other services your code calls), tried before the simulator. */
  handlers?: RequestHandler[] | undefined
}

interface Slot {
  sim: Simulator<unknown>
  base: SimBase
  policy: UnhandledRequestPolicy
  handlers: RequestHandler[]
  network: SimNetwork & { unhandled: string[] }
  open: boolean
  /** Whether the test read `sim` or `network` (its function's parameters). */
  entered: boolean
}

/** The worker's routing state: shared through globalThis so that an ESM and a CJS copy agree. */
interface Router {
  storage: AsyncLocalStorage<Slot>
  open: Set<Slot>
  server: SetupServerApi | undefined
  /** Whether the server intercepts now. */
  listening: boolean
  /** The close the last slot to end asked for, not yet done: the next test's open cancels it. */
  closing: ReturnType<typeof setImmediate> | undefined
}

/** Each test's slot, by its simulator. */
const slots = new WeakMap<object, Slot>()

const ROUTER_KEY = Symbol.for('model-access-sim/vitest router')

function router(): Router {
  const holder = globalThis as { [ROUTER_KEY]?: Router }
  holder[ROUTER_KEY] ??= { storage: new AsyncLocalStorage<Slot>(), open: new Set(), server: undefined, listening: false, closing: undefined }
  return holder[ROUTER_KEY]
}

/** The slot of the test that made the current request, or a Response explaining why none is. */
function currentSlot(state: Router): Slot | string | undefined {
  const entered = state.storage.getStore()
  if (entered?.open) return entered
  if (state.open.size === 0) return undefined
  if (state.open.size === 1) return state.open.values().next().value as Slot
  return (
    `${state.open.size} simulator tests are running concurrently and this request came from one that ` +
    'does not take `sim` or `network` in its parameters, so it cannot be told which simulator to reach: ' +
    'write the test as simTest.concurrent(name, async ({ sim }) => ...)'
  )
}

async function route({ request }: { request: Request }): Promise<Response | undefined> {
  const slot = currentSlot(router())
  if (slot === undefined) return undefined // not a simulator test: through to the network
  if (typeof slot === 'string') {
    console.error(`model-access-sim/vitest: ${request.method} ${request.url}: ${slot}`)
    return Response.error()
  }
  if (slot.handlers.length > 0) {
    const own = await getResponse(slot.handlers, request)
    if (own !== undefined) return own
  }
  if (isUnder(slot.base, request.url)) return toResponse(await answer(slot.sim, slot.base, request), request.method, request)
  const name = `${request.method} ${request.url}`
  slot.network.unhandled.push(name)
  if (slot.policy === 'error') return Response.error()
  if (slot.policy === 'warn') console.warn(`model-access-sim/vitest: ${name} is not handled in this test; it goes to the network`)
  return undefined
}

function openSlot(slot: Slot): void {
  const state = router()
  if (state.server === undefined) {
    // A client's cancel of a streamed answer reaches the simulator through toResponse's own tee of
    // the stream (decisions/0045): no forwardStreamCancels needed.
    state.server = setupServer(http.all('*', route)) as SetupServerApi
  }
  if (state.closing !== undefined) {
    clearImmediate(state.closing)
    state.closing = undefined
  }
  if (!state.listening) {
    // msw 2 reads onUnhandledRequest, msw 3 onUnhandledFrame: what no slot answers goes through.
    state.server.listen({ onUnhandledRequest: 'bypass', onUnhandledFrame: 'bypass' } as Parameters<SetupServerApi['listen']>[0])
    state.listening = true
  }
  state.open.add(slot)
}

function closeSlot(slot: Slot): void {
  const state = router()
  slot.open = false
  if (!state.open.delete(slot)) return
  // Outside simulator tests the network is as if this module were not loaded. The close waits for
  // the event loop's next turn: a simulator test that starts right after this one (sequential
  // tests start without one) finds the server listening, where closing and listening again for
  // every test was a quarter of a millisecond each (decisions/0016).
  // (A test that opens a slot in the meantime cancels the close: it cannot be pending here.)
  if (state.open.size === 0) {
    state.closing = setImmediate(() => {
      state.closing = undefined
      state.server?.close()
      state.listening = false
    })
  }
}

/**
 * Whether vitest may run another test at the same time as `task`: it, or a suite it is in, is
 * concurrent (`.concurrent`, `describe.concurrent`, `sequence.concurrent`). vitest runs a task
 * beside its siblings only when the task itself is marked so, and a worker runs one file at a time.
 */
function mayRunBeside(task: { concurrent?: boolean; suite?: { concurrent?: boolean; suite?: unknown } }): boolean {
  if (task.concurrent === true) return true
  for (let suite = task.suite; suite !== undefined; suite = suite.suite as typeof suite) if (suite.concurrent === true) return true
  return false
}

/**
 * Makes `context[name]` mark the slot as read whenever it is read (the test function's own
 * parameters), and enter it when `enter`: a test that may run beside others.
 */
function enterOnRead(context: object, name: string, slot: Slot, value: unknown, enter: boolean): void {
  Object.defineProperty(context, name, {
    configurable: true,
    enumerable: true,
    get() {
      if (slot.open) {
        slot.entered = true
        if (enter) router().storage.enterWith(slot)
      }
      return value
    },
    // vitest assigns the fixture's value after the fixture resolves: the getter already has it.
    set() {},
  })
}

/** The simulator's options and the test's own: a misspelt `baseURL` must not quietly mean the default base URL. */
const SIM_TEST_OPTION_FIELDS = fieldsOf<CreateSimTestOptions>({
  ...SIMULATOR_OPTION_NAMES,
  baseUrl: true,
  onUnhandledRequest: true,
  handlers: true,
})

function checkOptions(options: unknown): asserts options is CreateSimTestOptions {
  const operation = 'create a simulator test'
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw invalidArgument(operation, 'options', `must be an options object, got ${describe(options)}`)
  }
  new ArgumentChecker(operation).knownFields(options, SIM_TEST_OPTION_FIELDS, '', 'the options of createSimTest')
  const { onUnhandledRequest, handlers } = options as CreateSimTestOptions
  if (onUnhandledRequest !== undefined && onUnhandledRequest !== 'error' && onUnhandledRequest !== 'warn' && onUnhandledRequest !== 'bypass') {
    throw invalidArgument(operation, 'onUnhandledRequest', `must be "error", "warn" or "bypass", got ${describe(onUnhandledRequest)}`)
  }
  if (handlers !== undefined && (!Array.isArray(handlers) || !handlers.every(isHandler))) {
    throw invalidArgument(operation, 'handlers', `must be an array of MSW request handlers, got ${describe(handlers)}`)
  }
}

function isHandler(value: unknown): value is RequestHandler {
  return typeof value === 'object' && value !== null && typeof (value as { run?: unknown }).run === 'function'
}

/**
 * A vitest `test` whose every test gets its own simulator, created with `options` and mounted
 * under `baseUrl`, so that `fetch` and the SDK in that test reach it. Tests declared with
 * `.concurrent` each reach their own simulator when they take `sim` or `network` in their
 * parameters. Settings are checked here, and a bad one throws a `SimulatorError` naming it.
 *
 * @example
 * import { expect } from 'vitest'
 * import { createSimTest } from 'model-access-sim/vitest'
 *
 * const emptyTest = createSimTest({ world: 'empty', baseUrl: 'http://sim.test/api/v1' })
 *
 * emptyTest('an empty world lists no video models it was not given', async ({ sim }) => {
 *   sim.videoModels.create({ id: 'acme/clip-1' })
 *   const res = await fetch('http://sim.test/api/v1/videos/models')
 *   expect((await res.json()).data.map((m: { id: string }) => m.id)).toEqual(['acme/clip-1'])
 * })
 */
export function createSimTest(options?: CreateSimTestOptions & { world?: 'default' | undefined }): TestAPI<SimTestContext<DefaultWorld>>
export function createSimTest(options: CreateSimTestOptions & { world: 'empty' }): TestAPI<SimTestContext<EmptyWorld>>
export function createSimTest<Handles extends object>(options: CreateSimTestOptions & { world: WorldSpec<Handles> }): TestAPI<SimTestContext<Handles>>
// biome-ignore lint/suspicious/noExplicitAny: the overloads above give each world its type.
export function createSimTest(options: CreateSimTestOptions = {}): TestAPI<SimTestContext<any>> {
  checkOptions(options)
  const { baseUrl, onUnhandledRequest, handlers = [], ...simulatorOptions } = options
  const base = parseBaseUrl('create a simulator test', baseUrl)
  // The simulator options, a world spec included, are checked once here, where the test file is
  // read, not in each test: a bad one throws naming it (`world.keys[3].limit`). With none given
  // there is nothing to check, and `simTest` does no work at import: the default world is loaded
  // by the first test that runs.
  if (Object.values(simulatorOptions).some((value) => value !== undefined)) createSimulator(simulatorOptions as SimulatorOptions)
  const startHandlers = [...handlers]

  return baseTest.extend<SimTestContext<unknown>>({
    sim: [
      async ({ task }, use) => {
        // Only the options the caller gave: `world` undefined means the default world.
        const sim = createSimulator(simulatorOptions as SimulatorOptions) as Simulator<unknown>
        const unhandled: string[] = []
        const slot: Slot = {
          sim,
          base,
          policy: onUnhandledRequest ?? 'error',
          handlers: [...startHandlers],
          network: {
            use(...extra: RequestHandler[]) {
              if (!extra.every(isHandler)) throw invalidArgument('add handlers to the test', 'handlers', `must be MSW request handlers, got ${describe(extra)}`)
              slot.handlers.unshift(...extra)
            },
            unhandled,
          },
          open: true,
          entered: false,
        }
        slots.set(sim, slot)
        // A test no other can run beside is found as the one open slot: it enters nothing, and the
        // worker's promises do not pay for a context kept across them (decisions/0068).
        const beside = mayRunBeside(task)
        // Start from no test's slot: a concurrent test that read `sim` before this one started entered
        // its slot in the context vitest starts this test from (enterWith reaches the caller's), and
        // this test's requests must not reach that simulator (decisions/0061).
        if (beside) router().storage.enterWith(undefined as unknown as Slot)
        // The test function's parameters are read where it runs: reading them enters its slot.
        enterOnRead(task.context, 'sim', slot, sim, beside)
        enterOnRead(task.context, 'network', slot, slot.network, beside)
        openSlot(slot)
        try {
          await use(sim)
        } finally {
          closeSlot(slot)
        }
        if (task.concurrent === true && !slot.entered) {
          // Its requests could not be told from those of the tests beside it (vitest asks the same of `expect`).
          throw new Error(
            'model-access-sim/vitest: a concurrent simulator test must take `sim` or `network` in its parameters, ' +
              'so that its requests reach its own simulator: simTest.concurrent(name, async ({ sim }) => ...)',
          )
        }
        if (unhandled.length > 0 && slot.policy === 'error') {
          throw new Error(
            `model-access-sim/vitest: ${unhandled.length === 1 ? 'a request' : `${unhandled.length} requests`} in this test reached no handler ` +
              `and failed as network errors: ${unhandled.join(', ')}. The simulator answers under ${base.prefix}: a client meant for it needs that base URL. ` +
              "For another service, add a handler with network.use(...), or createSimTest({ onUnhandledRequest: 'bypass' }).",
          )
        }
      },
      { auto: true },
    ],
    // Its getter was installed by `sim`, which every test has: this only declares the name.
    network: async ({ sim }, use) => {
      await use((slots.get(sim) as Slot).network)
    },
  }) as unknown as TestAPI<SimTestContext<any>>
}

/**
 * A vitest `test` whose every test gets its own simulator of the default world, mounted at
 * `https://openrouter.ai/api/v1` (the official SDK's default), so that `fetch` and the SDK reach
 * it. Faults, clock moves and keys a test makes stay in that test. `createSimTest` takes other
 * settings.
 *
 * @example
 * import { expect } from 'vitest'
 * import { simTest } from 'model-access-sim/vitest'
 *
 * simTest('a management key lists the keys', async ({ sim }) => {
 *   const res = await fetch('https://openrouter.ai/api/v1/keys', {
 *     headers: { authorization: `Bearer ${sim.world.managementKey}` },
 *   })
 *   expect(res.status).toBe(200)
 * })
 *
 * simTest('a fault stays in its test', async ({ sim }) => {
 *   sim.faults.serviceUnavailable({ operation: 'listVideoModels' })
 *   expect((await fetch('https://openrouter.ai/api/v1/videos/models')).status).toBe(503)
 * })
 */
export const simTest: TestAPI<SimTestContext<DefaultWorld>> = createSimTest()
