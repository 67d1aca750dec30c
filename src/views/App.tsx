import { Suspense } from 'react'
import { useSelector } from '@xstate/react'
import { selectIsAuthenticated, selectIsLoading } from '../machines/session/session.selectors'
import { useSession } from './actors'
import { ErrorBoundary } from './ErrorBoundary'
import { SignedInRoutes, SignedOutRoutes } from './routes/chunks'
import { FullScreenSpinner } from './ui/Spinner'
import { Toaster } from './ui/Toaster'

/** The access gate (docs/product.md, "Screens and routes"): a spinner while checking, then one of two route sets. */
function Gate() {
  const session = useSession()
  const loading = useSelector(session, selectIsLoading)
  const authenticated = useSelector(session, selectIsAuthenticated)
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
