import { useId } from 'react'
import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button, input as inputRecipe } from 'styled-system/recipes'
import { INSTANCE_PAGE_SLUGS, PAGE_BODY_MAX, type InstancePageSlug } from '../../api/contract/instance-pages'
import type { InstancePagesRef, PagesView } from '../../machines/admin/instance-pages.machine'
import {
  selectBusy,
  selectCanSave,
  selectCount,
  selectDraft,
  selectProblem,
  selectResult,
  selectSaved,
  selectSaving,
  selectSlug,
  selectView,
} from '../../machines/admin/instance-pages.selectors'
import { fullDate } from '../post/format'
import { MarkdownText } from '../pages/MarkdownText'
import { Spinner } from '../ui/Spinner'
import { Tabs } from '../ui/Tabs'

// The admin panel's Instance pages: the Terms of Service and Privacy Policy (/terms, /privacy) as markdown, a tab
// each, Write or Preview, Save. The editor actor (src/machines/admin/instance-pages.machine.ts) holds the drafts
// and decides what may be saved; this only shows it.

const LABELS: Record<InstancePageSlug, string> = { terms: 'Terms of Service', privacy: 'Privacy Policy' }
const VIEWS: ReadonlyArray<{ view: PagesView; label: string }> = [
  { view: 'write', label: 'Write' },
  { view: 'preview', label: 'Preview' },
]
const muted = css({ fontSize: 'sm', color: 'fg.muted' })

export function InstancePagesEditor({ actor }: { actor: InstancePagesRef }) {
  const loading = useSelector(actor, (s) => s.matches('loading'))
  const loadError = useSelector(actor, (s) => (s.matches('failed') ? s.context.loadError : null))
  const slug = useSelector(actor, selectSlug)
  if (loading) return <Spinner label="Loading the instance pages" />
  if (loadError !== null) {
    return (
      <div role="alert" className={css({ display: 'flex', alignItems: 'center', gap: '3', fontSize: 'sm', color: 'fg.muted' })}>
        {loadError}
        <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => actor.send({ type: 'pages.retry' })}>
          Try again
        </button>
      </div>
    )
  }
  return (
    <Tabs
      label="Instance pages"
      idPrefix="instance-pages"
      tabs={INSTANCE_PAGE_SLUGS}
      labels={LABELS}
      selected={slug}
      onSelect={(next) => actor.send({ type: 'pages.select', slug: next })}
    >
      <PageEditor actor={actor} slug={slug} />
    </Tabs>
  )
}

function PageEditor({ actor, slug }: { actor: InstancePagesRef; slug: InstancePageSlug }) {
  const id = useId()
  const draft = useSelector(actor, selectDraft)
  const view = useSelector(actor, selectView)
  const saved = useSelector(actor, selectSaved)
  const count = useSelector(actor, selectCount)
  const problem = useSelector(actor, selectProblem)
  const canSave = useSelector(actor, selectCanSave)
  const busy = useSelector(actor, selectBusy)
  const saving = useSelector(actor, selectSaving)
  const result = useSelector(actor, selectResult)
  const over = count > PAGE_BODY_MAX
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        actor.send({ type: 'pages.save' })
      }}
      className={css({ display: 'flex', flexDirection: 'column', gap: '3', pt: '4' })}
    >
      <div className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: '2' })}>
        <p className={muted}>
          {saved?.updatedAt ? (
            <>
              Last saved <time dateTime={saved.updatedAt}>{fullDate(saved.updatedAt)}</time>
            </>
          ) : (
            'Showing the default text: nothing saved yet'
          )}
          {' · '}
          <a href={`/${slug}`} target="_blank" rel="noreferrer" className={css({ color: 'accent.text', textDecoration: 'underline' })}>
            Open /{slug}
          </a>
        </p>
        <div role="group" aria-label="Editor view" className={css({ display: 'inline-flex', gap: '1', p: '1', bg: 'bg.subtle', borderRadius: 'lg' })}>
          {VIEWS.map((v) => (
            <button
              key={v.view}
              type="button"
              aria-pressed={view === v.view}
              className={cx(
                button({ variant: 'ghost', size: 'sm' }),
                css({ '&[aria-pressed=true]': { bg: 'bg.surface', boxShadow: 'sm', fontWeight: 'bold' } }),
              )}
              onClick={() => actor.send({ type: 'pages.view', view: v.view })}
            >
              {v.label}
            </button>
          ))}
        </div>
      </div>
      {view === 'write' ? (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
          <label htmlFor={id} className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
            {LABELS[slug]} (markdown)
          </label>
          <textarea
            id={id}
            rows={16}
            value={draft}
            readOnly={busy}
            spellCheck
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${id}-help ${id}-count${problem ? ` ${id}-problem` : ''}`}
            onChange={(event) => actor.send({ type: 'pages.input', value: event.target.value })}
            className={cx(inputRecipe(), css({ h: 'auto', resize: 'vertical', minH: '48', py: '2', fontFamily: 'mono', fontSize: 'sm', lineHeight: '1.6' }))}
          />
          <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '3' })}>
            <p id={`${id}-help`} className={css({ fontSize: 'xs', color: 'fg.muted' })}>
              Headings (##), lists, **bold**, _italic_, [links](https://example.org). HTML shows as plain text.
            </p>
            <p id={`${id}-count`} className={css({ flexShrink: 0, fontSize: 'xs', color: over ? 'danger.text' : 'fg.muted' })}>
              {count.toLocaleString('en-US')}/{PAGE_BODY_MAX.toLocaleString('en-US')}
            </p>
          </div>
        </div>
      ) : (
        <section
          aria-label={`Preview of the ${LABELS[slug]}`}
          className={css({ borderWidth: '1px', borderColor: 'border', borderRadius: 'lg', p: '4', maxH: '32rem', overflowY: 'auto' })}
        >
          <MarkdownText text={draft} />
        </section>
      )}
      {problem ? (
        <p id={`${id}-problem`} role="alert" className={css({ fontSize: 'sm', fontWeight: 'medium', color: 'danger.text' })}>
          {problem}
        </p>
      ) : null}
      <div className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
        <button type="submit" className={button()} disabled={!canSave} aria-busy={saving}>
          {saving ? <Spinner size={16} /> : null}
          Save {LABELS[slug]}
        </button>
        {result ? (
          <p role="status" className={css({ fontSize: 'sm', color: result.ok ? 'success.text' : 'danger.text' })}>
            {result.text}
          </p>
        ) : null}
      </div>
    </form>
  )
}
