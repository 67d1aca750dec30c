import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { ComposerRef } from '../../machines/composer/composer.machine'
import { selectCanSaveDraft, selectIsBusy, selectOpened } from '../../machines/composer/composer.selectors'

// The composer's draft controls (docs/product.md, "Drafts and scheduled posts"): Save draft, the way to the Drafts &
// Scheduled screen, and, for an opened draft, the files it already has (kept as saved; new files cannot be added).

export function SaveDraftButton({ composer }: { composer: ComposerRef }) {
  const canSave = useSelector(composer, selectCanSaveDraft)
  const busy = useSelector(composer, selectIsBusy)
  return (
    <button type="button" className={button({ variant: 'ghost', size: 'md' })} disabled={!canSave || busy} onClick={() => composer.send({ type: 'composer.draft.save' })}>
      Save draft
    </button>
  )
}

export function DraftsLink({ composer }: { composer: ComposerRef }) {
  return (
    <Link
      href="/drafts"
      onClick={() => composer.send({ type: 'composer.close' })}
      className={css({ fontSize: 'sm', fontWeight: 'semibold', color: 'accent.text', px: '2', _hover: { textDecoration: 'underline' } })}
    >
      Drafts
    </Link>
  )
}

export function SavedMedia({ composer }: { composer: ComposerRef }) {
  const opened = useSelector(composer, selectOpened)
  if (!opened || opened.media.length === 0) return null
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        {opened.media.map((m) => (
          <img key={m.id} src={m.thumbnailUrl ?? m.url} alt={m.alt ?? ''} className={css({ w: '20', h: '20', objectFit: 'cover', borderRadius: 'lg' })} />
        ))}
      </div>
      <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>Saved with the draft, with their descriptions.</p>
    </div>
  )
}
