import { readFile } from 'node:fs/promises'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import {
  CONTENT_SECURITY_POLICY,
  MEDIA_CONTENT_SECURITY_POLICY,
  STRICT_TRANSPORT_SECURITY,
} from '../../server/http/security-headers'
import { file, jpegWithGps, type Member, quickMember, send } from './content-helpers'
import { api, buildTestApp, useTestApp } from './harness'

// docs/security.md, "Content-Security-Policy" and "Media".
const t = useTestApp()
let ann: Member

beforeAll(async () => {
  ann = await quickMember(t.app, 'ann')
})

/** The directives of a policy header, by name. */
function directives(policy: unknown): Map<string, string> {
  const entries = String(policy)
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d): [string, string] => {
      const [name = '', ...values] = d.split(/\s+/)
      return [name, values.join(' ')]
    })
  return new Map(entries)
}

async function uploadedImageUrls(): Promise<{ url: string; thumbnailUrl: string }> {
  const res = await send(t.app, 'POST', '/api/posts', ann.token, [file('media', 'a.jpg', 'image/jpeg', await jpegWithGps())])
  expect(res.statusCode).toBe(201)
  const [media] = (res.json() as Schemas['PostResponse']).post.media
  return { url: media?.url ?? '', thumbnailUrl: media?.thumbnailUrl ?? '' }
}

describe('uploaded media are served under their own policy', () => {
  it("an uploaded image's file and thumbnail carry the media policy, not the app's", async () => {
    const { url, thumbnailUrl } = await uploadedImageUrls()
    for (const target of [url, thumbnailUrl]) {
      const res = await t.app.inject({ method: 'GET', url: target })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe('image/webp')
      expect(res.headers['content-security-policy']).toBe(MEDIA_CONTENT_SECURITY_POLICY)
      const policy = directives(res.headers['content-security-policy'])
      expect(policy.get('default-src')).toBe("'none'")
      // Sandboxed with no allow-scripts token: nothing in a file can run, even if a browser rendered it as a page.
      expect(policy.get('sandbox')).toBe('allow-same-origin')
      expect(policy.has('script-src')).toBe(false)
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    }
  })

  it('keeps the media policy on partial, conditional and missing answers', async () => {
    const { url } = await uploadedImageUrls()
    const first = await t.app.inject({ method: 'GET', url })
    const partial = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-9' } })
    const unchanged = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(first.headers.etag) } })
    const missing = await t.app.inject({ method: 'GET', url: '/media/posts/ab/00000000000000000000000000000000.webp' })
    expect([partial.statusCode, unchanged.statusCode, missing.statusCode]).toEqual([206, 304, 404])
    for (const res of [partial, unchanged, missing]) {
      expect(res.headers['content-security-policy']).toBe(MEDIA_CONTENT_SECURITY_POLICY)
      expect(res.headers['x-content-type-options']).toBe('nosniff')
    }
  })

  it("everything else keeps the app's policy", async () => {
    for (const url of ['/api/health', '/api/posts/not-a-post', '/login']) {
      const res = await api(t.app, 'GET', url, { token: ann.token })
      expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
    }
  })
})

describe("the app's policy", () => {
  it('lets scripts connect to this origin only (the API and the socket), nowhere else', async () => {
    const res = await api(t.app, 'GET', '/api/health')
    const policy = directives(res.headers['content-security-policy'])
    expect(policy.get('connect-src')).toBe("'self'")
    expect(policy.get('default-src')).toBe("'self'")
    // WebAssembly may compile (argon2id runs in hash-wasm); JavaScript eval and inline script stay refused.
    expect(policy.get('script-src')).toBe("'self' 'wasm-unsafe-eval'")
  })

  it('index.html runs no inline script: the pre-paint and boot scripts are files of this origin', async () => {
    const html = await readFile(new URL('../../index.html', import.meta.url), 'utf8')
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts.length).toBeGreaterThanOrEqual(3)
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\ssrc="\/[^/"]/)
      expect(body?.trim()).toBe('')
    }
    for (const file of ['theme-prepaint.js', 'boot-prefetch.js']) {
      expect(html).toContain(`<script src="/${file}"></script>`)
      await expect(readFile(new URL(`../../public/${file}`, import.meta.url), 'utf8')).resolves.toBeTruthy()
    }
  })
})

describe('HSTS', () => {
  // The same database, served as it would be behind a proxy at 127.0.0.1 (inject's default peer address).
  let proxied: FastifyInstance
  beforeAll(async () => {
    proxied = await buildTestApp(t.database, { config: { trustProxy: ['127.0.0.1'] } })
  })
  afterAll(async () => {
    await proxied?.close()
  })

  const get = (app: FastifyInstance, url: string, headers: Record<string, string>, remoteAddress?: string) =>
    app.inject({ method: 'GET', url, headers, ...(remoteAddress ? { remoteAddress } : {}) })

  it('is sent on every answer when a trusted proxy says the request came over https', async () => {
    const { url } = await uploadedImageUrls()
    for (const target of ['/api/health', '/login', url]) {
      const res = await get(proxied, target, { 'x-forwarded-proto': 'https' })
      expect(res.headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY)
    }
    const hops = await get(proxied, '/api/health', { 'x-forwarded-proto': 'http, https' })
    expect(hops.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
  })

  it('is never sent over plain http', async () => {
    const plain: Record<string, string>[] = [{}, { 'x-forwarded-proto': 'http' }]
    for (const headers of plain) {
      const res = await get(proxied, '/api/health', headers)
      expect(res.statusCode).toBe(200)
      expect(res.headers).not.toHaveProperty('strict-transport-security')
    }
  })

  it('is never sent on the word of a proxy that is not trusted', async () => {
    const untrustedPeer = await get(proxied, '/api/health', { 'x-forwarded-proto': 'https' }, '203.0.113.9')
    expect(untrustedPeer.statusCode).toBe(200)
    expect(untrustedPeer.headers).not.toHaveProperty('strict-transport-security')
    // Without TRUST_PROXY no forwarded header is believed at all.
    const noProxy = await get(t.app, '/api/health', { 'x-forwarded-proto': 'https' })
    expect(noProxy.statusCode).toBe(200)
    expect(noProxy.headers).not.toHaveProperty('strict-transport-security')
  })
})
