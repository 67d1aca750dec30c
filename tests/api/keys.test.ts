import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { selectRows } from '../../server/db/rows'
import type { Schemas } from '../../server/http/handler-types'
import { api, type AuthResponse, type ErrorBody, registerMember, registration, useTestApp, loginBody, passwordChange } from './harness'
import {
  decrypt,
  encrypt,
  fakeKeys,
  fakePublicKey,
  fakeWrappedKey,
  keyedMember,
  makeKeys,
  send,
  startConversation,
  unwrapPrivateKey,
  wrapPrivateKey,
} from './e2ee-support'

const t = useTestApp()

// The file's first account is the instance's admin.
let admin: AuthResponse
beforeAll(async () => {
  admin = await registerMember(t.app)
  expect(admin.user.isAdmin).toBe(true)
})

const login = (username: string, password: string) =>
  api(t.app, 'POST', '/api/auth/login', { body: loginBody(username, password) })
const setKeys = (token: string, body: unknown) => api(t.app, 'PUT', '/api/auth/keys', { token, body })
const SHAPE = 'must be base64url parts separated by dots (letters, digits, - _ and . only)'
const PUBLIC_FORMAT = 'publicKey must be a P-256 public key: 87 characters of base64url'
const WRAPPED_FORMAT = 'privateKey must be a wrapped key: wk2.<iv>.<ciphertext>'

// Near misses of the exact formats (src/api/contract/encryption.ts), each alone wrong.
const pk = fakePublicKey()
const wk = fakeWrappedKey()
const [, iv = '', body = ''] = wk.split('.')
const salt = Buffer.alloc(16, 7).toString('base64url')
const b64 = (bytes: number[]) => Buffer.from(bytes).toString('base64url')
const nearMissPublicKeys: Array<[string, string]> = [
  ['86 characters', pk.slice(0, 86)],
  ['a compressed point (0x02)', b64([2, ...Array<number>(64).fill(7)])],
  ['stray bits in the last character', `${pk.slice(0, 86)}B`],
  ['standard base64 (+ and /)', `${pk.slice(0, 40)}+/${pk.slice(42)}`],
  ['a dot inside', `${pk.slice(0, 40)}.${pk.slice(41)}`],
]
const nearMissWrappedKeys: Array<[string, string]> = [
  ['the wrong version', wk.replace(/^wk2\./, 'wk3.')],
  // Readable by the browser, no longer stored: under PBKDF2 of the password, the cheap offline target.
  ['the legacy wk1 format', `wk1.600000.${salt}.${iv}.${body}`],
  ['a message envelope', `m1.${iv}.${body}`],
  ['a long IV', wk.replace(`.${iv}.`, `.${iv}AA.`)],
  ['a ciphertext of 4k+1 characters', `${wk.slice(0, wk.length - body.length)}${'A'.repeat(25)}`],
  ['a ciphertext shorter than a tag', `${wk.slice(0, wk.length - body.length)}${'A'.repeat(20)}`],
  ['an extra part', `${wk}.AAAA`],
  ['a missing part', `wk2.${body}`],
  ['the old JSON shape', '{"v":1,"s":"AAAA","k":"AAAA"}'],
]

describe('keys at registration and sign-in', () => {
  it('stores the pair as sent and answers the wrapped private key at register and at every login', async () => {
    const keys = fakeKeys()
    const member = await registerMember(t.app, keys)
    expect(member.privateKey).toBe(keys.privateKey)
    expect(member.user).toMatchObject({ publicKey: keys.publicKey, keysRequested: false })
    const again = await login(member.user.username, member.password)
    expect(again.json<AuthResponse>().privateKey).toBe(keys.privateKey)
    const me = await api(t.app, 'GET', '/api/auth/me', { token: member.token })
    expect(me.json<Schemas['MeResponse']>().user.publicKey).toBe(keys.publicKey)
  })

  it('keeps keyless registration for older clients (privateKey null)', async () => {
    const member = await registerMember(t.app)
    expect(member.privateKey).toBeNull()
    expect(member.user.publicKey).toBeNull()
    expect((await login(member.user.username, member.password)).json<AuthResponse>().privateKey).toBeNull()
  })

  it.each([
    ['only a public key', { publicKey: pk }, 'publicKey and privateKey must be sent together'],
    ['only a private key', { privateKey: wk }, 'publicKey and privateKey must be sent together'],
    ['a public key with spaces', { publicKey: 'AA AA', privateKey: wk }, `publicKey ${SHAPE}`],
    ['a private key with a newline', { publicKey: pk, privateKey: 'AA\nAA' }, `privateKey ${SHAPE}`],
    ['a private key with non-ASCII', { publicKey: pk, privateKey: 'AAé' }, `privateKey ${SHAPE}`],
    ['a private key as JSON', { publicKey: pk, privateKey: '{"v":1}' }, `privateKey ${SHAPE}`],
    ['a public key too long', { publicKey: `${pk}A`, privateKey: wk }, 'publicKey must be at most 87 characters'],
    ['a private key too long', { publicKey: pk, privateKey: `${wk}${'A'.repeat(512)}` }, 'privateKey must be at most 512 characters'],
    ['an empty public key', { publicKey: '', privateKey: wk }, 'publicKey must not be empty'],
    ...nearMissPublicKeys.map(([name, publicKey]): [string, Record<string, unknown>, string] => [
      `a public key with ${name}`,
      { publicKey, privateKey: wk },
      /[+/]/.test(publicKey) ? `publicKey ${SHAPE}` : PUBLIC_FORMAT,
    ]),
    ...nearMissWrappedKeys.map(([name, privateKey]): [string, Record<string, unknown>, string] => [
      `a private key with ${name}`,
      { publicKey: pk, privateKey },
      privateKey.startsWith('{') ? `privateKey ${SHAPE}` : WRAPPED_FORMAT,
    ]),
  ])('refuses %s with 400', async (_name, keys, error) => {
    const res = await api(t.app, 'POST', '/api/auth/register', { body: registration(keys) })
    expect(res.statusCode).toBe(400)
    expect(res.json<ErrorBody>().error).toBe(error)
  })
})

describe('change password', () => {
  it('answers a wrong current password as such, even when the re-wrapped key is missing too', async () => {
    const member = await keyedMember(t.app)
    const res = await api(t.app, 'POST', '/api/auth/change-password', {
      token: member.token,
      body: passwordChange('not-the-password', 'Brand-New-Pass-7'),
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'Current password is incorrect' })
  })

  it('refuses a keyed member without the re-wrapped key (400) and changes nothing', async () => {
    const member = await keyedMember(t.app)
    const res = await api(t.app, 'POST', '/api/auth/change-password', {
      token: member.token,
      body: passwordChange(member.password, 'Brand-New-Pass-7'),
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'Re-encrypt your message key to change the password' })
    expect((await login(member.user.username, member.password)).statusCode).toBe(200)
  })

  it('decides from the stored row, not a cached one: keys set elsewhere a moment ago still need re-wrapping', async () => {
    const member = await registerMember(t.app)
    // The session is cached (with caches on) as keyless; keys then arrive behind the cache's back, as from another
    // process whose invalidation was lost.
    expect((await api(t.app, 'GET', '/api/auth/me', { token: member.token })).json<Schemas['MeResponse']>().user.publicKey).toBeNull()
    const keys = fakeKeys()
    await t.database.handle.db.execute(
      sql`update users set public_key = ${keys.publicKey}, wrapped_private_key = ${keys.privateKey} where id = ${member.user.id}`,
    )
    const res = await api(t.app, 'POST', '/api/auth/change-password', {
      token: member.token,
      body: passwordChange(member.password, 'Brand-New-Pass-7'),
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'Re-encrypt your message key to change the password' })
    const again = await login(member.user.username, member.password)
    expect(again.statusCode).toBe(200)
    expect(again.json<AuthResponse>().privateKey).toBe(keys.privateKey)
  })

  it('refuses a re-wrapped key from a member who has none', async () => {
    const member = await registerMember(t.app)
    const res = await api(t.app, 'POST', '/api/auth/change-password', {
      token: member.token,
      body: passwordChange(member.password, 'Brand-New-Pass-7', { privateKey: fakeWrappedKey() }),
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'This account has no message key to re-encrypt' })
  })

  it('stores the re-wrapped key with the new password: the next login unwraps the same key and reads the history', async () => {
    const password = 'Old-Password-1'
    const aliceKeys = await makeKeys(password)
    const bobKeys = await makeKeys('Bob-Password-1')
    const alice = await registerMember(t.app, { password, publicKey: aliceKeys.publicKey, privateKey: aliceKeys.privateKey })
    const bob = await registerMember(t.app, { password: 'Bob-Password-1', publicKey: bobKeys.publicKey, privateKey: bobKeys.privateKey })
    const conversation = (await startConversation(t.app, bob.token, alice.user.id)).json<Schemas['ConversationResponse']>()
      .conversation
    const envelope = await encrypt('before the change', bobKeys.keyPair.privateKey, aliceKeys.publicKey)
    expect((await send(t.app, bob.token, conversation.id, envelope)).statusCode).toBe(201)

    // The browser unwraps with the old password and re-wraps under the new one.
    const unwrapped = await unwrapPrivateKey(alice.privateKey ?? '', password)
    const rewrapped = await wrapPrivateKey(unwrapped, 'New-Password-2')
    const change = await api(t.app, 'POST', '/api/auth/change-password', {
      token: alice.token,
      body: passwordChange(password, 'New-Password-2', { privateKey: rewrapped }),
    })
    expect(change.statusCode).toBe(200)

    const fresh = (await login(alice.user.username, 'New-Password-2')).json<AuthResponse>()
    expect(fresh.privateKey).toBe(rewrapped)
    expect(fresh.user.publicKey).toBe(aliceKeys.publicKey)
    const key = await unwrapPrivateKey(fresh.privateKey ?? '', 'New-Password-2')
    const page = await api(t.app, 'GET', `/api/messages/conversations/${conversation.id}/messages`, { token: fresh.token })
    const [message] = page.json<Schemas['MessagesPage']>().messages
    expect(await decrypt(message?.content ?? '', key, bobKeys.publicKey)).toBe('before the change')
  })
})

describe('PUT /auth/keys', () => {
  it('lets a keyless member set keys once (409 after), making them reachable', async () => {
    const member = await registerMember(t.app, { displayName: 'Late Keys' })
    const other = await keyedMember(t.app)
    expect((await startConversation(t.app, other.token, member.user.id)).statusCode).toBe(409)

    const keys = fakeKeys()
    const res = await setKeys(member.token, keys)
    expect(res.statusCode).toBe(200)
    expect(res.json<Schemas['MessageKeysResponse']>()).toMatchObject({
      privateKey: keys.privateKey,
      user: { id: member.user.id, publicKey: keys.publicKey, keysRequested: false },
    })
    expect((await login(member.user.username, member.password)).json<AuthResponse>().privateKey).toBe(keys.privateKey)
    expect((await startConversation(t.app, other.token, member.user.id)).statusCode).toBe(201)

    const again = await setKeys(member.token, fakeKeys())
    expect(again.statusCode).toBe(409)
    expect(again.json()).toEqual({ error: 'Message keys already exist' })
    expect((await login(member.user.username, member.password)).json<AuthResponse>().privateKey).toBe(keys.privateKey)
  })

  it('refuses a half pair and bad shapes', async () => {
    const member = await registerMember(t.app)
    const half = await setKeys(member.token, { publicKey: fakePublicKey() })
    expect(half.statusCode).toBe(400)
    expect(half.json<ErrorBody>().error).toBe('privateKey is required')
    const bad = await setKeys(member.token, { publicKey: fakePublicKey(), privateKey: '<script>' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json<ErrorBody>().error).toBe(`privateKey ${SHAPE}`)
    for (const [name, privateKey] of nearMissWrappedKeys.filter(([, k]) => !k.startsWith('{'))) {
      const res = await setKeys(member.token, { publicKey: fakePublicKey(), privateKey })
      expect({ name, status: res.statusCode, error: res.json<ErrorBody>().error }).toEqual({ name, status: 400, error: WRAPPED_FORMAT })
    }
    for (const [name, publicKey] of nearMissPublicKeys.filter(([, k]) => !/[+/]/.test(k))) {
      const res = await setKeys(member.token, { publicKey, privateKey: fakeWrappedKey() })
      expect({ name, status: res.statusCode, error: res.json<ErrorBody>().error }).toEqual({ name, status: 400, error: PUBLIC_FORMAT })
    }
  })
})

describe('public keys of others', () => {
  it('answers a member public key, null without keys, and 404 across a block', async () => {
    const viewer = await keyedMember(t.app)
    const keyed = await keyedMember(t.app)
    const keyless = await registerMember(t.app)
    const get = (id: string) => api(t.app, 'GET', `/api/users/${id}/public-key`, { token: viewer.token })
    expect((await get(keyed.user.id)).json()).toEqual({ id: keyed.user.id, publicKey: keyed.user.publicKey })
    expect((await get(keyless.user.id)).json()).toEqual({ id: keyless.user.id, publicKey: null })
    expect((await get('01a20879-8aa4-74da-a0dc-83c816b4c55d')).statusCode).toBe(404)
    await api(t.app, 'POST', `/api/blocks/user/${viewer.user.id}`, { token: keyed.token })
    const blocked = await get(keyed.user.id)
    expect(blocked.statusCode).toBe(404)
    expect(blocked.json()).toEqual({ error: 'User not found' })
  })
})

describe('migrate-keys', () => {
  it('is for admins only', async () => {
    const member = await registerMember(t.app)
    const res = await api(t.app, 'POST', '/api/users/migrate-keys', { token: member.token })
    expect(res.statusCode).toBe(403)
    expect(res.json()).toEqual({ error: 'Admin privileges required' })
  })

  it('marks every keyless account and counts them; a marked member makes keys at the next sign-in', async () => {
    const keyless = await registerMember(t.app, { displayName: 'Marked Member' })
    // Every account of this file made so far without keys, the admin included.
    const [before] = await selectRows<{ n: number }>(
      t.database.handle.db,
      sql`select count(*)::int as n from users where public_key is null`,
    )
    const expected = before?.n ?? -1
    expect(expected).toBeGreaterThan(1)

    const first = await api(t.app, 'POST', '/api/users/migrate-keys', { token: admin.token })
    expect(first.statusCode).toBe(200)
    expect(first.json()).toEqual({ migrated: expected, pending: expected })
    // Idempotent: nothing new to mark, the same ones still pending.
    expect((await api(t.app, 'POST', '/api/users/migrate-keys', { token: admin.token })).json()).toEqual({
      migrated: 0,
      pending: expected,
    })

    const signIn = (await login(keyless.user.username, keyless.password)).json<AuthResponse>()
    expect(signIn.user).toMatchObject({ keysRequested: true, publicKey: null })
    expect(signIn.privateKey).toBeNull()
    const sender = await keyedMember(t.app)
    const refused = await startConversation(t.app, sender.token, keyless.user.id)
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toEqual({ error: "Marked Member can't receive messages yet" })

    const made = await setKeys(signIn.token, fakeKeys())
    expect(made.json<Schemas['MessageKeysResponse']>().user.keysRequested).toBe(false)
    expect((await startConversation(t.app, sender.token, keyless.user.id)).statusCode).toBe(201)
    expect((await api(t.app, 'POST', '/api/users/migrate-keys', { token: admin.token })).json()).toEqual({
      migrated: 0,
      pending: expected - 1,
    })
  })
})
