import type { ActorRef, Snapshot } from 'xstate'
import type { SessionEvent } from './session.machine'

/** What the login/register machines need from the session actor: somewhere to send their success. */
export type SessionRef = ActorRef<Snapshot<unknown>, SessionEvent>
