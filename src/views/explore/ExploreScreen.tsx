import { Link } from 'wouter'
import { css } from 'styled-system/css'
import { feedMachine } from '../../machines/feed/feed.machine'
import { ScreenActor, usePosts } from '../actors'
import { FeedTimeline } from '../home/FeedTimeline'
import { Icon } from '../ui/Icon'
import { PageHeader } from '../ui/PageHeader'

// /explore (docs/product.md, "Explore"): the community timeline, every public top-level post of the instance's
// public accounts, newest first, in the home feed's cards and endless scrolling (the feed actor reading
// GET /posts/explore). Trending Now and Who to Follow stand beside it in the shell's right column on wide screens
// (shell/RightRail.tsx).

const EXPLORE = { kind: 'explore' } as const

export function ExploreScreen() {
  const posts = usePosts()
  return (
    <>
      <PageHeader title="Explore" subtitle="Public posts from everyone here" />
      <ScreenActor logic={feedMachine} input={{ posts, source: EXPLORE }}>
        {(feed) => <FeedTimeline feed={feed} label="Explore" errorTitle="Couldn't load Explore" empty={<ExploreEmpty />} />}
      </ScreenActor>
    </>
  )
}

function ExploreEmpty() {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: '2', px: '6', py: '16', color: 'fg.muted' })}>
      <span className={css({ display: 'grid', placeItems: 'center', w: '16', h: '16', borderRadius: '2xl', bg: 'accent.subtle', color: 'accent.text', mb: '2' })}>
        <Icon name="compass" size={30} />
      </span>
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold', color: 'fg.default' })}>Nothing here yet</h2>
      <p>Public posts from everyone on this server show here.</p>
      <Link href="/search" className={css({ mt: '2', fontWeight: 'semibold', color: 'accent.text', _hover: { textDecoration: 'underline' } })}>
        Search for people and topics
      </Link>
    </div>
  )
}
