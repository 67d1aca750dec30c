import { describe, expect, it } from 'vitest'
import { api, type AuthResponse, type ErrorBody, registerMember, useTestApp } from './harness'

const t = useTestApp()

const login = (username: string, password: string) =>
  api(t.app, 'POST', '/api/auth/login', { body: { username, password } })
const changePassword = (token: string, body: unknown) =>
  api(t.app, 'POST', '/api/auth/change-password', { token, body })

describe('change password', () => {
  it('keeps the current session, revokes every other one, and swaps the password', async () => {
    const member = await registerMember(t.app)
    const other = (await login(member.user.username, member.password)).json<AuthResponse>().token
    const third = (await login(member.user.email, member.password)).json<AuthResponse>().token

    const res = await changePassword(member.token, { currentPassword: member.password, newPassword: 'Brand-New-Pass-7' })
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
    const res = await changePassword(member.token, { currentPassword: 'Not-my-pass-1', newPassword: 'Brand-New-Pass-7' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'Current password is incorrect' })
    expect((await api(t.app, 'GET', '/api/auth/me', { token: other })).statusCode).toBe(200)
    expect((await login(member.user.username, member.password)).statusCode).toBe(200)
  })

  it.each([
    ['all lowercase', 'lowercase-only-1', 'Password must contain lowercase, uppercase, and number'],
    ['no digit', 'No-Digits-Here', 'Password must contain lowercase, uppercase, and number'],
    ['too short', 'Ab1', 'newPassword must be at least 8 characters'],
  ])('refuses a weak new password (%s) with 400', async (_name, newPassword, message) => {
    const member = await registerMember(t.app)
    const res = await changePassword(member.token, { currentPassword: member.password, newPassword })
    expect(res.statusCode).toBe(400)
    expect(res.json<ErrorBody>().error).toBe(message)
    expect((await login(member.user.username, member.password)).statusCode).toBe(200)
  })

  it('refuses unknown fields and missing ones', async () => {
    const member = await registerMember(t.app)
    const extra = await changePassword(member.token, {
      currentPassword: member.password,
      newPassword: 'Brand-New-Pass-7',
      isAdmin: true,
    })
    expect(extra.statusCode).toBe(400)
    expect(extra.json<ErrorBody>().error).toBe('Unknown field: isAdmin')
    const missing = await changePassword(member.token, { newPassword: 'Brand-New-Pass-7' })
    expect(missing.statusCode).toBe(400)
    expect(missing.json<ErrorBody>().error).toBe('currentPassword is required')
  })

  it('needs a session', async () => {
    const res = await api(t.app, 'POST', '/api/auth/change-password', {
      body: { currentPassword: 'x', newPassword: 'Brand-New-Pass-7' },
    })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ error: 'Authentication required' })
  })
})
