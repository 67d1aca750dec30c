import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Dialog } from '../ui/Overlay'

/** The confirmation before deleting a message or a conversation: Cancel (focused) or the danger action. */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  onCancel,
  onConfirm,
}: {
  open: boolean
  title: string
  description: string
  confirmLabel: string
  onCancel: () => void
  onConfirm: () => void
}) {
  return (
    <Dialog open={open} onClose={onCancel} title={title} description={description}>
      <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2', mt: '2' })}>
        <button type="button" className={button({ variant: 'outline' })} onClick={onCancel} data-autofocus>
          Cancel
        </button>
        <button type="button" className={button({ variant: 'danger' })} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  )
}
