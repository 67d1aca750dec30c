import { describe, expect, it } from 'vitest'
import { api, type AuthResponse, type ErrorBody, registerMember, useTestApp, loginBody, passwordChange } from './harness'

const t = useTestApp()

const login = (username: string, password: string) =>
  api(t.app, 'POST', '/api/auth/login', { body: loginBody(username, password) })
const changePassword = (token: string, body: unknown) =>
  api(t.app, 'POST', '/api/auth/change-password', { token, body })

describe('change password', () => {
  it('keeps the current session, revokes every other one, and swaps the password', async () => {
    const member = await registerMember(t.app)
    const other = (await login(member.user.username, member.password)).json<AuthResponse>().token
    const third = (await login(member.user.email, member.password)).json<AuthResponse>().token

    const res = await changePassword(member.token, passwordChange(member.password, 'Brand-New-Pass-7'))
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ message: 'Password changed successfully' })

    expect((await api(t.app, 'GET', '/api/auth/me', { token: member.token })).statusCode).toBe(200)
    for (const token of [other, third]) {
      const revoked = await api(t.app, 'GET', '/api/auth/me', { token })
      expect(revoked.statusCode).toBe(401)
      expect(revoked.json()).toEqual({ error: 'Session expired or revoked' })
    }
    const oldLogin = await login(member.user.username, member.password)
    expect(oldLogin.statusCode).toBe(401)
    expect(oldLogin.json()).toEqual({ error: 'Invalid username or password' })
    expect((await login(member.user.username, 'Brand-New-Pass-7')).statusCode).toBe(200)
  })

  it('refuses a wrong current password with 400 and changes nothing', async () => {
    const member = await registerMember(t.app)
    const other = (await login(member.user.username, member.password)).json<AuthResponse>().token
    const res = await changePassword(member.token, passwordChange('Not-my-pass-1', 'Brand-New-Pass-7'))
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'Current password is incorrect' })
    expect((await api(t.app, 'GET', '/api/auth/me', { token: other })).statusCode).toBe(200)
    expect((await login(member.user.username, member.password)).statusCode).toBe(200)
  })

  it.each([
    ['memory below the floor', { memory: 19_455 }, 'kdf.memory must be at least 19456'],
    ['too costly', { memory: 262_144, iterations: 10 }, 'kdf.memory times kdf.iterations is too costly'],
  ])('refuses new KDF settings out of bounds (%s) with 400 and changes nothing', async (_name, kdf, message) => {
    const member = await registerMember(t.app)
    const change = passwordChange(member.password, 'Brand-New-Pass-7')
    const res = await changePassword(member.token, { ...change, kdf: { ...change.kdf, ...kdf } })
    expect(res.statusCode).toBe(400)
    expect(res.json<ErrorBody>().error).toBe(message)
    expect((await login(member.user.username, member.password)).statusCode).toBe(200)
  })

  it('refuses unknown fields, missing ones, and both or neither current proofs', async () => {
    const member = await registerMember(t.app)
    const extra = await changePassword(member.token, { ...passwordChange(member.password, 'Brand-New-Pass-7'), isAdmin: true })
    expect(extra.statusCode).toBe(400)
    expect(extra.json<ErrorBody>().error).toBe('Unknown field: isAdmin')
    const { currentAuthSecret, ...missing } = passwordChange(member.password, 'Brand-New-Pass-7')
    const neither = await changePassword(member.token, missing)
    expect(neither.statusCode).toBe(400)
    expect(neither.json<ErrorBody>().error).toBe('Send exactly one of currentAuthSecret and currentPassword')
    const both = await changePassword(member.token, { ...missing, currentAuthSecret, currentPassword: member.password })
    expect(both.json<ErrorBody>().error).toBe('Send exactly one of currentAuthSecret and currentPassword')
    // The password of an account that derives secrets is a wrong proof, answered as one.
    const password = await changePassword(member.token, { ...missing, currentPassword: member.password })
    expect(password.json<ErrorBody>().error).toBe('Current password is incorrect')
  })

  it('needs a session', async () => {
    const res = await api(t.app, 'POST', '/api/auth/change-password', {
      body: passwordChange('x', 'Brand-New-Pass-7'),
    })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ error: 'Authentication required' })
  })
})
