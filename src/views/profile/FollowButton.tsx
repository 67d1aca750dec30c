import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { FollowRef } from '../../machines/follow/follow.machine'

/**
 * Follow (solid) or Unfollow (outline), from the member's follow actor. It flips at once when clicked; while the server
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
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  return (
    <button
      type="button"
      className={cx(button({ variant: following ? 'outline' : 'solid', size }), css({ minW: '24' }), className)}
      onClick={() => actor.send({ type: 'follow.toggle' })}
      aria-pressed={following}
      aria-busy={busy}
      aria-label={`${following ? 'Unfollow' : 'Follow'} @${name}`}
      disabled={busy}
    >
      {following ? 'Unfollow' : 'Follow'}
    </button>
  )
}
