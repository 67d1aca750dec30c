import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Icon } from '../ui/Icon'

/**
 * Hides a muted post's text and media on the post page until 'Show anyway': the server's `muted` says why ('@ann', a
 * keyword, a domain). Mute keeps posts out of feeds; a post opened directly is still reachable behind this notice.
 */
export function MutedNotice({ muted, onShow }: { muted: string; onShow: () => void }) {
  return (
    <div
      className={css({
        display: 'flex',
        alignItems: 'center',
        gap: '3',
        mt: '1.5',
        px: '3.5',
        py: '3',
        borderRadius: 'xl',
        bg: 'bg.subtle',
        borderWidth: '1px',
        borderColor: 'border',
      })}
    >
      <span className={css({ color: 'fg.muted', display: 'inline-flex', flexShrink: 0 })}>
        <Icon name="mute" size={20} />
      </span>
      <p className={css({ flex: 1, minW: 0, fontWeight: 'semibold', fontSize: 'sm', overflowWrap: 'anywhere' })}>Muted: {muted}</p>
      <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={onShow}>
        Show anyway
      </button>
    </div>
  )
}
