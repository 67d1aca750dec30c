import { describe, expect, it } from 'vitest'
import { createActor, fromCallback, type AnyActorRef, type EventObject } from 'xstate'
import { actorTree, createInspectionStore, redact, testPath } from '../../src/devtools/inspection.store'
import { appMachine } from '../../src/machines/app/app.machine'
import { memberMachine } from '../../src/machines/member/member.machine'
import { realtimeLogic } from '../../src/machines/realtime/realtime.actor'
import { socketFactory } from './support/fake-socket'
import { storedRobin } from './support/fixtures'
import { installLocalStorage } from './support/memory-storage'
import { settle } from './support/model'

// The development inspector (Alt+Shift+I) over the app's real actor system: the tree of actors with their systemIds,
// each actor's context with secrets masked, and "copy as test path".

installLocalStorage()

function inspectedApp() {
  const { store, inspect } = createInspectionStore(() => 0)
  const factory = socketFactory()
  const machine = appMachine.provide({
    actors: {
      member: memberMachine.provide({ actors: { realtime: realtimeLogic(factory.open) } }),
      apiBridge: fromCallback<EventObject>(() => () => undefined),
    },
  })
  // A signed-in member whose me-check is still running: booting, session checking.
  const app = createActor(machine, { input: { stored: storedRobin, theme: 'light' }, inspect }).start()
  return { app, store }
}

describe('inspector', () => {
  it('shows the system as a tree: the app, its children with their systemIds, screens under the app', async () => {
    const { app, store } = inspectedApp()
    app.send({ type: 'app.session.signedIn', userId: 'u1', token: 't1' })
    await settle()
    const rows = actorTree(store.getSnapshot().context.actors)
      .filter((row) => row.actor.status === 'active')
      .map(({ actor, depth }) => `${'  '.repeat(depth)}${actor.systemId ?? actor.machineId ?? actor.id}`)
    expect(rows[0]).toBe('app')
    for (const child of ['  session', '  theme', '  toasts', '  member', '    posts', '    notifications', '    realtime']) {
      expect(rows).toContain(child)
    }
    const member = rows.indexOf('  member')
    expect(rows.indexOf('    posts')).toBeGreaterThan(member)
    app.stop()
  })

  it("shows each actor's context with the token and keys masked", async () => {
    const { app, store } = inspectedApp()
    await settle()
    const session = Object.values(store.getSnapshot().context.actors).find((a) => a.systemId === 'session')
    expect(session?.context).toContain('"username": "robin"')
    expect(session?.context).toContain('"token": "•••"')
    expect(session?.context).toContain('"privateKey": "•••"')
    expect(session?.context).not.toContain('stored-token')
    app.stop()
  })

  it('copies the events an actor received since it started as a model-test path', async () => {
    const { app, store } = inspectedApp()
    const toasts = app.system.get('toasts') as AnyActorRef
    toasts.send({ type: 'toast.add', kind: 'success', message: 'Saved' })
    toasts.send({ type: 'toast.dismiss', id: 'toast-1' })
    await settle()
    const actor = Object.values(store.getSnapshot().context.actors).find((a) => a.systemId === 'toasts')
    expect(actor).toBeDefined()
    expect(testPath(actor!)).toBe(
      [
        '// toasts: 2 events since it started, ending in "active"',
        'const path = [',
        '  { type: "toast.add", ...{"kind":"success","message":"Saved"} },',
        '  { type: "toast.dismiss", ...{"id":"toast-1"} },',
        ']',
      ].join('\n'),
    )
    app.stop()
  })

  it('names actors, machines and cycles instead of walking them, and masks secrets at any depth', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' }
    cyclic.self = cyclic
    expect(redact({ auth: { token: 'abc', user: { password: 'x', name: 'Robin' } }, cyclic, logic: memberMachine })).toEqual({
      auth: { token: '•••', user: { password: '•••', name: 'Robin' } },
      cyclic: { name: 'loop', self: '[circular]' },
      logic: '[logic member]',
    })
  })
})
