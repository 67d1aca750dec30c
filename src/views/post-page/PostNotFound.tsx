import { Link } from 'wouter'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Icon } from '../ui/Icon'

/** Missing, not visible to the member, or not loaded: all look the same (docs/product.md, "Post page"). */
export function PostNotFound() {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: '3', px: '6', py: '16' })}>
      <span className={css({ display: 'grid', placeItems: 'center', w: '16', h: '16', borderRadius: '2xl', bg: 'bg.subtle', color: 'fg.muted' })}>
        <Icon name="info" size={30} />
      </span>
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>Post not found</h2>
      <p className={css({ color: 'fg.muted', maxW: '360px' })}>This post may have been deleted or you don't have permission to view it</p>
      <Link href="/" className={button({ size: 'md' })}>
        Go to Home
      </Link>
    </div>
  )
}
