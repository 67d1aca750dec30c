import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Dialog } from '../ui/Overlay'

/** The confirmation before deleting (docs/product.md, "Deleting a post"). */
export function DeletePostDialog({ open, onCancel, onConfirm }: { open: boolean; onCancel: () => void; onConfirm: () => void }) {
  return (
    <Dialog open={open} onClose={onCancel} title="Delete post?" description="Are you sure you want to delete this post?">
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>It will be removed from every feed and profile. This can't be undone.</p>
      <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2', mt: '5' })}>
        <button type="button" className={button({ variant: 'outline' })} onClick={onCancel} data-autofocus>
          Cancel
        </button>
        <button type="button" className={button({ variant: 'danger' })} onClick={onConfirm}>
          Delete
        </button>
      </div>
    </Dialog>
  )
}
