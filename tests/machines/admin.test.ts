import { expect } from 'vitest'
import { createActor } from 'xstate'
import { adminMachine, type AdminContext } from '../../src/machines/admin/admin.machine'
import {
  type AdminOperation,
  CONFIRM,
  FAILED,
  FIX_ALL_CONFIRM,
  MIGRATE_KEYS_CONFIRM,
  TWO_FACTOR_RESET_CONFIRM,
  USER_ID_REQUIRED,
  USERNAME_REQUIRED,
} from '../../src/machines/admin/admin.rules'
import { selectBusy, selectConfirm, selectRunning, selectUserId, selectUsername } from '../../src/machines/admin/admin.selectors'
import { adminModel, lastAdmin, outcomes } from './models/admin.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The admin operations actor. After each step: the fields, the confirm shown (with its exact words), which operation
// runs (and that nothing else can start meanwhile), every toast, what was sent, the field cleared
// on success, and the audit log asked to reload after every finished operation.

const START: Record<string, AdminOperation> = {
  'admin.fixAll': 'fixAllStats',
  'admin.recalculate': 'recalculate',
  'admin.resetTwoFactor': 'resetTwoFactor',
  'admin.promote': 'promote',
  'admin.demote': 'demote',
  'admin.migrateKeys': 'migrateKeys',
}

describeWalks('admin operations', adminModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const actor = withToasts(createActor(adminMachine.provide({ actors: { perform: calls.actor('perform') } }), { inspect })).start()
  for await (const { event, before, snapshot, toastsBefore, startedBefore } of replay(actor, { calls, context: false })) {
    const was: AdminContext = before.context
    const started = calls.started.slice(startedBefore)
    const toasts = shownToasts().slice(toastsBefore).map((t) => [t.type, t.message])
    expect(selectBusy(snapshot)).toBe(snapshot.matches('running'))
    expect(selectRunning(snapshot)).toBe(snapshot.matches('running') ? snapshot.context.operation : null)
    expect(selectConfirm(snapshot)).toBe(snapshot.matches('confirming') ? CONFIRM[snapshot.context.operation!] : null)

    const operation = START[event.type]
    if (operation) {
      if (before.matches('running') || before.matches('confirming')) {
        // One operation at a time: nothing else starts.
        expect(snapshot).toBe(before)
        expect(started).toEqual([])
      } else if (operation === 'resetTwoFactor') {
        // A member's sign-in is weakened: the admin confirms, and names the member by id first.
        if (was.userId.trim() === '') expect(toasts).toEqual([['error', USER_ID_REQUIRED]])
        else expect(selectConfirm(snapshot)).toBe(TWO_FACTOR_RESET_CONFIRM)
        expect(started).toEqual([])
      } else if (operation === 'fixAllStats' || operation === 'migrateKeys') {
        expect(selectConfirm(snapshot)).toBe(operation === 'fixAllStats' ? FIX_ALL_CONFIRM : MIGRATE_KEYS_CONFIRM)
        expect(started).toEqual([])
      } else {
        const missing = operation === 'recalculate' ? was.userId.trim() === '' : was.username.trim() === ''
        if (missing) {
          expect(toasts).toEqual([['error', operation === 'recalculate' ? USER_ID_REQUIRED : USERNAME_REQUIRED]])
          expect(started).toEqual([])
        } else {
          expect(started).toEqual([{ id: 'perform', input: { operation, userId: was.userId.trim(), username: was.username.trim().replace(/^@/, '') } }])
        }
      }
    }
    if (event.type === 'admin.confirm') expect(started).toEqual([{ id: 'perform', input: { operation: was.operation, userId: was.userId.trim(), username: was.username.trim().replace(/^@/, '') } }])
    if (event.type === 'admin.cancel') expect(started).toEqual([])
    if (event.type === 'xstate.done.actor.perform') {
      const op = was.operation!
      expect(toasts).toEqual([['success', outcomes[op]!.toast]])
      expect(snapshot.context.results[op]).toEqual({ ok: true, text: outcomes[op]!.detail })
      expect(snapshot.context.logVersion).toBe(was.logVersion + 1)
      // The field the operation used is cleared; the other keeps what was typed.
      expect(selectUserId(snapshot)).toBe(op === 'recalculate' || op === 'resetTwoFactor' ? '' : was.userId)
      expect(selectUsername(snapshot)).toBe(op === 'promote' || op === 'demote' ? '' : was.username)
    } else if (event.type === 'xstate.error.actor.perform') {
      const op = was.operation!
      const words = event.error === lastAdmin ? lastAdmin.message : FAILED[op]
      expect(toasts).toEqual([['error', words]])
      expect(snapshot.context.results[op]).toEqual({ ok: false, text: words })
      expect(snapshot.context.logVersion).toBe(was.logVersion + 1)
      expect(selectUserId(snapshot)).toBe(was.userId)
      expect(selectUsername(snapshot)).toBe(was.username)
    } else if (!(operation && toasts.length === 1)) {
      expect(toasts).toEqual([])
    }
  }
  actor.stop()
})

