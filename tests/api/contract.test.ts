import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENVELOPE_PATTERN, PUBLIC_KEY_PATTERN, WRAPPED_KEY_PATTERN } from '../../src/api/contract/encryption'
import { LIMITS } from '../../src/api/contract/limits'
import { POLL } from '../../src/api/contract/polls'
import { fakeEnvelope, fakePublicKey, fakeWrappedKey } from './e2ee-support'
import { mergeHandlers } from '../../server/http/api-routes'
import { listOperations, loadSpecification } from '../../server/http/openapi'
import { moduleHandlers } from '../../server/modules'
import { buildTestApp, openTestDatabase, type TestDatabase } from './harness'

/**
 * openapi.yaml, the handlers and server/http/not-implemented.ts must agree: each operation is either handled or
 * listed as not implemented (never both, never neither), nothing refers to an operation the yaml lacks, and the
 * server registers no /api route the yaml does not declare.
 */

const specification = loadSpecification()
const operations = listOperations(specification)
const operationIds = operations.map((op) => op.operationId)
const handled = [...mergeHandlers(moduleHandlers).keys()]

describe('the contract', () => {
  it('names every operation once', () => {
    expect(new Set(operationIds).size).toBe(operationIds.length)
  })

  it('gives no operation to two modules', () => {
    expect(() => mergeHandlers(moduleHandlers)).not.toThrow()
  })

  it('has a handler for every operation', () => {
    expect(operationIds.filter((id) => !handled.includes(id))).toEqual([])
  })

  it('has no handler for an operation the yaml lacks', () => {
    expect(handled.filter((id) => !operationIds.includes(id))).toEqual([])
  })
})

describe('the registered routes', () => {
  let database: TestDatabase
  let app: FastifyInstance
  const registered: string[] = []

  beforeAll(async () => {
    database = await openTestDatabase()
    app = await buildTestApp(database, {
      beforeRoutes: (instance) => {
        instance.addHook('onRoute', (route) => {
          const methods = Array.isArray(route.method) ? route.method : [route.method]
          for (const method of methods) registered.push(`${method} ${route.url}`)
        })
      },
    })
  })
  afterAll(async () => {
    await app.close()
    await database.close()
  })

  it('are exactly the operations of openapi.yaml under /api', () => {
    const expected = operations.map((op) => `${op.method} /api${op.path.replace(/{(\w+)}/g, ':$1')}`).sort()
    const api = registered
      .filter((route) => / \/api(\/|$)/.test(route))
      // Fastify adds a HEAD route beside every GET by itself.
      .filter((route) => !(route.startsWith('HEAD ') && registered.includes(route.replace(/^HEAD/, 'GET'))))
      .sort()
    expect(api).toEqual(expected)
  })
})

// ---- the product's limits --------------------------------------------------------------------------------------

type Node = Record<string, unknown>

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A node of the yaml, following `$ref`s (or a ref itself, "#/components/schemas/Post") to what they name. */
function resolve(value: unknown): Node {
  let node = typeof value === 'string' ? { $ref: value } : value
  for (let hops = 0; isNode(node) && typeof node.$ref === 'string'; hops += 1) {
    if (hops > 10) throw new Error(`$ref loop at ${node.$ref}`)
    node = node.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((at, key) => (isNode(at) ? at[key] : undefined), specification)
  }
  if (!isNode(node)) throw new Error('openapi.yaml: expected an object')
  return node
}

function operation(operationId: string): Node {
  for (const pathItem of Object.values(specification.paths ?? {})) {
    for (const op of Object.values(pathItem)) if (isNode(op) && op.operationId === operationId) return op
  }
  throw new Error(`openapi.yaml has no operation ${operationId}`)
}

const property = (schema: Node, name: string) => resolve(resolve(schema.properties)[name])

/** A field of an operation's request body, e.g. field('createPost', 'content'). */
function field(operationId: string, name: string): Node {
  const [body] = Object.values(resolve(resolve(operation(operationId).requestBody).content))
  return property(resolve(resolve(body).schema), name)
}

describe('openapi.yaml and LIMITS (src/api/contract/limits.ts)', () => {
  // The SPA and the services check LIMITS, the router checks the yaml: they must say the same.
  it.each([
    ['createPost content', () => field('createPost', 'content').maxLength, LIMITS.postLength],
    ['createPost media', () => field('createPost', 'media').maxItems, LIMITS.postMedia],
    ['createPost alt', () => field('createPost', 'alt').maxItems, LIMITS.postMedia],
    ['createPost alt text', () => resolve(field('createPost', 'alt').items).maxLength, LIMITS.altTextLength],
    ['createPost sensitiveReason', () => field('createPost', 'sensitiveReason').maxLength, LIMITS.sensitiveReasonLength],
    ['createPost pollOptions', () => field('createPost', 'pollOptions').maxItems, POLL.optionsMax],
    ['createPost pollOptions text', () => resolve(field('createPost', 'pollOptions').items).maxLength, POLL.optionLength],
    ['PollOption text', () => property(resolve('#/components/schemas/PollOption'), 'text').maxLength, POLL.optionLength],
    ['Post media', () => property(resolve('#/components/schemas/Post'), 'media').maxItems, LIMITS.postMedia],
    ['register username min', () => field('register', 'username').minLength, LIMITS.usernameMin],
    ['register username max', () => field('register', 'username').maxLength, LIMITS.usernameMax],
    ['register displayName', () => field('register', 'displayName').maxLength, LIMITS.displayNameMax],
    ['updateProfile displayName', () => field('updateProfile', 'displayName').maxLength, LIMITS.displayNameMax],
    ['updateProfile bio', () => field('updateProfile', 'bio').maxLength, LIMITS.bioMax],
    ['reportPost description', () => field('reportPost', 'description').maxLength, LIMITS.reportDescriptionMax],
    ['reportMessage messageText', () => field('reportMessage', 'messageText').maxLength, LIMITS.messageLength],
    ['updateReport reviewNote', () => field('updateReport', 'reviewNote').maxLength, LIMITS.reviewNoteMax],
    ['sendMessage content', () => field('sendMessage', 'content').maxLength, LIMITS.messageEnvelopeMax],
    ['editMessage content', () => field('editMessage', 'content').maxLength, LIMITS.messageEnvelopeMax],
    ['register publicKey', () => field('register', 'publicKey').maxLength, LIMITS.publicKeyMax],
    ['register privateKey', () => field('register', 'privateKey').maxLength, LIMITS.wrappedPrivateKeyMax],
    ['setMessageKeys publicKey', () => field('setMessageKeys', 'publicKey').maxLength, LIMITS.publicKeyMax],
    ['setMessageKeys privateKey', () => field('setMessageKeys', 'privateKey').maxLength, LIMITS.wrappedPrivateKeyMax],
    [
      'changePassword privateKey',
      () => resolve((field('changePassword', 'privateKey').allOf as unknown[])[0]).maxLength,
      LIMITS.wrappedPrivateKeyMax,
    ],
  ])('%s', (_name, read, limit) => {
    expect(read()).toBe(limit)
  })

  it('lets the exact key and envelope formats (src/api/contract/encryption.ts) through its alphabet, for the server to check', () => {
    const examples = { PublicKey: fakePublicKey(), WrappedPrivateKey: fakeWrappedKey(), content: fakeEnvelope() }
    const schemas = {
      PublicKey: resolve('#/components/schemas/PublicKey'),
      WrappedPrivateKey: resolve('#/components/schemas/WrappedPrivateKey'),
      content: field('sendMessage', 'content'),
    }
    expect(examples.PublicKey).toMatch(PUBLIC_KEY_PATTERN)
    expect(examples.WrappedPrivateKey).toMatch(WRAPPED_KEY_PATTERN)
    expect(examples.content).toMatch(ENVELOPE_PATTERN)
    for (const [name, schema] of Object.entries(schemas)) {
      expect(examples[name as keyof typeof examples]).toMatch(new RegExp(String(schema.pattern)))
    }
  })

  it('pages every list the same: limit defaults to LIMITS.pageSize, at most LIMITS.pageSizeMax', () => {
    const limits = operations.flatMap((op) => {
      const parameters = operation(op.operationId).parameters
      const limit = (Array.isArray(parameters) ? parameters : []).map(resolve).find((p) => p.name === 'limit')
      return limit ? [{ operationId: op.operationId, schema: resolve(limit.schema) }] : []
    })
    expect(limits.map((l) => l.operationId)).toContain('getFeed')
    for (const { operationId, schema } of limits) {
      expect({ operationId, default: schema.default, maximum: schema.maximum }).toEqual({
        operationId,
        default: LIMITS.pageSize,
        maximum: LIMITS.pageSizeMax,
      })
    }
    // page × limit is bounded by LIMITS.offsetItemsMax; with limit 1 that is the largest page.
    expect(resolve('#/components/parameters/Page').schema).toMatchObject({ maximum: LIMITS.offsetItemsMax })
  })
})
