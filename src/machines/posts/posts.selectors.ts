import type { SnapshotFrom } from 'xstate'
import type { PostsMachine } from './posts.machine'

// Narrow reads of the post cache for one card (one useSelector each), so a like re-renders that card only.
type PostsSnapshot = SnapshotFrom<PostsMachine>

export const selectPost = (id: string) => (s: PostsSnapshot) => s.context.entities[id]
export const selectIsDeleting = (id: string) => (s: PostsSnapshot) => s.context.deleting[id] === true
export const selectIsRevealed = (id: string) => (s: PostsSnapshot) => s.context.revealed[id] === true
