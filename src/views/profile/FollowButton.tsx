import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { FollowRef } from '../../machines/follow/follow.machine'

/**
 * Follow (solid), Unfollow or Requested (outline; a click cancels the request), from the member's follow actor. It flips at once when clicked; while the server
 * answers it is busy and ignores clicks (the actor does too).
 */
export function FollowButton({
  actor,
  name,
  size = 'md',
  className,
}: {
  actor: FollowRef
  /** Whom the button is about, for its accessible name ('Follow @ann'). */
  name: string
  size?: 'sm' | 'md'
  className?: string
}) {
  const following = useSelector(actor, (s) => s.context.following)
  const requested = useSelector(actor, (s) => s.context.requested)
  const word = following ? 'Unfollow' : requested ? 'Requested' : 'Follow'
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  return (
    <button
      type="button"
      className={cx(button({ variant: following || requested ? 'outline' : 'solid', size }), css({ minW: '24' }), className)}
      onClick={() => actor.send({ type: 'follow.toggle' })}
      aria-pressed={following || requested}
      aria-busy={busy}
      aria-label={requested ? `Requested: cancel the follow request to @${name}` : `${word} @${name}`}
      disabled={busy}
    >
      {word}
    </button>
  )
}
