import type { ReactNode } from 'react'
import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { blockMachine, type BlockRef } from '../../machines/block/block.machine'
import { selectBlocking, selectConfirmOpen } from '../../machines/block/block.selectors'
import { ScreenActor } from '../actors'
import { Dialog } from '../ui/Overlay'
import { Spinner } from '../ui/Spinner'

/** The confirmation before blocking (docs/product.md, "Blocks"), shown while the block actor asks and blocks. */
export function BlockUserDialog({ actor, name }: { actor: BlockRef; name: string }) {
  const open = useSelector(actor, selectConfirmOpen)
  const blocking = useSelector(actor, selectBlocking)
  const cancel = () => actor.send({ type: 'block.cancel' })
  return (
    <Dialog open={open} onClose={cancel} title={`Block ${name}?`} description={`Are you sure you want to block ${name}?`}>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        You will no longer see each other's posts or profiles, and any follows between you are removed. You can unblock them
        from Settings.
      </p>
      <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2', mt: '5' })}>
        <button type="button" className={button({ variant: 'outline' })} onClick={cancel} disabled={blocking} data-autofocus>
          Cancel
        </button>
        <button
          type="button"
          className={button({ variant: 'danger' })}
          onClick={() => actor.send({ type: 'block.confirm' })}
          disabled={blocking}
          aria-busy={blocking}
        >
          {blocking ? <Spinner size={16} /> : null}
          Block
        </button>
      </div>
    </Dialog>
  )
}

/**
 * Block User for one member: runs a block actor while shown, hands `ask` to the control that opens the dialog (a
 * menu item, a profile button) and renders the dialog. `leaveTo` is where to go once blocked (a profile: '/').
 */
export function BlockUser({
  userId,
  name,
  leaveTo,
  children,
}: {
  userId: string
  name: string
  leaveTo: string | null
  children: (ask: () => void) => ReactNode
}) {
  return (
    <ScreenActor logic={blockMachine} input={{ userId, leaveTo }}>
      {(actor) => (
        <>
          {children(() => actor.send({ type: 'block.ask' }))}
          <BlockUserDialog actor={actor} name={name} />
        </>
      )}
    </ScreenActor>
  )
}
