import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { loadSpecification, type OpenApiDocument } from '../../server/http/openapi'
import { NOT_BUILT_MESSAGE } from '../../server/http/spa'
import { Conflict, Forbidden, Invalid, NotFound, Unauthenticated } from '../../server/lib/domain-errors'
import { CONTENT_SECURITY_POLICY } from '../../server/http/security-headers'
import { send } from './content-helpers'
import { api, buildTestApp, type ErrorBody, registerMember, useTestApp, loginBody } from './harness'

const t = useTestApp({ distDir: path.join(os.tmpdir(), 'wren-no-dist-here') })

const securityHeaders = {
  // The strict CSP on every answer, the app's HTML included (docs/security.md, "Content-Security-Policy").
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
}

describe('health', () => {
  it('answers 200 with the database kind and version', async () => {
    const res = await api(t.app, 'GET', '/api/health')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      status: 'ok',
      database: process.env.DATABASE_URL ? 'postgres' : 'pglite',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    })
    expect(res.headers).toMatchObject(securityHeaders)
  })

  it('answers 503 when the database does not answer', async () => {
    const spy = vi.spyOn(t.app.services.db, 'execute').mockRejectedValueOnce(new Error('connection refused'))
    const res = await api(t.app, 'GET', '/api/health')
    spy.mockRestore()
    expect(res.statusCode).toBe(503)
    expect(res.json()).toEqual({ error: 'Database unavailable' })
  })
})

describe('malformed requests', () => {
  it('answers malformed JSON with 400 "Malformed JSON body"', async () => {
    const res = await api(t.app, 'POST', '/api/auth/login', {
      body: '{"username": "ann", ',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'Malformed JSON body' })
    expect(res.headers).toMatchObject(securityHeaders)
  })

  it('answers an empty JSON body with 400', async () => {
    const res = await api(t.app, 'POST', '/api/auth/login', { headers: { 'content-type': 'application/json' } })
    expect(res.statusCode).toBe(400)
    expect(res.json<ErrorBody>().error).toMatch(/empty/)
  })

  it('answers a missing body with 400', async () => {
    const res = await api(t.app, 'POST', '/api/auth/login')
    expect(res.statusCode).toBe(400)
    expect(res.json<ErrorBody>().error).toBe('Request body is required')
  })

  it('answers an unsupported content type with 415', async () => {
    const res = await api(t.app, 'POST', '/api/auth/login', {
      body: 'username=ann',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(res.statusCode).toBe(415)
    expect(res.json()).toEqual({ error: 'Unsupported Content-Type' })
    // A type the yaml names only for an answer (an export's zip) is no more welcome as a body.
    const zip = await api(t.app, 'POST', '/api/auth/login', { body: 'PK', headers: { 'content-type': 'application/zip' } })
    expect(zip.statusCode).toBe(415)
    expect(zip.json()).toEqual({ error: 'Unsupported Content-Type' })
  })

  it('refuses text holding a NUL character (U+0000) with 400, in a query, a path, a JSON body or a form', async () => {
    const member = await registerMember(t.app)
    const nul = { error: 'Text must not contain the NUL character (U+0000)' }
    const calls: Array<[string, string, unknown]> = [
      ['GET', '/api/posts/search?q=a%00b', undefined],
      ['GET', '/api/users/search?q=ab%00', undefined],
      ['GET', '/api/hashtags/search?q=a%00', undefined],
      ['DELETE', '/api/blocks/keyword/a%00b', undefined],
      ['POST', '/api/lists', { name: 'friends', description: 'a\u0000b' }],
      ['PATCH', '/api/users/profile', { bio: 'a\u0000b' }],
      ['POST', '/api/blocks/keyword', { keyword: 'a\u0000b' }],
      ['POST', '/api/auth/login', { username: 'a\u0000b', password: 'x\u0000yyyyyyyy' }],
    ]
    for (const [method, url, body] of calls) {
      const res = await api(t.app, method as 'GET', url, { token: member.token, body })
      expect({ url, status: res.statusCode, body: res.json() }).toEqual({ url, status: 400, body: nul })
    }
    const form = await send(t.app, 'POST', '/api/posts', member.token, [{ field: 'content', value: 'a\u0000b' }])
    expect({ status: form.statusCode, body: form.json() }).toEqual({ status: 400, body: nul })
    // Nothing was written: the member has no list and no post.
    const lists = await api(t.app, 'GET', '/api/lists', { token: member.token })
    expect((lists.json() as { lists: unknown[] }).lists).toEqual([])
  })
})

describe('unknown API paths', () => {
  it.each([
    ['GET', '/api/nope'],
    ['POST', '/api/auth/nope'],
    ['DELETE', '/api/auth/me'],
    ['GET', '/api'],
  ] as const)('answer %s %s with a JSON 404', async (method, url) => {
    const res = await api(t.app, method, url)
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.json()).toEqual({ error: `No such API endpoint: ${method} ${url}` })
    expect(res.headers).toMatchObject(securityHeaders)
  })
})

describe('operations and handlers', () => {
  it('refuses to start with an operation of the yaml that has no handler', async () => {
    const spec = loadSpecification()
    const withExtra: OpenApiDocument = {
      ...spec,
      paths: {
        ...spec.paths,
        '/test/pending': {
          get: { operationId: 'pendingFeature', security: [], responses: { '200': { description: 'ok' } } },
        },
      },
    }
    await expect(buildTestApp(t.database, { specification: withExtra })).rejects.toThrow(
      'openapi.yaml operations without a handler: pendingFeature',
    )
  })

  it('refuses to start with a handler for an operation the yaml lacks', async () => {
    const spec = loadSpecification()
    const { ['/auth/me']: _removed, ...paths } = spec.paths ?? {}
    await expect(buildTestApp(t.database, { specification: { ...spec, paths } })).rejects.toThrow(
      'handlers for operations openapi.yaml lacks: getMe',
    )
  })
})

describe('domain errors', () => {
  // Services throw these; server/http/error-handler.ts maps each to its status and the contract's body.
  it.each([
    [new Invalid('Content is required', ['Content is required', 'alt is too long']), 400],
    [new Unauthenticated('Invalid username or password'), 401],
    [new Forbidden('You can only delete your own posts'), 403],
    [new NotFound('Post not found'), 404],
    [new Conflict('Username is already taken'), 409],
  ])('%s answers %i with { error, details? }', async (err, status) => {
    const spy = vi.spyOn(t.app.services.accounts, 'login').mockRejectedValueOnce(err)
    const res = await api(t.app, 'POST', '/api/auth/login', { body: loginBody('ann', 'x') })
    spy.mockRestore()
    expect(res.statusCode).toBe(status)
    expect(res.json()).toEqual(err.details ? { error: err.message, details: err.details } : { error: err.message })
    expect(res.headers).toMatchObject(securityHeaders)
  })
})

describe('server errors', () => {
  it('answer 500 "Internal server error" without any detail', async () => {
    const spy = vi
      .spyOn(t.app.services.accounts, 'login')
      .mockRejectedValueOnce(new Error('relation "users" does not exist at /work/main/server/db/queries.ts:12'))
    const res = await api(t.app, 'POST', '/api/auth/login', { body: loginBody('ann', 'x') })
    spy.mockRestore()
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ error: 'Internal server error' })
    expect(res.body).not.toMatch(/relation|queries\.ts|at /)
    expect(res.headers).toMatchObject(securityHeaders)
  })
})

describe('the web app', () => {
  it('explains how to build it when dist is missing', async () => {
    const res = await api(t.app, 'GET', '/profile/ann')
    expect(res.statusCode).toBe(503)
    expect(res.headers['content-type']).toMatch(/^text\/plain/)
    expect(res.body).toBe(NOT_BUILT_MESSAGE)
    expect(res.headers).toMatchObject(securityHeaders)
  })

  describe('with a build', () => {
    let dist: string
    let app: FastifyInstance
    const indexHtml = '<!doctype html><html><body><div id="root"></div></body></html>'

    beforeAll(async () => {
      dist = await mkdtemp(path.join(os.tmpdir(), 'wren-dist-'))
      await mkdir(path.join(dist, 'assets'))
      await writeFile(path.join(dist, 'index.html'), indexHtml)
      await writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("wren")')
      await writeFile(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
      app = await buildTestApp(t.database, { distDir: dist })
    })
    afterAll(async () => {
      await app.close()
      await rm(dist, { recursive: true, force: true })
    })

    it.each(['/', '/login', '/profile/ann', '/posts/123?tab=replies'])('serves index.html for %s', async (url) => {
      const res = await api(app, 'GET', url)
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/html/)
      expect(res.headers['cache-control']).toBe('no-cache')
      expect(res.body).toBe(indexHtml)
      expect(res.headers).toMatchObject(securityHeaders)
    })

    it('serves hashed assets with a long cache', async () => {
      const res = await api(app, 'GET', '/assets/index-abc123.js')
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/javascript/)
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      expect(res.headers).toMatchObject(securityHeaders)
    })

    it('revalidates other files', async () => {
      const res = await api(app, 'GET', '/favicon.svg')
      expect(res.statusCode).toBe(200)
      expect(res.headers['cache-control']).toBe('no-cache')
    })

    it('answers a missing asset with 404, not index.html', async () => {
      const res = await api(app, 'GET', '/assets/index-old999.js')
      expect(res.statusCode).toBe(404)
      expect(res.body).not.toContain('<html')
    })

    it('still answers unknown API paths with JSON', async () => {
      const res = await api(app, 'GET', '/api/nope')
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ error: 'No such API endpoint: GET /api/nope' })
    })

    it('answers other methods on app paths with a JSON 404', async () => {
      const res = await api(app, 'POST', '/profile/ann')
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ error: 'Not found' })
    })
  })
})
