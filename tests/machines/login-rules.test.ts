import { beforeEach, describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { loginMachine } from '../../src/machines/login/login.machine'
import { isLoginRequest, loginSchema, type LoginValues } from '../../src/machines/login/login.rules'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { Calls } from './support/controlled-actors'
import { noSession } from './support/fixtures'
import { installLocalStorage } from './support/memory-storage'
import { perform } from './support/model'

// The login form's rules (docs/product.md, "Login"): what the member reads under each field, and the machine refusing what the
// form would refuse.

const valid: LoginValues = { username: 'robin', password: 'Sparrow2026', remember: false }

/** The first message on each field, as the form shows it. */
function messages(values: LoginValues): Record<string, string> {
  const result = loginSchema.safeParse(values)
  const shown: Record<string, string> = {}
  for (const issue of result.error?.issues ?? []) shown[issue.path.join('.')] ??= issue.message
  return shown
}

describe('loginSchema', () => {
  it('accepts a username (or email) and a password, trimming the username', () => {
    expect(messages(valid)).toEqual({})
    expect(loginSchema.parse({ ...valid, username: '  Robin@Example.org ' }).username).toBe('Robin@Example.org')
  })

  it('says which field is missing, in the spec words', () => {
    expect(messages({ ...valid, username: '' })).toEqual({ username: 'Username is required' })
    expect(messages({ ...valid, username: '   ' })).toEqual({ username: 'Username is required' })
    expect(messages({ ...valid, password: '' })).toEqual({ password: 'Password is required' })
    expect(messages({ username: '', password: '', remember: true })).toEqual({
      username: 'Username is required',
      password: 'Password is required',
    })
  })

  it('checks no length or pattern on login (a short password still reaches the server)', () => {
    expect(messages({ ...valid, password: 'x' })).toEqual({})
  })
})

describe('login machine guard', () => {
  beforeEach(() => {
    installLocalStorage()
  })

  function start() {
    const session = createActor(sessionMachine, { input: { stored: noSession } }).start()
    const calls = new Calls()
    const machine = loginMachine.provide({ actors: { derive: calls.actor('derive'), login: calls.actor('login') } })
    const actor = createActor(machine, { input: { session } }).start()
    return { actor, calls }
  }

  it('refuses a submit the form would refuse: no call, nothing busy', async () => {
    const { actor, calls } = start()
    expect(isLoginRequest({ username: ' ', password: 'Sparrow2026' })).toBe(false)
    await perform(actor, calls, { type: 'login.submit', username: ' ', password: 'Sparrow2026' })
    await perform(actor, calls, { type: 'login.submit', username: 'robin', password: '' })
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().hasTag('busy')).toBe(false)
    expect(calls.started).toEqual([])
  })

  it('sends a valid submit', async () => {
    const { actor, calls } = start()
    await perform(actor, calls, { type: 'login.submit', username: 'robin', password: 'Sparrow2026' })
    expect(actor.getSnapshot().value).toBe('deriving')
    expect(calls.started).toEqual([{ id: 'derive', input: { username: 'robin', password: 'Sparrow2026' } }])
  })
})
