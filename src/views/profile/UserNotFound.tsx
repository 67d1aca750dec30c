import { Link } from 'wouter'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Icon } from '../ui/Icon'

/** A missing member reads 'User not found' with a link home (docs/product.md, "Profiles"). */
export function UserNotFound({ username }: { username: string }) {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: '3', px: '6', py: '20' })}>
      <span className={css({ display: 'grid', placeItems: 'center', w: '16', h: '16', borderRadius: '2xl', bg: 'bg.subtle', color: 'fg.muted' })}>
        <Icon name="user" size={30} />
      </span>
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold', letterSpacing: '-0.01em' })}>User not found</h2>
      <p className={css({ color: 'fg.muted', maxW: '340px' })}>
        There is no member called @{username}. They may have changed their username.
      </p>
      <Link href="/" className={button({ variant: 'outline', size: 'sm' })}>
        <Icon name="home" />
        Go to Home
      </Link>
    </div>
  )
}
