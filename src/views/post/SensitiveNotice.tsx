import { css } from 'styled-system/css'
import { PostIcon } from './icons'
import { ShowAnywayNotice } from './ShowAnywayNotice'

/** Hides a sensitive post's text and media until 'Show anyway' (docs/product.md, "Sensitive posts"). */
export function SensitiveNotice({ reason, onShow }: { reason: string | null; onShow: () => void }) {
  return (
    <ShowAnywayNotice icon={<PostIcon name="warning" size={20} />} onShow={onShow}>
      <div className={css({ flex: 1, minW: 0 })}>
        <p className={css({ fontWeight: 'semibold', fontSize: 'sm' })}>Sensitive content</p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted', overflowWrap: 'anywhere' })}>
          {reason ? reason : 'The author marked this post as sensitive.'}
        </p>
      </div>
    </ShowAnywayNotice>
  )
}
