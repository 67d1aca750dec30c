import type { SnapshotFrom } from 'xstate'
import type { PostPageMachine } from './post-page.machine'

// Narrow reads of the post page for its views (one useSelector each).
type PostPageSnapshot = SnapshotFrom<PostPageMachine>

export const selectIsLoading = (s: PostPageSnapshot) => s.matches('loading')
/** 'Post not found': missing, not visible, unreachable, or deleted from this page (while leaving). */
export const selectIsMissing = (s: PostPageSnapshot) => s.matches('notFound') || s.matches('deleted')
export const selectReplies = (s: PostPageSnapshot) => s.context.replies
export const selectCanLoadMore = (s: PostPageSnapshot) => s.can({ type: 'replies.loadMore' })
export const selectIsLoadingMore = (s: PostPageSnapshot) => s.matches({ loaded: 'loadingMore' })
