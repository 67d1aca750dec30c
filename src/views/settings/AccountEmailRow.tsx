import { zodResolver } from '@hookform/resolvers/zod'
import { useSelector } from '@xstate/react'
import { useForm } from 'react-hook-form'
import type { ActorRefFrom } from 'xstate'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { emailMachine } from '../../machines/email/email.machine'
import { changeEmailSchema } from '../../machines/email/email.form'
import type { ChangeEmailFields } from '../../machines/email/email.rules'
import { useScreenActor, useSession } from '../actors'
import { CancelSubmit, FormError, TextField } from '../ui/Field'
import { Dialog } from '../ui/Overlay'
import { Spinner } from '../ui/Spinner'
import { SettingsRow } from './SettingsRow'

type EmailActor = ActorRefFrom<typeof emailMachine>

const actions = css({ display: 'flex', flexWrap: 'wrap', gap: '2' })
const note = css({ display: 'block', mt: '0.5' })
const warning = css({ color: 'fg.default', fontWeight: 'semibold' })

/** Settings -> Account: the address, whether it is confirmed, a pending change, Resend link and Change email. */
export function AccountEmailRow() {
  const user = useSelector(useSession(), (s) => s.context.user)
  const actor = useScreenActor(emailMachine)
  const resending = useSelector(actor ?? undefined, (s) => s?.hasTag('resending') ?? false)
  const email = user?.email ?? ''
  const unconfirmed = user?.emailVerified === false
  const pending = user?.pendingEmail ?? null
  return (
    <SettingsRow
      icon="mail"
      title="Email"
      text={
        <>
          <span data-testid="account-email">{email}</span>
          {unconfirmed ? <span className={note}><span className={warning}>Not confirmed.</span> Open the link we sent to confirm it.</span> : null}
          {pending ? (
            <span className={note}>
              Changing to <strong>{pending}</strong>: open the link we sent there to finish.
            </span>
          ) : null}
        </>
      }
      action={
        <div className={actions}>
          {unconfirmed || pending ? (
            <button
              type="button"
              className={button({ variant: 'ghost', size: 'sm' })}
              disabled={!actor || resending}
              aria-busy={resending}
              onClick={() => actor?.send({ type: 'email.resend' })}
            >
              {resending ? <Spinner size={14} /> : null}
              Resend link
            </button>
          ) : null}
          <button type="button" className={button({ variant: 'outline', size: 'sm' })} disabled={!actor} onClick={() => actor?.send({ type: 'email.change.open' })}>
            Change email
          </button>
          {actor ? <ChangeEmailDialog actor={actor} current={email} /> : null}
        </div>
      }
    />
  )
}

export function ChangeEmailDialog({ actor, current }: { actor: EmailActor; current: string }) {
  const open = useSelector(actor, (s) => s.hasTag('dialog'))
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  return (
    <Dialog
      open={open}
      onClose={() => {
        if (!busy) actor.send({ type: 'email.change.close' })
      }}
      title="Change email"
      description={`We will send a link to the new address; ${current} stays your email until it is opened.`}
    >
      <ChangeEmailForm actor={actor} />
    </Dialog>
  )
}

/** Mounted only while the dialog is open, so every opening starts with empty fields. */
function ChangeEmailForm({ actor }: { actor: EmailActor }) {
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const error = useSelector(actor, (s) => s.context.error)
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ChangeEmailFields>({ resolver: zodResolver(changeEmailSchema), defaultValues: { newEmail: '', password: '' } })
  const onSubmit = handleSubmit(({ newEmail, password }) => actor.send({ type: 'email.change.submit', newEmail, password }))
  return (
    <form onSubmit={onSubmit} noValidate className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <TextField label="New email" type="email" autoComplete="email" data-autofocus error={errors.newEmail?.message} {...register('newEmail')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        hint="Your password confirms it is you."
        error={errors.password?.message}
        {...register('password')}
      />
      <FormError message={error} />
      <CancelSubmit busy={busy} onCancel={() => actor.send({ type: 'email.change.close' })} submitLabel="Send link" />
    </form>
  )
}
