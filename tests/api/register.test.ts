import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { users } from '../../server/db/schema'
import { api, type AuthResponse, type ErrorBody, registerMember, registration, uniqueName, useTestApp, testKdf } from './harness'

const t = useTestApp()

const register = (body: unknown) => api(t.app, 'POST', '/api/auth/register', { body })

async function storedUser(username: string) {
  const [row] = await t.database.handle.db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
  return row
}

describe('register', () => {
  it('creates the account, signs it in and answers the contract shape', async () => {
    const body = registration({ displayName: '  Ann Example  ' })
    const res = await register(body)
    expect(res.statusCode).toBe(201)
    const json = res.json<AuthResponse>()
    expect(json.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(json.privateKey).toBeNull()
    expect(json.user).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      username: body.username,
      email: body.email,
      displayName: 'Ann Example',
      avatar: null,
      banner: null,
      bio: '',
      verified: false,
      privateAccount: false,
      isAdmin: expect.any(Boolean),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      contentSettings: { showSensitiveContent: false, allowDMs: 'everyone', allowMentions: 'everyone' },
      // Registered without keys (an older client): none stored, none asked for yet.
      publicKey: null,
      keysRequested: false,
      twoFactorEnabled: false,
      hasRecoveryKey: false,
    })
    const me = await api(t.app, 'GET', '/api/auth/me', { token: json.token })
    expect(me.statusCode).toBe(200)
    expect(me.json<{ user: AuthResponse['user'] }>().user.id).toBe(json.user.id)
  })

  it('stores an argon2id hash with the OWASP parameters and never sends it', async () => {
    const res = await register(registration())
    const { user } = res.json<AuthResponse>()
    const row = await storedUser(user.username)
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(res.body).not.toContain('argon2')
    expect(res.body).not.toContain('passwordHash')
    expect(res.body).not.toContain('password')
  })

  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['missing username', { username: undefined }, 'username is required'],
    ['too short username', { username: 'ab' }, 'username must be at least 3 characters'],
    ['too long username', { username: 'a'.repeat(31) }, 'username must be at most 30 characters'],
    ['username with spaces', { username: 'ann example' }, 'username may only contain letters, numbers, and underscores'],
    ['username with symbols', { username: 'ann!' }, 'username may only contain letters, numbers, and underscores'],
    ['username with an @', { username: 'ann@home' }, 'username may only contain letters, numbers, and underscores'],
    ['missing email', { email: undefined }, 'email is required'],
    ['email without @', { email: 'ann.example.com' }, 'email must be a valid email address'],
    ['email with a space', { email: 'ann example@x.test' }, 'email must be a valid email address'],
    ['too long email', { email: `${'a'.repeat(250)}@x.test` }, 'email must be at most 254 characters'],
    ['missing display name', { displayName: undefined }, 'displayName is required'],
    ['empty display name', { displayName: '' }, 'displayName must not be empty'],
    ['blank display name', { displayName: '    ' }, 'displayName must not be empty'],
    ['too long display name', { displayName: 'd'.repeat(51) }, 'displayName must be at most 50 characters'],
    // The password itself never arrives (its strength is the browser's to check): its derived secret and settings do.
    ['missing auth secret', { authSecret: undefined }, 'authSecret is required'],
    ['a short auth secret', { authSecret: 'A'.repeat(42) }, 'authSecret must be at least 43 characters'],
    ['missing KDF settings', { kdf: undefined }, 'kdf is required'],
    ['KDF memory below the floor', { kdf: { ...testKdf(), memory: 19_455 } }, 'kdf.memory must be at least 19456'],
    ['KDF memory above the ceiling', { kdf: { ...testKdf(), memory: 262_145 } }, 'kdf.memory must be at most 262144'],
    ['KDF one pass', { kdf: { ...testKdf(), iterations: 1 } }, 'kdf.iterations must be at least 2'],
    ['KDF too costly', { kdf: { ...testKdf(), memory: 262_144, iterations: 10 } }, 'kdf.memory times kdf.iterations is too costly'],
    ['KDF salt with stray bits', { kdf: { ...testKdf(), salt: `${'A'.repeat(21)}B` } }, 'kdf.salt must be 16 bytes of base64url'],
    ['KDF other algorithm', { kdf: { ...testKdf(), algorithm: 'pbkdf2' } }, 'kdf.algorithm must be one of: argon2id'],
    ['a wrong type', { displayName: { first: 'Ann' } }, 'displayName must be text'],
  ]

  it.each(cases)('refuses %s with 400 and a clear message', async (_name, overrides, message) => {
    const body = registration(overrides)
    const res = await register(JSON.parse(JSON.stringify(body)))
    expect(res.statusCode).toBe(400)
    const json = res.json<ErrorBody>()
    expect(json.error).toBe(message)
    if (json.details) expect(json.details).toContain(message)
    expect(await storedUser(String(body.username))).toBeUndefined()
  })

  it('lists every problem in details', async () => {
    const res = await register({ username: 'a', email: 'nope', authSecret: 'short', kdf: testKdf() })
    expect(res.statusCode).toBe(400)
    expect(res.json<ErrorBody>().details).toEqual(
      expect.arrayContaining([
        'displayName is required',
        'username must be at least 3 characters',
        'email must be a valid email address',
        'authSecret must be at least 43 characters',
      ]),
    )
  })

  it('refuses a body that is not an object', async () => {
    const res = await register(['not', 'an', 'object'])
    expect(res.statusCode).toBe(400)
    expect(res.json<ErrorBody>().error).toBe('Request body must be an object')
  })

  it.each(['isAdmin', 'verified', 'followersCount', 'role'])(
    'refuses the field %s with 400 and creates no account',
    async (field) => {
      const body = registration({ [field]: true })
      const res = await register(body)
      expect(res.statusCode).toBe(400)
      expect(res.json<ErrorBody>().error).toBe(`Unknown field: ${field}`)
      expect(await storedUser(body.username)).toBeUndefined()
    },
  )

  it('refuses a taken username in any case with 409', async () => {
    const first = await registerMember(t.app, { username: uniqueName('Case') })
    const res = await register(registration({ username: first.user.username.toUpperCase() }))
    expect(res.statusCode).toBe(409)
    expect(res.json<ErrorBody>()).toEqual({ error: 'Username is already taken' })
  })

  it('refuses a registered email in any case with 409', async () => {
    const first = await registerMember(t.app)
    const res = await register(registration({ email: first.user.email.toUpperCase() }))
    expect(res.statusCode).toBe(409)
    expect(res.json<ErrorBody>()).toEqual({ error: 'Email is already registered' })
  })

  it('lets exactly one of many simultaneous registrations of one username through', async () => {
    const name = uniqueName('race')
    const variants = [name, name.toUpperCase(), name, name.toLowerCase(), name, name.toUpperCase()]
    const results = await Promise.all(
      variants.map((username, i) => register(registration({ username, email: `race${i}_${name}@example.test` }))),
    )
    const statuses = results.map((r) => r.statusCode).sort()
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409])
    for (const r of results.filter((r) => r.statusCode === 409)) {
      expect(r.json<ErrorBody>().error).toBe('Username is already taken')
    }
    const [{ count } = { count: 0 }] = await t.database.handle.db
      .select({ count: sql<number>`count(*)::int` })
      .from(users)
      .where(sql`lower(${users.username}) = lower(${name})`)
    expect(count).toBe(1)
  })
})

describe('the first account', () => {
  it('is the admin; the second is not', async () => {
    await t.database.reset()
    const first = await registerMember(t.app)
    const second = await registerMember(t.app)
    expect(first.user.isAdmin).toBe(true)
    expect(second.user.isAdmin).toBe(false)
  })

  it('is the only admin even when several register at once on a fresh instance', async () => {
    await t.database.reset()
    const results = await Promise.all(Array.from({ length: 5 }, () => register(registration())))
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201])
    const admins = results.filter((r) => r.json<AuthResponse>().user.isAdmin)
    expect(admins).toHaveLength(1)
    const stored = await t.database.handle.db.select().from(users).where(eq(users.isAdmin, true))
    expect(stored).toHaveLength(1)
  })
})
