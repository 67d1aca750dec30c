import { Suspense, useState } from 'react'
import { css } from 'styled-system/css'
import type { Post } from '../../api/posts.calls'
import { PostHistory } from './card-parts'
import { fullDate } from './format'

// '(edited)' on a card. The History dialog it opens (./PostHistory.tsx) loads with the card parts (./card-parts.ts).

const marker = css({
  color: 'fg.muted',
  whiteSpace: 'nowrap',
  cursor: 'pointer',
  _hover: { textDecoration: 'underline' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', borderRadius: 'sm' },
})

export function EditedMarker({ post }: { post: Pick<Post, 'id' | 'edited' | 'editedAt'> }) {
  const [asked, setAsked] = useState(0)
  if (!post.edited) return null
  return (
    <>
      <button
        type="button"
        className={marker}
        title={post.editedAt ? `Edited ${fullDate(post.editedAt)}: see the history` : 'See the edit history'}
        onClick={() => setAsked((n) => n + 1)}
      >
        (edited)
      </button>
      {asked > 0 ? (
        <Suspense fallback={null}>
          <PostHistory postId={post.id} asked={asked} />
        </Suspense>
      ) : null}
    </>
  )
}
