import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { css } from 'styled-system/css'
import { registerMachine } from '../../machines/register/register.machine'
import type { ActorRefFrom } from 'xstate'
import { ScreenActor, useSession } from '../actors'
import { CheckboxField, FormError, TextField } from '../ui/Field'
import { AuthLayout, AuthSubmit, linkStyle } from './AuthLayout'
import { REGISTER_HINTS, registerSchema, type RegisterValues } from '../../machines/register/register.rules'

export function RegisterScreen() {
  const session = useSession()
  return <ScreenActor logic={registerMachine} input={{ session }}>{(signUp) => <RegisterForm signUp={signUp} />}</ScreenActor>
}

function RegisterForm({ signUp }: { signUp: ActorRefFrom<typeof registerMachine> }) {
  const busy = useSelector(signUp, (s) => s.hasTag('busy'))
  const serverError = useSelector(signUp, (s) => s.context.error)

  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<RegisterValues>({
    resolver: zodResolver(registerSchema),
    defaultValues: { username: '', email: '', displayName: '', password: '', confirmPassword: '', acceptTerms: false },
  })

  // Only the contract's fields go to the server: it refuses unknown ones (confirmPassword, acceptTerms) with 400.
  const onSubmit = handleSubmit(({ username, email, displayName, password }) =>
    signUp.send({ type: 'register.submit', username, email, displayName, password }),
  )

  return (
    <AuthLayout
      title="Join Wren"
      subtitle="Create an account to post, follow and message your people."
      footer={
        <>
          Already have an account?{' '}
          <Link href="/login" className={linkStyle}>
            Log in
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
        <TextField
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          hint={REGISTER_HINTS.username}
          error={errors.username?.message}
          {...register('username')}
        />
        <TextField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
        <TextField label="Display name" autoComplete="nickname" error={errors.displayName?.message} {...register('displayName')} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={REGISTER_HINTS.password}
          error={errors.password?.message}
          {...register('password')}
        />
        <TextField
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <CheckboxField
          label={
            <>
              I agree to the{' '}
              <a href="/terms" target="_blank" rel="noreferrer" className={linkStyle}>
                Terms of Service
              </a>{' '}
              and{' '}
              <a href="/privacy" target="_blank" rel="noreferrer" className={linkStyle}>
                Privacy Policy
              </a>
            </>
          }
          error={errors.acceptTerms?.message}
          {...register('acceptTerms')}
        />
        <FormError message={serverError} />
        <AuthSubmit busy={busy} busyLabel="Creating account…">Create account</AuthSubmit>
      </form>
    </AuthLayout>
  )
}
