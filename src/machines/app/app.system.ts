import type { SnapshotFrom } from 'xstate'
import type { ComposerRef } from '../composer/composer.machine'
import type { ConversationsRef } from '../conversations/conversations.machine'
import type { KeysRef } from '../keys/keys'
import type { NotificationsRef } from '../notifications/notifications.machine'
import type { PostsRef } from '../posts/posts.machine'
import type { SessionMachine } from '../session/session.machine'
import type { ShareRef } from '../share/share.machine'
import type { ThemeRef } from '../theme/theme.machine'
import type { ToastsRef } from '../toasts/toasts.machine'
import type { ActorRefFrom } from 'xstate'

// The long-lived actors of the app, by systemId: children of the app actor (src/machines/app/app.machine.ts).
// Any actor in the system reaches them with `system.get(id)`; views with `useAppActor(id)` (src/views/app-actors.tsx).

export type SessionSnapshot = SnapshotFrom<SessionMachine>

export interface AppSystem {
  /** Who is signed in; always running. */
  session: ActorRefFrom<SessionMachine>
  /** Light or dark; always running. */
  theme: ThemeRef
  /** The toasts on screen; always running. */
  toasts: ToastsRef
  /** The member's message keys (status, conversation keys); always running, empty while signed out. */
  keys: KeysRef
  /** The post cache; while signed in. */
  posts: PostsRef
  /**
   * The Create Post dialog; while signed in, from just after the first screen (its code loads then, or when a screen
   * needs it, like the conversation list's: src/machines/member/member.machine.ts).
   */
  composer: ComposerRef
  /**
   * The conversation list, its open conversation and the Messages badge; while signed in, from just after the first
   * screen (as the composer).
   */
  conversations: ConversationsRef
  /** The unread notification count (the Notifications badge); while signed in. */
  notifications: NotificationsRef
  /** A post's Share button (share sheet or clipboard); while signed in, from just after the first screen. */
  share: ShareRef
}

export type AppSystemId = keyof AppSystem

