import { css } from 'styled-system/css'
import { Icon, type IconName } from '../../ui/Icon'
import { Dialog } from '../../ui/Overlay'

// The props every Settings dialog of the page's own takes (src/views/settings/dialogs/*): it is rendered only while
// open, and asks to close through `onClose` (Escape, the backdrop, its close button). A dialog built by its own issue
// replaces its placeholder file here and keeps this shape.
export interface SettingsDialogProps {
  onClose: () => void
}

/** A dialog whose content is designed but not built yet: it opens, says what is coming, and closes. */
export function ComingDialog({
  title,
  icon,
  children,
  onClose,
}: SettingsDialogProps & { title: string; icon: IconName; children: string }) {
  return (
    <Dialog open onClose={onClose} title={title} size="lg">
      <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: '3', py: '8', color: 'fg.muted' })}>
        <span className={css({ display: 'grid', placeItems: 'center', w: '14', h: '14', borderRadius: '2xl', bg: 'accent.subtle', color: 'accent.text' })}>
          <Icon name={icon} size={28} />
        </span>
        <p className={css({ maxW: '360px', fontSize: 'md', lineHeight: '1.6' })}>{children}</p>
        <span className={css({ px: '3', py: '1', borderRadius: 'full', bg: 'bg.subtle', fontSize: 'xs', fontWeight: 'semibold', textTransform: 'uppercase', letterSpacing: '0.06em' })}>
          Coming soon
        </span>
      </div>
    </Dialog>
  )
}
