import { describe, expect, it } from 'vitest'
import { createActor, setup, spawnChild, type ActorRefFrom } from 'xstate'
import { EMAIL_LINK_INVALID } from '../../src/api/contract/email'
import { changeRequested, emailMachine, LINK_SENT, RESEND_FAILED } from '../../src/machines/email/email.machine'
import { verifyEmailMachine } from '../../src/machines/email/verify-email.machine'
import { sessionMachine } from '../../src/machines/session/session.machine'
import {
  changeFailureText,
  emailModel,
  pendingRobin,
  typed,
  verifyEmailModel,
  verifyFailureText,
} from './models/email.model'
import { Calls } from './support/controlled-actors'
import { robin, storedRobin } from './support/fixtures'
import { installLocalStorage } from './support/memory-storage'
import { describeWalks, perform } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The email actor (banner, Resend link, Change email) and the /verify-email page. What the member sees after each
// step: the banner or not, the dialog and its busy button and error line, the toasts (the real toast store), and what
// was asked of the server: never the typed password in context.

describeWalks('email machine', emailModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const machine = emailMachine.provide({ actors: { resendLink: calls.actor('resendLink'), changeEmail: calls.actor('changeEmail') } })
  const actor = withToasts(createActor(machine, { inspect })).start()
  for await (const { event, snapshot, toastsBefore } of replay(actor, { calls })) {
    expect(snapshot.hasTag('dialog')).toBe(snapshot.matches({ dialog: 'open' }))
    expect(snapshot.hasTag('busy')).toBe(snapshot.matches({ dialog: { open: 'submitting' } }))
    if (snapshot.hasTag('busy')) expect(snapshot.can({ type: 'email.change.close' })).toBe(false)
    expect(JSON.stringify(snapshot.context)).not.toContain(typed.password)

    const toasts = shownToasts()
    if (event.type === 'xstate.done.actor.resendLink') {
      expect(toasts.at(-1)).toMatchObject({ type: 'success', message: LINK_SENT })
    } else if (event.type === 'xstate.error.actor.resendLink') {
      expect(toasts.at(-1)).toMatchObject({ type: 'error', message: RESEND_FAILED })
    } else if (event.type === 'xstate.done.actor.changeEmail') {
      expect(snapshot.hasTag('dialog')).toBe(false)
      expect(toasts.at(-1)).toMatchObject({ type: 'success', message: changeRequested(typed.newEmail) })
    } else if (event.type === 'xstate.error.actor.changeEmail') {
      expect(snapshot.hasTag('dialog')).toBe(true)
      expect(snapshot.context.error).toBe(changeFailureText.get(event.error))
      expect(toasts.length).toBe(toastsBefore)
    } else {
      expect(toasts.length, 'no toast without an answer from the server').toBe(toastsBefore)
    }
    if (event.type === 'email.change.submit' && snapshot.hasTag('busy')) {
      // No session in this system: no name to look the settings up by. The password goes to the call only.
      expect(calls.started.at(-1)).toEqual({ id: 'changeEmail', input: { username: '', ...typed } })
    }
    if (event.type === 'email.resend') expect(calls.started.at(-1)).toEqual({ id: 'resendLink', input: undefined })
  }
  actor.stop()
})

describe('email machine', () => {
  it('tells the session the pending address once the change is asked for', async () => {
    installLocalStorage()
    const calls = new Calls()
    const email = emailMachine.provide({ actors: { resendLink: calls.actor('resendLink'), changeEmail: calls.actor('changeEmail') } })
    const root = setup({
      actors: { session: sessionMachine.provide({ actors: { checkAuth: calls.actor('checkAuth') } }), email },
    }).createMachine({
      entry: [spawnChild('session', { systemId: 'session', input: { stored: storedRobin } }), spawnChild('email', { id: 'email' })],
    })
    const app = createActor(root).start()
    const session = app.system.get('session') as ActorRefFrom<typeof sessionMachine>
    await perform(session, calls, { type: 'xstate.done.actor.checkAuth', output: robin })
    const actor = app.getSnapshot().children.email as ActorRefFrom<typeof emailMachine>
    await perform(actor, calls, { type: 'email.change.open' })
    await perform(actor, calls, { type: 'email.change.submit', ...typed })
    expect(calls.started.at(-1)).toEqual({ id: 'changeEmail', input: { username: robin.username, ...typed } })
    await perform(actor, calls, { type: 'xstate.done.actor.changeEmail', output: pendingRobin })
    expect(session.getSnapshot().context.user).toMatchObject({ email: robin.email, pendingEmail: typed.newEmail })
    app.stop()
  })
})

describeWalks('verify-email', verifyEmailModel, async ({ walk, inspect, replay }) => {
  const input = walk.options().input as { token: string | null }
  const calls = new Calls()
  const machine = verifyEmailMachine.provide({ actors: { verifyLink: calls.actor('verifyLink') } })
  const actor = createActor(machine, { input, inspect }).start()
  // The page opens the link at once (not signed in here); without a token it says so without asking anyone.
  expect(calls.started).toEqual(input.token ? [{ id: 'verifyLink', input: { token: input.token, signedIn: false } }] : [])
  if (!input.token) expect(actor.getSnapshot().context.error).toBe(EMAIL_LINK_INVALID)
  for await (const { event, snapshot } of replay(actor, { calls })) {
    expect(snapshot.hasTag('busy')).toBe(snapshot.matches('verifying'))
    if (event.type === 'xstate.error.actor.verifyLink') {
      expect(snapshot.context.error).toBe(verifyFailureText.get(event.error))
      // Only a failure that may pass offers Try again: an expired or used link stays so.
      expect(snapshot.can({ type: 'verify.retry' })).toBe(snapshot.context.error !== EMAIL_LINK_INVALID)
    }
    if (event.type === 'xstate.done.actor.verifyLink') expect(snapshot.context.email).toBe('robin@example.org')
  }
  actor.stop()
})

describe('verify-email', () => {
  it("refreshes a signed-in member's session from the server's answer", async () => {
    installLocalStorage()
    const calls = new Calls()
    const verify = verifyEmailMachine.provide({ actors: { verifyLink: calls.actor('verifyLink') } })
    const token = 'T'.repeat(43)
    // The app's shape as far as the page sees it: a session beside it; the page opens once the member is signed in.
    const root = setup({
      actors: { session: sessionMachine.provide({ actors: { checkAuth: calls.actor('checkAuth') } }), verify },
    }).createMachine({
      entry: spawnChild('session', { systemId: 'session', input: { stored: storedRobin } }),
      on: { 'page.open': { actions: spawnChild('verify', { id: 'verify', input: { token } }) } },
    })
    const app = createActor(root).start()
    const session = app.system.get('session') as ActorRefFrom<typeof sessionMachine>
    await perform(session, calls, { type: 'xstate.done.actor.checkAuth', output: { ...robin, emailVerified: false } })
    expect(session.getSnapshot().context.user?.emailVerified).toBe(false)
    app.send({ type: 'page.open' })
    expect(calls.started.at(-1)).toEqual({ id: 'verifyLink', input: { token, signedIn: true } })
    const page = app.getSnapshot().children.verify as ActorRefFrom<typeof verifyEmailMachine>
    await perform(page, calls, { type: 'xstate.done.actor.verifyLink', output: { email: robin.email, user: robin } })
    expect(session.getSnapshot().context.user).toMatchObject({ emailVerified: true, pendingEmail: null })
    app.stop()
  })
})
