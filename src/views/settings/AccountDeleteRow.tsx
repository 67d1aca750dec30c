import { useSelector } from '@xstate/react'
import { useState, type FormEvent } from 'react'
import type { ActorRefFrom } from 'xstate'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { accountDeletionMachine } from '../../machines/account-deletion/account-deletion.machine'
import { deletionProblem, WHAT_GOES, WHAT_STAYS } from '../../machines/account-deletion/account-deletion.rules'
import { ScreenActor, useSession } from '../actors'
import { CancelSubmit, FormError, TextField } from '../ui/Field'
import { Dialog } from '../ui/Overlay'
import { SettingsRow } from './SettingsRow'

type DeletionActor = ActorRefFrom<typeof accountDeletionMachine>

/** Settings -> Account -> Delete account: the row, and the dialog its actor drives. */
export function AccountDeleteRow() {
  const session = useSession()
  const username = useSelector(session, (s) => s.context.user?.username ?? '')
  const twoFactorEnabled = useSelector(session, (s) => s.context.user?.twoFactorEnabled ?? false)
  return (
    <ScreenActor logic={accountDeletionMachine} input={{ username, twoFactorEnabled }}>
      {(actor) => (
        <>
          <SettingsRow
            icon="alert"
            title="Delete account"
            text="Remove your account and everything you shared. This cannot be undone."
            action={
              <button type="button" className={button({ variant: 'danger', size: 'sm' })} onClick={() => actor.send({ type: 'deletion.open' })}>
                Delete account
              </button>
            }
          />
          <AccountDeleteDialog actor={actor} />
        </>
      )}
    </ScreenActor>
  )
}

function AccountDeleteDialog({ actor }: { actor: DeletionActor }) {
  const open = useSelector(actor, (s) => s.hasTag('dialog'))
  return (
    <Dialog
      open={open}
      onClose={() => actor.send({ type: 'deletion.close' })}
      title="Delete account"
      description="Your account will be deleted for good. This cannot be undone."
    >
      <AccountDeleteForm actor={actor} />
    </Dialog>
  )
}

/** Mounted only while the dialog is open, so every opening starts with empty fields. */
function AccountDeleteForm({ actor }: { actor: DeletionActor }) {
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const error = useSelector(actor, (s) => s.context.error)
  const username = useSelector(actor, (s) => s.context.username)
  const twoFactorEnabled = useSelector(actor, (s) => s.context.twoFactorEnabled)
  const [fields, setFields] = useState({ password: '', code: '', confirm: '' })
  const [problem, setProblem] = useState<string | null>(null)
  const set = (name: keyof typeof fields) => (event: { target: { value: string } }) =>
    setFields((current) => ({ ...current, [name]: event.target.value }))

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const found = deletionProblem(fields, { username, twoFactorEnabled })
    setProblem(found)
    if (found === null) actor.send({ type: 'deletion.submit', ...fields })
  }

  return (
    <form onSubmit={onSubmit} noValidate className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <div className={css({ fontSize: 'sm', display: 'flex', flexDirection: 'column', gap: '2' })}>
        <p className={css({ fontWeight: 'semibold' })}>What goes</p>
        <ul className={css({ listStyle: 'disc', pl: '5', color: 'fg.muted', display: 'flex', flexDirection: 'column', gap: '1' })}>
          {WHAT_GOES.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <p className={css({ fontWeight: 'semibold', mt: '1' })}>What stays</p>
        <p className={css({ color: 'fg.muted' })}>{WHAT_STAYS}</p>
      </div>
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        data-autofocus
        value={fields.password}
        onChange={set('password')}
      />
      {twoFactorEnabled ? (
        <TextField
          label="Code from your authenticator app"
          hint="Or one of your recovery codes"
          autoComplete="one-time-code"
          inputMode="text"
          value={fields.code}
          onChange={set('code')}
        />
      ) : null}
      <TextField
        label={`Type your username (${username}) to confirm`}
        autoComplete="off"
        spellCheck={false}
        value={fields.confirm}
        onChange={set('confirm')}
      />
      <FormError message={problem ?? error} />
      <CancelSubmit busy={busy} onCancel={() => actor.send({ type: 'deletion.close' })} submitLabel="Delete my account" danger />
    </form>
  )
}
