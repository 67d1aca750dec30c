import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { css } from 'styled-system/css'
import type { ChangePasswordMachine } from '../../machines/change-password/change-password.machine'
import { CancelSubmit, FormError, TextField } from '../ui/Field'
import { Dialog } from '../ui/Overlay'
import { changePasswordSchema, type ChangePasswordValues } from '../../machines/change-password/change-password.rules'

type PasswordActor = ActorRefFrom<ChangePasswordMachine>

/** The dialog renders the machine: open while it is in `open`, busy while submitting, its error under the form. */
export function ChangePasswordDialog({ actor }: { actor: PasswordActor }) {
  const open = useSelector(actor, (s) => s.hasTag('dialog'))
  return (
    <Dialog
      open={open}
      onClose={() => actor.send({ type: 'password.close' })}
      title="Change Password"
      description="Other devices signed in to your account will be signed out."
    >
      <ChangePasswordForm actor={actor} />
    </Dialog>
  )
}

/** Mounted only while the dialog is open, so every opening starts with empty fields. */
function ChangePasswordForm({ actor }: { actor: PasswordActor }) {
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const error = useSelector(actor, (s) => s.context.error)
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ChangePasswordValues>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  })

  const onSubmit = handleSubmit(({ currentPassword, newPassword }) =>
    actor.send({ type: 'password.submit', currentPassword, newPassword }),
  )

  return (
    <form onSubmit={onSubmit} noValidate className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        data-autofocus
        error={errors.currentPassword?.message}
        {...register('currentPassword')}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        error={errors.newPassword?.message}
        {...register('newPassword')}
      />
      <TextField
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <FormError message={error} />
      <CancelSubmit busy={busy} onCancel={() => actor.send({ type: 'password.close' })} submitLabel="Change password" />
    </form>
  )
}
