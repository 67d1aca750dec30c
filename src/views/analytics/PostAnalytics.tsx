import type { ReactNode } from 'react'
import { analyticsMachine } from '../../machines/analytics/analytics.machine'
import { ScreenActor } from '../actors'
import { AnalyticsDashboardDialog } from './AnalyticsDashboardDialog'

/**
 * An own post's Analytics (the card's menu): an analytics actor for the card, idle until `open` is called, which
 * opens the dialog straight on this post's view.
 */
export function PostAnalytics({ postId, children }: { postId: string; children: (open: () => void) => ReactNode }) {
  return (
    <ScreenActor logic={analyticsMachine} input={{}}>
      {(actor) => (
        <>
          {children(() => actor.send({ type: 'analytics.post.open', postId }))}
          <AnalyticsDashboardDialog actor={actor} />
        </>
      )}
    </ScreenActor>
  )
}
