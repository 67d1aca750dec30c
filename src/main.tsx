import './index.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createActor } from 'xstate'
import { sessionBridge } from './api/client'
import { sessionMachine } from './machines/session/session.machine'
import { readStoredSession } from './machines/session/session.storage'
import { themeStore, type Theme } from './machines/theme/theme.store'
import { AppActorsProvider } from './views/actors'
import { App } from './views/App'
import { preloadRoutes } from './views/routes/chunks'

// Wires the app together once: the session actor (restored from localStorage), the api client's token and 401
// hook, the theme class on <html>, and, in development builds only, the state machine inspector (Alt+Shift+I).

/** Dark is a class on <html>, so the whole page (and the browser's own widgets) switch at once. */
function applyTheme(theme: Theme) {
  const html = document.documentElement
  html.classList.toggle('dark', theme === 'dark')
  html.style.colorScheme = theme
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', theme === 'dark' ? '#0d1218' : '#f6f8fa')
}

async function start() {
  // `import.meta.env.DEV` is `false` in production builds, so this import and the inspector are dropped there.
  const devtools = import.meta.env.DEV ? await import('./devtools') : null
  const inspect = devtools?.inspect

  const stored = readStoredSession()
  preloadRoutes(stored.token !== null)
  const session = createActor(sessionMachine, { input: { stored }, inspect })
  sessionBridge.setTokenProvider(() => session.getSnapshot().context.token)
  sessionBridge.onUnauthorized(() => session.send({ type: 'session.expired' }))
  session.start()

  applyTheme(themeStore.getSnapshot().context.theme)
  themeStore.subscribe((snapshot) => applyTheme(snapshot.context.theme))

  const container = document.getElementById('root')
  if (!container) throw new Error('index.html has no #root')
  createRoot(container).render(
    <StrictMode>
      <AppActorsProvider value={{ session, inspect }}>
        <App />
      </AppActorsProvider>
      {devtools ? <devtools.InspectorPanel store={devtools.inspectionStore} /> : null}
    </StrictMode>,
  )
}

void start()
