import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { users } from '../../server/db/schema'
import type { Schemas } from '../../server/http/handler-types'
import { PasswordHasher } from '../../server/modules/auth/passwords'
import { KDF_DEFAULT } from '../../src/api/contract/kdf'
import { decrypt, encrypt, makeKeys, send, startConversation, unwrapPrivateKey, wrapLegacyKey, wrapPrivateKey } from './e2ee-support'
import { api, authSecretOf, type AuthResponse, type ErrorBody, loginBody, registerMember, testKdf, useTestApp } from './harness'

// The password split (docs/security.md): the browser derives an authentication secret and a wrapping key from the
// password with settings the server keeps per member and serves before sign-in; accounts from before sign in with
// their password once and move over.

const t = useTestApp()
type Prelogin = Schemas['PreloginResponse']
const prelogin = (username: string) => api(t.app, 'POST', '/api/auth/prelogin', { body: { username } })

/** Turns a member into an account from before the split: its hash is of the password, and it has no settings. */
async function makeLegacy(userId: string, password: string, wrappedPrivateKey?: string) {
  const passwordHash = await new PasswordHasher(1).hash(password)
  await t.database.handle.db
    .update(users)
    .set({ passwordHash, kdf: null, ...(wrappedPrivateKey === undefined ? {} : { wrappedPrivateKey }) })
    .where(eq(users.id, userId))
}

describe('prelogin', () => {
  it("answers a member's stored settings, by username or email in any case", async () => {
    const member = await registerMember(t.app)
    const [row] = await t.database.handle.db.select().from(users).where(eq(users.id, member.user.id))
    for (const name of [member.user.username, member.user.username.toUpperCase(), ` ${member.user.email} `]) {
      const res = await prelogin(name)
      expect(res.statusCode).toBe(200)
      expect(res.json<Prelogin>().kdf).toEqual(row?.kdf)
    }
  })

  it('answers a name no account has with made-up settings: stable, per name, shaped like a real answer', async () => {
    const member = await registerMember(t.app)
    const real = (await prelogin(member.user.username)).json<Prelogin>().kdf
    const one = (await prelogin('nobody_at_all')).json<Prelogin>().kdf
    expect((await prelogin('NOBODY_AT_ALL')).json<Prelogin>().kdf).toEqual(one)
    expect((await prelogin('nobody_else')).json<Prelogin>().kdf?.salt).not.toBe(one?.salt)
    expect((await prelogin('nobody@example.test')).json<Prelogin>().kdf?.salt).not.toBe(one?.salt)
    expect(one).toEqual({ algorithm: 'argon2id', salt: expect.stringMatching(/^[A-Za-z0-9_-]{21}[AQgw]$/), ...KDF_DEFAULT })
    expect(Object.keys(one ?? {}).sort()).toEqual(Object.keys(real ?? {}).sort())
  })

  it('refuses a body without a name', async () => {
    const res = await api(t.app, 'POST', '/api/auth/prelogin', { body: {} })
    expect(res.statusCode).toBe(400)
    expect(res.json<ErrorBody>().error).toBe('username is required')
  })
})

describe('an account from before the split', () => {
  it('signs in with its password once, moves over, and keeps reading its old messages', async () => {
    const password = 'Old-Password-1'
    const aliceKeys = await makeKeys(password)
    const bobKeys = await makeKeys('Bob-Password-1')
    const alice = await registerMember(t.app, { password, publicKey: aliceKeys.publicKey, privateKey: aliceKeys.privateKey })
    const bob = await registerMember(t.app, { password: 'Bob-Password-1', publicKey: bobKeys.publicKey, privateKey: bobKeys.privateKey })
    const legacyKey = await wrapLegacyKey(aliceKeys.keyPair.privateKey, password)
    await makeLegacy(alice.user.id, password, legacyKey)
    const conversation = (await startConversation(t.app, bob.token, alice.user.id)).json<Schemas['ConversationResponse']>()
      .conversation
    const envelope = await encrypt('from before the move', bobKeys.keyPair.privateKey, aliceKeys.publicKey)
    expect((await send(t.app, bob.token, conversation.id, envelope)).statusCode).toBe(201)

    // The prelogin says so; the derived secret does not sign it in, the password does.
    expect((await prelogin(alice.user.username)).json<Prelogin>()).toEqual({ kdf: null })
    expect((await api(t.app, 'POST', '/api/auth/login', { body: loginBody(alice.user.username, password) })).statusCode).toBe(401)
    const signIn = await api(t.app, 'POST', '/api/auth/login', { body: { username: alice.user.username, password } })
    expect(signIn.statusCode).toBe(200)
    const { token, privateKey: wk1 } = signIn.json<AuthResponse>()
    expect(wk1).toBe(legacyKey)

    // The browser opens wk1 with the password and seals the same key as wk2 under its new wrapping key.
    const rewrapped = await wrapPrivateKey(await unwrapPrivateKey(wk1 ?? '', password), password)
    const kdf = testKdf()
    const upgrade = (body: Record<string, unknown>) => api(t.app, 'POST', '/api/auth/upgrade', { token, body })
    const base = { password, authSecret: authSecretOf(password), kdf }
    expect((await upgrade({ ...base, password: 'Wrong-Password-1', privateKey: rewrapped })).json<ErrorBody>()).toEqual({
      error: 'Current password is incorrect',
    })
    expect((await upgrade(base)).json<ErrorBody>()).toEqual({ error: 'Re-encrypt your message key to change the password' })
    const moved = await upgrade({ ...base, privateKey: rewrapped })
    expect(moved.statusCode).toBe(200)
    expect(moved.json<Schemas['UpgradeResponse']>().privateKey).toBe(rewrapped)
    expect((await upgrade({ ...base, privateKey: rewrapped })).statusCode).toBe(409)
    // The session that moved over is still valid.
    expect((await api(t.app, 'GET', '/api/auth/me', { token })).statusCode).toBe(200)

    // From now on: the settings, the derived secret, no password.
    expect((await prelogin(alice.user.username)).json<Prelogin>()).toEqual({ kdf })
    const password401 = await api(t.app, 'POST', '/api/auth/login', { body: { username: alice.user.username, password } })
    expect(password401.statusCode).toBe(401)
    const again = await api(t.app, 'POST', '/api/auth/login', { body: loginBody(alice.user.username, password) })
    expect(again.statusCode).toBe(200)
    const stored = again.json<AuthResponse>().privateKey ?? ''
    expect(stored.startsWith('wk2.')).toBe(true)
    const page = (
      await api(t.app, 'GET', `/api/messages/conversations/${conversation.id}/messages`, { token: again.json<AuthResponse>().token })
    ).json<Schemas['MessagesPage']>()
    const [old] = page.messages
    expect(await decrypt(old?.content ?? '', await unwrapPrivateKey(stored, password), bobKeys.publicKey)).toBe(
      'from before the move',
    )
  })

  it('moves over without a key when it has none (the browser makes its keys after)', async () => {
    const member = await registerMember(t.app)
    await makeLegacy(member.user.id, member.password)
    const { token } = (
      await api(t.app, 'POST', '/api/auth/login', { body: { username: member.user.username, password: member.password } })
    ).json<AuthResponse>()
    const body = { password: member.password, authSecret: authSecretOf(member.password), kdf: testKdf() }
    const res = await api(t.app, 'POST', '/api/auth/upgrade', { token, body })
    expect(res.statusCode).toBe(200)
    expect(res.json<Schemas['UpgradeResponse']>().privateKey).toBeNull()
    expect((await api(t.app, 'POST', '/api/auth/login', { body: loginBody(member.user.username, member.password) })).statusCode).toBe(200)
  })

  it('is refused to an account that already derives secrets', async () => {
    const member = await registerMember(t.app)
    const body = { password: member.password, authSecret: authSecretOf(member.password), kdf: testKdf() }
    const res = await api(t.app, 'POST', '/api/auth/upgrade', { token: member.token, body })
    expect(res.statusCode).toBe(409)
    expect(res.json<ErrorBody>().error).toBe('This account already signs in with derived secrets')
  })
})
