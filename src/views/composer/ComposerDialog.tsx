import type { ComposerRef } from '../../machines/composer/composer.machine'
import { Dialog } from '../ui/Overlay'
import { ComposerForm } from './ComposerForm'

/**
 * The Create Post dialog (the shell's Create Post buttons and Home's What's happening box). Escape, the backdrop and
 * the close button ask the composer to close; it refuses while the post is being sent.
 */
export function ComposerDialog({ composer }: { composer: ComposerRef }) {
  return (
    <Dialog open onClose={() => composer.send({ type: 'composer.close' })} title="Create Post" size="lg">
      <ComposerForm composer={composer} />
    </Dialog>
  )
}
