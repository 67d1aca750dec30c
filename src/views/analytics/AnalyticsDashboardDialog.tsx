import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { PostStats } from '../../api/analytics.calls'
import type { AnalyticsRef } from '../../machines/analytics/analytics.machine'
import { chartDays, formatRate, previewText, RANGE_LABELS, TIME_RANGES } from '../../machines/analytics/analytics.rules'
import {
  selectCanGoBack,
  selectCanRetry,
  selectDashboard,
  selectFailure,
  selectLoading,
  selectOpen,
  selectPost,
  selectRange,
  selectView,
} from '../../machines/analytics/analytics.selectors'
import { formatCount } from '../post/format'
import { Dialog } from '../ui/Overlay'
import { Spinner } from '../ui/Spinner'
import { DailyChart } from './DailyChart'

// The Analytics Dashboard dialog (a time range selector; top 5 posts,
// text at 100, the last 7 days, numbers at 1K and 1M, engagement as a percent with one decimal), and, in the same
// dialog, one post's analytics. Everything it shows comes from the analytics actor; it only sends events.

const tiles = css({ display: 'grid', gridTemplateColumns: { base: 'repeat(2, 1fr)', sm: 'repeat(5, 1fr)' }, gap: '2' })
const tile = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '0.5',
  p: '3',
  borderRadius: 'lg',
  borderWidth: '1px',
  borderColor: 'border',
  bg: 'bg.surface',
})
const tileValue = css({ fontSize: '2xl', fontWeight: 'bold', lineHeight: '1.1', fontVariantNumeric: 'tabular-nums' })
const tileLabel = css({ fontSize: 'xs', color: 'fg.muted', fontWeight: 'medium' })
const heading = css({ fontSize: 'sm', fontWeight: 'semibold', mb: '2' })
const muted = css({ fontSize: 'sm', color: 'fg.muted' })

export function AnalyticsDashboardDialog({ actor }: { actor: AnalyticsRef }) {
  const open = useSelector(actor, selectOpen)
  const view = useSelector(actor, selectView)
  return (
    <Dialog
      open={open}
      onClose={() => actor.send({ type: 'analytics.close' })}
      title={view === 'post' ? 'Post Analytics' : 'Analytics Dashboard'}
      description="How your posts are doing. Only you can see this."
      size="lg"
    >
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}>
        {view === 'post' ? <PostView actor={actor} /> : <DashboardView actor={actor} />}
      </div>
    </Dialog>
  )
}

function RangeSelector({ actor }: { actor: AnalyticsRef }) {
  const range = useSelector(actor, selectRange)
  return (
    <div
      role="group"
      aria-label="Time range"
      className={css({
        display: 'flex',
        w: { base: 'full', sm: 'auto' },
        p: '1',
        gap: '1',
        borderRadius: 'lg',
        bg: 'bg.subtle',
        alignSelf: 'flex-start',
      })}
    >
      {TIME_RANGES.map((r) => (
        <button
          key={r}
          type="button"
          aria-pressed={r === range}
          data-autofocus={r === range ? '' : undefined}
          className={css({
            flex: { base: '1', sm: 'none' },
            px: { base: '2', sm: '3' },
            py: '1.5',
            whiteSpace: 'nowrap',
            borderRadius: 'md',
            fontSize: 'sm',
            fontWeight: 'semibold',
            color: 'fg.muted',
            cursor: 'pointer',
            _hover: { color: 'fg.default' },
            _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '1px' },
            '&[aria-pressed=true]': { bg: 'bg.surface', color: 'fg.default', boxShadow: 'card' },
          })}
          aria-label={RANGE_LABELS[r]}
          onClick={() => actor.send({ type: 'analytics.range', range: r })}
        >
          {/* 'Last' does not fit three times on a phone. */}
          <span className={css({ display: { base: 'none', sm: 'inline' } })}>Last </span>
          {RANGE_LABELS[r].replace('Last ', '')}
        </button>
      ))}
    </div>
  )
}

/** The spinner on a first read, the failure with Retry, or the content (dimmed while a new range loads). */
function Loadable({ actor, hasContent, children }: { actor: AnalyticsRef; hasContent: boolean; children: React.ReactNode }) {
  const loading = useSelector(actor, selectLoading)
  const failure = useSelector(actor, selectFailure)
  const canRetry = useSelector(actor, selectCanRetry)
  if (failure) {
    return (
      <div role="alert" className={css({ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: '3', py: '6', color: 'fg.muted' })}>
        {failure.message}
        {canRetry ? (
          <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => actor.send({ type: 'analytics.retry' })}>
            Try again
          </button>
        ) : null}
      </div>
    )
  }
  if (!hasContent) {
    return (
      <div className={css({ display: 'grid', placeItems: 'center', py: '16' })}>
        <Spinner label="Loading analytics" />
      </div>
    )
  }
  return (
    <div
      aria-busy={loading}
      className={css({ display: 'flex', flexDirection: 'column', gap: '5', transition: 'opacity 0.15s', '&[aria-busy=true]': { opacity: 0.55 } })}
    >
      {children}
    </div>
  )
}

function Tile({ label, value, exact, wide = false }: { label: string; value: string; exact?: number; wide?: boolean }) {
  return (
    <div className={cx(tile, wide ? css({ gridColumn: { base: 'span 2', sm: 'auto' } }) : undefined)}>
      <span className={tileValue} title={exact === undefined ? undefined : exact.toLocaleString('en-US')} data-testid={`stat-${label}`}>
        {value}
      </span>
      <span className={tileLabel}>{label}</span>
    </div>
  )
}

function DashboardView({ actor }: { actor: AnalyticsRef }) {
  const dashboard = useSelector(actor, selectDashboard)
  const range = useSelector(actor, selectRange)
  return (
    <>
      <RangeSelector actor={actor} />
      <Loadable actor={actor} hasContent={dashboard !== null}>
        {dashboard ? (
          <>
            <section aria-label="Totals" className={tiles}>
              <Tile label="Posts" value={formatCount(dashboard.userStats.totalPosts)} exact={dashboard.userStats.totalPosts} />
              <Tile label="Followers" value={formatCount(dashboard.userStats.totalFollowers)} exact={dashboard.userStats.totalFollowers} />
              <Tile label="Views" value={formatCount(dashboard.userStats.totalViews)} exact={dashboard.userStats.totalViews} />
              <Tile label="Likes" value={formatCount(dashboard.userStats.totalLikes)} exact={dashboard.userStats.totalLikes} />
              <Tile label="Engagement" value={formatRate(dashboard.userStats.engagementRate)} wide />
            </section>
            <p className={cx(muted, css({ mt: '-3' }))}>
              {RANGE_LABELS[range]} (followers: now). Engagement is likes, replies and reposts per view.
            </p>
            <DailyChart
              title="Last 7 days"
              days={chartDays(dashboard.dailyStats)}
              series={[
                { key: 'views', label: 'Views', tone: 'accent' },
                { key: 'likes', label: 'Likes', tone: 'success' },
                { key: 'posts', label: 'Posts', tone: 'warn' },
              ]}
            />
            <PostList
              actor={actor}
              title="Top posts"
              posts={dashboard.topPosts}
              empty="No likes, replies, reposts or views in this range yet."
            />
            <PostList actor={actor} title="Recent posts" posts={dashboard.recentPosts} empty="No posts in this range." />
          </>
        ) : null}
      </Loadable>
    </>
  )
}

function Counts({ post }: { post: PostStats }) {
  const items: Array<[string, number]> = [
    ['likes', post.likes],
    ['replies', post.replies],
    ['reposts', post.reposts],
    ['views', post.views],
  ]
  return (
    <span className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', fontSize: 'xs', color: 'fg.muted' })}>
      {items.map(([label, n]) => (
        <span key={label} title={n.toLocaleString('en-US')}>
          <strong className={css({ color: 'fg.default', fontWeight: 'semibold' })}>{formatCount(n)}</strong> {label}
        </span>
      ))}
    </span>
  )
}

function PostList({
  actor,
  title,
  posts,
  empty,
}: {
  actor: AnalyticsRef
  title: string
  posts: ReadonlyArray<PostStats>
  empty: string
}) {
  return (
    <section aria-label={title}>
      <h3 className={heading}>{title}</h3>
      {posts.length === 0 ? (
        <p className={muted}>{empty}</p>
      ) : (
        <ol className={css({ display: 'flex', flexDirection: 'column', borderWidth: '1px', borderColor: 'border', borderRadius: 'lg', overflow: 'hidden' })}>
          {posts.map((post) => (
            <li key={post.id} className={css({ '& + &': { borderTopWidth: '1px', borderColor: 'border' } })}>
              {/* The button is named by what it shows (text and counts), so speech input can say what a sighted
                  member reads; the hidden words say what it opens. */}
              <button
                type="button"
                className={css({
                  display: 'flex',
                  flexDirection: 'column',
                  gap: '1',
                  w: 'full',
                  textAlign: 'left',
                  px: '3',
                  py: '2.5',
                  cursor: 'pointer',
                  _hover: { bg: 'bg.subtle' },
                  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '-2px' },
                })}
                onClick={() => actor.send({ type: 'analytics.post.open', postId: post.id })}
              >
                <span className={css({ fontSize: 'sm', wordBreak: 'break-word' })}>
                  <span className={css({ srOnly: true })}>Analytics for: </span>
                  {post.content ? previewText(post.content) : <em className={muted}>(media only)</em>}
                </span>
                <Counts post={post} />
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

function PostView({ actor }: { actor: AnalyticsRef }) {
  const analytics = useSelector(actor, selectPost)
  const canGoBack = useSelector(actor, selectCanGoBack)
  const range = useSelector(actor, selectRange)
  return (
    <>
      {canGoBack ? (
        <button
          type="button"
          className={cx(button({ variant: 'ghost', size: 'sm' }), css({ alignSelf: 'flex-start', ml: '-2' }))}
          onClick={() => actor.send({ type: 'analytics.post.back' })}
        >
          ← Back to dashboard
        </button>
      ) : null}
      <RangeSelector actor={actor} />
      <Loadable actor={actor} hasContent={analytics !== null}>
        {analytics ? (
          <>
            <blockquote className={css({ fontSize: 'sm', borderLeftWidth: '3px', borderColor: 'accent', pl: '3', wordBreak: 'break-word' })}>
              {analytics.post.content ? previewText(analytics.post.content) : <em className={muted}>(media only)</em>}
            </blockquote>
            <section aria-label="Totals" className={tiles}>
              <Tile label="Views" value={formatCount(analytics.post.views)} exact={analytics.post.views} />
              <Tile label="Likes" value={formatCount(analytics.post.likes)} exact={analytics.post.likes} />
              <Tile label="Replies" value={formatCount(analytics.post.replies)} exact={analytics.post.replies} />
              <Tile label="Reposts" value={formatCount(analytics.post.reposts)} exact={analytics.post.reposts} />
              <Tile label="Engagement" value={formatRate(analytics.engagementRate)} wide />
            </section>
            <p className={cx(muted, css({ mt: '-3' }))}>{RANGE_LABELS[range]}.</p>
            <DailyChart
              title="Last 7 days"
              days={chartDays(analytics.dailyStats)}
              series={[
                { key: 'views', label: 'Views', tone: 'accent' },
                { key: 'likes', label: 'Likes', tone: 'success' },
                { key: 'replies', label: 'Replies', tone: 'warn' },
              ]}
            />
          </>
        ) : null}
      </Loadable>
    </>
  )
}
