import { describe, expect, it, vi } from 'vitest'
import { createActor, setup, spawnChild, type ActorRefFrom } from 'xstate'
import { sessionMachine } from '../../src/machines/session/session.machine'
import {
  CODES_COPIED,
  TWO_FACTOR_OFF,
  TWO_FACTOR_ON,
  twoFactorMachine,
} from '../../src/machines/two-factor/two-factor.machine'
import { recoveryCodesText } from '../../src/machines/two-factor/two-factor.rules'
import { codes, failureText, setupAnswer, twoFactorModel, typed } from './models/two-factor.model'
import { Calls } from './support/controlled-actors'
import { installLocalStorage } from './support/memory-storage'
import { describeWalks, perform } from './support/model'
import { robin, storedRobin } from './support/fixtures'
import { shownToasts, withToasts } from './support/toasts'

// The Two-Factor Authentication dialog. What the member sees: the dialog (open or not) and its step, the busy buttons,
// the error line, the toasts (from the real toast store), and the Security row, which reads the session. The events
// are the model's (./models/two-factor.model.ts), shared with `npm run paths -- two-factor`.

const calls = ['setup', 'enable', 'disable', 'regenerate'] as const
const busyStates = ['settingUp', 'enabling', 'disabling', 'regenerating'] as const

function start() {
  const controlled = new Calls()
  const tellSession = vi.fn()
  const copyCodes = vi.fn()
  const downloadCodes = vi.fn()
  const machine = twoFactorMachine.provide({
    actors: Object.fromEntries(calls.map((id) => [id, controlled.actor(id)])),
    actions: { tellSession, copyCodes, downloadCodes },
  })
  return { controlled, tellSession, copyCodes, downloadCodes, machine }
}

describeWalks('two-factor machine', twoFactorModel, async ({ inspect, replay }) => {
  const { controlled, tellSession, copyCodes, downloadCodes, machine } = start()
  const actor = withToasts(createActor(machine, { inspect })).start()

  for await (const { event, snapshot, toastsBefore } of replay(actor, { calls: controlled })) {
    const open = snapshot.hasTag('dialog')
    expect(open).toBe(snapshot.matches('open'))
    const busy = busyStates.some((state) => snapshot.matches({ open: state }))
    expect(snapshot.hasTag('busy')).toBe(busy)
    // While a change is in flight the dialog cannot be closed: closing would hide whether it happened.
    if (busy) expect(snapshot.can({ type: 'twoFactor.close' })).toBe(false)
    // The typed password goes into the call, never into the dialog's memory.
    expect(JSON.stringify(snapshot.context)).not.toContain(typed.password)
    if (!open) expect(snapshot.context).toEqual({ setup: null, recoveryCodes: null, error: null })

    const type = event.type
    const toasts = shownToasts()
    if (type === 'twoFactor.enable' || type === 'twoFactor.disable' || type === 'twoFactor.regenerate') {
      if (busy) {
        // No session in this system: no name to look the settings up by. The code goes as typed (trimmed later).
        expect(controlled.started.at(-1)).toEqual({
          id: type.replace('twoFactor.', ''),
          input: { username: '', code: typed.code, password: typed.password },
        })
        expect(snapshot.context.error).toBeNull()
      }
    }
    if (type === 'xstate.done.actor.setup') {
      expect(snapshot.context.setup).toEqual(setupAnswer)
    }
    if (type === 'xstate.done.actor.enable') {
      expect(snapshot.matches({ open: 'showingCodes' })).toBe(true)
      expect(snapshot.context.recoveryCodes).toEqual(codes)
      // The secret is forgotten once it is on.
      expect(snapshot.context.setup).toBeNull()
      expect(tellSession).toHaveBeenLastCalledWith(expect.anything(), true)
      expect(toasts.at(-1)).toMatchObject({ type: 'success', message: TWO_FACTOR_ON })
    } else if (type === 'xstate.done.actor.disable') {
      expect(open).toBe(false)
      expect(tellSession).toHaveBeenLastCalledWith(expect.anything(), false)
      expect(toasts.at(-1)).toMatchObject({ type: 'success', message: TWO_FACTOR_OFF })
    } else if (type === 'xstate.error.actor.setup') {
      expect(open).toBe(false)
      expect(toasts.at(-1)).toMatchObject({ type: 'error', message: failureText.get(event.error) })
    } else if (/^xstate\.error\.actor\./.test(type)) {
      expect(open).toBe(true)
      expect(snapshot.context.error).toBe(failureText.get(event.error))
      expect(toasts.length, 'the error shows in the dialog, not as a toast').toBe(toastsBefore)
    } else {
      expect(toasts.length, 'no toast without an answer from the server').toBe(toastsBefore)
    }
    if (type === 'twoFactor.copy') expect(copyCodes).toHaveBeenCalled()
    if (type === 'twoFactor.download') expect(downloadCodes).toHaveBeenCalled()
  }
  actor.stop()
})

describe('two-factor machine', () => {
  it("sends the session member's name with the code and password, and the session hears the new state", async () => {
    installLocalStorage()
    const controlled = new Calls()
    const dialog = twoFactorMachine.provide({
      actors: Object.fromEntries(calls.map((id) => [id, controlled.actor(id)])),
    })
    const root = setup({
      actors: { session: sessionMachine.provide({ actors: { checkAuth: controlled.actor('checkAuth') } }), dialog },
    }).createMachine({
      entry: [spawnChild('session', { systemId: 'session', input: { stored: storedRobin } }), spawnChild('dialog', { id: 'dialog' })],
    })
    const app = createActor(root).start()
    const session = app.system.get('session') as ActorRefFrom<typeof sessionMachine>
    await perform(session, controlled, { type: 'xstate.done.actor.checkAuth', output: robin })
    const actor = app.getSnapshot().children.dialog as ActorRefFrom<typeof twoFactorMachine>

    await perform(actor, controlled, { type: 'twoFactor.open', enabled: false })
    await perform(actor, controlled, { type: 'xstate.done.actor.setup', output: setupAnswer })
    await perform(actor, controlled, { type: 'twoFactor.enable', ...typed })
    expect(controlled.started.at(-1)).toEqual({ id: 'enable', input: { username: robin.username, ...typed } })
    await perform(actor, controlled, { type: 'xstate.done.actor.enable', output: { user: robin, recoveryCodes: codes } })
    expect(session.getSnapshot().context.user?.twoFactorEnabled).toBe(true)
    expect(JSON.parse(localStorage.getItem('auth-storage') ?? '{}').user.twoFactorEnabled).toBe(true)
    app.stop()
  })

  it('copies the codes to the clipboard and says so', async () => {
    const writeText = vi.fn(() => Promise.resolve())
    vi.stubGlobal('navigator', { clipboard: { writeText } })
    const controlled = new Calls()
    const machine = twoFactorMachine.provide({ actors: Object.fromEntries(calls.map((id) => [id, controlled.actor(id)])) })
    const actor = withToasts(createActor(machine)).start()
    await perform(actor, controlled, { type: 'twoFactor.open', enabled: true })
    await perform(actor, controlled, { type: 'twoFactor.regenerate', ...typed })
    await perform(actor, controlled, { type: 'xstate.done.actor.regenerate', output: codes })
    await perform(actor, controlled, { type: 'twoFactor.copy' })
    expect(writeText).toHaveBeenCalledWith(codes.join('\n'))
    expect(shownToasts().at(-1)).toMatchObject({ type: 'success', message: CODES_COPIED })
    vi.unstubAllGlobals()
    actor.stop()
  })

  it('writes the downloaded file with every code, one a line', () => {
    const text = recoveryCodesText('robin', codes)
    expect(text.split('\n')).toEqual(expect.arrayContaining(codes))
    expect(text).toContain('@robin')
  })
})
