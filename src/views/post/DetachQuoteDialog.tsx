import type { ReactNode } from 'react'
import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { detachQuoteMachine, type DetachQuoteRef } from '../../machines/detach-quote/detach-quote.machine'
import { selectConfirmOpen, selectDetaching } from '../../machines/detach-quote/detach-quote.selectors'
import { ScreenActor } from '../actors'
import { Dialog } from '../ui/Overlay'
import { Spinner } from '../ui/Spinner'

/** The confirm before detaching one's post from a quote: it cannot be undone. */
export function DetachQuoteDialog({ actor }: { actor: DetachQuoteRef }) {
  const open = useSelector(actor, selectConfirmOpen)
  const detaching = useSelector(actor, selectDetaching)
  const cancel = () => actor.send({ type: 'detach.cancel' })
  return (
    <Dialog
      open={open}
      onClose={cancel}
      title="Detach your post?"
      description="This quote will show “This post is unavailable” instead of your post, for everyone. This can't be undone."
    >
      <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2' })}>
        <button type="button" className={button({ variant: 'outline' })} onClick={cancel} disabled={detaching}>
          Cancel
        </button>
        <button type="button" className={button({ variant: 'danger' })} onClick={() => actor.send({ type: 'detach.confirm' })} disabled={detaching} aria-busy={detaching} data-autofocus>
          {detaching ? <Spinner size={16} /> : null}
          Detach
        </button>
      </div>
    </Dialog>
  )
}

/** Runs a detach actor for one quote while shown; `children` gets what opens the confirm. */
export function DetachQuote({ quoteId, children }: { quoteId: string; children: (ask: () => void) => ReactNode }) {
  return (
    <ScreenActor logic={detachQuoteMachine} input={{ quoteId }}>
      {(actor) => (
        <>
          {children(() => actor.send({ type: 'detach.ask' }))}
          <DetachQuoteDialog actor={actor} />
        </>
      )}
    </ScreenActor>
  )
}
