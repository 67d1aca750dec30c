import { beforeEach, describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { registerMachine } from '../../src/machines/register/register.machine'
import {
  isRegisterRequest,
  REGISTER_HINTS,
  registerSchema,
  type RegisterValues,
} from '../../src/machines/register/register.rules'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { Calls } from './support/controlled-actors'
import { noSession } from './support/fixtures'
import { installLocalStorage } from './support/memory-storage'
import { perform } from './support/model'
import { secrets } from './models/credentials.model'

// The registration form's rules (docs/product.md, "Register"): the exact messages, the limits' boundaries (username 3..30, display
// name 50, password 8), the order in which a field's checks speak, and the machine refusing what the form would refuse.

const valid: RegisterValues = {
  username: 'robin_1',
  email: 'robin@example.org',
  displayName: 'Robin Wren',
  password: 'Sparrow2026',
  confirmPassword: 'Sparrow2026',
  acceptTerms: true,
}

/** The first message on each field, as the form shows it. */
function messages(values: RegisterValues): Record<string, string> {
  const result = registerSchema.safeParse(values)
  const shown: Record<string, string> = {}
  for (const issue of result.error?.issues ?? []) shown[issue.path.join('.')] ??= issue.message
  return shown
}

describe('registerSchema', () => {
  it('accepts a complete form', () => {
    expect(messages(valid)).toEqual({})
  })

  it('usernames: 3 to 30 letters, numbers and underscores; required before length before pattern', () => {
    expect(messages({ ...valid, username: '' })).toEqual({ username: 'Username is required' })
    expect(messages({ ...valid, username: 'ab' })).toEqual({ username: 'Minimum 3 characters' })
    expect(messages({ ...valid, username: 'abc' })).toEqual({})
    expect(messages({ ...valid, username: 'a'.repeat(30) })).toEqual({})
    expect(messages({ ...valid, username: 'a'.repeat(31) })).toEqual({ username: 'Maximum 30 characters' })
    expect(messages({ ...valid, username: 'a-b' })).toEqual({ username: 'Only letters, numbers, and underscores allowed' })
    expect(messages({ ...valid, username: 'a b' })).toEqual({ username: 'Only letters, numbers, and underscores allowed' })
  })

  it('email: required, then non-space text with @', () => {
    expect(messages({ ...valid, email: ' ' })).toEqual({ email: 'Email is required' })
    expect(messages({ ...valid, email: 'robin' })).toEqual({ email: 'Invalid email address' })
    expect(registerSchema.parse({ ...valid, email: ' robin@example.org ' }).email).toBe('robin@example.org')
  })

  it('display name: required, at most 50', () => {
    expect(messages({ ...valid, displayName: '' })).toEqual({ displayName: 'Display name is required' })
    expect(messages({ ...valid, displayName: 'a'.repeat(50) })).toEqual({})
    expect(messages({ ...valid, displayName: 'a'.repeat(51) })).toEqual({ displayName: 'Maximum 50 characters' })
  })

  it('password: required, at least 8, then upper, lower and a digit', () => {
    const pw = (password: string) => messages({ ...valid, password, confirmPassword: password })
    expect(pw('')).toEqual({ password: 'Password is required', confirmPassword: 'Please confirm your password' })
    expect(pw('Abcde12')).toEqual({ password: 'Minimum 8 characters' })
    expect(pw('Abcdef12')).toEqual({})
    expect(pw('abcdefgh1')).toEqual({ password: 'Must contain uppercase, lowercase, and number' })
  })

  it('confirmation and terms', () => {
    expect(messages({ ...valid, confirmPassword: '' })).toEqual({ confirmPassword: 'Please confirm your password' })
    expect(messages({ ...valid, confirmPassword: 'Sparrow2027' })).toEqual({ confirmPassword: 'Passwords do not match' })
    expect(messages({ ...valid, acceptTerms: false })).toEqual({ acceptTerms: 'You must accept the terms' })
  })

  it('states the limits in the hints under the fields', () => {
    expect(REGISTER_HINTS.username).toBe('Letters, numbers and underscores; 3 to 30 characters.')
    expect(REGISTER_HINTS.password).toBe('At least 8 characters, with upper and lower case and a number.')
  })
})

describe('register machine guard', () => {
  beforeEach(() => {
    installLocalStorage()
  })

  const request = { username: 'robin_1', email: 'robin@example.org', displayName: 'Robin Wren', password: 'Sparrow2026' }

  function start() {
    const session = createActor(sessionMachine, { input: { stored: noSession } }).start()
    const calls = new Calls()
    const machine = registerMachine.provide({
      actors: { derive: calls.actor('derive'), makeKeys: calls.actor('makeKeys'), register: calls.actor('register') },
    })
    return { actor: createActor(machine, { input: { session } }).start(), calls }
  }

  it('refuses a submit the form would refuse: no call, nothing busy', async () => {
    const { actor, calls } = start()
    for (const broken of [{ username: 'ab' }, { email: 'robin' }, { displayName: 'a'.repeat(51) }, { password: 'short' }]) {
      expect(isRegisterRequest({ ...request, ...broken })).toBe(false)
      await perform(actor, calls, { type: 'register.submit', ...request, ...broken })
    }
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().hasTag('busy')).toBe(false)
    expect(calls.started).toEqual([])
  })

  it('sends a valid submit with the contract fields only', async () => {
    const { actor, calls } = start()
    await perform(actor, calls, { type: 'register.submit', ...request })
    expect(actor.getSnapshot().value).toBe('deriving')
    await perform(actor, calls, { type: 'xstate.done.actor.derive', output: secrets })
    // Keys could not be made (no WebCrypto): the registration goes without them, and without the password.
    await perform(actor, calls, { type: 'xstate.error.actor.makeKeys', error: new Error('no WebCrypto') })
    expect(actor.getSnapshot().value).toBe('submitting')
    const { password, ...fields } = request
    expect(calls.started).toEqual([
      { id: 'derive', input: { password } },
      { id: 'makeKeys', input: { secrets } },
      { id: 'register', input: { ...fields, authSecret: secrets.authSecret, kdf: secrets.kdf } },
    ])
  })
})
