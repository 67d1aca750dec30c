import { useCallback } from 'react'
import { useSelector } from '@xstate/react'
import { Link, useLocation } from 'wouter'
import { css } from 'styled-system/css'
import { postPageMachine } from '../../machines/post-page/post-page.machine'
import { selectPost } from '../../machines/posts/posts.selectors'
import {
  selectCanLoadMore,
  selectIsLoading,
  selectIsLoadingMore,
  selectIsMissing,
  selectReplies,
} from '../../machines/post-page/post-page.selectors'
import type { ActorRefFrom } from 'xstate'
import { ScreenActor } from '../actors'
import { ReplyComposer } from '../composer/ReplyComposer'
import { PostIcon } from '../post/icons'
import { PostCard } from '../post/PostCard'
import { PostList } from '../post/PostList'
import { usePosts } from '../actors'
import { PageHeader } from '../ui/PageHeader'
import { Spinner } from '../ui/Spinner'
import { PostNotFound } from './PostNotFound'

// The post page (docs/product.md, "Post page"): back button and title, the post, 'Reply to @author', then the replies
// (oldest first, Load more). A reply's own replies are one click away: its card opens its page.

function Replies({ page }: { page: PostPageRef }) {
  const replies = useSelector(page, selectReplies)
  const canLoadMore = useSelector(page, selectCanLoadMore)
  const loadingMore = useSelector(page, selectIsLoadingMore)
  const loadMore = useCallback(() => page.send({ type: 'replies.loadMore' }), [page])
  if (replies.length === 0) {
    return <p className={css({ px: '4', py: '10', textAlign: 'center', color: 'fg.muted' })}>No replies yet. Be the first to reply!</p>
  }
  return <PostList entries={replies} label="Replies" canLoadMore={canLoadMore} onLoadMore={loadMore} loadingMore={loadingMore} mode="button" />
}

type PostPageRef = ActorRefFrom<typeof postPageMachine>

function PostPageBody({ postId }: { postId: string }) {
  const posts = usePosts()
  return (
    <ScreenActor logic={postPageMachine} input={{ posts, postId }}>
      {(page) => <PostThread page={page} postId={postId} />}
    </ScreenActor>
  )
}

function PostThread({ page, postId }: { page: PostPageRef; postId: string }) {
  const loading = useSelector(page, selectIsLoading)
  const missing = useSelector(page, selectIsMissing)
  const post = useSelector(usePosts(), selectPost(postId))

  if (loading) {
    return (
      <div className={css({ display: 'grid', placeItems: 'center', py: '16', color: 'accent' })}>
        <Spinner size={28} label="Loading post" />
      </div>
    )
  }
  if (missing || !post) return <PostNotFound />
  return (
    <>
      {post.replyTo ? (
        <Link
          href={`/post/${post.replyTo}`}
          className={css({ display: 'flex', alignItems: 'center', gap: '1.5', px: '4', pt: '3', fontSize: 'sm', color: 'fg.muted', _hover: { color: 'accent.text' } })}
        >
          <PostIcon name="reply" size={15} />
          Replying to a post · show it
        </Link>
      ) : null}
      <PostCard id={postId} variant="focus" />
      <ReplyComposer postId={postId} username={post.author.username} />
      <Replies page={page} />
    </>
  )
}

export function PostPage({ postId }: { postId: string }) {
  const [, navigate] = useLocation()
  // Back to wherever the member came from; a post opened from outside (a shared link) goes Home instead.
  const back = () => (window.history.length > 1 ? window.history.back() : navigate('/'))
  return (
    <>
      <PageHeader title="Post" onBack={back} backLabel="Back" />
      {/* A new actor per post: following a reply to its own page starts fresh. */}
      <PostPageBody key={postId} postId={postId} />
    </>
  )
}
