import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { processWideCompilers } from '../../server/http/schema-compilers'

// The process-wide compilers stand in for Fastify's own (server/http/schema-compilers.ts): they must validate and
// serialize as those do, header names included, and hand a second app what the first compiled.

async function appWith() {
  // The app's own ajv options (server/app.ts refuses unknown fields) must reach the compilers too.
  const app = Fastify({ ajv: { customOptions: { removeAdditional: false } }, schemaController: { compilersFactory: processWideCompilers } })
  app.post(
    '/thing',
    {
      schema: {
        headers: { type: 'object', required: ['X-Request-Tag'], properties: { 'X-Request-Tag': { type: 'string', maxLength: 8 } } },
        body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } }, additionalProperties: false },
        response: { 200: { type: 'object', properties: { name: { type: 'string' } } } },
      },
    },
    async (request) => ({ name: (request.body as { name: string }).name, secret: 'never sent' }),
  )
  await app.ready()
  return app
}

describe('process-wide schema compilers', () => {
  it('validate headers by their lower-cased names, bodies by their schema, and serialize only declared fields', async () => {
    for (const app of [await appWith(), await appWith()]) {
      const ok = await app.inject({ method: 'POST', url: '/thing', headers: { 'x-request-tag': 'abc' }, payload: { name: 'wren' } })
      expect(ok.statusCode, ok.body).toBe(200)
      expect(ok.json()).toEqual({ name: 'wren' })
      const noHeader = await app.inject({ method: 'POST', url: '/thing', payload: { name: 'wren' } })
      expect(noHeader.statusCode).toBe(400)
      const longHeader = await app.inject({ method: 'POST', url: '/thing', headers: { 'x-request-tag': 'much too long' }, payload: { name: 'wren' } })
      expect(longHeader.statusCode).toBe(400)
      const extra = await app.inject({ method: 'POST', url: '/thing', headers: { 'x-request-tag': 'abc' }, payload: { name: 'wren', isAdmin: true } })
      expect(extra.statusCode).toBe(400)
      await app.close()
    }
  })
})
