import type { SnapshotFrom } from 'xstate'
import type { SessionMachine } from './session.machine'
import { isAdmin } from './session.rules'

// Narrow reads for views (one useSelector each), so a screen re-renders only when its piece changes.
type SessionSnapshot = SnapshotFrom<SessionMachine>

export const selectIsLoading = (s: SessionSnapshot) => s.hasTag('loading')
export const selectIsLoggingOut = (s: SessionSnapshot) => s.hasTag('busy')
export const selectUser = (s: SessionSnapshot) => s.context.user
export const selectUserId = (s: SessionSnapshot) => s.context.user?.id ?? null
/** Settings -> Privacy & Safety -> Show sensitive content (off until the server says otherwise). */
export const selectShowsSensitive = (s: SessionSnapshot) => s.context.user?.contentSettings?.showSensitiveContent === true
/** Whether the Admin entry and the Admin Panel are offered (session.rules.ts). */
export const selectIsAdmin = (s: SessionSnapshot) => isAdmin(s.context.user)
