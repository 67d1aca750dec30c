import { useState, type FormEvent } from 'react'
import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { css } from 'styled-system/css'
import type { loginMachine } from '../../machines/login/login.machine'
import { CODE_REQUIRED, isSecondFactorCode } from '../../machines/login/login.rules'
import { FormError, TextField } from '../ui/Field'
import { AuthLayout, AuthSubmit, linkStyle } from './AuthLayout'

/** The second step of a sign-in with two-factor on: a code of the app, or a recovery code, in one field. */
export function SecondFactorForm({ login }: { login: ActorRefFrom<typeof loginMachine> }) {
  const busy = useSelector(login, (s) => s.hasTag('busy'))
  const serverError = useSelector(login, (s) => s.context.error)
  const [code, setCode] = useState('')
  const [fieldError, setFieldError] = useState<string | undefined>(undefined)

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!isSecondFactorCode(code)) {
      setFieldError(CODE_REQUIRED)
      return
    }
    setFieldError(undefined)
    login.send({ type: 'login.code', code })
  }

  return (
    <AuthLayout
      title="Two-factor sign-in"
      subtitle="Enter the 6-digit code from your authenticator app, or one of your recovery codes."
      footer={
        <button type="button" className={linkStyle} onClick={() => login.send({ type: 'login.back' })} disabled={busy}>
          Back to log in
        </button>
      }
    >
      <form onSubmit={onSubmit} noValidate className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
        <TextField
          label="Authentication code"
          name="code"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          placeholder="123456"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          error={fieldError}
          hint="Lost your phone? A recovery code (xxxxx-xxxxx) works here too, once."
        />
        <FormError message={serverError} />
        <AuthSubmit busy={busy} busyLabel="Checking…">Verify</AuthSubmit>
      </form>
    </AuthLayout>
  )
}
