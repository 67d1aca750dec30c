import { assertEvent, assign, emit, enqueueActions, setup, spawnChild, stopChild, type ActorRefFrom } from 'xstate'
import { run } from '../../api/calls'
import { bookmarkCalls } from '../../api/bookmarks.calls'
import { isApiError, limitMessage, serverMessageOr } from '../../api/errors'
import { postCalls, type Poll, type Post } from '../../api/posts.calls'
import { BOOKMARK_REMOVE_FAILED, BOOKMARK_REMOVED } from '../bookmarks/bookmarks.rules'
import { showToast } from '../toasts/notify'
import { callActor } from '../lib/call-actor'
import {
  flipped,
  readReaction,
  toPost,
  upsert,
  without,
  writeReaction,
  type Entities,
  type Reaction,
  type ReactionBefore,
} from './posts.model'
import { canBeReposted, isHiddenAsSensitive } from './posts.rules'

// The post cache: every post the member has seen, stored once by id. Lists (home feed, post page, profile) hold ids
// and read the posts from here, so a like, a repost or a deletion shows everywhere at once.
// - Like and repost are optimistic: the card changes at once, the server's answer (new state and count) replaces it,
//   and a refusal puts back what was shown before. While one is in flight, another click on the same button waits.
// - Delete waits for the server, then removes the post, tells the lists (`post.deleted`) and says 'Post deleted'.
//   Failures of all three are silent (docs/product.md, "Likes and reposts", "Deleting a post").
// - A member the viewer just blocked (`author.blocked`, sent by the block actor once the server agreed) takes their
//   posts with them: each is removed and announced deleted, so every list on screen drops it at once.
// - A member the viewer just muted (`author.muted`, sent by the mute actor) is feed-only: the posts stay here (the
//   profile and the post page still show them) and the lists hear `author.muted` with the member and the ids of
//   their stored posts; only Home acts on it.
// - A post the server marked `muted` (the post page, opened directly) hides behind its notice until 'Show anyway'
//   (`post.showMuted`), kept here like the sensitive reveal.
// - A post created by a composer is stored and announced (`post.created`) so the lists can show it without a refetch.

export const POST_DELETED = 'Post deleted'

export type PostsEvent =
  | { type: 'posts.received'; posts: ReadonlyArray<Post> }
  | { type: 'post.created'; post: Post }
  | { type: 'post.like'; id: string }
  | { type: 'post.repost'; id: string }
  | { type: 'post.reaction.settled'; id: string; reaction: Reaction; active: boolean; count: number }
  | { type: 'post.reaction.refused'; id: string; reaction: Reaction; error?: unknown }
  | { type: 'post.reveal'; id: string }
  | { type: 'post.delete'; id: string }
  | { type: 'post.delete.succeeded'; id: string }
  | { type: 'post.delete.failed'; id: string }
  | { type: 'author.blocked'; authorId: string }
  | { type: 'author.muted'; authorId: string }
  | { type: 'post.showMuted'; id: string }
  /** The quoted author detached their post from this quote (detach-quote.machine.ts): it shows unavailable. */
  | { type: 'post.quote.detached'; id: string }
  /**
   * The bookmark button: the other state. The Bookmarks dialog's Remove asks for one (`bookmarked: false`), so that a
   * removal takes one path, whichever button asked.
   */
  | { type: 'post.bookmark'; id: string; bookmarked?: boolean }
  | { type: 'post.bookmark.settled'; id: string; bookmarked: boolean }
  | { type: 'post.bookmark.refused'; id: string; bookmarked: boolean; error: unknown }
  /** A bookmark added or removed elsewhere (the Bookmarks dialog): the cards follow. */
  | { type: 'post.bookmarked'; id: string; bookmarked: boolean }
  /** A vote the server counted (the poll actor, src/machines/poll): the post's poll as the voter now sees it. */
  | { type: 'post.poll.voted'; id: string; poll: Poll }

/** What lists listen to (`actor.on(...)`). */
export type PostsEmitted =
  | { type: 'post.created'; post: Post }
  | { type: 'post.deleted'; id: string }
  | { type: 'author.muted'; authorId: string; ids: ReadonlyArray<string> }
  | { type: 'author.blocked'; authorId: string }
  /** A card's bookmark button saved or removed the post (the Bookmarks dialog follows). */
  | { type: 'post.bookmarked'; id: string; bookmarked: boolean }

export interface PostsContext {
  entities: Entities
  /** Reactions waiting for the server, by post id, with what they showed before. */
  pending: Record<Reaction, Readonly<Record<string, ReactionBefore>>>
  /** Posts whose deletion is waiting for the server. */
  deleting: Readonly<Record<string, true>>
  /** Sensitive posts the member chose to see ('Show anyway'); kept here so a scrolled-away card stays revealed. */
  revealed: Readonly<Record<string, true>>
  /** Muted posts the member chose to see on the post page ('Show anyway'). */
  shownMuted: Readonly<Record<string, true>>
  /** Bookmark toggles waiting for the server, by post id: what the card showed before (to roll back). */
  bookmarking: Readonly<Record<string, boolean>>
}

interface ReactionInput {
  id: string
  reaction: Reaction
}

/** The ids of the stored posts written by one member. */
const postIdsBy = (entities: Entities, authorId: string): string[] =>
  Object.values(entities)
    .filter((post) => post.author.id === authorId)
    .map((post) => post.id)

/** The child actor id of a call about one post. */
export const callId = (kind: Reaction | 'delete' | 'bookmark', id: string) => `${kind}:${id}`

/** Saving a post already saved (409) or removing a bookmark already gone (404) is what the member wanted: done. */
const alreadyDone = (error: unknown, bookmarked: boolean) =>
  isApiError(error) && (bookmarked ? error._tag === 'Invalid' && error.status === 409 : error._tag === 'NotFound')

const bookmarkCall = callActor<{ id: string; bookmarked: boolean }, void>(
  ({ id, bookmarked }, signal) =>
    (bookmarked ? run(bookmarkCalls.createBookmark(id), signal) : run(bookmarkCalls.deletePostBookmark(id), signal)).then(
      () => undefined,
      (error: unknown) => {
        if (!alreadyDone(error, bookmarked)) throw error
      },
    ),
  {
    done: ({ id, bookmarked }) => ({ type: 'post.bookmark.settled', id, bookmarked }),
    failed: ({ id, bookmarked }, error) => ({ type: 'post.bookmark.refused', id, bookmarked, error }),
  },
)

const reactionCall = callActor<ReactionInput, { active: boolean; count: number }>(
  ({ id, reaction }, signal) =>
    reaction === 'like'
      ? run(postCalls.toggleLike(id), signal).then((r) => ({ active: r.liked, count: r.likeCount }))
      : run(postCalls.toggleRepost(id), signal).then((r) => ({ active: r.reposted, count: r.repostCount })),
  {
    done: ({ id, reaction }, out) => ({ type: 'post.reaction.settled', id, reaction, ...out }),
    failed: ({ id, reaction }, error) => ({ type: 'post.reaction.refused', id, reaction, error }),
  },
)

const deleteCall = callActor<{ id: string }, void>(({ id }, signal) => run(postCalls.deletePost(id), signal), {
  done: ({ id }) => ({ type: 'post.delete.succeeded', id }),
  failed: ({ id }) => ({ type: 'post.delete.failed', id }),
})

export const postsMachine = setup({
  types: {
    context: {} as PostsContext,
    events: {} as PostsEvent,
    emitted: {} as PostsEmitted,
  },
  actors: { reactionCall, deleteCall, bookmarkCall },
  actions: {
    store: assign(({ context }, posts: ReadonlyArray<Post>) => ({
      entities: upsert(context.entities, posts, context.pending, context.bookmarking),
    })),
    /** A new reply adds one to its parent's reply count, wherever the parent shows (once, even if announced twice). */
    countReply: assign(({ context }, post: Post) => {
      const parent = post.replyTo ? context.entities[post.replyTo] : undefined
      if (!parent || context.entities[post.id]) return {}
      return { entities: { ...context.entities, [parent.id]: { ...parent, replyCount: parent.replyCount + 1 } } }
    }),
    setPoll: assign(({ context }, { id, poll }: { id: string; poll: Poll }) => {
      const post = context.entities[id]
      return post ? { entities: { ...context.entities, [id]: { ...post, poll } } } : {}
    }),
    announceCreated: emit((_, post: Post) => ({ type: 'post.created' as const, post: toPost(post) })),
    /** Shows the reaction's result at once and remembers what was shown, for a refusal. */
    flip: assign(({ context }, { id, reaction }: ReactionInput) => {
      const post = context.entities[id]
      if (!post) return {}
      const before = readReaction(post, reaction)
      return {
        entities: { ...context.entities, [id]: writeReaction(post, reaction, flipped(before)) },
        pending: { ...context.pending, [reaction]: { ...context.pending[reaction], [id]: before } },
      }
    }),
    /** The server's state and count (settled), or what was shown before the click (refused: `value` null). */
    settle: assign(({ context }, { id, reaction, value }: ReactionInput & { value: ReactionBefore | null }) => {
      const post = context.entities[id]
      const shown = value ?? context.pending[reaction][id]
      return {
        entities: post && shown ? { ...context.entities, [id]: writeReaction(post, reaction, shown) } : context.entities,
        pending: { ...context.pending, [reaction]: without(context.pending[reaction], id) },
      }
    }),
    /** The card shows the new state at once; what it showed before is kept for a refusal. */
    flipBookmark: assign(({ context }, id: string) => {
      const post = context.entities[id]
      if (!post) return {}
      return {
        entities: { ...context.entities, [id]: { ...post, bookmarked: !post.bookmarked } },
        bookmarking: { ...context.bookmarking, [id]: post.bookmarked },
      }
    }),
    /** Settled: the new state stays. Refused: what was shown before comes back. */
    settleBookmark: assign(({ context }, { id, refused }: { id: string; refused: boolean }) => {
      const post = context.entities[id]
      const before = context.bookmarking[id]
      return {
        entities: refused && post && before !== undefined ? { ...context.entities, [id]: { ...post, bookmarked: before } } : context.entities,
        bookmarking: without(context.bookmarking, id),
      }
    }),
    setBookmarked: assign(({ context }, { id, bookmarked }: { id: string; bookmarked: boolean }) => {
      const post = context.entities[id]
      return post ? { entities: { ...context.entities, [id]: { ...post, bookmarked } } } : {}
    }),
    announceBookmarked: emit((_, { id, bookmarked }: { id: string; bookmarked: boolean }) => ({
      type: 'post.bookmarked' as const,
      id,
      bookmarked,
    })),
    /** A refused reaction is silent, unless a rate limit refused it: then the server says how long to wait. */
    notifyLimited: ({ system }, { error }: { error: unknown }) => {
      const limited = limitMessage(error)
      if (limited) showToast(system, 'error', limited)
    },
    /**
     * 'Bookmark removed' when a removal went through; a refused removal says why (a refused save is silent, unless a
     * rate limit refused it).
     */
    notifyBookmark: ({ system }, outcome: { bookmarked: boolean; error?: unknown; refused: boolean }) => {
      const limited = outcome.refused ? limitMessage(outcome.error) : null
      if (limited) showToast(system, 'error', limited)
      else if (outcome.bookmarked) return
      else if (outcome.refused) showToast(system, 'error', serverMessageOr(outcome.error, BOOKMARK_REMOVE_FAILED))
      else showToast(system, 'success', BOOKMARK_REMOVED)
    },
    reveal: assign(({ context }, id: string) => ({ revealed: { ...context.revealed, [id]: true as const } })),
    showMuted: assign(({ context }, id: string) => ({ shownMuted: { ...context.shownMuted, [id]: true as const } })),
    detachQuote: assign(({ context }, id: string) => {
      const post = context.entities[id]
      return post?.quote ? { entities: { ...context.entities, [id]: { ...post, quote: { post: null } } } } : {}
    }),
    /** Tells the lists which stored posts are by the member just muted; the posts themselves stay. */
    announceMuted: emit(({ context }, authorId: string) => ({
      type: 'author.muted' as const,
      authorId,
      ids: postIdsBy(context.entities, authorId),
    })),
    markDeleting: assign(({ context }, id: string) => ({ deleting: { ...context.deleting, [id]: true as const } })),
    forget: assign(({ context }, id: string) => ({
      deleting: without(context.deleting, id),
      entities: without(context.entities, id),
    })),
    keep: assign(({ context }, id: string) => ({ deleting: without(context.deleting, id) })),
    announceDeleted: emit((_, id: string) => ({ type: 'post.deleted' as const, id })),
    notifyDeleted: ({ system }) => showToast(system, 'success', POST_DELETED),
    /**
     * Removes every post by the author, with its calls in flight (their answers no longer matter), and tells the
     * lists, one `post.deleted` each.
     */
    forgetAuthor: enqueueActions(({ context, enqueue }, authorId: string) => {
      const gone = postIdsBy(context.entities, authorId)
      const drop = <T,>(record: Readonly<Record<string, T>>) => gone.reduce((rest, id) => without(rest, id), record)
      for (const id of gone) {
        if (context.pending.like[id]) enqueue.stopChild(callId('like', id))
        if (context.pending.repost[id]) enqueue.stopChild(callId('repost', id))
        if (context.deleting[id]) enqueue.stopChild(callId('delete', id))
        if (context.bookmarking[id] !== undefined) enqueue.stopChild(callId('bookmark', id))
      }
      enqueue.assign({
        entities: drop(context.entities),
        deleting: drop(context.deleting),
        bookmarking: drop(context.bookmarking),
        pending: { like: drop(context.pending.like), repost: drop(context.pending.repost) },
      })
      for (const id of gone) enqueue.emit({ type: 'post.deleted' as const, id })
      // Then the lists drop what the member reposted: those posts are someone else's and stay stored, but the
      // repost that brought them into Home is gone with the block.
      enqueue.emit({ type: 'author.blocked' as const, authorId })
    }),
  },
  guards: {
    canReact: ({ context }, { id, reaction }: ReactionInput) => {
      const post = context.entities[id]
      if (!post || context.pending[reaction][id] || context.deleting[id]) return false
      return reaction === 'like' || canBeReposted(post)
    },
    isPending: ({ context }, { id, reaction }: ReactionInput) => context.pending[reaction][id] !== undefined,
    canBookmark: ({ context }, { id, bookmarked }: { id: string; bookmarked?: boolean | undefined }) =>
      context.entities[id] !== undefined &&
      context.bookmarking[id] === undefined &&
      !context.deleting[id] &&
      context.entities[id].bookmarked !== bookmarked,
    /** Asked for the state the post is in already (a row the dialog still showed): nothing to ask the server. */
    holdsBookmark: ({ context }, { id, bookmarked }: { id: string; bookmarked?: boolean | undefined }) =>
      bookmarked !== undefined && context.bookmarking[id] === undefined && context.entities[id]?.bookmarked === bookmarked,
    isBookmarking: ({ context }, id: string) => context.bookmarking[id] !== undefined,
    canDelete: ({ context }, id: string) => context.entities[id] !== undefined && !context.deleting[id],
    isDeleting: ({ context }, id: string) => context.deleting[id] === true,
    isHiddenAsMuted: ({ context }, id: string) => context.entities[id]?.muted !== undefined && !context.shownMuted[id],
    /** The cache does not read the member's settings: a reveal is kept even while 'Show sensitive content' is on. */
    isHidden: ({ context }, id: string) => {
      const post = context.entities[id]
      return post !== undefined && isHiddenAsSensitive(post, { revealed: context.revealed[id] === true, showsSensitive: false })
    },
  },
}).createMachine({
  id: 'posts',
  context: { entities: {}, pending: { like: {}, repost: {} }, deleting: {}, revealed: {}, shownMuted: {}, bookmarking: {} },
  initial: 'active',
  states: {
    active: {
      on: {
        'posts.received': { actions: { type: 'store', params: ({ event }) => event.posts } },
        'post.created': {
          actions: [
            { type: 'countReply', params: ({ event }) => event.post },
            { type: 'store', params: ({ event }) => [event.post] },
            { type: 'announceCreated', params: ({ event }) => event.post },
          ],
        },
        'post.like': {
          guard: { type: 'canReact', params: ({ event }) => ({ id: event.id, reaction: 'like' as const }) },
          actions: [
            { type: 'flip', params: ({ event }) => ({ id: event.id, reaction: 'like' as const }) },
            spawnChild('reactionCall', {
              id: ({ event }) => callId('like', event.id),
              input: ({ event }) => {
                assertEvent(event, 'post.like')
                return { id: event.id, reaction: 'like' as const }
              },
            }),
          ],
        },
        'post.repost': {
          guard: { type: 'canReact', params: ({ event }) => ({ id: event.id, reaction: 'repost' as const }) },
          actions: [
            { type: 'flip', params: ({ event }) => ({ id: event.id, reaction: 'repost' as const }) },
            spawnChild('reactionCall', {
              id: ({ event }) => callId('repost', event.id),
              input: ({ event }) => {
                assertEvent(event, 'post.repost')
                return { id: event.id, reaction: 'repost' as const }
              },
            }),
          ],
        },
        'post.reaction.settled': {
          guard: { type: 'isPending', params: ({ event }) => event },
          actions: [
            stopChild(({ event }) => callId(event.reaction, event.id)),
            {
              type: 'settle',
              params: ({ event }) => ({ ...event, value: { active: event.active, count: event.count } }),
            },
          ],
        },
        'post.reaction.refused': {
          guard: { type: 'isPending', params: ({ event }) => event },
          actions: [
            stopChild(({ event }) => callId(event.reaction, event.id)),
            { type: 'settle', params: ({ event }) => ({ ...event, value: null }) },
            { type: 'notifyLimited', params: ({ event }) => ({ error: event.error }) },
          ],
        },
        'post.bookmark': [
          {
            guard: { type: 'canBookmark', params: ({ event }) => event },
            actions: [
              { type: 'flipBookmark', params: ({ event }) => event.id },
              spawnChild('bookmarkCall', {
                id: ({ event }) => callId('bookmark', event.id),
                input: ({ context, event }) => {
                  assertEvent(event, 'post.bookmark')
                  return { id: event.id, bookmarked: context.entities[event.id]?.bookmarked === true }
                },
              }),
            ],
          },
          // The dialog hears what the cache knows, and drops the row.
          {
            guard: { type: 'holdsBookmark', params: ({ event }) => event },
            actions: { type: 'announceBookmarked', params: ({ event }) => ({ id: event.id, bookmarked: event.bookmarked === true }) },
          },
        ],
        'post.bookmark.settled': {
          guard: { type: 'isBookmarking', params: ({ event }) => event.id },
          actions: [
            stopChild(({ event }) => callId('bookmark', event.id)),
            { type: 'settleBookmark', params: ({ event }) => ({ id: event.id, refused: false }) },
            { type: 'announceBookmarked', params: ({ event }) => event },
            { type: 'notifyBookmark', params: ({ event }) => ({ bookmarked: event.bookmarked, refused: false }) },
          ],
        },
        'post.bookmark.refused': {
          guard: { type: 'isBookmarking', params: ({ event }) => event.id },
          actions: [
            stopChild(({ event }) => callId('bookmark', event.id)),
            { type: 'settleBookmark', params: ({ event }) => ({ id: event.id, refused: true }) },
            { type: 'notifyBookmark', params: ({ event }) => ({ bookmarked: event.bookmarked, error: event.error, refused: true }) },
          ],
        },
        'post.poll.voted': { actions: { type: 'setPoll', params: ({ event }) => event } },
        'post.bookmarked': {
          guard: { type: 'canBookmark', params: ({ event }) => ({ id: event.id }) },
          actions: { type: 'setBookmarked', params: ({ event }) => event },
        },
        'post.reveal': {
          guard: { type: 'isHidden', params: ({ event }) => event.id },
          actions: { type: 'reveal', params: ({ event }) => event.id },
        },
        'post.delete': {
          guard: { type: 'canDelete', params: ({ event }) => event.id },
          actions: [
            { type: 'markDeleting', params: ({ event }) => event.id },
            spawnChild('deleteCall', {
              id: ({ event }) => callId('delete', event.id),
              input: ({ event }) => {
                assertEvent(event, 'post.delete')
                return { id: event.id }
              },
            }),
          ],
        },
        'post.delete.succeeded': {
          guard: { type: 'isDeleting', params: ({ event }) => event.id },
          actions: [
            stopChild(({ event }) => callId('delete', event.id)),
            { type: 'forget', params: ({ event }) => event.id },
            { type: 'announceDeleted', params: ({ event }) => event.id },
            'notifyDeleted',
          ],
        },
        // Unguarded: a member with no post stored may still have reposts on screen, which must go too.
        'author.blocked': { actions: { type: 'forgetAuthor', params: ({ event }) => event.authorId } },
        'author.muted': { actions: { type: 'announceMuted', params: ({ event }) => event.authorId } },
        'post.quote.detached': { actions: { type: 'detachQuote', params: ({ event }) => event.id } },
        'post.showMuted': {
          guard: { type: 'isHiddenAsMuted', params: ({ event }) => event.id },
          actions: { type: 'showMuted', params: ({ event }) => event.id },
        },
        'post.delete.failed': {
          guard: { type: 'isDeleting', params: ({ event }) => event.id },
          actions: [stopChild(({ event }) => callId('delete', event.id)), { type: 'keep', params: ({ event }) => event.id }],
        },
      },
    },
  },
})

export type PostsMachine = typeof postsMachine
export type PostsRef = ActorRefFrom<PostsMachine>
