import { createActor, type AnyEventObject, type AnyStateMachine } from 'xstate'
import { Invalid, Network, Unauthorized } from '../../../src/api/errors'
import { loginMachine } from '../../../src/machines/login/login.machine'
import { registerMachine } from '../../../src/machines/register/register.machine'
import { sessionMachine } from '../../../src/machines/session/session.machine'
import { noSession, robinAuth } from '../support/fixtures'
import type { MachineModel } from '../support/walks'

// The login and register forms' models (one shape: idle -> submitting -> succeeded | failed): the submit, the success
// and two failures. Walked by tests/machines/credentials.machine.test.ts and printed by `npm run paths -- login` /
// `npm run paths -- register`.

/** A real session actor (no stored token, so it calls nothing) to receive the success event. */
export function startSession() {
  return createActor(sessionMachine, { input: { stored: noSession } }).start()
}

export const networkError = new Network({ message: 'Unable to reach the server. Check your connection and try again.' })

interface Form {
  name: string
  machine: AnyStateMachine
  callId: string
  submit: AnyEventObject
  expectedInput: Record<string, string>
  serverError: Unauthorized | Invalid
  successEvent: string
}

/** A form's model: one walk, from a fresh form with a session on the other end. */
function model(form: Form) {
  const events: AnyEventObject[] = [
    form.submit,
    { type: `xstate.done.actor.${form.callId}`, output: robinAuth },
    { type: `xstate.error.actor.${form.callId}`, error: form.serverError },
    { type: `xstate.error.actor.${form.callId}`, error: networkError },
  ]
  return {
    name: form.name,
    machine: form.machine,
    walks: [
      {
        name: '',
        options: () => ({
          input: { session: startSession() },
          events,
          serializeState: (s: { value: unknown; context: { error: string | null } }) => JSON.stringify({ value: s.value, error: s.context.error }),
        }),
      },
    ],
  } satisfies MachineModel
}

export const loginForm = {
  name: 'login',
  machine: loginMachine,
  callId: 'login',
  submit: { type: 'login.submit', username: 'Robin@Example.org', password: 'Sparrow2026' },
  expectedInput: { username: 'Robin@Example.org', password: 'Sparrow2026' },
  serverError: new Unauthorized({ message: 'Invalid username or password', fromServer: true }),
  successEvent: 'session.login.succeeded',
} satisfies Form

export const registerForm = {
  name: 'register',
  machine: registerMachine,
  callId: 'register',
  submit: {
    type: 'register.submit',
    username: 'robin',
    email: 'robin@example.org',
    displayName: 'Robin Wren',
    password: 'Sparrow2026',
  },
  expectedInput: { username: 'robin', email: 'robin@example.org', displayName: 'Robin Wren', password: 'Sparrow2026' },
  serverError: new Invalid({ status: 409, message: 'Username is already taken', fromServer: true, details: [] }),
  successEvent: 'session.register.succeeded',
} satisfies Form

export const loginModel = model(loginForm)
export const registerModel = model(registerForm)
