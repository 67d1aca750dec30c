import { Suspense } from 'react'
import { useSelector } from '@xstate/react'
import { createPortal } from 'react-dom'
import { css } from 'styled-system/css'
import { useToasts } from '../actors'
import { chunk } from '../lazy-chunk'
import { useAfterFirstScreen } from './useAfterFirstScreen'

// Toasts at the bottom right (docs/product.md, "Toasts"); on phones they sit above the bottom bar. Rendered outside
// #root so they stay usable while a dialog makes the page inert. The live region is always there, so a screen reader
// hears the first toast; what draws the toasts is its own chunk, fetched by the first toast or once the first screen
// is up, so a first load does without it.

const region = css({
  position: 'fixed',
  zIndex: 60,
  right: { base: '3', md: '6' },
  left: { base: '3', md: 'auto' },
  bottom: { base: 'calc(4.5rem + env(safe-area-inset-bottom))', lg: '6' },
  display: 'flex',
  flexDirection: 'column',
  alignItems: { base: 'stretch', md: 'flex-end' },
  gap: '2',
  pointerEvents: 'none',
})

const ToastList = chunk(() => import('./ToastList')).lazy((m) => m.ToastList)

export function Toaster() {
  const toastsActor = useToasts()
  const any = useSelector(toastsActor, (s) => s.context.toasts.length > 0)
  const firstScreenUp = useAfterFirstScreen()
  return createPortal(
    <section aria-label="Notifications" aria-live="polite" className={region}>
      {any || firstScreenUp ? (
        <Suspense fallback={null}>
          <ToastList toastsActor={toastsActor} />
        </Suspense>
      ) : null}
    </section>,
    document.body,
  )
}
