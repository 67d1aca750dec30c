import type { ErrorActorEvent } from 'xstate'
import { serverMessageOr } from '../../api/errors'

// A settings dialog whose work was refused (Change password, Delete account) says why twice in the same words: under
// the form (`setError`) and in an error toast (`notifyFailure`), the server's words, else the dialog's own default.
// The machine supplies both actions.

type Refused = { event: ErrorActorEvent }

/** The actions of a refusal, for the `onError` of the dialog's work. */
export const sayRefused = (fallback: string) =>
  [
    { type: 'setError', params: ({ event }: Refused) => serverMessageOr(event.error, fallback) },
    { type: 'notifyFailure', params: ({ event }: Refused) => serverMessageOr(event.error, fallback) },
  ] as const
