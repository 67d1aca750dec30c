import { describe, expect, it } from 'vitest'
import { createActor, fromCallback, setup, type AnyActorRef, type EventObject } from 'xstate'
import { createApiClient, createSessionBridge } from '../../src/api/client'
import { appMachine, type AppEvent } from '../../src/machines/app/app.machine'
import { apiBridgeLogic } from '../../src/machines/app/app.bridge'
import { selectIsBooting, selectIsSignedIn } from '../../src/machines/app/app.selectors'
import { memberMachine } from '../../src/machines/member/member.machine'
import { realtimeLogic } from '../../src/machines/realtime/realtime.actor'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { showToast } from '../../src/machines/toasts/notify'
import { Calls } from './support/controlled-actors'
import { robin, storedRobin } from './support/fixtures'
import { socketFactory } from './support/fake-socket'
import { installLocalStorage } from './support/memory-storage'
import { appInput, appModel } from './models/app.model'
import { Coverage, settle, walkPaths } from './support/model'

// The root of the SPA's actors (docs/architecture.md, "Actors"). Session, theme and toasts run for the app's whole
// life; the post cache, the notification count and the realtime socket exist exactly while a member is signed in,
// and start afresh for the next one (the composer and the rest that load after the first screen: member.test.ts). The model paths drive the app with the session changes it hears; the tests
// after them run the real session (its calls controlled) through boot, logout and a 401.

installLocalStorage()

/** The realtime actor's life, as the fake socket factory sees it. */
function appWith(options: { watch?: boolean; session?: typeof sessionMachine } = {}) {
  const factory = socketFactory()
  const calls = new Calls()
  const machine = appMachine.provide({
    actors: {
      member: memberMachine.provide({ actors: { realtime: realtimeLogic(factory.open) } }),
      apiBridge: fromCallback<EventObject>(() => () => undefined),
      session:
        options.session ?? sessionMachine.provide({ actors: { checkAuth: calls.actor('checkAuth'), logout: calls.actor('logout') } }),
      ...(options.watch === false ? { watchSession: fromCallback<EventObject>(() => () => undefined) } : {}),
    },
  })
  return { machine, factory, calls }
}

function expectChildren(app: AnyActorRef, signedIn: boolean) {
  const { system } = app
  for (const id of ['session', 'theme', 'toasts']) expect(system.get(id), `${id} always runs`).toBeDefined()
  expect(system.get('posts') !== undefined, 'post cache while signed in').toBe(signedIn)
  expect(system.get('realtime') !== undefined, 'realtime while signed in').toBe(signedIn)
  expect(system.get('notifications') !== undefined, 'the notification count while signed in').toBe(signedIn)
}

const input = appInput
const coverage = new Coverage(appMachine)

describe('app machine', () => {
  const paths = walkPaths(appModel, appModel.walks[0]!)

  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_name, path) => {
    const { machine, factory } = appWith({ watch: false })
    const app = createActor(machine, { input, inspect: coverage.inspector }).start()
    coverage.see(app.getSnapshot())
    expect(app.system.get('theme')?.getSnapshot().context.theme, 'the stored theme').toBe('dark')
    let postsBefore: AnyActorRef | undefined
    for (const step of path.steps) {
      if (step.event.type === 'xstate.init') continue
      postsBefore = app.system.get('posts')
      const socketsBefore = factory.sockets.length
      app.send(step.event as AppEvent)
      await settle()
      const snapshot = app.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      expect(snapshot.context).toEqual(step.state.context)
      const signedIn = selectIsSignedIn(snapshot)
      expectChildren(app, signedIn)
      expect(selectIsBooting(snapshot)).toBe(snapshot.matches('booting'))
      // One socket per signed-in member, with their token; closed once they are gone.
      const open = factory.sockets.filter((s) => !s.disconnected)
      expect(open.map((s) => s.token)).toEqual(signedIn ? [snapshot.context.member?.token] : [])
      if (step.event.type === 'app.session.signedIn' && signedIn && factory.sockets.length > socketsBefore && postsBefore) {
        // Someone else signed in: the last member's post cache is gone, a fresh one started.
        expect(app.system.get('posts')).not.toBe(postsBefore)
      }
    }
    app.stop()
    expect(factory.sockets.every((s) => s.disconnected), 'stopping the app closes every socket').toBe(true)
  })

  it('paths enter every state and take every transition', () => {
    coverage.expectComplete()
  })
})

describe('app with the real session', () => {
  it('boots from a stored token: spinner, then signed in with the post cache and a socket for the member', async () => {
    const { machine, factory, calls } = appWith()
    const app = createActor(machine, { input: { stored: storedRobin, theme: 'light' } }).start()
    expect(selectIsBooting(app.getSnapshot())).toBe(true)
    expectChildren(app, false)
    calls.resolve('checkAuth', robin)
    await settle()
    expect(selectIsSignedIn(app.getSnapshot())).toBe(true)
    expectChildren(app, true)
    expect(factory.last()?.token).toBe('stored-token')
    factory.last()?.fire('connect')
    expect(factory.last()?.emitted).toEqual([{ event: 'authenticate', payload: robin.id }])
    expect(app.getSnapshot().context.realtime).toBe('online')
  })

  it("the socket's ups and downs reach the app: online, reconnecting, refused", async () => {
    const { machine, factory, calls } = appWith()
    const app = createActor(machine, { input: { stored: storedRobin, theme: 'light' } }).start()
    calls.resolve('checkAuth', robin)
    await settle()
    expect(app.getSnapshot().context.realtime).toBe('connecting')
    factory.last()?.fire('connect')
    expect(app.getSnapshot().context.realtime).toBe('online')
    factory.last()?.fire('disconnect', 'transport close')
    expect(app.getSnapshot().context.realtime).toBe('connecting')
    factory.last()?.fire('connect_error', new Error('Authentication required'))
    await settle()
    // Refused: the session is over, so the member actor (and the socket) are gone.
    expect(app.getSnapshot().context).toEqual({ member: null, realtime: 'offline' })
  })

  it('logout stops the signed-in actors and closes the socket, even when the server call fails', async () => {
    const { machine, factory, calls } = appWith()
    const app = createActor(machine, { input: { stored: storedRobin, theme: 'light' } }).start()
    calls.resolve('checkAuth', robin)
    await settle()
    const posts = app.system.get('posts') as AnyActorRef
    app.system.get('session')?.send({ type: 'session.logout' })
    calls.reject('logout', new Error('offline'))
    await settle()
    expect(app.getSnapshot().value).toBe('signedOut')
    expectChildren(app, false)
    expect(posts.getSnapshot().status).toBe('stopped')
    expect(factory.last()?.disconnected).toBe(true)
  })

  it('a refused socket token ends the session: signed out, socket closed', async () => {
    const { machine, factory, calls } = appWith()
    const app = createActor(machine, { input: { stored: storedRobin, theme: 'light' } }).start()
    calls.resolve('checkAuth', robin)
    await settle()
    factory.last()?.fire('connect_error', new Error('Session expired or revoked'))
    await settle()
    expect(app.getSnapshot().value).toBe('signedOut')
    expect(app.system.get('session')?.getSnapshot().context.token).toBeNull()
    expect(factory.last()?.disconnected).toBe(true)
  })

  it('the api client reads the token from the session, and any 401 signs the member out', async () => {
    const bridge = createSessionBridge()
    const { calls } = appWith()
    const machine = appWith().machine.provide({
      actors: {
        apiBridge: apiBridgeLogic(bridge),
        session: sessionMachine.provide({ actors: { checkAuth: calls.actor('checkAuth'), logout: calls.actor('logout') } }),
      },
    })
    const app = createActor(machine, { input: { stored: storedRobin, theme: 'light' } }).start()
    calls.resolve('checkAuth', robin)
    await settle()
    // The app's client, over a fake network that records what was sent and answers 401.
    const sent: Request[] = []
    const client = createApiClient({
      baseUrl: 'http://wren.test/api',
      bridge,
      fetch: async (request) => {
        sent.push(request)
        return new Response(JSON.stringify({ error: 'Session expired or revoked' }), { status: 401 })
      },
    })
    await client.GET('/posts/feed')
    expect(sent[0]?.headers.get('Authorization')).toBe('Bearer stored-token')
    await settle()
    expect(app.getSnapshot().value).toBe('signedOut')
    app.stop()
    await client.GET('/auth/me')
    expect(sent[1]?.headers.get('Authorization'), 'a stopped app sends no token').toBeNull()
  })

  it('a screen actor joins the system while its screen is shown: it can show toasts, and closing stops it', async () => {
    const { machine } = appWith({ watch: false })
    const app = createActor(machine, { input }).start()
    const screen = setup({ actions: { greet: ({ system }) => showToast(system, 'success', 'Hello from a screen') } }).createMachine({
      entry: 'greet',
    })
    app.send({ type: 'app.screen.open', id: 'screen-1', logic: screen })
    const child = app.getSnapshot().children['screen-1'] as AnyActorRef
    expect(child.getSnapshot().status).toBe('active')
    const toasts = app.system.get('toasts')?.getSnapshot().context.toasts
    expect(toasts).toEqual([expect.objectContaining({ type: 'success', message: 'Hello from a screen' })])
    // Opened again under the same id (React's strict mode mounts twice): a fresh actor replaces the first.
    app.send({ type: 'app.screen.open', id: 'screen-1', logic: screen })
    expect(child.getSnapshot().status).toBe('stopped')
    app.send({ type: 'app.screen.close', id: 'screen-1' })
    expect(app.getSnapshot().children['screen-1']).toBeUndefined()
  })

  it('the login screen actor reaches the session: a successful login signs in', async () => {
    const { machine } = appWith()
    const app = createActor(machine, { input }).start()
    await settle()
    expect(app.getSnapshot().value).toBe('signedOut')
    app.system.get('session')?.send({ type: 'session.login.succeeded', auth: { user: robin, token: 'fresh', privateKey: null } })
    await settle()
    expect(app.getSnapshot().value).toBe('signedIn')
    expect(app.getSnapshot().context.member).toEqual({ userId: robin.id, token: 'fresh' })
  })
})
