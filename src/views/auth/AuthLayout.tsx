import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { card } from 'styled-system/recipes'
import { Wordmark } from '../ui/Logo'
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
