// startServer's options, called in process: each bad one refused with a SimulatorError naming it
// and saying what it takes, nothing left listening; the edges of each range accepted. (The CLI
// checks its flags before it calls startServer, so its tests never reach these messages.)
import { describe, expect, it } from 'vitest'
import { createSimulator, SimulatorError } from '../../src/index.js'
import { startServer, type StartServerOptions } from '../../src/server/index.js'

async function refusal(options: unknown, sim: unknown = createSimulator()): Promise<SimulatorError> {
  const error = await startServer(sim as never, options as StartServerOptions).then(
    async (server) => {
      await server.close()
      throw new Error(`startServer took ${JSON.stringify(options)}`)
    },
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(SimulatorError)
  return error as SimulatorError
}

const MS = 'must be a whole number of milliseconds from 1 to 3600000'

describe('startServer refuses a bad option, naming it', () => {
  it.each([
    [null, 'options', 'Failed to start the server: "options" must be an options object.'],
    [[], 'options', 'Failed to start the server: "options" must be an options object.'],
    [{ port: -1 }, 'port', 'Failed to start the server: "port" must be an integer from 0 to 65535 (0 picks a free port), got -1.'],
    [{ port: 65_536 }, 'port', 'Failed to start the server: "port" must be an integer from 0 to 65535 (0 picks a free port), got 65536.'],
    [{ port: 1.5 }, 'port', 'Failed to start the server: "port" must be an integer from 0 to 65535 (0 picks a free port), got 1.5.'],
    [{ port: '80' }, 'port', 'Failed to start the server: "port" must be an integer from 0 to 65535 (0 picks a free port), got "80".'],
    [{ port: 0, host: '' }, 'host', 'Failed to start the server: "host" must be a host name or address such as "127.0.0.1", got "".'],
    [{ port: 0, host: 7 }, 'host', 'Failed to start the server: "host" must be a host name or address such as "127.0.0.1", got 7.'],
    [{ port: 0, basePath: 5 }, 'basePath', 'Failed to start the server: "basePath" must be a path such as "/api/v1" (not under /__sim), got 5.'],
    [{ port: 0, basePath: '/__sim/api' }, 'basePath', 'Failed to start the server: "basePath" must be a path such as "/api/v1" (not under /__sim), got "/__sim/api".'],
    [{ port: 0, control: 'yes' }, 'control', 'Failed to start the server: "control" must be a boolean, got "yes".'],
    [{ port: 0, onRequest: 'log' }, 'onRequest', 'Failed to start the server: "onRequest" must be a function.'],
    [{ port: 0, controlToken: 'short' }, 'controlToken', 'Failed to start the server: "controlToken" must be at least 16 printable characters without spaces (a header value), such as the output of `openssl rand -hex 16`.'],
    [{ port: 0, controlToken: 'a token with spaces in it' }, 'controlToken', 'Failed to start the server: "controlToken" must be at least 16 printable characters without spaces (a header value), such as the output of `openssl rand -hex 16`.'],
    [{ port: 0, controlToken: 1234567890123456 }, 'controlToken', 'Failed to start the server: "controlToken" must be at least 16 printable characters without spaces (a header value), such as the output of `openssl rand -hex 16`.'],
    [{ port: 0, idleTimeoutMs: 0 }, 'idleTimeoutMs', `Failed to start the server: "idleTimeoutMs" ${MS}, got 0.`],
    [{ port: 0, idleTimeoutMs: 3_600_001 }, 'idleTimeoutMs', `Failed to start the server: "idleTimeoutMs" ${MS}, got 3600001.`],
    [{ port: 0, idleTimeoutMs: 2.5 }, 'idleTimeoutMs', `Failed to start the server: "idleTimeoutMs" ${MS}, got 2.5.`],
    [{ port: 0, headersTimeoutMs: '10' }, 'headersTimeoutMs', `Failed to start the server: "headersTimeoutMs" ${MS}, got "10".`],
  ])('%j', async (options, argument, message) => {
    const error = await refusal(options)
    expect([error.argument, error.message]).toEqual([argument, message])
  })

  it('a field it does not know, naming startServer', async () => {
    const error = await refusal({ port: 0, idleTimeout: 5 })
    expect(error.argument).toBe('idleTimeout')
    expect(error.message).toContain('the options of startServer')
  })

  it.each([[{ handle: 'no' }], [null], ['sim'], [{}]])('something that is not a simulator: %j', async (sim) => {
    const error = await refusal({ port: 0 }, sim)
    expect([error.argument, error.message]).toEqual(['sim', 'Failed to start the server: "sim" must be a simulator (createSimulator()).'])
  })
})

describe('startServer takes the edges of each range', () => {
  it.each([
    { idleTimeoutMs: 1, headersTimeoutMs: 3_600_000 },
    { idleTimeoutMs: 3_600_000, headersTimeoutMs: 1 },
    { basePath: '/', control: false },
  ])('%j', async (options) => {
    const server = await startServer(createSimulator(), { port: 0, ...options })
    try {
      expect(server.port).toBeGreaterThan(0)
      expect(server.url).toBe(`http://127.0.0.1:${server.port}${options.basePath === '/' ? '' : '/api/v1'}`)
    } finally {
      await server.close()
    }
  })
})
