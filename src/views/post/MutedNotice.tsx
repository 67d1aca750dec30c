import { css } from 'styled-system/css'
import { Icon } from '../ui/Icon'
import { ShowAnywayNotice } from './ShowAnywayNotice'

/**
 * Hides a muted post's text and media on the post page until 'Show anyway': the server's `muted` says why ('@ann', a
 * keyword, a domain). Mute keeps posts out of feeds; a post opened directly is still reachable behind this notice.
 */
export function MutedNotice({ muted, onShow }: { muted: string; onShow: () => void }) {
  return (
    <ShowAnywayNotice icon={<Icon name="mute" size={20} />} onShow={onShow}>
      <p className={css({ flex: 1, minW: 0, fontWeight: 'semibold', fontSize: 'sm', overflowWrap: 'anywhere' })}>Muted: {muted}</p>
    </ShowAnywayNotice>
  )
}
