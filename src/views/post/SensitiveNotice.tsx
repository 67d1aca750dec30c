import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { PostIcon } from './icons'

/** Hides a sensitive post's text and media until 'Show anyway' (docs/product.md, "Sensitive posts"). */
export function SensitiveNotice({ reason, onShow }: { reason: string | null; onShow: () => void }) {
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
        <PostIcon name="warning" size={20} />
      </span>
      <div className={css({ flex: 1, minW: 0 })}>
        <p className={css({ fontWeight: 'semibold', fontSize: 'sm' })}>Sensitive content</p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted', overflowWrap: 'anywhere' })}>
          {reason ? reason : 'The author marked this post as sensitive.'}
        </p>
      </div>
      <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={onShow}>
        Show anyway
      </button>
    </div>
  )
}
