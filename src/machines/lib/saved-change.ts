import { serverMessageOr } from '../../api/errors'
import { showToast } from '../toasts/notify'

// A dialog that saves one change at a time (Manage Lists, Bookmarks) keeps it in its context as `change` from the
// click until the server answers, and says how it went by the change's kind: that kind's success toast, or an error
// toast with the server's words (a name taken, a list gone), else that kind's own default. A refused form shows the
// same words under it.

type ToastSystem = Parameters<typeof showToast>[0]

/** What each kind of change says: once saved, and when refused without the server's words. */
export interface ChangeTexts<TKind extends string> {
  saved: Record<TKind, string>
  refused: Record<TKind, string>
}

interface ActionArgs<TChange> {
  context: { change: TChange | null }
  system: ToastSystem
}

/** The dialog's `notifySaved` and `notifyRefused` actions, and `refusal` for what a refused form says. */
export function changeNotices<TChange extends { kind: string }>(texts: ChangeTexts<TChange['kind']>) {
  /** Why a change of this kind was refused: the server's words, else the kind's default. */
  const refusal = (kind: TChange['kind'], error: unknown) => serverMessageOr(error, texts.refused[kind])
  return {
    refusal,
    notifySaved: ({ context, system }: ActionArgs<TChange>) => {
      if (context.change) showToast(system, 'success', texts.saved[context.change.kind as TChange['kind']])
    },
    notifyRefused: ({ context, system }: ActionArgs<TChange>, error: unknown) => {
      if (context.change) showToast(system, 'error', refusal(context.change.kind, error))
    },
  }
}
