// A CommonJS test file in the same project. Under Jest, require() loads the root entry and
// model-access-sim/pricing on every Node version. model-access-sim/msw, /fixtures, /arbitraries and
// @openrouter/sdk reach ES-module-only code (msw's own dependencies, faker 10, the SDK), which Jest
// can require only on Node 24.9+ with --experimental-vm-modules: before that, import them from an
// ES module test file such as the two next to this one.
const { createSimulator, SimulatorError } = require('model-access-sim')
const { estimateCost } = require('model-access-sim/pricing')

test('require(): the simulator core and the pricing engine', () => {
  const sim = createSimulator()
  const res = sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}` })
  expect(res.status).toBe(200)
  expect(estimateCost({ prompt: '0.000001', completion: '0.000002' }, { promptTokens: 1000, completionTokens: 500 }, { at: 0 })).toBe('0.002')
})

test('require(): the engine\'s errors are the root\'s class, its arrays the test\'s', () => {
  expect(() => createSimulator({ seedd: 1 })).toThrow(SimulatorError)
  const sim = createSimulator()
  expect(sim.handle({ method: 'GET', path: '/models' }).body.data).toBeInstanceOf(Array)
})
