import { useState, type FormEvent } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { Link, useSearch } from 'wouter'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { resetPasswordMachine } from '../../machines/password-reset/reset-password.machine'
import { newPasswordSchema, RESET_TEXTS, type NewPasswordValues } from '../../machines/password-reset/password-reset.rules'
import { REGISTER_HINTS } from '../../machines/register/register.rules'
import { ScreenActor } from '../actors'
import { FormError, TextField } from '../ui/Field'
import { Spinner } from '../ui/Spinner'
import { AuthLayout, AuthSubmit, linkStyle } from './AuthLayout'

type ResetActor = ActorRefFrom<typeof resetPasswordMachine>

const stack = css({ display: 'flex', flexDirection: 'column', gap: '4' })
const loginLink = (
  <Link href="/login" className={linkStyle}>
    Back to log in
  </Link>
)

/** /reset-password?token=: the steps of the reset machine, one card each. */
export function ResetPasswordScreen() {
  const token = new URLSearchParams(useSearch()).get('token') ?? ''
  return <ScreenActor logic={resetPasswordMachine} input={{ token }}>{(actor) => <ResetSteps actor={actor} />}</ScreenActor>
}

function ResetSteps({ actor }: { actor: ResetActor }) {
  const step = useSelector(actor, (s) =>
    s.matches('checking')
      ? 'checking'
      : s.matches('invalid')
        ? 'invalid'
        : s.matches('recoveryKey') || s.matches('verifyingKey')
          ? 'recoveryKey'
          : s.matches('confirmingLoss')
            ? 'confirmingLoss'
            : s.matches('done')
              ? 'done'
              : 'password',
  )
  switch (step) {
    case 'checking':
      return (
        <AuthLayout title="Reset your password" subtitle="Checking your link…" footer={loginLink}>
          <p className={css({ display: 'flex', alignItems: 'center', gap: '2', color: 'fg.muted' })}>
            <Spinner size={16} /> Checking the link…
          </p>
        </AuthLayout>
      )
    case 'invalid':
      return <Invalid actor={actor} />
    case 'recoveryKey':
      return <RecoveryKeyStep actor={actor} />
    case 'confirmingLoss':
      return <ConfirmLoss actor={actor} />
    case 'done':
      return (
        <AuthLayout title="Password reset" subtitle="Every device was signed out." footer={null}>
          <div className={stack}>
            <p role="status">Your password is reset. Sign in with the new one.</p>
            <Link href="/login" className={button({ size: 'lg', fullWidth: true })}>
              Log in
            </Link>
          </div>
        </AuthLayout>
      )
    default:
      return <NewPassword actor={actor} />
  }
}

function Invalid({ actor }: { actor: ResetActor }) {
  const error = useSelector(actor, (s) => s.context.error)
  return (
    <AuthLayout title="This link doesn't work" subtitle="Reset links work once, for one hour." footer={loginLink}>
      <div className={stack}>
        <FormError message={error ?? RESET_TEXTS.linkInvalid} />
        <Link href="/forgot-password" className={button({ size: 'lg', fullWidth: true })}>
          Ask for a new link
        </Link>
      </div>
    </AuthLayout>
  )
}

function RecoveryKeyStep({ actor }: { actor: ResetActor }) {
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const error = useSelector(actor, (s) => s.context.error)
  const username = useSelector(actor, (s) => s.context.info?.username ?? '')
  const [recoveryKey, setRecoveryKey] = useState('')
  const [fieldError, setFieldError] = useState<string | undefined>(undefined)
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!recoveryKey.trim()) {
      setFieldError('Enter your recovery key')
      return
    }
    setFieldError(undefined)
    actor.send({ type: 'reset.recovery.submit', recoveryKey })
  }
  return (
    <AuthLayout
      title="Enter your recovery key"
      subtitle={`@${username} has a message recovery key. With it, your direct messages stay readable after the reset.`}
      footer={loginLink}
    >
      <form onSubmit={onSubmit} noValidate className={stack}>
        <TextField
          label="Message recovery key"
          name="recoveryKey"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          autoFocus
          placeholder="ABCD-EFGH-…"
          value={recoveryKey}
          onChange={(event) => setRecoveryKey(event.target.value)}
          error={fieldError}
          hint="28 letters and digits, from the file or note you saved when you made it."
        />
        <FormError message={error} />
        <AuthSubmit busy={busy} busyLabel="Checking…">Continue</AuthSubmit>
        <button type="button" className={button({ variant: 'ghost', fullWidth: true })} disabled={busy} onClick={() => actor.send({ type: 'reset.recovery.skip' })}>
          I don't have it
        </button>
      </form>
    </AuthLayout>
  )
}

function ConfirmLoss({ actor }: { actor: ResetActor }) {
  return (
    <AuthLayout title="Reset without your recovery key?" subtitle="Your password can still be reset." footer={loginLink}>
      <div className={stack}>
        <p role="alert" className={css({ color: 'fg.default' })}>
          {RESET_TEXTS.keyLoss}
        </p>
        <button type="button" className={button({ variant: 'danger', size: 'lg', fullWidth: true })} onClick={() => actor.send({ type: 'reset.loss.confirm' })}>
          Reset without it
        </button>
        <button type="button" className={button({ variant: 'outline', fullWidth: true })} onClick={() => actor.send({ type: 'reset.loss.back' })}>
          Enter the recovery key
        </button>
      </div>
    </AuthLayout>
  )
}

function NewPassword({ actor }: { actor: ResetActor }) {
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const serverError = useSelector(actor, (s) => s.context.error)
  const info = useSelector(actor, (s) => s.context.info)
  const restoring = useSelector(actor, (s) => s.context.recoveryKey !== null)
  const newKeys = info?.publicKey != null && !restoring
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', confirmPassword: '', twoFactorCode: '' },
  })
  const [codeError, setCodeError] = useState<string | undefined>(undefined)
  const onSubmit = handleSubmit(({ password, twoFactorCode }) => {
    if (info?.twoFactorEnabled && !twoFactorCode.trim()) {
      setCodeError(RESET_TEXTS.twoFactorCodeRequired)
      return
    }
    setCodeError(undefined)
    actor.send({ type: 'reset.password.submit', password, twoFactorCode })
  })
  return (
    <AuthLayout title="Choose a new password" subtitle={`For @${info?.username ?? ''}. Every device will be signed out.`} footer={loginLink}>
      <form onSubmit={onSubmit} noValidate className={stack}>
        {restoring ? (
          <p role="status" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            Recovery key accepted: your direct messages stay readable.
          </p>
        ) : newKeys ? (
          <p role="note" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            {RESET_TEXTS.keyLoss}
          </p>
        ) : null}
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          hint={REGISTER_HINTS.password}
          error={errors.password?.message}
          {...register('password')}
        />
        <TextField label="Confirm new password" type="password" autoComplete="new-password" error={errors.confirmPassword?.message} {...register('confirmPassword')} />
        {info?.twoFactorEnabled ? (
          <TextField
            label="Authentication code"
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="123456"
            hint="Two-factor sign-in is on: a code from your app, or a recovery code."
            error={codeError}
            {...register('twoFactorCode')}
          />
        ) : null}
        <FormError message={serverError} />
        <AuthSubmit busy={busy} busyLabel="Resetting…">Reset password</AuthSubmit>
      </form>
    </AuthLayout>
  )
}
