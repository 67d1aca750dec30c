import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { analyticsMachine } from '../../machines/analytics/analytics.machine'
import { ScreenActor } from '../actors'
import { Icon } from '../ui/Icon'
import { AnalyticsDashboardDialog } from './AnalyticsDashboardDialog'

// Settings -> Analytics (spec: "description plus a button View Analytics opening a dialog"). The section shows only
// under `?tab=analytics` (the shell's Analytics item and Quick Action link there), which opens the dialog at once.

export function AnalyticsSection() {
  return (
    <ScreenActor logic={analyticsMachine} input={{ open: true }}>
      {(actor) => (
        <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: '3', pt: '3' })}>
          <p className={css({ fontSize: 'sm' })}>
            Your posts, followers, views and likes over the last 7, 30 or 90 days, your top posts and a chart of the
            last week. Only you can see them.
          </p>
          <button type="button" className={button()} onClick={() => actor.send({ type: 'analytics.open' })}>
            <Icon name="chart" size={18} />
            View Analytics
          </button>
          <AnalyticsDashboardDialog actor={actor} />
        </div>
      )}
    </ScreenActor>
  )
}
