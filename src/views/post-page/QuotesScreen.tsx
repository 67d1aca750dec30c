import { useMemo } from 'react'
import { useLocation, useParams } from 'wouter'
import { css } from 'styled-system/css'
import { feedMachine } from '../../machines/feed/feed.machine'
import { ScreenActor, usePosts } from '../actors'
import { FeedTimeline } from '../home/FeedTimeline'
import { PageHeader } from '../ui/PageHeader'

// /post/:postId/quotes (docs/product.md, "Quotes"): the posts quoting a post that the member may see, newest first,
// in the home feed's cards and endless scrolling (the feed actor reading GET /posts/{id}/quotes).

export function QuotesScreen() {
  const { postId = '' } = useParams<{ postId: string }>()
  const [, navigate] = useLocation()
  const posts = usePosts()
  const source = useMemo(() => ({ kind: 'quotes' as const, postId }), [postId])
  const back = () => (window.history.length > 1 ? window.history.back() : navigate(`/post/${postId}`))
  return (
    <>
      <PageHeader title="Quotes" onBack={back} backLabel="Back" />
      <ScreenActor key={postId} logic={feedMachine} input={{ posts, source }}>
        {(feed) => (
          <FeedTimeline
            feed={feed}
            label="Quotes"
            errorTitle="Couldn't load the quotes"
            empty={<p className={css({ px: '4', py: '10', textAlign: 'center', color: 'fg.muted' })}>No quotes yet.</p>}
          />
        )}
      </ScreenActor>
    </>
  )
}
