import { Link } from 'wouter'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { LazyDiscoverBox } from '../discover/lazy'
import { Icon } from '../ui/Icon'

// What Home shows instead of posts: placeholders while the first page loads, the error with a retry, the empty feed
// (with people to follow).

const skeletonBar = css({ h: '3', borderRadius: 'full', bg: 'bg.subtle', animation: 'pulse 1.4s ease-in-out infinite' })

export function FeedSkeleton() {
  return (
    <div role="status" aria-label="Loading posts">
      {[0, 1, 2].map((i) => (
        <div key={i} aria-hidden="true" className={css({ display: 'flex', gap: '3', px: '4', py: '4', borderBottomWidth: '1px', borderColor: 'border' })}>
          <span className={css({ w: '11', h: '11', borderRadius: 'full', bg: 'bg.subtle', flexShrink: 0 })} />
          <div className={css({ flex: 1, display: 'flex', flexDirection: 'column', gap: '2.5', pt: '1' })}>
            <span className={skeletonBar} style={{ width: '40%' }} />
            <span className={skeletonBar} style={{ width: '92%' }} />
            <span className={skeletonBar} style={{ width: i === 1 ? '55%' : '75%' }} />
          </div>
        </div>
      ))}
    </div>
  )
}

export function FeedError({ message, onRetry, title = "Couldn't load your feed" }: { message: string | null; onRetry: () => void; title?: string }) {
  return (
    <div role="alert" className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: '3', px: '6', py: '14' })}>
      <span className={css({ display: 'grid', placeItems: 'center', w: '14', h: '14', borderRadius: '2xl', bg: 'danger.subtle', color: 'danger.text' })}>
        <Icon name="alert" size={26} />
      </span>
      <h2 className={css({ fontSize: 'lg', fontWeight: 'bold' })}>{title}</h2>
      <p className={css({ color: 'fg.muted', maxW: '360px' })}>{message ?? 'Something went wrong.'}</p>
      <button type="button" className={button({ variant: 'outline' })} onClick={onRetry}>
        Try again
      </button>
    </div>
  )
}

/**
 * An empty Home: who to follow (Follow buttons that work in place), a way to Explore, and a refresh that reads the
 * feed again once the member has followed someone (docs/product.md, "Home feed").
 */
export function FeedEmpty({ onReload }: { onReload: () => void }) {
  return (
    <div>
      <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: '2', px: '6', pt: '12', pb: '6', color: 'fg.muted' })}>
        <span className={css({ display: 'grid', placeItems: 'center', w: '16', h: '16', borderRadius: '2xl', bg: 'accent.subtle', color: 'accent.text', mb: '2' })}>
          <Icon name="home" size={30} />
        </span>
        <h2 className={css({ fontSize: 'xl', fontWeight: 'bold', color: 'fg.default' })}>No posts yet</h2>
        <p className={css({ maxW: '400px' })}>Follow people to see their posts here. Start with a few suggestions, or see what everyone is posting on Explore.</p>
        <div className={css({ display: 'flex', gap: '2', mt: '3', flexWrap: 'wrap', justifyContent: 'center' })}>
          <Link href="/explore" className={button()}>
            <Icon name="compass" size={18} />
            Explore posts
          </Link>
          <button type="button" className={button({ variant: 'outline' })} onClick={onReload}>
            Refresh Home
          </button>
        </div>
      </div>
      <div className={css({ borderTopWidth: '1px', borderColor: 'border' })}>
        <LazyDiscoverBox show={['suggestions']} />
      </div>
    </div>
  )
}
