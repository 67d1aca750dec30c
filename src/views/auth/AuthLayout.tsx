import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { button, card } from 'styled-system/recipes'
import { Wordmark } from '../ui/Logo'
import { Spinner } from '../ui/Spinner'
import { ThemeToggle } from '../ui/ThemeToggle'

// The signed-out frame: brand, a theme switch, and one card in the middle. On phones the card fills the width.
export function AuthLayout({ title, subtitle, children, footer }: { title: string; subtitle: string; children: ReactNode; footer: ReactNode }) {
  return (
    <div
      className={css({
        minH: '100dvh',
        display: 'flex',
        flexDirection: 'column',
        bg: 'bg.canvas',
        backgroundImage:
          'radial-gradient(1200px 500px at 50% -10%, token(colors.accent.subtle), transparent 70%)',
      })}
    >
      <header className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: { base: '4', md: '8' }, py: '4' })}>
        <Wordmark />
        <ThemeToggle />
      </header>
      <main className={css({ flex: 1, display: 'flex', justifyContent: 'center', alignItems: { base: 'flex-start', md: 'center' }, px: '4', pt: { base: '4', md: '0' }, pb: '12' })}>
        <div className={css({ w: 'full', maxW: '420px' })}>
          <div className={css({ textAlign: 'center', mb: '6' })}>
            <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold', letterSpacing: '-0.02em' })}>{title}</h1>
            <p className={css({ mt: '1.5', color: 'fg.muted' })}>{subtitle}</p>
          </div>
          <div className={card({ padding: 'lg', elevated: true })}>{children}</div>
          <p className={css({ mt: '6', textAlign: 'center', fontSize: 'sm', color: 'fg.muted' })}>{footer}</p>
        </div>
      </main>
    </div>
  )
}

export const linkStyle = css({
  color: 'accent.text',
  fontWeight: 'semibold',
  borderRadius: 'sm',
  _hover: { textDecoration: 'underline' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
})

/** The card's full-width submit button: a spinner and `busyLabel` ('Logging in…') while the form is being sent. */
export function AuthSubmit({ busy, busyLabel, children }: { busy: boolean; busyLabel: string; children: ReactNode }) {
  return (
    <button type="submit" className={button({ size: 'lg', fullWidth: true })} disabled={busy} aria-busy={busy}>
      {busy ? <Spinner size={18} /> : null}
      {busy ? busyLabel : children}
    </button>
  )
}
