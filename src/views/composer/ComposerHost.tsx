import { lazy, Suspense } from 'react'
import { useSelector } from '@xstate/react'
import { useComposer } from '../actors'

// The Create Post dialog, for the app's composer actor (opened from the shell's buttons and the Home box). The dialog
// (form, previews, rules) loads the first time it opens, not with Home.

const loadComposerDialog = () => import('./ComposerDialog')
const ComposerDialog = lazy(() => loadComposerDialog().then((m) => ({ default: m.ComposerDialog })))

/** Starts fetching the dialog while the member is still reading, so the first Create Post opens at once. */
export function preloadComposer(): void {
  void loadComposerDialog()
}

export function ComposerHost() {
  const composer = useComposer()
  const open = useSelector(composer, (s) => s?.hasTag('open') ?? false)
  if (!composer || !open) return null
  return (
    <Suspense fallback={null}>
      <ComposerDialog composer={composer} />
    </Suspense>
  )
}
