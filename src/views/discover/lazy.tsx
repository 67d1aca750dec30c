import { lazy, Suspense } from 'react'
import type { DiscoverPanelsProps } from '../search/DiscoverPanels'

const Box = lazy(() => import('./DiscoverBox').then((m) => ({ default: m.DiscoverBox })))

/** DiscoverBox, loaded when first shown. */
export function LazyDiscoverBox({ show, dense }: Pick<DiscoverPanelsProps, 'show' | 'dense'>) {
  return (
    <Suspense fallback={null}>
      <Box show={show} dense={dense} />
    </Suspense>
  )
}
