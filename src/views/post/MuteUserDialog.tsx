import type { FormEvent, ReactNode } from 'react'
import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { muteMachine, type MuteRef } from '../../machines/mute/mute.machine'
import { selectCanConfirm, selectConfirmOpen, selectMuting, selectReason, selectReasonError } from '../../machines/mute/mute.selectors'
import { ScreenActor } from '../actors'
import { TextField } from '../ui/Field'
import { Dialog } from '../ui/Overlay'
import { Spinner } from '../ui/Spinner'

/** The small confirm before muting, with the optional reason, shown while the mute actor asks and mutes. */
export function MuteUserDialog({ actor, username }: { actor: MuteRef; username: string }) {
  const open = useSelector(actor, selectConfirmOpen)
  const muting = useSelector(actor, selectMuting)
  const reason = useSelector(actor, selectReason)
  const reasonError = useSelector(actor, selectReasonError)
  const canConfirm = useSelector(actor, selectCanConfirm)
  const cancel = () => actor.send({ type: 'mute.cancel' })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (canConfirm) actor.send({ type: 'mute.confirm' })
  }
  return (
    <Dialog
      open={open}
      onClose={cancel}
      title={`Mute @${username}?`}
      description="Their posts leave your Home feed. They are not told, and you can unmute them from Settings -> Mutes."
    >
      <form onSubmit={submit} noValidate className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
        <TextField
          label="Reason (optional)"
          value={reason}
          error={reasonError ?? undefined}
          hint="Only you see it, in Mute Management."
          onChange={(event) => actor.send({ type: 'mute.reason.input', value: event.target.value })}
          data-autofocus
        />
        <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2' })}>
          <button type="button" className={button({ variant: 'outline' })} onClick={cancel} disabled={muting}>
            Cancel
          </button>
          <button type="submit" className={button()} disabled={!canConfirm} aria-busy={muting}>
            {muting ? <Spinner size={16} /> : null}
            Mute
          </button>
        </div>
      </form>
    </Dialog>
  )
}

/**
 * Mute @user for one member: runs a mute actor while shown, hands `ask` to the control that opens the dialog (a post
 * menu item, a profile button) and renders the dialog.
 */
export function MuteUser({ userId, username, children }: { userId: string; username: string; children: (ask: () => void) => ReactNode }) {
  return (
    <ScreenActor logic={muteMachine} input={{ userId }}>
      {(actor) => (
        <>
          {children(() => actor.send({ type: 'mute.ask' }))}
          <MuteUserDialog actor={actor} username={username} />
        </>
      )}
    </ScreenActor>
  )
}
