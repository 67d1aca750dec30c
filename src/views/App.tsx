import { Suspense } from 'react'
import { useSelector } from '@xstate/react'
import { selectIsBooting, selectIsSignedIn } from '../machines/app/app.selectors'
import { useApp } from './actors'
import { ErrorBoundary } from './ErrorBoundary'
import { SignedInRoutes, SignedOutRoutes } from './routes/chunks'
import { FullScreenSpinner } from './ui/Spinner'
import { Toaster } from './ui/Toaster'

/** The access gate (docs/product.md, "Screens and routes"): a spinner while checking, then one of two route sets. */
function Gate() {
  const app = useApp()
  const loading = useSelector(app, selectIsBooting)
  const authenticated = useSelector(app, selectIsSignedIn)
  if (loading) return <FullScreenSpinner />
  return <Suspense fallback={<FullScreenSpinner />}>{authenticated ? <SignedInRoutes /> : <SignedOutRoutes />}</Suspense>
}

export function App() {
  return (
    <ErrorBoundary>
      <Gate />
      <Toaster />
    </ErrorBoundary>
  )
}
