import { useState, type FormEvent } from 'react'
import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { TwoFactorMachine } from '../../machines/two-factor/two-factor.machine'
import { fieldProblems, type CodeAndPasswordFields } from '../../machines/two-factor/two-factor.rules'
import { FormError, TextField } from '../ui/Field'
import { Dialog } from '../ui/Overlay'
import { QrCode } from '../ui/QrCode'
import { Spinner } from '../ui/Spinner'

type TwoFactorActor = ActorRefFrom<TwoFactorMachine>

const actions = css({ display: 'flex', justifyContent: 'flex-end', flexWrap: 'wrap', gap: '2', mt: '1' })
const stack = css({ display: 'flex', flexDirection: 'column', gap: '4' })

/** The dialog renders the machine: which step, busy or not, and the server's words under the form. */
export function TwoFactorDialog({ actor }: { actor: TwoFactorActor }) {
  const open = useSelector(actor, (s) => s.hasTag('dialog'))
  const step = useSelector(actor, (s) =>
    s.matches({ open: 'showingCodes' })
      ? 'codes'
      : s.matches({ open: 'manage' }) || s.matches({ open: 'disabling' }) || s.matches({ open: 'regenerating' })
        ? 'manage'
        : 'setup',
  )
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const close = () => {
    if (!busy) actor.send({ type: 'twoFactor.close' })
  }
  const titles = {
    setup: ['Enable two-factor sign-in', 'Scan the QR code with an authenticator app, then enter the code it shows.'],
    manage: ['Two-factor sign-in is on', 'Turn it off or make new recovery codes: both need your password and a code.'],
    codes: ['Save your recovery codes', 'Each code signs you in once without your app. They are shown only now.'],
  } as const
  const [title, description] = titles[step]
  return (
    <Dialog open={open} onClose={close} title={title} description={description}>
      {step === 'codes' ? <RecoveryCodes actor={actor} /> : step === 'manage' ? <Manage actor={actor} /> : <SetUp actor={actor} />}
    </Dialog>
  )
}

function useCodeAndPassword() {
  const [fields, setFields] = useState<CodeAndPasswordFields>({ code: '', password: '' })
  const [problems, setProblems] = useState<{ code?: string; password?: string }>({})
  /** The fields when they pass the rules; otherwise shows why and answers null. */
  const checked = (): CodeAndPasswordFields | null => {
    const found = fieldProblems(fields)
    setProblems(found)
    return Object.keys(found).length === 0 ? fields : null
  }
  const inputs = (
    <>
      <TextField
        label="Authentication code"
        name="code"
        autoComplete="one-time-code"
        autoCapitalize="none"
        spellCheck={false}
        placeholder="123456"
        value={fields.code}
        onChange={(event) => setFields({ ...fields, code: event.target.value })}
        error={problems.code}
      />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        value={fields.password}
        onChange={(event) => setFields({ ...fields, password: event.target.value })}
        error={problems.password}
      />
    </>
  )
  return { checked, inputs }
}

function SetUp({ actor }: { actor: TwoFactorActor }) {
  const setup = useSelector(actor, (s) => s.context.setup)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const error = useSelector(actor, (s) => s.context.error)
  const { checked, inputs } = useCodeAndPassword()
  if (!setup) {
    return (
      <p className={css({ display: 'flex', alignItems: 'center', gap: '2', color: 'fg.muted' })}>
        <Spinner size={16} /> Making your secret…
      </p>
    )
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const fields = checked()
    if (fields) actor.send({ type: 'twoFactor.enable', ...fields })
  }
  return (
    <form onSubmit={onSubmit} noValidate className={stack}>
      <div className={css({ display: 'flex', flexDirection: { base: 'column', sm: 'row' }, alignItems: 'center', gap: '4' })}>
        <QrCode text={setup.uri} label="QR code of your two-factor secret" size={160} />
        <div className={css({ minW: 0 })}>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>Can’t scan it? Type this key into the app:</p>
          <code
            data-testid="two-factor-secret"
            className={css({
              display: 'block',
              mt: '1',
              p: '2',
              borderRadius: 'md',
              bg: 'bg.subtle',
              fontFamily: 'mono',
              fontSize: 'sm',
              wordSpacing: '0.25em',
              userSelect: 'all',
            })}
          >
            {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
          </code>
        </div>
      </div>
      {inputs}
      <FormError message={error} />
      <div className={actions}>
        <button type="button" className={button({ variant: 'ghost' })} onClick={() => actor.send({ type: 'twoFactor.close' })} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className={button()} disabled={busy} aria-busy={busy}>
          {busy ? <Spinner size={16} /> : null}
          Enable
        </button>
      </div>
    </form>
  )
}

function Manage({ actor }: { actor: TwoFactorActor }) {
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const error = useSelector(actor, (s) => s.context.error)
  const { checked, inputs } = useCodeAndPassword()
  const send = (type: 'twoFactor.disable' | 'twoFactor.regenerate') => {
    const fields = checked()
    if (fields) actor.send({ type, ...fields })
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault()
        send('twoFactor.regenerate')
      }}
      noValidate
      className={stack}
    >
      {inputs}
      <FormError message={error} />
      <div className={actions}>
        <button type="button" className={button({ variant: 'danger' })} onClick={() => send('twoFactor.disable')} disabled={busy}>
          Turn off
        </button>
        <button type="submit" className={button({ variant: 'outline' })} disabled={busy} aria-busy={busy}>
          {busy ? <Spinner size={16} /> : null}
          New recovery codes
        </button>
      </div>
    </form>
  )
}

function RecoveryCodes({ actor }: { actor: TwoFactorActor }) {
  const codes = useSelector(actor, (s) => s.context.recoveryCodes) ?? []
  return (
    <div className={stack}>
      <ul
        aria-label="Recovery codes"
        className={css({
          display: 'grid',
          gridTemplateColumns: 'repeat(2, 1fr)',
          gap: '2',
          p: '3',
          borderRadius: 'md',
          bg: 'bg.subtle',
          fontFamily: 'mono',
          fontSize: 'sm',
          textAlign: 'center',
        })}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className={actions}>
        <button type="button" className={button({ variant: 'outline' })} onClick={() => actor.send({ type: 'twoFactor.download' })}>
          Download
        </button>
        <button type="button" className={button({ variant: 'outline' })} onClick={() => actor.send({ type: 'twoFactor.copy' })}>
          Copy
        </button>
        <button type="button" className={button()} onClick={() => actor.send({ type: 'twoFactor.close' })}>
          Done
        </button>
      </div>
    </div>
  )
}
