import { useSelector } from '@xstate/react'
import { Link, useSearch } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { verifyEmailMachine } from '../../machines/email/verify-email.machine'
import { AuthLayout, linkStyle } from '../auth/AuthLayout'
import { useScreenActor } from '../actors'
import { Icon } from '../ui/Icon'
import { Spinner } from '../ui/Spinner'

type VerifyActor = ActorRefFrom<typeof verifyEmailMachine>

// /verify-email?token=: the page a mailed link opens, signed in (inside the shell) or out (the sign-in frame).

function useVerifyActor(): VerifyActor | null {
  const token = new URLSearchParams(useSearch()).get('token')
  return useScreenActor(verifyEmailMachine, { token })
}

function useOutcome(actor: VerifyActor | null) {
  return useSelector(actor ?? undefined, (s) => ({
    busy: s?.hasTag('busy') ?? true,
    confirmed: s?.matches('confirmed') ?? false,
    email: s?.context.email ?? null,
    error: s?.context.error ?? null,
    canRetry: s?.can({ type: 'verify.retry' }) ?? false,
  }), (a, b) => a.busy === b.busy && a.confirmed === b.confirmed && a.email === b.email && a.error === b.error && a.canRetry === b.canRetry)
}

/** Signed out: the card of the sign-in pages; the way on is Log in (the button in the card). */
export function VerifyEmailSignedOut() {
  const actor = useVerifyActor()
  const { busy, confirmed } = useOutcome(actor)
  const title = busy ? 'Confirming your email' : confirmed ? 'Email confirmed' : 'This link did not work'
  return (
    <AuthLayout
      title={title}
      subtitle="Email address confirmation"
      footer={
        <>
          New here?{' '}
          <Link href="/register" className={linkStyle}>
            Create an account
          </Link>
        </>
      }
    >
      <Outcome actor={actor} signedIn={false} />
    </AuthLayout>
  )
}

/** Signed in: a page in the centre column; the way on is Home, or Settings to send a new link. */
export function VerifyEmailSignedIn() {
  const actor = useVerifyActor()
  return (
    <section className={css({ px: { base: '4', md: '8' }, py: '10', maxW: '480px', mx: 'auto' })}>
      <Outcome actor={actor} signedIn />
    </section>
  )
}

function Outcome({ actor, signedIn }: { actor: VerifyActor | null; signedIn: boolean }) {
  const { busy, confirmed, email, error, canRetry } = useOutcome(actor)
  if (busy) {
    return (
      <div role="status" className={css({ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: '3', py: '4' })}>
        <Spinner size={20} />
        Confirming your email…
      </div>
    )
  }
  const mark = css({
    display: 'grid',
    placeItems: 'center',
    w: '12',
    h: '12',
    mx: 'auto',
    borderRadius: 'full',
    bg: confirmed ? 'success.subtle' : 'danger.subtle',
    color: confirmed ? 'success.text' : 'danger.text',
  })
  return (
    <div role="status" className={css({ display: 'flex', flexDirection: 'column', gap: '4', textAlign: 'center' })}>
      <span className={mark}>
        <Icon name={confirmed ? 'check' : 'close'} size={24} />
      </span>
      {signedIn ? (
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{confirmed ? 'Email confirmed' : 'This link did not work'}</h1>
      ) : null}
      <p className={css({ color: 'fg.muted' })}>
        {confirmed
          ? `${email ?? 'Your address'} is confirmed. Thank you!`
          : `${(error ?? '').replace(/\.$/, '')}. ${signedIn ? 'You can send yourself a new link from Settings.' : 'Log in to send yourself a new link.'}`}
      </p>
      {canRetry ? (
        <button type="button" className={button({ variant: 'outline' })} onClick={() => actor?.send({ type: 'verify.retry' })}>
          Try again
        </button>
      ) : null}
      {signedIn ? (
        <Link href={confirmed ? '/' : '/settings?tab=account'} className={button()}>
          {confirmed ? 'Go to Home' : 'Open Settings'}
        </Link>
      ) : (
        <Link href="/login" className={button()}>
          Log in
        </Link>
      )}
    </div>
  )
}
