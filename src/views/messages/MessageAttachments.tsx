import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import type { Attachment } from '../../crypto/attachments'
import { attachmentViewMachine, type AttachmentViewRef } from '../../machines/attachment-view/attachment-view.machine'
import {
  selectFileUrl,
  selectThumbFailed,
  selectThumbUrl,
  selectViewBusy,
  selectViewError,
} from '../../machines/attachment-view/attachment-view.selectors'
import { useScreenActor } from '../actors'
import { Dialog } from '../ui/Overlay'
import { Spinner } from '../ui/Spinner'

// A message's photos and videos in its bubble: each tile is its own actor (attachment-view), which downloads and
// decrypts the thumbnail, and the whole file when the member opens it (a dialog over the conversation).

const tile = css({
  position: 'relative',
  display: 'block',
  w: 'full',
  aspectRatio: '4 / 3',
  overflow: 'hidden',
  borderRadius: 'xl',
  bg: 'bg.subtle',
  borderWidth: '1px',
  borderColor: 'border',
  cursor: 'pointer',
})

function Tile({ actor }: { actor: AttachmentViewRef }) {
  const attachment = useSelector(actor, (s) => s.context.attachment)
  const thumbUrl = useSelector(actor, selectThumbUrl)
  const fileUrl = useSelector(actor, selectFileUrl)
  const busy = useSelector(actor, selectViewBusy)
  const failed = useSelector(actor, selectThumbFailed)
  const error = useSelector(actor, selectViewError)
  const what = attachment.kind === 'image' ? 'photo' : 'video'
  return (
    <>
      <button
        type="button"
        className={tile}
        aria-label={failed ? `Retry loading the ${what}` : `Open ${what}`}
        onClick={() => actor.send({ type: failed ? 'media.retry' : 'media.open' })}
      >
        {thumbUrl ? (
          <img src={thumbUrl} alt={`A ${what}`} className={css({ w: 'full', h: 'full', objectFit: 'cover' })} />
        ) : null}
        {attachment.kind === 'video' && thumbUrl ? (
          <span aria-hidden className={css({ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', color: 'white', fontSize: '2xl', textShadow: '0 1px 4px rgba(0,0,0,.6)' })}>
            ▶
          </span>
        ) : null}
        {busy ? (
          <span className={css({ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center' })}>
            <Spinner />
          </span>
        ) : null}
        {failed ? <span className={css({ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', fontSize: 'xs', color: 'fg.muted', p: '2' })}>{error}</span> : null}
      </button>
      {!failed && error ? <p role="alert" className={css({ fontSize: 'xs', color: 'danger.text' })}>{error}</p> : null}
      <Dialog open={fileUrl !== null} onClose={() => actor.send({ type: 'media.close' })} title={attachment.kind === 'image' ? 'Photo' : 'Video'} size="lg">
        <div className={css({ px: '6', pb: '6', pt: '2', display: 'grid', placeItems: 'center' })}>
          {fileUrl && attachment.kind === 'image' ? (
            <img src={fileUrl} alt="The photo" className={css({ maxW: 'full', maxH: '70vh', borderRadius: 'lg' })} />
          ) : null}
          {fileUrl && attachment.kind === 'video' ? (
            <video src={fileUrl} controls autoPlay className={css({ maxW: 'full', maxH: '70vh', borderRadius: 'lg' })} />
          ) : null}
        </div>
      </Dialog>
    </>
  )
}

function AttachmentTile({ attachment }: { attachment: Attachment }) {
  const actor = useScreenActor(attachmentViewMachine, { attachment })
  return <li>{actor ? <Tile actor={actor} /> : <span className={tile} />}</li>
}

export function MessageAttachments({ attachments }: { attachments: ReadonlyArray<Attachment> }) {
  return (
    <ul
      aria-label="Photos and videos"
      className={css({ display: 'grid', gridTemplateColumns: attachments.length === 1 ? '1fr' : 'repeat(2, 1fr)', gap: '1', w: 'min(100%, 300px)' })}
    >
      {attachments.map((attachment) => (
        <AttachmentTile key={attachment.blobId} attachment={attachment} />
      ))}
    </ul>
  )
}
