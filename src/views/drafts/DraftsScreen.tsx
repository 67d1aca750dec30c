import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button, input } from 'styled-system/recipes'
import type { SavedDraft } from '../../api/drafts.calls'
import { draftsMachine, type DraftsRef } from '../../machines/drafts/drafts.machine'
import { DRAFTS_MESSAGES, draftStatus, type DraftsTab } from '../../machines/drafts/drafts.rules'
import {
  selectDrafts,
  selectHasMore,
  selectIsBusy,
  selectIsLoading,
  selectLoadFailed,
  selectRescheduling,
  selectTab,
} from '../../machines/drafts/drafts.selectors'
import { ScreenActor, useComposer, useTell } from '../actors'
import { PageHeader } from '../ui/PageHeader'
import { Spinner } from '../ui/Spinner'
import { Tabs } from '../ui/Tabs'

// /drafts (docs/product.md, "Drafts and scheduled posts"): the member's drafts and scheduled posts, in two tabs. Open
// puts a row into the composer; the machine reads the list again whenever the composer has saved or posted, so it
// starts once the composer runs (at once if its code is already there, which it is after any first screen).

const TABS = ['drafts', 'scheduled'] as const
const LABELS: Record<DraftsTab, string> = { drafts: 'Drafts', scheduled: 'Scheduled' }

const row = css({ display: 'flex', flexDirection: 'column', gap: '2', px: '4', py: '3.5', borderBottomWidth: '1px', borderColor: 'border' })
const meta = css({ fontSize: 'sm', color: 'fg.muted' })
const actions = css({ display: 'flex', gap: '2', flexWrap: 'wrap' })
const small = button({ variant: 'outline', size: 'sm' })

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

export function DraftsScreen() {
  const composer = useComposer(true)
  return (
    <>
      <PageHeader title="Drafts & Scheduled" subtitle="Posts you kept for later" />
      {composer ? <ScreenActor logic={draftsMachine}>{(drafts) => <DraftsPanel drafts={drafts} />}</ScreenActor> : <Loading />}
    </>
  )
}

function Loading() {
  return (
    <div className={css({ display: 'grid', placeItems: 'center', py: '16', color: 'accent' })}>
      <Spinner size={24} label="Loading" />
    </div>
  )
}

function DraftsPanel({ drafts }: { drafts: DraftsRef }) {
  const tab = useSelector(drafts, selectTab)
  return (
    <Tabs label="Drafts and scheduled posts" idPrefix="drafts" tabs={TABS} labels={LABELS} selected={tab} onSelect={(next) => drafts.send({ type: 'drafts.tab', tab: next })}>
      <DraftsList drafts={drafts} />
    </Tabs>
  )
}

function DraftsList({ drafts }: { drafts: DraftsRef }) {
  const items = useSelector(drafts, selectDrafts)
  const loading = useSelector(drafts, selectIsLoading)
  const failed = useSelector(drafts, selectLoadFailed)
  const hasMore = useSelector(drafts, selectHasMore)
  const busy = useSelector(drafts, selectIsBusy)
  const tab = useSelector(drafts, selectTab)
  if (loading) return <Loading />
  if (failed) {
    return (
      <div className={css({ textAlign: 'center', py: '12', display: 'grid', gap: '3', justifyItems: 'center' })}>
        <p>{DRAFTS_MESSAGES.loadFailed}</p>
        <button type="button" className={small} onClick={() => drafts.send({ type: 'drafts.reload' })}>
          Try again
        </button>
      </div>
    )
  }
  if (items.length === 0) {
    return <p className={css({ textAlign: 'center', px: '6', py: '16', color: 'fg.muted' })}>{tab === 'drafts' ? DRAFTS_MESSAGES.emptyDrafts : DRAFTS_MESSAGES.emptyScheduled}</p>
  }
  return (
    <ul aria-label={LABELS[tab]} className={css({ listStyle: 'none' })}>
      {items.map((draft) => (
        <DraftRow key={draft.id} drafts={drafts} draft={draft} busy={busy} />
      ))}
      {hasMore ? (
        <li className={css({ display: 'grid', placeItems: 'center', py: '4' })}>
          <button type="button" className={small} disabled={busy} onClick={() => drafts.send({ type: 'drafts.more' })}>
            Show more
          </button>
        </li>
      ) : null}
    </ul>
  )
}

function DraftRow({ drafts, draft, busy }: { drafts: DraftsRef; draft: SavedDraft; busy: boolean }) {
  const tell = useTell()
  const rescheduling = useSelector(drafts, selectRescheduling)
  const status = draftStatus(draft)
  const editing = rescheduling?.id === draft.id ? rescheduling : null
  const text = draft.content.trim() === '' ? '(no text)' : draft.content
  return (
    <li className={row} aria-label={`${status === 'draft' ? 'Draft' : 'Scheduled post'}: ${text.slice(0, 60)}`}>
      <p className={css({ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', color: draft.content.trim() === '' ? 'fg.muted' : 'fg.default' })}>{text}</p>
      {draft.media.length > 0 ? (
        <div className={css({ display: 'flex', gap: '2' })}>
          {draft.media.map((m) => (
            <img key={m.id} src={m.thumbnailUrl ?? m.url} alt={m.alt ?? ''} className={css({ w: '14', h: '14', objectFit: 'cover', borderRadius: 'md' })} />
          ))}
        </div>
      ) : null}
      <p className={meta}>
        {status === 'draft' ? `Saved ${when(draft.updatedAt)}` : null}
        {status === 'scheduled' && draft.scheduledAt ? `Goes out ${when(draft.scheduledAt)}` : null}
      </p>
      {status === 'failed' ? (
        <p role="status" className={css({ fontSize: 'sm', fontWeight: 'medium', color: 'danger.text', bg: 'danger.subtle', px: '3', py: '2', borderRadius: 'lg' })}>
          Could not be published: {draft.failure}
        </p>
      ) : null}
      {editing ? (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
          <div className={actions}>
            <input
              type="date"
              aria-label="New date"
              className={cx(input({ size: 'sm' }), css({ w: 'auto' }))}
              value={editing.date}
              onChange={(e) => drafts.send({ type: 'draft.reschedule.change', date: e.target.value, time: editing.time })}
            />
            <input
              type="time"
              aria-label="New time"
              className={cx(input({ size: 'sm' }), css({ w: 'auto' }))}
              value={editing.time}
              onChange={(e) => drafts.send({ type: 'draft.reschedule.change', date: editing.date, time: e.target.value })}
            />
            <button type="button" className={button({ size: 'sm' })} disabled={busy} onClick={() => drafts.send({ type: 'draft.reschedule.save' })}>
              Save time
            </button>
            <button type="button" className={button({ variant: 'ghost', size: 'sm' })} onClick={() => drafts.send({ type: 'draft.reschedule.cancel' })}>
              Keep the old time
            </button>
          </div>
          {editing.error ? (
            <p role="alert" className={css({ fontSize: 'sm', color: 'danger.text', fontWeight: 'medium' })}>
              {editing.error}
            </p>
          ) : null}
        </div>
      ) : (
        <div className={actions}>
          <button type="button" className={small} disabled={busy} onClick={() => tell({ to: 'composer', event: { type: 'composer.draft.open', draft } })}>
            {status === 'draft' ? 'Open' : 'Edit'}
          </button>
          {status !== 'draft' ? (
            <>
              <button type="button" className={small} disabled={busy} onClick={() => drafts.send({ type: 'draft.reschedule.start', id: draft.id })}>
                Reschedule
              </button>
              <button type="button" className={small} disabled={busy} onClick={() => drafts.send({ type: 'draft.unschedule', id: draft.id })}>
                Cancel schedule
              </button>
            </>
          ) : null}
          <button type="button" className={cx(small, css({ color: 'danger.text' }))} disabled={busy} onClick={() => drafts.send({ type: 'draft.delete', id: draft.id })}>
            Delete
          </button>
        </div>
      )}
    </li>
  )
}
