import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { css } from 'styled-system/css'
import { loginMachine } from '../../machines/login/login.machine'
import type { ActorRefFrom } from 'xstate'
import { ScreenActor, useSession } from '../actors'
import { CheckboxField, FormError, TextField } from '../ui/Field'
import { AuthLayout, AuthSubmit, linkStyle } from './AuthLayout'
import { SecondFactorForm } from './SecondFactorForm'
import { loginSchema, type LoginValues } from '../../machines/login/login.rules'

export function LoginScreen() {
  const session = useSession()
  return <ScreenActor logic={loginMachine} input={{ session }}>{(login) => <LoginSteps login={login} />}</ScreenActor>
}

/** The password form, or (two-factor sign-in on, the password accepted) the code form. */
function LoginSteps({ login }: { login: ActorRefFrom<typeof loginMachine> }) {
  const secondStep = useSelector(login, (s) => s.matches('secondFactor') || s.matches('verifyingCode'))
  return secondStep ? <SecondFactorForm login={login} /> : <LoginForm login={login} />
}

function LoginForm({ login }: { login: ActorRefFrom<typeof loginMachine> }) {
  const busy = useSelector(login, (s) => s.hasTag('busy'))
  const serverError = useSelector(login, (s) => s.context.error)

  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: '', password: '', remember: false },
  })

  const onSubmit = handleSubmit(({ username, password, remember }) =>
    login.send({ type: 'login.submit', username, password, remember }),
  )

  return (
    <AuthLayout
      title="Welcome back"
      subtitle="Log in to see what your community is talking about."
      footer={
        <>
          New to Wren?{' '}
          <Link href="/register" className={linkStyle}>
            Sign up
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
        <TextField
          label="Username or email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          error={errors.username?.message}
          {...register('username')}
        />
        <TextField label="Password" type="password" autoComplete="current-password" error={errors.password?.message} {...register('password')} />
        <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' })}>
          <CheckboxField label="Remember me" {...register('remember')} />
          <Link href="/forgot-password" className={linkStyle}>
            <span className={css({ fontSize: 'sm' })}>Forgot password?</span>
          </Link>
        </div>
        <FormError message={serverError} />
        <AuthSubmit busy={busy} busyLabel="Logging in…">Log in</AuthSubmit>
      </form>
    </AuthLayout>
  )
}
