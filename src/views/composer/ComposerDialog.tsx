import type { ComposerRef } from '../../machines/composer/composer.machine'
import { useSelector } from '@xstate/react'
import { selectEditing } from '../../machines/composer/composer.selectors'
import { Dialog } from '../ui/Overlay'
import { ComposerForm } from './ComposerForm'

/**
 * The Create Post dialog (the shell's Create Post buttons and Home's What's happening box), and the Edit Post dialog
 * (an own post's Edit). Escape, the backdrop and
 * the close button ask the composer to close; it refuses while the post is being sent.
 */
export function ComposerDialog({ composer }: { composer: ComposerRef }) {
  const editing = useSelector(composer, (s) => selectEditing(s) !== null)
  return (
    <Dialog open onClose={() => composer.send({ type: 'composer.close' })} title={editing ? 'Edit Post' : 'Create Post'} size="lg">
      <ComposerForm composer={composer} />
    </Dialog>
  )
}
