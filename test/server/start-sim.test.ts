// startServer's first argument: a simulator is an object with a handle method. A function that
// carries a handle method is not one, and is refused before anything listens.
import { describe, expect, it } from 'vitest'
import { createSimulator, SimulatorError, type Simulator } from '../../src/index.js'
import { startServer } from '../../src/server/index.js'

describe('startServer refuses a function as the simulator', () => {
  it('even one that carries a working handle method', async () => {
    const sim = createSimulator()
    const callable = Object.assign(() => sim, { handle: sim.handle.bind(sim) }) as unknown as Simulator<unknown>
    const error = await startServer(callable, { port: 0 }).then(
      async (server) => {
        await server.close()
        return undefined
      },
      (thrown: unknown) => thrown,
    )
    expect(error).toBeInstanceOf(SimulatorError)
    expect([(error as SimulatorError).argument, (error as SimulatorError).message]).toEqual(['sim', 'Failed to start the server: "sim" must be a simulator (createSimulator()).'])
  })
})
