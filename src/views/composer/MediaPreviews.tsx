import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import { MAX_ALT_LENGTH } from '../../machines/composer/composer.rules'
import { selectEditing, selectIsBusy, selectMedia, selectPreviews } from '../../machines/composer/composer.selectors'
import { PostIcon } from '../post/icons'
import type { ComposerRef } from '../../machines/composer/composer.machine'

// The attached files: a preview each (the object URL belongs to the composer's preview actor), a remove button, and
// an alt text field for photos. An edited post's files are its own, shown as they are with their alt texts.

const grid = css({ display: 'grid', gridTemplateColumns: { base: 'repeat(2, 1fr)', sm: 'repeat(auto-fill, minmax(130px, 1fr))' }, gap: '2.5' })

const removeButton = css({
  position: 'absolute',
  top: '1.5',
  right: '1.5',
  display: 'grid',
  placeItems: 'center',
  w: '7',
  h: '7',
  borderRadius: 'full',
  bg: 'rgba(13, 18, 24, 0.72)',
  color: 'white',
  cursor: 'pointer',
  _hover: { bg: 'rgba(13, 18, 24, 0.9)' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '1px' },
  _disabled: { opacity: 0.5, cursor: 'not-allowed' },
})

/** An edited post's files: shown as they are (they cannot change), each photo's alt text editable. */
function EditedMediaPreviews({ composer }: { composer: ComposerRef }) {
  const media = useSelector(composer, (s) => selectEditing(s)?.media ?? [])
  const busy = useSelector(composer, selectIsBusy)
  if (media.length === 0) return null
  return (
    <ul className={grid} aria-label="Attached media">
      {media.map((item, i) => {
        const label = `${item.kind === 'image' ? 'Image' : 'Video'} ${i + 1}`
        return (
          <li key={item.id} className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
            <div className={css({ position: 'relative', aspectRatio: '1', borderRadius: 'lg', overflow: 'hidden', bg: 'bg.subtle', borderWidth: '1px', borderColor: 'border' })}>
              {item.kind === 'image' ? (
                <img src={item.url} alt={item.alt || label} className={css({ w: 'full', h: 'full', objectFit: 'cover' })} />
              ) : (
                <video src={item.url} muted playsInline preload="metadata" aria-label={label} className={css({ w: 'full', h: 'full', objectFit: 'cover', bg: 'black' })} />
              )}
            </div>
            {item.kind === 'image' ? (
              <input
                className={input({ size: 'sm' })}
                aria-label={`Alt text for image ${i + 1}`}
                placeholder="Alt text"
                maxLength={MAX_ALT_LENGTH}
                value={item.alt}
                disabled={busy}
                onChange={(e) => composer.send({ type: 'composer.edit.alt.change', id: item.id, value: e.target.value })}
              />
            ) : null}
          </li>
        )
      })}
    </ul>
  )
}

export function MediaPreviews({ composer }: { composer: ComposerRef }) {
  const media = useSelector(composer, selectMedia)
  const previews = useSelector(composer, selectPreviews)
  const busy = useSelector(composer, selectIsBusy)
  const editing = useSelector(composer, (s) => selectEditing(s) !== null)
  if (editing) return <EditedMediaPreviews composer={composer} />
  if (media.length === 0) return null
  return (
    <ul className={grid} aria-label="Attached media">
      {media.map((item, i) => {
        const url = previews[item.id]
        const label = `${item.kind === 'image' ? 'Image' : 'Video'} ${i + 1}`
        return (
          <li key={item.id} className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
            <div className={css({ position: 'relative', aspectRatio: '1', borderRadius: 'lg', overflow: 'hidden', bg: 'bg.subtle', borderWidth: '1px', borderColor: 'border' })}>
              {url && item.kind === 'image' ? (
                <img src={url} alt={item.alt || label} className={css({ w: 'full', h: 'full', objectFit: 'cover' })} />
              ) : null}
              {url && item.kind === 'video' ? (
                <video src={url} muted playsInline preload="metadata" aria-label={label} className={css({ w: 'full', h: 'full', objectFit: 'cover', bg: 'black' })} />
              ) : null}
              {item.kind === 'video' ? (
                <span aria-hidden="true" className={css({ position: 'absolute', left: '1.5', bottom: '1.5', display: 'inline-flex', p: '1', borderRadius: 'full', bg: 'rgba(13, 18, 24, 0.72)', color: 'white' })}>
                  <PostIcon name="play" size={12} />
                </span>
              ) : null}
              <button
                type="button"
                className={removeButton}
                aria-label={`Remove ${label.toLowerCase()}`}
                disabled={busy}
                onClick={() => composer.send({ type: 'composer.file.remove', id: item.id })}
              >
                <PostIcon name="close" size={16} />
              </button>
            </div>
            {item.kind === 'image' ? (
              <input
                className={input({ size: 'sm' })}
                aria-label={`Alt text for image ${i + 1}`}
                placeholder="Alt text"
                maxLength={MAX_ALT_LENGTH}
                value={item.alt}
                disabled={busy}
                onChange={(e) => composer.send({ type: 'composer.alt.change', id: item.id, value: e.target.value })}
              />
            ) : null}
          </li>
        )
      })}
    </ul>
  )
}
