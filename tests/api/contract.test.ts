import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mergeHandlers } from '../../server/http/api-routes'
import { notImplemented } from '../../server/http/not-implemented'
import { listOperations, loadSpecification } from '../../server/http/openapi'
import { moduleHandlers } from '../../server/modules'
import { buildTestApp, openTestDatabase, type TestDatabase } from './harness'

/**
 * openapi.yaml, the handlers and server/http/not-implemented.ts must agree: each operation is either handled or
 * listed as not implemented (never both, never neither), nothing refers to an operation the yaml lacks, and the
 * server registers no /api route the yaml does not declare.
 */

const operations = listOperations(loadSpecification())
const operationIds = operations.map((op) => op.operationId)
const handled = [...mergeHandlers(moduleHandlers).keys()]

describe('the contract', () => {
  it('names every operation once', () => {
    expect(new Set(operationIds).size).toBe(operationIds.length)
  })

  it('gives no operation to two modules', () => {
    expect(() => mergeHandlers(moduleHandlers)).not.toThrow()
  })

  it('lists no operation twice as not implemented', () => {
    expect(new Set(notImplemented).size).toBe(notImplemented.length)
  })

  it('has exactly one of a handler or a not-implemented entry for every operation', () => {
    const problems = operationIds.flatMap((id) => {
      const isHandled = handled.includes(id)
      const isPending = notImplemented.includes(id)
      if (isHandled && isPending) return [`${id}: both handled and listed as not implemented`]
      if (!isHandled && !isPending) return [`${id}: neither handled nor listed as not implemented`]
      return []
    })
    expect(problems).toEqual([])
  })

  it('has no handler for an operation the yaml lacks', () => {
    expect(handled.filter((id) => !operationIds.includes(id))).toEqual([])
  })

  it('lists nothing as not implemented that the yaml lacks', () => {
    expect(notImplemented.filter((id) => !operationIds.includes(id))).toEqual([])
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
