import { assign, enqueueActions, sendTo, setup, spawnChild, stopChild, type ActorRefFrom, type AnyActorLogic } from 'xstate'
import { keysMachine } from '../keys/keys'
import { memberMachine } from '../member/member.machine'
import type { RealtimeInput, RealtimeStatusEvent } from '../realtime/realtime.actor'
import { sessionMachine } from '../session/session.machine'
import type { StoredSession } from '../session/session.schema'
import { themeMachine, type Theme } from '../theme/theme.machine'
import { toastsMachine } from '../toasts/toasts.machine'
import { apiBridge, watchSession, type SessionChange } from './app.bridge'

// The root of the SPA's actor system (docs/architecture.md, "Actors"). It starts the long-lived actors as children
// with systemIds (src/machines/app/app.system.ts) and follows the session:
// - always: session, theme, toasts, the message keys (src/machines/keys: loaded from the browser's store on sign-in,
//   forgotten on sign-out); the api client bridge (token, 401 -> session.expired);
// - while signed in: the member actor (src/machines/member) with the post cache, the realtime socket (connected with
//   the session's token, closed on logout or any 401) and, once their code is in, the Create Post composer, the share
//   actor and the conversation list. It is stopped on sign-out, so
//   the next member starts clean. A member never changes while signed in: the session signs out (and the app hears
//   it) before anyone else signs in.
// Screen actors (feed, post page, profile, reply box...) join this system from the views (`useScreenActor`) and stop
// with their screen.

export type RealtimeStatus = 'offline' | 'connecting' | 'online'

export interface AppInput {
  /** The session read (and validated) from `auth-storage`. */
  stored: StoredSession
  /** The theme read from `theme-storage`. */
  theme: Theme
}

export interface AppContext {
  /** The signed-in member's id and token, for the realtime socket. */
  member: RealtimeInput | null
  realtime: RealtimeStatus
}

/**
 * A screen's own actor (feed, profile, post page, a form) joins the system as a child of the app while its screen is
 * shown (src/views/actors.tsx, `ScreenActor`), so it reaches the long-lived actors (toasts) and the inspector sees it.
 */
export type ScreenEvent =
  | { type: 'app.screen.open'; id: string; logic: AnyActorLogic; input?: unknown }
  | { type: 'app.screen.close'; id: string }

export type AppEvent = SessionChange | RealtimeStatusEvent | ScreenEvent

/**
 * `spawnChild` for logic known only at run time (each screen brings its own machine): setup's types accept only the
 * actors it names, so this one call is typed by hand. What it returns is an ordinary spawn action.
 */
const spawnScreen = spawnChild as unknown as (logic: AnyActorLogic, options: { id: string; input?: unknown }) => never

type SignedIn = { event: { userId: string; token: string } }

/** The session signed in (at boot or later): the member's actors start, and their message key is read. */
const signIn = {
  target: 'signedIn',
  actions: [
    { type: 'rememberMember', params: ({ event }: SignedIn) => ({ userId: event.userId, token: event.token }) },
    { type: 'loadKeys', params: ({ event }: SignedIn) => event.userId },
  ],
} as const

export const appMachine = setup({
  types: {
    context: {} as AppContext,
    events: {} as AppEvent,
    input: {} as AppInput,
    tags: {} as 'loading',
  },
  actors: {
    session: sessionMachine,
    theme: themeMachine,
    toasts: toastsMachine,
    member: memberMachine,
    keys: keysMachine,
    apiBridge,
    watchSession,
  },
  actions: {
    rememberMember: assign((_, member: RealtimeInput) => ({ member, realtime: 'connecting' as const })),
    forgetMember: assign({ member: null, realtime: 'offline' as const }),
    setRealtime: assign((_, realtime: RealtimeStatus) => ({ realtime })),
    openScreen: enqueueActions(({ enqueue }, { id, logic, input }: { id: string; logic: AnyActorLogic; input?: unknown }) => {
      enqueue.stopChild(id) // the same screen opened again (React's strict mode mounts twice) starts fresh
      enqueue(spawnScreen(logic, { id, input }))
    }),
    closeScreen: stopChild((_, id: string) => id),
    loadKeys: sendTo('keys', (_, userId: string) => ({ type: 'keys.load' as const, userId })),
    forgetKeys: sendTo('keys', { type: 'keys.forget' as const }),
  },
}).createMachine({
  id: 'app',
  context: { member: null, realtime: 'offline' },
  entry: [
    // First, so the session's me-check already carries the stored token.
    spawnChild('apiBridge', { id: 'apiBridge' }),
    spawnChild('session', { id: 'session', systemId: 'session', input: ({ event }) => ({ stored: eventInput(event).stored }) }),
    spawnChild('theme', { id: 'theme', systemId: 'theme', input: ({ event }) => ({ theme: eventInput(event).theme }) }),
    spawnChild('toasts', { id: 'toasts', systemId: 'toasts' }),
    // The message keys: here rather than under the member, since login and register settle them before signing in.
    spawnChild('keys', { id: 'keys', systemId: 'keys' }),
  ],
  invoke: { id: 'watchSession', src: 'watchSession' },
  initial: 'booting',
  on: {
    'app.screen.open': { actions: { type: 'openScreen', params: ({ event }) => event } },
    'app.screen.close': { actions: { type: 'closeScreen', params: ({ event }) => event.id } },
    'app.session.loading': { target: '.booting' },
    // Logout, an expired or revoked session, or no session at boot: the browser forgets the message keys.
    'app.session.signedOut': { target: '.signedOut', actions: 'forgetKeys' },
  },
  states: {
    /** The stored token is being checked: the gate shows a spinner. */
    booting: {
      tags: ['loading'],
      on: { 'app.session.signedIn': signIn },
    },
    signedOut: {
      on: { 'app.session.signedIn': signIn },
    },
    signedIn: {
      // Post cache, realtime socket and the rest, started for this member and stopped together after.
      entry: spawnChild('member', { id: 'member', input: ({ context }) => context.member ?? { userId: '', token: '' } }),
      exit: [stopChild('member'), 'forgetMember'],
      on: {
        'realtime.connected': { actions: { type: 'setRealtime', params: 'online' } },
        'realtime.disconnected': { actions: { type: 'setRealtime', params: 'connecting' } },
        'realtime.refused': { actions: { type: 'setRealtime', params: 'offline' } },
      },
    },
  },
})

/** The app's input, as the root's entry actions see it: on the init event (`{ type: 'xstate.init', input }`). */
function eventInput(event: { type: string }): AppInput {
  const input = (event as { input?: AppInput }).input
  if (!input) throw new Error('The app actor needs its input (stored session and theme)')
  return input
}

export type AppMachine = typeof appMachine
export type AppRef = ActorRefFrom<AppMachine>
