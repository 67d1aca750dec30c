import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { selectIsLoggingOut } from '../../machines/session/session.selectors'
import { useSession } from '../actors'
import { useTell } from '../actors'
import { Icon } from '../ui/Icon'
import { Spinner } from '../ui/Spinner'

// The shell's buttons, shared by the sidebar and the phone menu.

export function LogoutButton({ className, compact = false }: { className?: string; compact?: boolean }) {
  const session = useSession()
  const busy = useSelector(session, selectIsLoggingOut)
  return (
    <button
      type="button"
      className={cx(button({ variant: 'ghost', size: compact ? 'icon' : 'md' }), className)}
      onClick={() => session.send({ type: 'session.logout' })}
      disabled={busy}
      aria-label={compact ? 'Log out' : undefined}
      title="Log out"
    >
      {busy ? <Spinner size={18} /> : <Icon name="logout" />}
      {compact ? null : <span className={css({ flex: 1, textAlign: 'left' })}>Log out</span>}
    </button>
  )
}

export function HelpLink({ className, compact = false, onNavigate }: { className?: string; compact?: boolean; onNavigate?: () => void }) {
  return (
    <Link
      href="/?show-help=true"
      className={cx(button({ variant: 'ghost', size: compact ? 'icon' : 'md' }), className)}
      aria-label={compact ? 'Help' : undefined}
      title="Help"
      onClick={onNavigate}
    >
      <Icon name="help" />
      {compact ? null : <span className={css({ flex: 1, textAlign: 'left' })}>Help</span>}
    </Link>
  )
}

/** Opens the Create Post composer (a dialog owned by PostsProvider). */
export function useOpenComposer(): () => void {
  const tell = useTell()
  return () => tell({ to: 'composer', event: { type: 'composer.open' } })
}

export function CreatePostButton({ className }: { className?: string }) {
  const openComposer = useOpenComposer()
  return (
    <button type="button" className={cx(button({ size: 'lg', fullWidth: true }), className)} onClick={openComposer}>
      <Icon name="compose" />
      Create Post
    </button>
  )
}
