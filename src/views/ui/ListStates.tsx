import type { ReactNode } from 'react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Spinner } from './Spinner'

// What a paged list in a dialog or a settings section shows around its rows: a spinner while the first page loads,
// the reason and Try again when it failed, a note while it is empty, and Load more while the server has more. The
// owner reads each state from its actor and sends the events; these only draw them.

const failedRow = css({ display: 'flex', alignItems: 'center', gap: '3', py: '6', color: 'fg.muted' })

/** The first page's spinner or its failure with Try again; once it has loaded, the list itself. */
export function FirstPageStatus({
  loading,
  failed,
  loadingLabel,
  failedText,
  onRetry,
  children,
}: {
  loading: boolean
  failed: boolean
  loadingLabel: string
  failedText: string
  onRetry: () => void
  children: ReactNode
}) {
  if (loading) {
    return (
      <div className={css({ display: 'grid', placeItems: 'center', py: '10' })}>
        <Spinner label={loadingLabel} />
      </div>
    )
  }
  if (failed) {
    return (
      <div role="alert" className={failedRow}>
        {failedText}
        <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={onRetry}>
          Try again
        </button>
      </div>
    )
  }
  return children
}

/** An empty list: what is missing in bold, then how to fill it. */
export function EmptyNote({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className={css({ fontSize: 'sm', color: 'fg.muted', py: '6', textAlign: 'center' })}>
      <p className={css({ fontWeight: 'semibold', color: 'fg.default' })}>{title}</p>
      <p>{children}</p>
    </div>
  )
}

const alignments = { start: css({ alignSelf: 'flex-start' }), center: css({ alignSelf: 'center' }) }

/** Load more under a column of rows, waiting while anything saves; `align` keeps it from spanning the column. */
export function LoadMoreButton({
  loadingMore,
  disabled,
  onMore,
  align,
}: {
  loadingMore: boolean
  disabled: boolean
  onMore: () => void
  align?: keyof typeof alignments
}) {
  return (
    <button
      type="button"
      className={cx(button({ variant: 'outline', size: 'sm' }), align ? alignments[align] : undefined)}
      onClick={onMore}
      disabled={disabled}
      aria-busy={loadingMore}
    >
      {loadingMore ? <Spinner size={14} /> : null}
      Load more
    </button>
  )
}
