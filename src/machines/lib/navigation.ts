// Machines navigate through this instead of importing the router (machines stay free of React).
// wouter's browser location hook listens to history.pushState/replaceState, so the views follow.
// `replace` rewrites the current entry instead (e.g. dropping a one-shot query like ?show-help=true, so Back does not
// bring it back).
export function navigate(to: string, { replace = false }: { replace?: boolean } = {}): void {
  if (typeof window === 'undefined') return
  if (window.location.pathname + window.location.search === to) return
  if (replace) window.history.replaceState(null, '', to)
  else window.history.pushState(null, '', to)
}
