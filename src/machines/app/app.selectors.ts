import type { SnapshotFrom } from 'xstate'
import type { AppMachine } from './app.machine'

type AppSnapshot = SnapshotFrom<AppMachine>

/** The access gate: a spinner while the stored token is checked, then the signed-in or the signed-out routes. */
export const selectIsBooting = (s: AppSnapshot) => s.hasTag('loading')
/** True only once the signed-in actors (post cache, composer) exist, so signed-in screens can use them. */
export const selectIsSignedIn = (s: AppSnapshot) => s.matches('signedIn')
