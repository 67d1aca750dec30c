import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { api, type AuthResponse, registerMember, useTestApp } from './harness'
import { fakeKeys, keyedMember } from './e2ee-support'

// Key history (appended by the database whenever a member's public key is stored) and sealed trust records (stored
// opaquely, readable only by their owner): docs/security.md, "Safety numbers and key changes".

const t = useTestApp()

type History = Schemas['KeyHistoryPage']
type Trust = Schemas['TrustRecordResponse']

const history = (who: AuthResponse, userId: string, query = '') =>
  api(t.app, 'GET', `/api/users/${userId}/key-history${query}`, { token: who.token })
const getTrust = (who: AuthResponse, contactId: string) =>
  api(t.app, 'GET', `/api/users/${contactId}/trust-record`, { token: who.token })
const putTrust = (who: AuthResponse, contactId: string, record: unknown) =>
  api(t.app, 'PUT', `/api/users/${contactId}/trust-record`, { token: who.token, body: { record } })
const setKeys = (who: AuthResponse, keys: { publicKey: string; privateKey: string }) =>
  api(t.app, 'PUT', '/api/auth/keys', { token: who.token, body: keys })

/** A record-shaped string: `tr1.<12-byte IV>.<ciphertext and tag>`; the server cannot tell it from a real one. */
const sealed = (bytes = 120) => `tr1.${randomBytes(12).toString('base64url')}.${randomBytes(bytes).toString('base64url')}`
const INVALID = 'record must be a sealed trust record (tr1.<iv>.<ciphertext>) of at most 512 characters'

describe('key history', () => {
  it('starts with the key given at registration, with its fingerprint, in use (until null)', async () => {
    const keys = fakeKeys()
    const ben = await registerMember(t.app, keys)
    const viewer = await keyedMember(t.app)
    const res = await history(viewer, ben.user.id)
    expect(res.statusCode).toBe(200)
    const page = res.json<History>()
    expect(page.nextCursor).toBeNull()
    expect(page.keys).toHaveLength(1)
    expect(page.keys[0]).toMatchObject({ publicKey: keys.publicKey, until: null })
    expect(page.keys[0]?.fingerprint).toMatch(/^([0-9a-f]{4} ){7}[0-9a-f]{4}$/)
    expect(Date.parse(page.keys[0]?.since ?? '')).toBeGreaterThan(Date.now() - 60_000)
  })

  it('is empty for a member without keys, and gains the key made later with PUT /auth/keys', async () => {
    const keyless = await registerMember(t.app)
    expect((await history(keyless, keyless.user.id)).json<History>().keys).toEqual([])
    const keys = fakeKeys()
    expect((await setKeys(keyless, keys)).statusCode).toBe(200)
    expect((await history(keyless, keyless.user.id)).json<History>().keys.map((k) => k.publicKey)).toEqual([keys.publicKey])
  })

  it('appends a replaced key (a member asked for new keys) and closes the old one, newest first', async () => {
    const first = fakeKeys()
    const ann = await registerMember(t.app, first)
    // What admin migrate-keys and the admin CLI leave: the member must make a new pair at the next sign-in.
    await t.database.handle.db.execute(sql`update users set keys_requested = true where id = ${ann.user.id}`)
    const second = fakeKeys()
    expect((await setKeys(ann, second)).statusCode).toBe(200)
    const { keys } = (await history(ann, ann.user.id)).json<History>()
    expect(keys.map((k) => k.publicKey)).toEqual([second.publicKey, first.publicKey])
    expect(keys[0]?.until).toBeNull()
    expect(keys[1]?.until).toBe(keys[0]?.since)
    expect(keys[0]?.fingerprint).not.toBe(keys[1]?.fingerprint)
  })

  it('is paginated by cursor', async () => {
    const ann = await registerMember(t.app, fakeKeys())
    const made = [fakeKeys(), fakeKeys(), fakeKeys()]
    for (const keys of made) {
      await t.database.handle.db.execute(sql`update users set keys_requested = true where id = ${ann.user.id}`)
      expect((await setKeys(ann, keys)).statusCode).toBe(200)
    }
    const first = (await history(ann, ann.user.id, '?limit=2')).json<History>()
    expect(first.keys.map((k) => k.publicKey)).toEqual([made[2]?.publicKey, made[1]?.publicKey])
    expect(first.nextCursor).not.toBeNull()
    const second = (await history(ann, ann.user.id, `?limit=2&cursor=${first.nextCursor}`)).json<History>()
    expect(second.keys).toHaveLength(2)
    expect(second.keys[0]?.publicKey).toBe(made[0]?.publicKey)
    expect(second.nextCursor).toBeNull()
    expect((await history(ann, ann.user.id, '?cursor=nope')).statusCode).toBe(400)
  })

  it('refuses a limit out of range with 400, however it is written', async () => {
    const ann = await keyedMember(t.app)
    for (const limit of ['0', '101', '1e309', '-1e309', '2.5', 'NaN']) {
      const answer = await history(ann, ann.user.id, `?limit=${limit}`)
      expect(answer.statusCode, `limit=${limit}: ${answer.body}`).toBe(400)
    }
    expect((await history(ann, ann.user.id, '?limit=1e2')).statusCode).toBe(200)
  })

  it('is 404 for an unknown member and across a block either way, 401 without a token', async () => {
    const ann = await keyedMember(t.app)
    const ben = await keyedMember(t.app)
    expect((await history(ann, '018f0000-0000-7000-8000-000000000000')).statusCode).toBe(404)
    expect((await api(t.app, 'POST', `/api/blocks/user/${ben.user.id}`, { token: ann.token })).statusCode).toBe(201)
    expect((await history(ann, ben.user.id)).statusCode).toBe(404)
    expect((await history(ben, ann.user.id)).json()).toEqual({ error: 'User not found' })
    expect((await api(t.app, 'GET', `/api/users/${ann.user.id}/key-history`)).statusCode).toBe(401)
  })
})

describe('trust records', () => {
  it('are null until stored, then answered exactly as sent, replaced by the next put', async () => {
    const ann = await keyedMember(t.app)
    const ben = await keyedMember(t.app)
    expect((await getTrust(ann, ben.user.id)).json<Trust>()).toEqual({ contactId: ben.user.id, record: null, updatedAt: null })
    const record = sealed()
    const stored = await putTrust(ann, ben.user.id, record)
    expect(stored.statusCode).toBe(200)
    expect(stored.json<Trust>()).toMatchObject({ contactId: ben.user.id, record })
    expect((await getTrust(ann, ben.user.id)).json<Trust>().record).toBe(record)
    const next = sealed(150)
    await putTrust(ann, ben.user.id, next)
    expect((await getTrust(ann, ben.user.id)).json<Trust>().record).toBe(next)
  })

  it('are read only by their owner: the other member sees their own (none), never the owner\'s', async () => {
    const ann = await keyedMember(t.app)
    const ben = await keyedMember(t.app)
    const cid = await keyedMember(t.app)
    await putTrust(ann, ben.user.id, sealed())
    expect((await getTrust(ben, ann.user.id)).json<Trust>().record).toBeNull()
    expect((await getTrust(cid, ben.user.id)).json<Trust>().record).toBeNull()
  })

  it('refuse oneself, unknown ids and blocked members with 404', async () => {
    const ann = await keyedMember(t.app)
    const ben = await keyedMember(t.app)
    expect((await getTrust(ann, ann.user.id)).statusCode).toBe(404)
    expect((await putTrust(ann, ann.user.id, sealed())).statusCode).toBe(404)
    expect((await getTrust(ann, '018f0000-0000-7000-8000-000000000000')).statusCode).toBe(404)
    expect((await putTrust(ann, 'not-an-id', sealed())).statusCode).toBe(404)
    await putTrust(ann, ben.user.id, sealed())
    expect((await api(t.app, 'POST', `/api/blocks/user/${ann.user.id}`, { token: ben.token })).statusCode).toBe(201)
    expect((await getTrust(ann, ben.user.id)).json()).toEqual({ error: 'User not found' })
    expect((await putTrust(ann, ben.user.id, sealed())).statusCode).toBe(404)
  })

  it('are checked for shape and size only', async () => {
    const ann = await keyedMember(t.app)
    const ben = await keyedMember(t.app)
    const refused: unknown[] = [
      'accepted',
      '{"key":"x","verified":true}',
      `tr2.${randomBytes(12).toString('base64url')}.${randomBytes(40).toString('base64url')}`,
      `tr1.${randomBytes(11).toString('base64url')}.${randomBytes(40).toString('base64url')}`,
      `tr1.${randomBytes(12).toString('base64url')}.${randomBytes(8).toString('base64url')}`,
      sealed(400),
    ]
    for (const record of refused) {
      const res = await putTrust(ann, ben.user.id, record)
      expect(res.statusCode, String(record)).toBe(400)
      expect(res.json()).toEqual({ error: INVALID })
    }
    expect((await putTrust(ann, ben.user.id, 'x'.repeat(5000))).statusCode).toBe(400)
    expect((await putTrust(ann, ben.user.id, 42)).statusCode).toBe(400)
    const extra = await api(t.app, 'PUT', `/api/users/${ben.user.id}/trust-record`, {
      token: ann.token,
      body: { record: sealed(), verified: true },
    })
    expect(extra.statusCode).toBe(400)
    expect((await getTrust(ann, ben.user.id)).json<Trust>().record).toBeNull()
    // The longest a real record can be and more still fits.
    expect((await putTrust(ann, ben.user.id, sealed(360))).statusCode).toBe(200)
  })
})
