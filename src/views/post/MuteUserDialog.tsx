import type { FormEvent, ReactNode } from 'react'
import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { muteMachine, type MuteRef } from '../../machines/mute/mute.machine'
import {
  selectBusy,
  selectCanConfirm,
  selectConfirmOpen,
  selectIsMuted,
  selectMuting,
  selectReason,
  selectReasonError,
} from '../../machines/mute/mute.selectors'
import { ScreenActor } from '../actors'
import { TextField } from '../ui/Field'
import { Icon } from '../ui/Icon'
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
 * Mute @user for one member: runs a mute actor while shown, hands the control that opens the dialog (a post menu
 * item, a profile button) its actor (`ask` opens the dialog) and renders the dialog. `muted` is what the profile
 * says; the actor then offers Unmute instead.
 */
export function MuteUser({
  userId,
  username,
  muted = false,
  children,
}: {
  userId: string
  username: string
  muted?: boolean
  children: (ask: () => void, actor: MuteRef) => ReactNode
}) {
  return (
    <ScreenActor logic={muteMachine} input={{ userId, muted }}>
      {(actor) => (
        <>
          {children(() => actor.send({ type: 'mute.ask' }), actor)}
          <MuteUserDialog actor={actor} username={username} />
        </>
      )}
    </ScreenActor>
  )
}

/** A profile's round Mute / Unmute button, as the mute actor says. */
export function MuteToggleButton({ actor, username, className }: { actor: MuteRef; username: string; className: string }) {
  const muted = useSelector(actor, selectIsMuted)
  const busy = useSelector(actor, selectBusy)
  const label = muted ? `Unmute @${username}` : `Mute @${username}`
  return (
    <button
      type="button"
      className={className}
      aria-label={label}
      aria-pressed={muted}
      title={muted ? 'Unmute' : 'Mute'}
      disabled={busy}
      onClick={() => actor.send(muted ? { type: 'mute.undo' } : { type: 'mute.ask' })}
    >
      {busy ? <Spinner size={16} /> : <Icon name={muted ? 'unmute' : 'mute'} size={18} />}
    </button>
  )
}
