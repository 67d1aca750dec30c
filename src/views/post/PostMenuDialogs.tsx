import { useEffect, useRef } from 'react'
import { PostAnalytics } from '../analytics/PostAnalytics'
import { ReportAbout } from '../report/ReportDialog'
import { BlockUser } from './BlockUserDialog'
import { DetachQuote } from './DetachQuoteDialog'
import { MuteUser } from './MuteUserDialog'
import { shownName } from '../../machines/lib/shown-name'

export type PostMenuAction = 'analytics' | 'report' | 'mute' | 'block' | 'detach'

/** The item chosen, numbered so choosing the same one again is a new request. */
export interface PostMenuRequest {
  action: PostMenuAction
  n: number
}

// What a card's menu items open, mounted on the first one chosen (PostCardMenu): the actors and their dialogs, as the
// card used to mount them with itself. Each request is handed to its actor once.

interface Props {
  postId: string
  isOwner: boolean
  author: { id: string; username: string; displayName: string }
  request: PostMenuRequest
}

function Replay({ request, asks }: { request: PostMenuRequest; asks: Partial<Record<PostMenuAction, () => void>> }) {
  const handled = useRef(0)
  useEffect(() => {
    if (handled.current === request.n) return
    handled.current = request.n
    asks[request.action]?.()
  })
  return null
}

export function PostMenuDialogs({ postId, isOwner, author, request }: Props) {
  return (
    <DetachQuote quoteId={postId}>
      {(askDetach) => <Dialogs postId={postId} isOwner={isOwner} author={author} request={request} detach={askDetach} />}
    </DetachQuote>
  )
}

function Dialogs({ postId, isOwner, author, request, detach }: Props & { detach: () => void }) {
  if (isOwner) {
    return (
      <PostAnalytics postId={postId}>
        {(openAnalytics) => <Replay request={request} asks={{ analytics: openAnalytics, detach }} />}
      </PostAnalytics>
    )
  }
  return (
    <ReportAbout>
      {(report) => (
        <MuteUser userId={author.id} username={author.username}>
          {(askMute) => (
            <BlockUser userId={author.id} name={shownName(author)} leaveTo={null}>
              {(askBlock) => (
                <Replay
                  request={request}
                  asks={{ report: () => report({ kind: 'post', id: postId }), mute: askMute, block: askBlock, detach }}
                />
              )}
            </BlockUser>
          )}
        </MuteUser>
      )}
    </ReportAbout>
  )
}
