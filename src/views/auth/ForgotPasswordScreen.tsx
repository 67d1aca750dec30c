import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { Link } from 'wouter'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { forgotPasswordMachine } from '../../machines/password-reset/forgot-password.machine'
import { forgotSchema, type ForgotValues } from '../../machines/password-reset/password-reset.rules'
import { ScreenActor } from '../actors'
import { FormError, TextField } from '../ui/Field'
import { AuthLayout, AuthSubmit, linkStyle } from './AuthLayout'

/** /forgot-password: a username or email, then the one answer the server gives for every name. */
export function ForgotPasswordScreen() {
  return <ScreenActor logic={forgotPasswordMachine}>{(actor) => <Forgot actor={actor} />}</ScreenActor>
}

const backToLogin = (
  <Link href="/login" className={linkStyle}>
    Back to log in
  </Link>
)

function Forgot({ actor }: { actor: ActorRefFrom<typeof forgotPasswordMachine> }) {
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const sent = useSelector(actor, (s) => (s.matches('sent') ? s.context.message : null))
  const serverError = useSelector(actor, (s) => s.context.error)
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ForgotValues>({ resolver: zodResolver(forgotSchema), defaultValues: { identifier: '' } })

  if (sent !== null) {
    return (
      <AuthLayout title="Check your email" subtitle="The link to choose a new password works once, for one hour." footer={backToLogin}>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          <p role="status">{sent}</p>
          <button type="button" className={button({ variant: 'outline', fullWidth: true })} onClick={() => actor.send({ type: 'forgot.again' })}>
            Send another link
          </button>
        </div>
      </AuthLayout>
    )
  }
  const onSubmit = handleSubmit(({ identifier }) => actor.send({ type: 'forgot.submit', identifier }))
  return (
    <AuthLayout title="Forgot your password?" subtitle="Enter your username or email and we'll mail you a link to choose a new one." footer={backToLogin}>
      <form onSubmit={onSubmit} noValidate className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
        <TextField
          label="Username or email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          error={errors.identifier?.message}
          {...register('identifier')}
        />
        <FormError message={serverError} />
        <AuthSubmit busy={busy} busyLabel="Sending…">Send reset link</AuthSubmit>
      </form>
    </AuthLayout>
  )
}
