import { Suspense, useState, type MouseEvent } from 'react'
import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { css, cx } from 'styled-system/css'
import type { Post, UserSummary } from '../../api/posts.calls'
import {
  selectCanBeReposted,
  selectIsDeleting,
  selectIsHiddenAsSensitive,
  selectIsOwnPost,
  selectMutedNotice,
  selectPost,
} from '../../machines/posts/posts.selectors'
import { navigate } from '../../machines/lib/navigation'
import { selectShowsSensitive, selectUserId } from '../../machines/session/session.selectors'
import { canDetach, quotesLinkText } from '../../machines/posts/quotes.rules'
import { useSession, useTell } from '../actors'
import { Avatar } from '../ui/Avatar'
import { profileHref } from './content-tokens'
import { MutedNotice } from './MutedNotice'
import { PostIcon } from './icons'
import { LinkPreviewCard } from './LinkPreviewCard'
import { MediaGrid } from './MediaGrid'
import { PostActions } from './PostActions'
import { PostCardMenu } from './PostCardMenu'
import { PostAuthor, PostTimestamp } from './PostAuthor'
import { PostContent } from './PostContent'
import { DeletePostDialog, PostPoll, QuotedCard } from './card-parts'
import { usePosts } from '../actors'
import { SensitiveNotice } from './SensitiveNotice'
import { shownName } from '../../machines/lib/shown-name'

// A post as a card (docs/product.md, "Post card"). It reads its post from the post cache by id, so a like, repost or
// deletion made anywhere shows here too. Clicking the card (not one of its links or buttons, and not while selecting
// text) opens the post page. `focus` is the post page's own post: larger text, the full date, not a link to itself.

export interface PostCardProps {
  id: string
  repostedBy?: UserSummary | null
  variant?: 'feed' | 'focus'
  /** Position in its list and the list's size, for screen readers (role=feed). */
  position?: number
  setSize?: number
}

const INTERACTIVE = 'a, button, video, input, textarea, select, label, [role=menu], [role=dialog]'

const article = css({
  position: 'relative',
  display: 'flex',
  flexDirection: 'column',
  gap: '1',
  px: '4',
  pt: '3',
  pb: '2',
  bg: 'bg.surface',
  borderBottomWidth: '1px',
  borderColor: 'border',
  transitionProperty: 'background-color, opacity',
  transitionDuration: 'fast',
  '&[data-clickable]': { cursor: 'pointer', _hover: { bg: 'color-mix(in srgb, token(colors.bg.subtle) 55%, token(colors.bg.surface))' } },
  '&[aria-busy=true]': { opacity: 0.5, pointerEvents: 'none' },
})

function RepostedBy({ user }: { user: UserSummary }) {
  return (
    <p className={css({ display: 'flex', alignItems: 'center', gap: '1.5', pl: '7', fontSize: 'sm', fontWeight: 'semibold', color: 'fg.muted' })}>
      <PostIcon name="repost" size={15} />
      <span className={css({ truncate: true })}>
        Reposted by{' '}
        <Link href={profileHref(user.username)} className={css({ _hover: { textDecoration: 'underline' } })}>
          {shownName(user)}
        </Link>
      </span>
    </p>
  )
}

export function PostCard({ id, repostedBy = null, variant = 'feed', position, setSize }: PostCardProps) {
  const posts = usePosts()
  const tell = useTell()
  const post = useSelector(posts, selectPost(id))
  const deleting = useSelector(posts, selectIsDeleting(id))
  const session = useSession()
  const viewerId = useSelector(session, selectUserId)
  const showsSensitive = useSelector(session, selectShowsSensitive)
  const hidden = useSelector(posts, selectIsHiddenAsSensitive(id, showsSensitive))
  const isOwner = useSelector(posts, selectIsOwnPost(id, viewerId))
  const repostable = useSelector(posts, selectCanBeReposted(id))
  const muted = useSelector(posts, selectMutedNotice(id))
  const [confirming, setConfirming] = useState(false)

  if (!post) return null
  const focus = variant === 'focus'
  const actions = {
    post,
    repostable,
    onLike: () => posts.send({ type: 'post.like', id }),
    onRepost: () => posts.send({ type: 'post.repost', id }),
    onQuote: () => tell({ to: 'composer', event: { type: 'composer.quote', postId: id } }),
    onBookmark: () => posts.send({ type: 'post.bookmark', id }),
    onShare: () => tell({ to: 'share', event: { type: 'share.post', postId: id } }),
  }
  const author = post.author

  const openPost = (event: MouseEvent<HTMLElement>) => {
    if (focus || event.defaultPrevented) return
    // Clicks inside the card's portals (the delete dialog, the photo viewer) bubble here through React, not the DOM.
    if (!(event.target instanceof Node) || !event.currentTarget.contains(event.target)) return
    if (event.target instanceof Element && event.target.closest(INTERACTIVE)) return
    if (window.getSelection()?.toString()) return
    navigate(`/post/${post.id}`)
  }

  return (
    <article
      className={cx(article, focus ? css({ pt: '4', pb: '2', gap: '2' }) : undefined)}
      aria-busy={deleting}
      aria-posinset={position}
      aria-setsize={setSize}
      aria-label={`Post by ${shownName(author)}`}
      data-clickable={focus ? undefined : ''}
      onClick={openPost}
    >
      {repostedBy ? <RepostedBy user={repostedBy} /> : null}
      <div className={css({ display: 'flex', gap: '3' })}>
        <Link href={profileHref(author.username)} aria-label={`${shownName(author)}'s profile`} tabIndex={-1} className={css({ flexShrink: 0, h: 'fit-content', borderRadius: 'full' })}>
          <Avatar src={author.avatar} name={shownName(author)} size={focus ? 48 : 44} />
        </Link>
        <div className={css({ flex: 1, minW: 0 })}>
          <div className={css({ display: 'flex', alignItems: 'flex-start', gap: '2', minW: 0 })}>
            <div className={css({ flex: 1, minW: 0 })}>
              <PostAuthor post={post} stacked={focus} />
            </div>
            <PostCardMenu
              postId={id}
              isOwner={isOwner}
              author={author}
              onDelete={() => setConfirming(true)}
              detachable={canDetach(post, viewerId)}
              onEdit={() => tell({ to: 'composer', event: { type: 'composer.edit.open', post } })}
            />
          </div>
          {focus ? null : muted !== null ? (
            <MutedNotice muted={muted} onShow={() => posts.send({ type: 'post.showMuted', id })} />
          ) : (
            <PostBody post={post} hidden={hidden} onReveal={() => posts.send({ type: 'post.reveal', id })} />
          )}
          {focus ? null : (
            <PostActions {...actions} />
          )}
        </div>
      </div>
      {focus ? (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2.5' })}>
          {muted !== null ? (
            <MutedNotice muted={muted} onShow={() => posts.send({ type: 'post.showMuted', id })} />
          ) : (
            <PostBody post={post} hidden={hidden} large onReveal={() => posts.send({ type: 'post.reveal', id })} />
          )}
          <PostTimestamp post={post} />
          <QuotesLink post={post} />
          <div className={css({ borderTopWidth: '1px', borderColor: 'border', pt: '0.5' })}>
            <PostActions {...actions} />
          </div>
        </div>
      ) : null}
      {confirming ? (
        <Suspense fallback={null}>
          <DeletePostDialog
            open
            onCancel={() => setConfirming(false)}
            onConfirm={() => {
              setConfirming(false)
              posts.send({ type: 'post.delete', id })
            }}
          />
        </Suspense>
      ) : null}
    </article>
  )
}

function PostBody({
  post,
  hidden,
  large = false,
  onReveal,
}: {
  post: Post
  hidden: boolean
  large?: boolean
  onReveal: () => void
}) {
  if (hidden) return <SensitiveNotice reason={post.sensitiveReason} onShow={onReveal} />
  return (
    <div className={css({ mt: '0.5' })}>
      <PostContent content={post.content} large={large} />
      <MediaGrid media={post.media} />
      {post.linkPreview ? <LinkPreviewCard preview={post.linkPreview} /> : null}
      {post.quote || post.poll ? (
        <Suspense fallback={null}>
          {post.quote ? <QuotedCard post={post.quote.post} /> : null}
          {post.poll ? <PostPoll postId={post.id} poll={post.poll} /> : null}
        </Suspense>
      ) : null}
    </div>
  )
}

/** The post page's way to the post's quotes ('3 quotes'), when it has any. */
function QuotesLink({ post }: { post: Post }) {
  const text = quotesLinkText(post.quoteCount)
  if (text === null) return null
  return (
    <Link
      href={`/post/${post.id}/quotes`}
      className={css({ alignSelf: 'flex-start', fontSize: 'sm', fontWeight: 'semibold', color: 'fg.default', _hover: { textDecoration: 'underline' } })}
    >
      {text}
    </Link>
  )
}
