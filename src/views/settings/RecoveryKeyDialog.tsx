import { useState, type FormEvent } from 'react'
import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { RecoveryKeyMachine } from '../../machines/password-reset/recovery-key.machine'
import { CheckboxField, FormError, TextField } from '../ui/Field'
import { Dialog } from '../ui/Overlay'
import { Spinner } from '../ui/Spinner'

type RecoveryActor = ActorRefFrom<RecoveryKeyMachine>

const actions = css({ display: 'flex', justifyContent: 'flex-end', flexWrap: 'wrap', gap: '2', mt: '1' })
const stack = css({ display: 'flex', flexDirection: 'column', gap: '4' })

/** Create, replace or remove the message recovery key; the new key is shown once. */
export function RecoveryKeyDialog({ actor, hasKey }: { actor: RecoveryActor; hasKey: boolean }) {
  const open = useSelector(actor, (s) => s.hasTag('dialog'))
  const showing = useSelector(actor, (s) => s.matches({ open: 'showing' }))
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const close = () => {
    if (!busy && !showing) actor.send({ type: 'recovery.close' })
  }
  const [title, description] = showing
    ? ['Save your recovery key', 'It is shown only now. Keep it somewhere safe, apart from your password.']
    : hasKey
      ? ['Message recovery key', 'Make a new key (the old one stops working) or remove it. Both need your password.']
      : [
          'Create a recovery key',
          'If you forget your password, this key keeps your direct messages readable after a reset. Your password unlocks your message key to make it.',
        ]
  return (
    <Dialog open={open} onClose={close} title={title} description={description}>
      {showing ? <ShowKey actor={actor} /> : <AskPassword actor={actor} hasKey={hasKey} />}
    </Dialog>
  )
}

function AskPassword({ actor, hasKey }: { actor: RecoveryActor; hasKey: boolean }) {
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const removing = useSelector(actor, (s) => s.matches({ open: 'removing' }))
  const error = useSelector(actor, (s) => s.context.error)
  const [password, setPassword] = useState('')
  const [fieldError, setFieldError] = useState<string | undefined>(undefined)
  const send = (type: 'recovery.create' | 'recovery.remove') => {
    if (!password) {
      setFieldError('Password is required')
      return
    }
    setFieldError(undefined)
    actor.send({ type, password })
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    send('recovery.create')
  }
  return (
    <form onSubmit={onSubmit} noValidate className={stack}>
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={fieldError}
      />
      <FormError message={error} />
      <div className={actions}>
        {hasKey ? (
          <button type="button" className={button({ variant: 'danger' })} disabled={busy} onClick={() => send('recovery.remove')}>
            {removing ? <Spinner size={16} /> : null}
            Remove
          </button>
        ) : (
          <button type="button" className={button({ variant: 'ghost' })} disabled={busy} onClick={() => actor.send({ type: 'recovery.close' })}>
            Cancel
          </button>
        )}
        <button type="submit" className={button()} disabled={busy} aria-busy={busy}>
          {busy && !removing ? <Spinner size={16} /> : null}
          {hasKey ? 'Replace key' : 'Create key'}
        </button>
      </div>
    </form>
  )
}

function ShowKey({ actor }: { actor: RecoveryActor }) {
  const recoveryKey = useSelector(actor, (s) => s.context.recoveryKey) ?? ''
  const [saved, setSaved] = useState(false)
  return (
    <div className={stack}>
      <code
        data-testid="recovery-key"
        aria-label="Your recovery key"
        className={css({
          display: 'block',
          p: '3',
          borderRadius: 'md',
          bg: 'bg.subtle',
          fontFamily: 'mono',
          fontSize: 'md',
          textAlign: 'center',
          letterSpacing: '0.05em',
          wordBreak: 'break-word',
          userSelect: 'all',
        })}
      >
        {recoveryKey}
      </code>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        Wren never sees this key: nobody can show it to you again. Whoever has it and can open your email could read
        your messages.
      </p>
      <CheckboxField label="I saved my recovery key" checked={saved} onChange={(event) => setSaved(event.target.checked)} />
      <div className={actions}>
        <button type="button" className={button({ variant: 'outline' })} onClick={() => actor.send({ type: 'recovery.download' })}>
          Download .txt
        </button>
        <button type="button" className={button({ variant: 'outline' })} onClick={() => actor.send({ type: 'recovery.copy' })}>
          Copy
        </button>
        <button type="button" className={button()} disabled={!saved} onClick={() => actor.send({ type: 'recovery.saved' })}>
          Done
        </button>
      </div>
    </div>
  )
}
