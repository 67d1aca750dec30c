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

interface TileProps {
  kind: 'image' | 'video'
  /** The preview's URL; undefined while the composer's preview actor is still making it. */
  url: string | undefined
  alt: string
  index: number
  busy: boolean
  onAlt: (value: string) => void
  /** A file the composer attached can be removed; an edited post's own files cannot. */
  onRemove?: () => void
}

/** One file: its preview, a remove button where it can go, and the alt text field of a photo. */
function MediaTile({ kind, url, alt, index, busy, onAlt, onRemove }: TileProps) {
  const label = `${kind === 'image' ? 'Image' : 'Video'} ${index + 1}`
  return (
    <li className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
      <div className={css({ position: 'relative', aspectRatio: '1', borderRadius: 'lg', overflow: 'hidden', bg: 'bg.subtle', borderWidth: '1px', borderColor: 'border' })}>
        {url && kind === 'image' ? <img src={url} alt={alt || label} className={css({ w: 'full', h: 'full', objectFit: 'cover' })} /> : null}
        {url && kind === 'video' ? (
          <video src={url} muted playsInline preload="metadata" aria-label={label} className={css({ w: 'full', h: 'full', objectFit: 'cover', bg: 'black' })} />
        ) : null}
        {kind === 'video' && onRemove ? (
          <span aria-hidden="true" className={css({ position: 'absolute', left: '1.5', bottom: '1.5', display: 'inline-flex', p: '1', borderRadius: 'full', bg: 'rgba(13, 18, 24, 0.72)', color: 'white' })}>
            <PostIcon name="play" size={12} />
          </span>
        ) : null}
        {onRemove ? (
          <button type="button" className={removeButton} aria-label={`Remove ${label.toLowerCase()}`} disabled={busy} onClick={onRemove}>
            <PostIcon name="close" size={16} />
          </button>
        ) : null}
      </div>
      {kind === 'image' ? (
        <input
          className={input({ size: 'sm' })}
          aria-label={`Alt text for image ${index + 1}`}
          placeholder="Alt text"
          maxLength={MAX_ALT_LENGTH}
          value={alt}
          disabled={busy}
          onChange={(e) => onAlt(e.target.value)}
        />
      ) : null}
    </li>
  )
}

/** An edited post's files: shown as they are (they cannot change), each photo's alt text editable. */
function EditedMediaPreviews({ composer }: { composer: ComposerRef }) {
  const media = useSelector(composer, (s) => selectEditing(s)?.media ?? [])
  const busy = useSelector(composer, selectIsBusy)
  if (media.length === 0) return null
  return (
    <ul className={grid} aria-label="Attached media">
      {media.map((item, i) => (
        <MediaTile
          key={item.id}
          kind={item.kind}
          url={item.url}
          alt={item.alt}
          index={i}
          busy={busy}
          onAlt={(value) => composer.send({ type: 'composer.edit.alt.change', id: item.id, value })}
        />
      ))}
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
      {media.map((item, i) => (
        <MediaTile
          key={item.id}
          kind={item.kind}
          url={previews[item.id]}
          alt={item.alt}
          index={i}
          busy={busy}
          onAlt={(value) => composer.send({ type: 'composer.alt.change', id: item.id, value })}
          onRemove={() => composer.send({ type: 'composer.file.remove', id: item.id })}
        />
      ))}
    </ul>
  )
}
