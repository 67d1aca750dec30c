import './index.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createActor } from 'xstate'
import { appMachine } from './machines/app/app.machine'
import { installBootPrefetch } from './machines/lib/boot-prefetch'
import { readStoredSession } from './machines/session/session.storage'
import type { Theme } from './machines/theme/theme.machine'
import { readStoredTheme } from './machines/theme/theme.storage'
import { AppProvider } from './views/actors'
import { App } from './views/App'
import { preloadRoutes } from './views/routes/chunks'

// Starts the app actor once (restored from localStorage: session and theme), keeps the theme class on <html>, and,
// in development builds only, the state machine inspector (Alt+Shift+I) over the whole actor system.

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

  // What public/boot-prefetch.js already asked the server (the session check, Home's first page): the actors adopt it.
  const boot = window as { __wrenBoot?: unknown }
  installBootPrefetch(boot.__wrenBoot)
  delete boot.__wrenBoot
  const stored = readStoredSession()
  preloadRoutes(stored.token !== null)
  const app = createActor(appMachine, { input: { stored, theme: readStoredTheme() }, inspect: devtools?.inspect })
  app.start()

  const theme = app.system.get('theme')
  applyTheme(theme.getSnapshot().context.theme)
  theme.subscribe((snapshot: { context: { theme: Theme } }) => applyTheme(snapshot.context.theme))

  const container = document.getElementById('root')
  if (!container) throw new Error('index.html has no #root')
  createRoot(container).render(
    <StrictMode>
      <AppProvider app={app}>
        <App />
      </AppProvider>
      {devtools ? <devtools.InspectorPanel store={devtools.inspectionStore} /> : null}
    </StrictMode>,
  )
}

void start()
