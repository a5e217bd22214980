// Run by test/inference/embeddings.test.ts in a process of its own: prints the base64 vector of a
// text (24 dimensions) in a fresh simulator of the given seed, to hold vectors equal across processes.
import { createSimulator } from '../../src/index.js'

const [seed = '0', text = ''] = process.argv.slice(2)
const sim = createSimulator({ world: 'empty', seed: Number(seed), now: '2026-03-02T10:00:00Z' })
const org = sim.users.create({ name: 'Acme', credits: { total: 10 } })
const { key } = sim.keys.create({ userId: org.id })
sim.models.create({ id: 'acme/embed-1', architecture: { output_modalities: ['embeddings'] }, endpoints: [{ provider_name: 'Alpha', pricing: { prompt: '0.0000001', completion: '0' } }] })
const response = sim.handle({ method: 'POST', path: '/embeddings', authorization: `Bearer ${key}`, body: JSON.stringify({ model: 'acme/embed-1', input: text, dimensions: 24, encoding_format: 'base64' }) })
console.log((response.body as { data: { embedding: string }[] }).data[0]?.embedding)
