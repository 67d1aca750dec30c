import { createContext, use, useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import { useSelector } from '@xstate/react'
import type { ActorRefFrom, AnyActorLogic, InputFrom } from 'xstate'
import type { AppRef } from '../machines/app/app.machine'
import type { AppSystem, AppSystemId } from '../machines/app/app.system'
import type { ConversationsRef } from '../machines/conversations/conversations.machine'
import type { ComposerRef } from '../machines/composer/composer.machine'
import type { MemberRef, Told } from '../machines/member/member.machine'

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
/** The message keys: read the status with useSelector (keys.selectors.ts). */
export const useKeys = () => useAppActor('keys')
/** The post cache: send it `posts.received` with the posts a list loaded; read posts by id with useSelector. */
export const usePosts = () => useAppActor('posts')

function useMember(): MemberRef {
  const member = useSelector(useApp(), (s) => s.children.member as MemberRef | undefined)
  if (!member) throw new Error('The app has no member actor here (is the member signed in?)')
  return member
}

/**
 * Tells the Create Post composer (`composer.open`, `composer.quote`...) or the Share button's actor (`share.post`).
 * Their code loads after the first screen (src/machines/member/member.machine.ts); told earlier, the member actor
 * loads it at once and hands the event over as they start.
 */
export function useTell(): (told: Told) => void {
  const member = useMember()
  return (told) => member.send({ type: 'member.tell', ...told })
}

/**
 * The Create Post composer, to read (the dialog, the Drafts screen); undefined until its code has loaded. A screen
 * that needs it at once passes `now`, which asks the member actor to load it without waiting.
 */
export function useComposer(now = false): ComposerRef | undefined {
  return useLater('composer', now) as ComposerRef | undefined
}

/**
 * The conversation list (Messages, the badge): send it `conversation.start`, `conversation.open`... Undefined until
 * its code has loaded, like the composer's; `now` as there.
 */
export function useConversations(now = false): ConversationsRef | undefined {
  return useLater('conversations', now) as ConversationsRef | undefined
}

function useLater(id: 'composer' | 'conversations', now: boolean) {
  const member = useMember()
  const actor = useSelector(member, (s) => (s.children as Record<string, unknown>)[id])
  useEffect(() => {
    if (now) member.send({ type: 'member.later.needed' })
  }, [member, now])
  return actor
}
/** The unread notification count, for the badge: read it with useSelector (notifications.selectors.ts). */
export const useNotifications = () => useAppActor('notifications')

/**
 * A screen's own actor (feed, profile, post page, a form): spawned as a child of the app actor when the screen mounts
 * and stopped when it goes, so it is part of the app's system (it reaches the toasts, the inspector shows it). The
 * logic and input are read once, like `useActorRef`. Null only during the first render, before the layout effect has
 * spawned it (nothing is painted in between).
 */
export function useScreenActor<TLogic extends AnyActorLogic>(logic: TLogic, input?: InputFrom<TLogic>): ActorRefFrom<TLogic> | null {
  const app = useApp()
  const id = `screen${useId()}`
  const initial = useRef({ logic, input })
  const [actor, setActor] = useState<ActorRefFrom<TLogic> | null>(null)
  useLayoutEffect(() => {
    app.send({ type: 'app.screen.open', id, logic: initial.current.logic, input: initial.current.input })
    setActor((app.getSnapshot().children[id] as ActorRefFrom<TLogic> | undefined) ?? null)
    return () => app.send({ type: 'app.screen.close', id })
  }, [app, id])
  return actor
}

/** Renders `children` with the screen's own actor once it runs (see `useScreenActor`). */
export function ScreenActor<TLogic extends AnyActorLogic>({
  logic,
  input,
  children,
}: {
  logic: TLogic
  input?: InputFrom<TLogic>
  children: (actor: ActorRefFrom<TLogic>) => ReactNode
}) {
  const actor = useScreenActor(logic, input)
  return actor ? children(actor) : null
}
