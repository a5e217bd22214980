// The page of test/browser/cors.browser.ts: a web app on one origin calling the simulator's HTTP
// server on another, as an app under a dev server does, with the page's own fetch, the openai client
// (`dangerouslyAllowBrowser`) and the official SDK. No service worker: every answer crosses origins,
// so the browser enforces CORS on each. `window.__runCors(setup)` returns what the page could read.
import { OpenRouter } from '@openrouter/sdk'
import OpenAI from 'openai'

/** What the Node side gives the page: the servers' URLs and the keys of the world. */
export interface CorsSetup {
  /** The simulator's base URL (another origin than the page's). */
  url: string
  /** The same simulator behind a server started with `cors: false`. */
  closedUrl: string
  controlUrl: string
  apiKey: string
  apiKeyHash: string
  managementKey: string
  model: string
}

/** One step: what the page read, or how its request failed. */
export type CorsStep =
  | { label: string; ok: true; status?: number; type?: string; headers?: Record<string, string>; value: unknown }
  | { label: string; ok: false; name: string; message: string; status?: number; value?: unknown }

declare global {
  interface Window {
    __runCors(setup: CorsSetup): Promise<CorsStep[]>
  }
}

async function step(steps: CorsStep[], label: string, run: () => Promise<Omit<Extract<CorsStep, { ok: true }>, 'label' | 'ok'>>): Promise<void> {
  try {
    steps.push({ label, ok: true, ...(await run()) })
  } catch (error) {
    const e = error as { name?: string; message?: string; status?: number; error?: unknown }
    steps.push({ label, ok: false, name: (error as object | null)?.constructor?.name ?? e.name ?? 'Error', message: String(e.message), ...(typeof e.status === 'number' && { status: e.status }), ...(e.error !== undefined && { value: e.error }) })
  }
}

async function read(res: Response): Promise<Omit<Extract<CorsStep, { ok: true }>, 'label' | 'ok'>> {
  const headers: Record<string, string> = {}
  res.headers.forEach((value, name) => (headers[name] = value))
  const text = await res.text()
  let value: unknown = text
  try {
    value = JSON.parse(text)
  } catch {
    // A stream or bytes: kept as text.
  }
  return { status: res.status, type: res.type, headers, value }
}

window.__runCors = async (setup) => {
  const steps: CorsStep[] = []
  const json = { 'content-type': 'application/json' }
  const chat = JSON.stringify({ model: setup.model, messages: [{ role: 'user', content: 'Hello from a page' }] })

  // The page's own fetch: a JSON POST with a key is the request that needs a preflight.
  await step(steps, 'fetch chat', async () =>
    read(await fetch(`${setup.url}/chat/completions`, { method: 'POST', headers: { ...json, authorization: `Bearer ${setup.apiKey}` }, body: chat })),
  )
  await step(steps, 'fetch bad key', async () => read(await fetch(`${setup.url}/keys`, { headers: { authorization: 'Bearer sk-or-v1-nope' } })))
  await step(steps, 'fetch PATCH key', async () =>
    read(
      await fetch(`${setup.url}/keys/${setup.apiKeyHash}`, {
        method: 'PATCH',
        headers: { ...json, authorization: `Bearer ${setup.managementKey}` },
        body: JSON.stringify({ name: 'renamed from a page' }),
      }),
    ),
  )
  await step(steps, 'fetch rate limited', async () => {
    let last: Response | undefined
    for (let i = 0; i < 4; i++) last = await fetch(`${setup.url}/credits`, { headers: { authorization: `Bearer ${setup.managementKey}` } })
    return read(last as Response)
  })

  // The openai client, as a browser app would configure it.
  const openai = new OpenAI({ apiKey: setup.apiKey, baseURL: setup.url, dangerouslyAllowBrowser: true, maxRetries: 0 })
  await step(steps, 'openai chat', async () => {
    const completion = await openai.chat.completions.create({ model: setup.model, messages: [{ role: 'user', content: 'Say hi' }] })
    return { value: { content: completion.choices[0]?.message.content, total: completion.usage?.total_tokens } }
  })
  await step(steps, 'openai stream', async () => {
    const stream = await openai.chat.completions.create({ model: setup.model, messages: [{ role: 'user', content: 'Stream hi' }], stream: true })
    let content = ''
    let chunks = 0
    for await (const chunk of stream) {
      chunks++
      content += chunk.choices[0]?.delta.content ?? ''
    }
    return { value: { content, chunks } }
  })
  await step(steps, 'openai bad key', async () => {
    const bad = new OpenAI({ apiKey: 'sk-or-v1-nope', baseURL: setup.url, dangerouslyAllowBrowser: true, maxRetries: 0 })
    return { value: await bad.chat.completions.create({ model: setup.model, messages: [{ role: 'user', content: 'x' }] }) }
  })

  // The official SDK.
  await step(steps, 'sdk chat', async () => {
    const sdk = new OpenRouter({ apiKey: setup.apiKey, serverURL: setup.url, retryConfig: { strategy: 'none' } })
    const result = (await sdk.chat.send({ chatRequest: { model: setup.model, messages: [{ role: 'user', content: 'Hi SDK' }] } })) as {
      choices: { message: { content: unknown } }[]
    }
    return { value: { content: result.choices[0]?.message.content } }
  })

  // What must stay closed: the control API, and a server started with cors: false.
  await step(steps, 'control API', async () => read(await fetch(`${setup.controlUrl}/health`)))
  await step(steps, 'control reset', async () => read(await fetch(`${setup.controlUrl}/reset`, { method: 'POST', headers: json, body: '{}' })))
  await step(steps, 'closed server', async () => read(await fetch(`${setup.closedUrl}/models`)))
  await step(steps, 'closed server chat', async () =>
    read(await fetch(`${setup.closedUrl}/chat/completions`, { method: 'POST', headers: { ...json, authorization: `Bearer ${setup.apiKey}` }, body: chat })),
  )
  return steps
}
