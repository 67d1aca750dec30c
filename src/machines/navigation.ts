// Machines navigate through this instead of importing the router (machines stay free of React).
// wouter's browser location hook listens to history.pushState, so the views follow.
export function navigate(to: string): void {
  if (typeof window === 'undefined') return
  if (window.location.pathname + window.location.search === to) return
  window.history.pushState(null, '', to)
}
