// `npm start`: the default world served through MSW, read with the official SDK.
import { OpenRouter } from '@openrouter/sdk'
import type { ChatResult } from '@openrouter/sdk/models'
import { ForbiddenResponseError, PaymentRequiredResponseError } from '@openrouter/sdk/models/errors'
import { setupServer } from 'msw/node'
import { createSimulator } from '../src/index.js'
import { createHandlers } from '../src/msw/index.js'

const sim = createSimulator() // the embedded default world, seed 42, clock at 2026-03-02T10:00:00Z
const server = setupServer(...createHandlers(sim)) // intercepts https://openrouter.ai/api/v1
server.listen({ onUnhandledRequest: 'error' })

const sdk = new OpenRouter({
  apiKey: sim.world.managementKey,
  serverURL: 'https://openrouter.ai/api/v1',
  retryConfig: { strategy: 'none' },
})
const anonymous = new OpenRouter({ serverURL: 'https://openrouter.ai/api/v1', retryConfig: { strategy: 'none' } })
/** `author/slug` -> the SDK's path parameters. */
const modelParams = (id: string): { author: string; slug: string } => ({ author: id.slice(0, id.indexOf('/')), slug: id.slice(id.indexOf('/') + 1) })

/** The terminal's width (80 when not a terminal), at most 100 columns. */
const WIDTH = Math.min(process.stdout.columns ?? 80, 100)

/** `text` in lines of at most `width` characters, broken at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  return [...lines, line]
}

function table(title: string, rows: Record<string, unknown>[]): void {
  console.log(`\n${title}`)
  if (rows.length === 0) {
    console.log('  (none)')
    return
  }
  const columns = Object.keys(rows[0] as object)
  const cell = (value: unknown): string => (value === null || value === undefined ? '-' : String(value))
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)))
  const line = (values: string[]): string => `  ${values.map((v, i) => v.padEnd(widths[i] as number)).join('  ')}`.trimEnd()
  console.log(line(columns))
  console.log(line(widths.map((w) => '-'.repeat(w))))
  for (const row of rows) console.log(line(columns.map((c) => cell(row[c]))))
}

try {
  console.log(`model-access-sim quickstart: simulated clock at ${sim.clock.now().toISOString()}`)
  console.log(`management key ${sim.world.managementKey.slice(0, 14)}... (sim.world.managementKey)`)

  // 1. GET /keys: the default workspace, newest first, disabled keys included.
  const keys = await sdk.apiKeys.list({ includeDisabled: true })
  table(
    `GET /keys?include_disabled=true  (${keys.data.length} keys in the default workspace)`,
    keys.data.slice(0, 8).map((k) => ({
      name: k.name,
      label: k.label,
      disabled: k.disabled,
      'limit $': k.limit,
      'remaining $': k.limitRemaining,
      reset: k.limitReset,
      'usage $': k.usage,
      created: k.createdAt.slice(0, 10),
    })),
  )

  // 2. GET /keys/{hash}
  const key = await sdk.apiKeys.get({ hash: sim.world.apiKeyHash })
  table('GET /keys/{hash}', [
    { hash: `${key.data.hash.slice(0, 12)}...`, name: key.data.name, 'usage today $': key.data.usageDaily, 'this month $': key.data.usageMonthly, workspace: key.data.workspaceId },
  ])

  // 3. GET /models/{author}/{slug}/endpoints, anonymously: no latency or throughput.
  // sim.world.models names a model of each kind worth testing: this one is cheaper off-peak.
  const model = await anonymous.endpoints.list(modelParams(sim.world.models.timeWindowed))
  table(
    `GET /models/${sim.world.models.timeWindowed}/endpoints  (anonymous: latency hidden)`,
    model.data.endpoints.map((e) => ({
      provider: e.providerName,
      quantization: e.quantization,
      context: e.contextLength,
      'prompt $/tok': e.pricing.prompt,
      'completion $/tok': e.pricing.completion,
      overrides: (e.pricing.overrides ?? []).map((o) => `${String(o.utcStart ?? 0).padStart(4, '0')}-${String(o.utcEnd ?? 2400).padStart(4, '0')} ${o.prompt ?? ''}`).join(', '),
      'latency p50': e.latencyLast30m?.p50,
    })),
  )
  const authed = await sdk.endpoints.list(modelParams(sim.world.models.longContext))
  table(
    `GET /models/${sim.world.models.longContext}/endpoints  (with a key: latency shown; dearer past ${authed.data.endpoints[0]?.pricing.overrides?.[0]?.minPromptTokens ?? '-'} prompt tokens)`,
    authed.data.endpoints.map((e) => ({ provider: e.providerName, 'uptime 30m %': e.uptimeLast30m, 'latency p50 ms': e.latencyLast30m?.p50, 'tok/s p50': e.throughputLast30m?.p50 })),
  )

  // 4. GET /files/{file_id}/content: the exact bytes, as a stream.
  const stream = await sdk.files.download({ fileId: sim.world.files.report })
  const text = await new Response(stream).text()
  // A batch's results, one JSON object per line: each request's id and the model's answer.
  console.log(`\nGET /files/${sim.world.files.report}/content  (${text.length} bytes of JSONL batch results)`)
  for (const line of text.trim().split('\n')) {
    const result = JSON.parse(line) as { custom_id: string; response: { status_code: number; body: { output: string } } }
    const label = `  ${result.custom_id} (${result.response.status_code}) `
    wrap(result.response.body.output, WIDTH - label.length).forEach((part, i) => console.log(`${i === 0 ? label : ' '.repeat(label.length)}${part}`))
  }

  // 5. GET /workspaces/{id}, by slug.
  const workspace = await sdk.workspaces.get({ id: 'production' })
  table('GET /workspaces/production', [
    { id: workspace.data.id, name: workspace.data.name, slug: workspace.data.slug, 'default model': workspace.data.defaultTextModel, sort: workspace.data.defaultProviderSort },
  ])

  // 6. GET /videos/models
  const videos = await anonymous.videoGeneration.listVideosModels()
  table(
    'GET /videos/models',
    videos.data.map((v) => ({
      id: v.id,
      resolutions: (v.supportedResolutions ?? []).join(' '),
      durations: (v.supportedDurations ?? []).join('/'),
      audio: v.generateAudio,
      pricing: Object.entries(v.pricingSkus ?? {}).map(([sku, price]) => `${sku}=${price}`).join(' '),
    })),
  )

  // And what a regular key gets on a management operation:
  const regular = new OpenRouter({ apiKey: sim.world.apiKey, serverURL: 'https://openrouter.ai/api/v1', retryConfig: { strategy: 'none' } })
  const denied = await regular.apiKeys.list().catch((error: unknown) => error as Error)
  const status = denied instanceof Error ? (/Status (\d{3})/.exec(denied.message)?.[1] ?? denied.message.split('\n')[0]) : 'no error'
  console.log(`\nGET /keys with a regular key -> ${status}`)
  if (status !== '403') throw new Error(`expected 403 for a regular key on GET /keys, got ${status}`)
  for (const line of wrap(
    'That 403 is the expected answer: listing keys takes a management key, as on the real service. The SDK throws it as an OpenRouterDefaultError; your code under test sees the same.',
    WIDTH - 2,
  ))
    console.log(`  ${line}`)

  // 7. POST /chat/completions: priced, charged, limited. sim.world.nearLimitKey has 0.000001 USD
  // left of its 1 USD daily limit: this completion is served and charged, the next one refused.
  const spender = new OpenRouter({ apiKey: sim.world.nearLimitKey, serverURL: 'https://openrouter.ai/api/v1', retryConfig: { strategy: 'none' } })
  const ask = { model: sim.world.models.paid, messages: [{ role: 'user' as const, content: 'Summarise our refund policy in one line.' }] }
  const completion = (await spender.chat.send({ chatRequest: ask })) as ChatResult
  const generation = (await spender.generations.getGeneration({ id: completion.id })).data
  const after = (await spender.apiKeys.getCurrentKeyMetadata()).data
  table(`POST /chat/completions  (sim.world.nearLimitKey: 1 USD a day, 0.000001 left)`, [
    {
      model: completion.model,
      provider: generation.providerName,
      tokens: `${completion.usage?.promptTokens} + ${completion.usage?.completionTokens}`,
      'usage.cost $': completion.usage?.cost,
      'GET /generation total_cost $': generation.totalCost,
      'GET /key usage_daily $': after.usageDaily,
      'limit_remaining $': after.limitRemaining,
    },
  ])
  console.log(`  reply: ${completion.choices[0]?.message.content as string}`)
  const refusal = await spender.chat.send({ chatRequest: ask }).catch((error: unknown) => error)
  if (!(refusal instanceof ForbiddenResponseError)) throw new Error(`expected a 403 at the key's limit, got ${String(refusal)}`)
  console.log(`\nThe same request again -> ${refusal.statusCode} ${refusal.error.message}`)

  // 8. An organisation with a cent of credits: the worst case must fit, so max_tokens decides.
  const broke = new OpenRouter({ apiKey: sim.world.lowCredits.apiKey, serverURL: 'https://openrouter.ai/api/v1', retryConfig: { strategy: 'none' } })
  const unaffordable = await broke.chat.send({ chatRequest: { ...ask, model: sim.world.models.longContext } }).catch((error: unknown) => error)
  if (!(unaffordable instanceof PaymentRequiredResponseError)) throw new Error(`expected a 402 for the low-credit organisation, got ${String(unaffordable)}`)
  console.log(`sim.world.lowCredits.apiKey on ${sim.world.models.longContext} -> ${unaffordable.statusCode} ${unaffordable.error.message.slice(0, unaffordable.error.message.indexOf('. To increase'))}`)
  const small = (await broke.chat.send({ chatRequest: { ...ask, model: sim.world.models.longContext, maxTokens: 100 } })) as ChatResult
  console.log(`  ...and with maxTokens 100 -> served, usage.cost ${small.usage?.cost} USD`)

  // 9. The price at the clock's instant: the time-windowed endpoint is half price at night (UTC).
  const prices = []
  for (const at of ['2026-03-02T12:00:00Z', '2026-03-02T22:00:00Z']) {
    sim.clock.set(at)
    const priced = (await regular.chat.send({ chatRequest: { ...ask, model: sim.world.models.timeWindowed, provider: { only: ['DeepSeek'] } } })) as ChatResult
    prices.push({ 'clock (UTC)': at.slice(11, 16), tokens: `${priced.usage?.promptTokens} + ${priced.usage?.completionTokens}`, 'usage.cost $': priced.usage?.cost })
  }
  table(`The same completion on ${sim.world.models.timeWindowed}'s DeepSeek endpoint, by day and by night (sim.clock.set)`, prices)

  console.log(`
What next
  npm test                           the whole suite: wire rules, the official SDK, the docs' examples
  npm run serve                      the simulator over HTTP with a control API, for any language
  In your project (not on the npm registry yet: install the tarball \`npm pack\` writes here):
    npm install --save-dev ../model-access-sim/model-access-sim-0.1.0.tgz msw    (Node 20: msw@2)
    import { simTest } from 'model-access-sim/vitest'  a mounted simulator in every vitest test
  docs/spending.md: testing code that spends. docs/: the simulator's controls (faults, clock, usage),
  the server, pricing, worlds and fixtures, Jest and the browser.`)
} finally {
  server.close()
}
