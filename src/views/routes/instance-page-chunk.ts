import { lazy } from 'react'

/**
 * /terms and /privacy, for signed-out visitors and members alike: their own chunk (with the markdown renderer), loaded
 * on the first visit, so neither first load carries it. Both route sets take it from here, apart from the file that
 * loads the route sets themselves.
 */
export const InstancePageScreen = lazy(() =>
  import('../pages/InstancePageScreen').then((m) => ({ default: m.InstancePageScreen })),
)
