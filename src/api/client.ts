import createClient, { type Client, type Middleware } from 'openapi-fetch'
import type { paths } from './contract/schema'

// One typed client for the whole SPA. It knows nothing about the session actor: the actor plugs in a token provider
// and subscribes to "unauthorized", so src/api never imports src/machines (no import cycle, and tests can use a fresh
// bridge per client).

export type ApiClient = Client<paths>
export type TokenProvider = () => string | null
type Listener = () => void

/** Calls where 401 means "wrong credentials" (shown on the form), not "your session ended". */
const CREDENTIAL_PATHS: ReadonlySet<string> = new Set(['/auth/login', '/auth/register'])

export interface SessionBridge {
  /** Where the bearer token comes from on every request; returning null sends no Authorization header. */
  setTokenProvider(provider: TokenProvider): void
  /** Called once per 401 answer from any call but login/register. Returns an unsubscribe function. */
  onUnauthorized(listener: Listener): () => void
  readonly middleware: Middleware
}

export function createSessionBridge(): SessionBridge {
  let tokenProvider: TokenProvider = () => null
  const listeners = new Set<Listener>()

  const middleware: Middleware = {
    onRequest({ request }) {
      const token = tokenProvider()
      if (token) request.headers.set('Authorization', `Bearer ${token}`)
      return request
    },
    onResponse({ response, schemaPath }) {
      if (response.status === 401 && !CREDENTIAL_PATHS.has(schemaPath)) {
        // Snapshot the set: a listener may unsubscribe while we iterate.
        for (const listener of [...listeners]) listener()
      }
      return response
    },
  }

  return {
    middleware,
    setTokenProvider(provider) {
      tokenProvider = provider
    },
    onUnauthorized(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
  }
}

export interface ApiClientOptions {
  /** Defaults to '/api' (same origin; vite proxies it in development). Tests pass an absolute URL. */
  baseUrl?: string
  /** Tests pass a fake fetch. */
  fetch?: (request: Request) => Promise<Response>
  bridge: SessionBridge
}

export function createApiClient({ baseUrl = '/api', fetch, bridge }: ApiClientOptions): ApiClient {
  const client = createClient<paths>({ baseUrl, ...(fetch ? { fetch } : {}) })
  client.use(bridge.middleware)
  return client
}

/** The app's bridge and client. src/main.tsx connects the bridge to the session actor. */
export const sessionBridge = createSessionBridge()
export const api = createApiClient({ bridge: sessionBridge })
