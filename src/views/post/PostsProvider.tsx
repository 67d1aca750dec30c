import { createContext, lazy, Suspense, use, type ReactNode } from 'react'
import { useActorRef, useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { composerMachine, type ComposerMachine } from '../../machines/composer/composer.machine'
import { postsMachine, type PostsRef } from '../../machines/posts/posts.machine'
import { useInspect } from '../actors'

// The signed-in area's post actors, shared by every screen: the post cache (every list's posts, stored once by id)
// and the Create Post composer (one dialog, opened from the shell's buttons and the Home box). Mounted once around the
// shell in SignedInRoutes; they stop when the member signs out.

export type ComposerRef = ActorRefFrom<ComposerMachine>

interface PostActors {
  posts: PostsRef
  composer: ComposerRef
}

const PostActorsContext = createContext<PostActors | null>(null)

function usePostActors(): PostActors {
  const actors = use(PostActorsContext)
  if (!actors) throw new Error('PostsProvider is missing above this screen')
  return actors
}

/** The post cache: send it `posts.received` with the posts a list loaded; read posts by id with useSelector. */
export const usePosts = (): PostsRef => usePostActors().posts
/** The Create Post composer: send it `composer.open`. */
export const useComposer = (): ComposerRef => usePostActors().composer

// The dialog (form, previews, rules) loads the first time it opens, not with Home.
const loadComposerDialog = () => import('../composer/ComposerDialog')
const ComposerDialog = lazy(() => loadComposerDialog().then((m) => ({ default: m.ComposerDialog })))

/** Starts fetching the dialog while the member is still reading, so the first Create Post opens at once. */
export function preloadComposer(): void {
  void loadComposerDialog()
}

function ComposerDialogHost({ composer }: { composer: ComposerRef }) {
  const open = useSelector(composer, (s) => s.hasTag('open'))
  if (!open) return null
  return (
    <Suspense fallback={null}>
      <ComposerDialog composer={composer} />
    </Suspense>
  )
}

export function PostsProvider({ children }: { children: ReactNode }) {
  const inspect = useInspect()
  const posts = useActorRef(postsMachine, { inspect })
  const composer = useActorRef(composerMachine, { input: { posts }, inspect })
  return (
    <PostActorsContext value={{ posts, composer }}>
      {children}
      <ComposerDialogHost composer={composer} />
    </PostActorsContext>
  )
}
