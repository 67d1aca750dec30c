import { createContext, use, type ReactNode } from 'react'
import { useActorRef } from '@xstate/react'
import type { ActorOptions, AnyActorLogic } from 'xstate'
import type { AppRef } from '../machines/app/app.machine'
import type { AppSystem, AppSystemId } from '../machines/app/app.system'

// The one provider: the app actor (src/machines/app), created once in src/main.tsx. Views reach the long-lived actors
// by systemId (`useAppActor('posts')`) and read them with `useSelector`; screen actors join the same system
// (`useScreenActor`), so they can reach the long-lived ones and show up in the inspector's tree.

const AppContext = createContext<AppRef | null>(null)

export function AppProvider({ app, children }: { app: AppRef; children: ReactNode }) {
  return <AppContext value={app}>{children}</AppContext>
}

export function useApp(): AppRef {
  const app = use(AppContext)
  if (!app) throw new Error('AppProvider is missing above this screen')
  return app
}

/** A long-lived actor by systemId. Signed-in-only actors (posts, composer) exist below the signed-in routes. */
export function useAppActor<K extends AppSystemId>(id: K): AppSystem[K] {
  const actor = useApp().system.get(id) as AppSystem[K] | undefined
  if (!actor) throw new Error(`The app has no "${id}" actor here (is the member signed in?)`)
  return actor
}

export const useSession = () => useAppActor('session')
export const useTheme = () => useAppActor('theme')
export const useToasts = () => useAppActor('toasts')
/** The post cache: send it `posts.received` with the posts a list loaded; read posts by id with useSelector. */
export const usePosts = () => useAppActor('posts')
/** The Create Post composer: send it `composer.open`. */
export const useComposer = () => useAppActor('composer')

/**
 * A screen's own actor (feed, profile, post page, a form): created with the screen, stopped when it goes, and part of
 * the app's system (its parent is the app actor).
 */
export function useScreenActor<TLogic extends AnyActorLogic>(logic: TLogic, options: Omit<ActorOptions<TLogic>, 'parent'> = {}) {
  const app = useApp()
  return useActorRef(logic, { ...options, parent: app } as ActorOptions<TLogic>)
}
