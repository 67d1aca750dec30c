import { lazy, Suspense, useState } from 'react'
import { PostMenu } from './PostMenu'
// Types only: erased, so the dialogs' chunk still loads on first use.
import type { PostMenuAction, PostMenuRequest } from './PostMenuDialogs'

// The card's overflow menu with what its items open (analytics, report, mute, block). Those run an actor each and
// bring their dialogs' code: both start on the first item chosen (PostMenuDialogs, a chunk of its own), not when the
// card mounts, so scrolling a feed mounts plain cards (no long task while scrolling, and a smaller first load). The
// menu itself stays put, so focus goes back to it when a dialog closes.

const PostMenuDialogs = lazy(() => import('./PostMenuDialogs').then((m) => ({ default: m.PostMenuDialogs })))

export interface PostCardMenuProps {
  postId: string
  isOwner: boolean
  author: { id: string; username: string; displayName: string }
  onDelete: () => void
  /** The post quotes one of the viewer's posts: they may detach it. */
  detachable?: boolean
  /** The author's Edit: opens the composer on this post. */
  onEdit?: () => void
}

export function PostCardMenu({ postId, isOwner, author, onDelete, detachable = false, onEdit }: PostCardMenuProps) {
  const [request, setRequest] = useState<PostMenuRequest | null>(null)
  const ask = (action: PostMenuAction) => () => setRequest((current) => ({ action, n: (current?.n ?? 0) + 1 }))
  return (
    <>
      {isOwner ? (
        <PostMenu isOwner onDelete={onDelete} onAnalytics={ask('analytics')} onEdit={onEdit} onDetach={detachable ? ask('detach') : undefined} />
      ) : (
        <PostMenu
          isOwner={false}
          onDelete={onDelete}
          onBlock={ask('block')}
          mute={{ username: author.username, onSelect: ask('mute') }}
          onReport={ask('report')}
          onDetach={detachable ? ask('detach') : undefined}
        />
      )}
      {request ? (
        <Suspense fallback={null}>
          <PostMenuDialogs postId={postId} isOwner={isOwner} author={author} request={request} />
        </Suspense>
      ) : null}
    </>
  )
}
