import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { nullableForSerializer, processWideCompilers } from '../../server/http/schema-compilers'

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

describe('"X or null" in responses', () => {
  const card = {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string' }, at: { type: 'string', format: 'date-time' } },
  }

  async function appAnswering(body: unknown) {
    const app = Fastify({ schemaController: { compilersFactory: processWideCompilers } })
    app.addSchema({ $id: 'card', ...card })
    app.get(
      '/post',
      {
        schema: {
          response: {
            200: {
              type: 'object',
              properties: {
                quote: { description: 'The quoted card', anyOf: [{ $ref: 'card#' }, { type: 'null' }] },
                editedAt: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
              },
            },
          },
        },
      },
      async () => body,
    )
    await app.ready()
    return app
  }

  it('serialize a nested card with only its declared fields, and null as null', async () => {
    const at = '2026-11-28T10:00:00.000Z'
    const app = await appAnswering({ quote: { id: 'p1', at, passwordHash: 'never sent' }, editedAt: at, secret: 'no' })
    expect((await app.inject({ url: '/post' })).json()).toEqual({ quote: { id: 'p1', at }, editedAt: at })
    await app.close()
    const empty = await appAnswering({ quote: null, editedAt: null })
    expect((await empty.inject({ url: '/post' })).body).toBe('{"quote":null,"editedAt":null}')
    await empty.close()
  })

  it('become the other schema marked nullable, for the serializer only; other unions stay as written', () => {
    expect(nullableForSerializer({ description: 'd', anyOf: [{ $ref: 'card#' }, { type: 'null' }] })).toEqual({
      description: 'd',
      $ref: 'card#',
      nullable: true,
    })
    expect(nullableForSerializer({ anyOf: [{ type: 'null' }, { type: 'string', format: 'date-time' }] })).toEqual({
      type: 'string',
      format: 'date-time',
      nullable: true,
    })
    const union = { anyOf: [{ type: 'string' }, { type: 'integer' }] }
    expect(nullableForSerializer(union)).toEqual(union)
    const three = { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] }
    expect(nullableForSerializer(three)).toEqual(three)
  })
})
