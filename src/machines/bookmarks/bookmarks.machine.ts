import { assign, fromCallback, fromPromise, sendTo, setup, type ActorRefFrom, type ErrorActorEvent, type EventObject } from 'xstate'
import { bookmarkCalls, type Bookmark, type BookmarksPage, type Collection, type CollectionsPage } from '../../api/bookmarks.calls'
import { run } from '../../api/calls'
import type { GroupDraft } from '../lib/named-group.rules'
import { appendPage, prependRow, replaceRow } from '../lib/paging'
import { changeNotices } from '../lib/saved-change'
import { namedGroupFormMachine, type NamedGroupFormReport } from '../named-group-form/named-group-form.machine'
import { namedGroupFormState } from '../named-group-form/named-group-form.state'
import type { PostsRef } from '../posts/posts.machine'
import { showToast } from '../toasts/notify'
import {
  COLLECTION_CREATE_FAILED,
  COLLECTION_CREATED,
  COLLECTION_LOAD_FAILED,
  COLLECTION_UPDATE_FAILED,
  COLLECTION_UPDATED,
  FILE_FAILED,
  POST_FILED,
  POST_UNFILED,
  UNFILE_FAILED,
  type BookmarkTab,
} from './bookmarks.rules'

// The Bookmarks dialog (spec: "tabs Bookmarks and Collections; New Collection button on Collections tab"; docs/product.md,
// "Bookmarks"). Runs while the dialog is open (the settings page actor invokes it), so each opening reads afresh: the
// first page of bookmarks and of collections at once (spinner; a failure offers Try again). Then:
// - Bookmarks: the saved posts as post cards (their posts go to the post cache), more pages on demand, Remove, and
//   "Add to collection" (pick one). Remove is the card's bookmark button by another name: it asks the post cache to
//   unsave the post (`post.bookmark`, bookmarked: false), which calls the server and says 'Bookmark removed' / the
//   server's error, else 'Failed to remove bookmark'; the row goes when the cache announces it.
// - Collections: New Collection and Edit open the form, a child actor shared with Manage Lists (named-group-form:
//   name required, at most 50; description at most 200; trimmed). 'Collection created successfully' / 'Collection
//   updated successfully'; a refusal keeps the form and says why under it and in a toast (the server's words, else
//   'Failed to create collection' / 'Failed to update collection'). Opening one shows its posts, each with "Remove
//   from collection".
// One change at a time (tag `busy`; the dialog does not close meanwhile). A card's own bookmark button, anywhere,
// reaches this list through the post cache (`post.bookmarked`): an unsaved post leaves it at once, collections it was
// filed in counting one fewer.

export type BookmarkChange =
  | { kind: 'create'; fields: GroupDraft }
  | { kind: 'update'; id: string; fields: GroupDraft }
  | { kind: 'file'; collectionId: string; postId: string }
  | { kind: 'unfile'; collectionId: string; postId: string }

/** Which list a "load more" continues. */
export type MoreOf = 'bookmarks' | 'collections' | 'collection'

export type MorePage = { list: 'bookmarks' | 'collection'; page: BookmarksPage } | { list: 'collections'; page: CollectionsPage }

export interface FirstPages {
  bookmarks: BookmarksPage
  collections: CollectionsPage
}

export type BookmarksEvent =
  | { type: 'bookmarks.tab'; tab: BookmarkTab }
  | { type: 'bookmarks.retry' }
  | { type: 'bookmarks.more' }
  | { type: 'bookmark.remove'; bookmarkId: string }
  | { type: 'collection.new' }
  | { type: 'collection.edit'; id: string }
  /** From the form child: a valid draft to save, or Cancel. */
  | NamedGroupFormReport
  | { type: 'collection.open'; id: string }
  | { type: 'collection.back' }
  | { type: 'collection.unfile'; postId: string }
  | { type: 'file.start'; bookmarkId: string }
  | { type: 'file.choose'; collectionId: string }
  | { type: 'file.cancel' }
  /** From the post cache: a card's bookmark button saved or removed a post. */
  | { type: 'post.bookmarked'; id: string; bookmarked: boolean }

export interface BookmarksInput {
  posts: PostsRef
}

export interface BookmarksContext {
  posts: PostsRef
  tab: BookmarkTab
  bookmarks: ReadonlyArray<Bookmark>
  bookmarksCursor: string | null
  collections: ReadonlyArray<Collection>
  collectionsCursor: string | null
  /** The collection whose posts are shown (Collections tab), with its bookmarks. */
  collection: Collection | null
  collectionBookmarks: ReadonlyArray<Bookmark>
  collectionCursor: string | null
  /** The collection the form edits; null: a new one. */
  editingId: string | null
  /** The bookmark being filed (the collection picker is open). */
  filing: string | null
  change: BookmarkChange | null
  /** The list a "load more" in flight continues. */
  more: MoreOf | null
}

type ChangeOutput = Collection | null

function save(change: BookmarkChange, signal: AbortSignal): Promise<ChangeOutput> {
  switch (change.kind) {
    case 'create':
      return run(bookmarkCalls.createCollection(change.fields), signal)
    case 'update':
      return run(bookmarkCalls.updateCollection(change.id, change.fields), signal)
    case 'file':
      return run(bookmarkCalls.addCollectionPost(change.collectionId, change.postId), signal)
    case 'unfile':
      return run(bookmarkCalls.removeCollectionPost(change.collectionId, change.postId), signal)
  }
}

const SAVED: Record<BookmarkChange['kind'], string> = {
  create: COLLECTION_CREATED,
  update: COLLECTION_UPDATED,
  file: POST_FILED,
  unfile: POST_UNFILED,
}

const REFUSED: Record<BookmarkChange['kind'], string> = {
  create: COLLECTION_CREATE_FAILED,
  update: COLLECTION_UPDATE_FAILED,
  file: FILE_FAILED,
  unfile: UNFILE_FAILED,
}

const notices = changeNotices<BookmarkChange>({ saved: SAVED, refused: REFUSED })

/** The collections a dropped bookmark was filed in count one post fewer. */
function uncount(collections: ReadonlyArray<Collection>, dropped: ReadonlyArray<Bookmark>): Collection[] {
  return collections.map((c) => {
    const n = dropped.filter((b) => b.collectionIds.includes(c.id)).length
    return n === 0 ? c : { ...c, postCount: Math.max(0, c.postCount - n) }
  })
}

/** Hears the post cache's `post.bookmarked` (a card's button) while the dialog is open. */
const watchBookmarks = fromCallback<EventObject, { posts: PostsRef }>(({ input, sendBack }) => {
  const sub = input.posts.on('post.bookmarked', ({ id, bookmarked }) => sendBack({ type: 'post.bookmarked', id, bookmarked }))
  return () => sub.unsubscribe()
})

export const bookmarksMachine = setup({
  types: {
    context: {} as BookmarksContext,
    events: {} as BookmarksEvent,
    input: {} as BookmarksInput,
    tags: {} as 'busy' | 'loading',
  },
  actors: {
    loadFirst: fromPromise<FirstPages>(async ({ signal }) => {
      const [bookmarks, collections] = await Promise.all([
        run(bookmarkCalls.getBookmarks(null), signal),
        run(bookmarkCalls.getCollections(null), signal),
      ])
      return { bookmarks, collections }
    }),
    loadMore: fromPromise<MorePage, { list: MoreOf; cursor: string | null; collectionId: string | null }>(({ input, signal }) =>
      input.list === 'collections'
        ? run(bookmarkCalls.getCollections(input.cursor), signal).then((page) => ({ list: 'collections' as const, page }))
        : run(bookmarkCalls.getBookmarks(input.cursor, input.collectionId ?? undefined), signal).then((page) => ({
            list: input.list === 'collection' ? ('collection' as const) : ('bookmarks' as const),
            page,
          })),
    ),
    loadCollection: fromPromise<BookmarksPage, { id: string }>(({ input, signal }) =>
      run(bookmarkCalls.getBookmarks(null, input.id), signal),
    ),
    change: fromPromise<ChangeOutput, BookmarkChange>(({ input, signal }) => save(input, signal)),
    form: namedGroupFormMachine,
    watchBookmarks,
  },
  actions: {
    storePosts: sendTo(
      ({ context }) => context.posts,
      (_, bookmarks: ReadonlyArray<Bookmark>) => ({ type: 'posts.received' as const, posts: bookmarks.map((b) => b.post) }),
    ),
    showFirst: assign((_, pages: FirstPages) => ({
      bookmarks: pages.bookmarks.bookmarks,
      bookmarksCursor: pages.bookmarks.nextCursor,
      collections: pages.collections.collections,
      collectionsCursor: pages.collections.nextCursor,
    })),
    showMore: assign(({ context }, more: MorePage) => {
      if (more.list === 'collections') {
        return { collections: appendPage(context.collections, more.page.collections), collectionsCursor: more.page.nextCursor }
      }
      if (more.list === 'collection') {
        return { collectionBookmarks: appendPage(context.collectionBookmarks, more.page.bookmarks), collectionCursor: more.page.nextCursor }
      }
      return { bookmarks: appendPage(context.bookmarks, more.page.bookmarks), bookmarksCursor: more.page.nextCursor }
    }),
    showTab: assign((_, tab: BookmarkTab) => ({ tab })),
    /** Which list Load more continues: the one on screen. */
    markMore: assign(({ context }) => ({
      more: (context.tab === 'bookmarks' ? 'bookmarks' : context.collection ? 'collection' : 'collections') as MoreOf,
    })),
    unmarkMore: assign({ more: null }),
    /** The collection shows at once (its name, then its posts once they arrive). */
    pickCollection: assign(({ context }, id: string) => ({
      collection: context.collections.find((c) => c.id === id) ?? null,
      collectionBookmarks: [],
      collectionCursor: null,
    })),
    showCollection: assign((_, page: BookmarksPage) => ({
      collectionBookmarks: page.bookmarks,
      collectionCursor: page.nextCursor,
    })),
    closeCollection: assign({ collection: null, collectionBookmarks: [], collectionCursor: null }),
    startEdit: assign((_, id: string | null) => ({ editingId: id })),
    startFiling: assign((_, bookmarkId: string) => ({ filing: bookmarkId })),
    stopFiling: assign({ filing: null }),
    begin: assign((_, change: BookmarkChange) => ({ change })),
    /** What the server agreed to, on screen. */
    apply: assign(({ context }, output: ChangeOutput) => {
      const change = context.change
      if (!change) return {}
      switch (change.kind) {
        case 'create':
          return output
            ? { change: null, collections: prependRow(context.collections, output), editingId: null }
            : { change: null }
        case 'update':
          return output
            ? {
                change: null,
                collections: replaceRow(context.collections, output),
                collection: context.collection?.id === output.id ? output : context.collection,
                editingId: null,
              }
            : { change: null }
        case 'file':
          return {
            change: null,
            filing: null,
            collections: output ? replaceRow(context.collections, output) : context.collections,
            bookmarks: context.bookmarks.map((b) =>
              b.post.id === change.postId && !b.collectionIds.includes(change.collectionId)
                ? { ...b, collectionIds: [...b.collectionIds, change.collectionId] }
                : b,
            ),
          }
        case 'unfile':
          return {
            change: null,
            collections: output ? replaceRow(context.collections, output) : context.collections,
            collection: output && context.collection?.id === output.id ? output : context.collection,
            collectionBookmarks: context.collectionBookmarks.filter((b) => b.post.id !== change.postId),
            bookmarks: context.bookmarks.map((b) =>
              b.post.id === change.postId ? { ...b, collectionIds: b.collectionIds.filter((id) => id !== change.collectionId) } : b,
            ),
          }
      }
    }),
    /** Remove: the post cache unsaves it, as the card's button does (one path, one set of toasts). */
    askRemoval: sendTo(
      ({ context }) => context.posts,
      ({ context }, bookmarkId: string) => ({
        type: 'post.bookmark' as const,
        id: context.bookmarks.find((b) => b.id === bookmarkId)?.post.id ?? '',
        bookmarked: false,
      }),
    ),
    /** A filed post is saved (filing saves it first): every card shows it so. */
    tellPosts: sendTo(
      ({ context }) => context.posts,
      ({ context }) => ({ type: 'post.bookmarked' as const, id: context.change?.kind === 'file' ? context.change.postId : '', bookmarked: true }),
    ),
    notifySaved: notices.notifySaved,
    notifyLoadFailed: ({ system }) => showToast(system, 'error', COLLECTION_LOAD_FAILED),
    notifyRefused: notices.notifyRefused,
    /** A refused form keeps what was typed and says why under it (and in the toast). */
    tellFormRefused: sendTo('form', ({ context }, error: unknown) => ({
      type: 'form.refused' as const,
      message: notices.refusal(context.editingId ? 'update' : 'create', error),
    })),
    settle: assign({ change: null, filing: null }),
    /** A card's button unsaved a post: its rows leave the lists, and their collections count one fewer. */
    dropPost: assign(({ context }, postId: string) => {
      const dropped = context.bookmarks.filter((b) => b.post.id === postId)
      return {
        bookmarks: context.bookmarks.filter((b) => b.post.id !== postId),
        collectionBookmarks: context.collectionBookmarks.filter((b) => b.post.id !== postId),
        collections: uncount(context.collections, dropped),
      }
    }),
  },
  guards: {
    onCollectionsTab: ({ context }) => context.tab === 'collections',
    canLoadMore: ({ context }) => {
      if (context.tab === 'bookmarks') return context.bookmarksCursor !== null
      return context.collection ? context.collectionCursor !== null : context.collectionsCursor !== null
    },
    isListedBookmark: ({ context }, bookmarkId: string) => context.bookmarks.some((b) => b.id === bookmarkId),
    isListedCollection: ({ context }, id: string) => context.collections.some((c) => c.id === id),
    hasOpenCollection: ({ context }) => context.collection !== null,
    isInOpenCollection: ({ context }, postId: string) => context.collectionBookmarks.some((b) => b.post.id === postId),
    canFile: ({ context }, collectionId: string) => {
      const bookmark = context.bookmarks.find((b) => b.id === context.filing)
      return bookmark !== undefined && context.collections.some((c) => c.id === collectionId) && !bookmark.collectionIds.includes(collectionId)
    },
    wasUnsaved: (_, bookmarked: boolean) => !bookmarked,
    tellsPosts: ({ context }) => context.change?.kind === 'file',
  },
}).createMachine({
  id: 'bookmarks',
  context: ({ input }) => ({
    posts: input.posts,
    tab: 'bookmarks',
    bookmarks: [],
    bookmarksCursor: null,
    collections: [],
    collectionsCursor: null,
    collection: null,
    collectionBookmarks: [],
    collectionCursor: null,
    editingId: null,
    filing: null,
    change: null,
    more: null,
  }),
  initial: 'loading',
  on: {
    'bookmarks.tab': { actions: { type: 'showTab', params: ({ event }) => event.tab } },
  },
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadFirst',
        src: 'loadFirst',
        onDone: {
          target: 'ready',
          actions: [
            { type: 'storePosts', params: ({ event }) => event.output.bookmarks.bookmarks },
            { type: 'showFirst', params: ({ event }) => event.output },
          ],
        },
        onError: { target: 'failed' },
      },
    },
    failed: {
      on: { 'bookmarks.retry': 'loading' },
    },
    ready: {
      invoke: { id: 'watchBookmarks', src: 'watchBookmarks', input: ({ context }) => ({ posts: context.posts }) },
      on: {
        'post.bookmarked': {
          guard: { type: 'wasUnsaved', params: ({ event }) => event.bookmarked },
          actions: { type: 'dropPost', params: ({ event }) => event.id },
        },
      },
      initial: 'idle',
      states: {
        idle: {
          on: {
            'bookmarks.more': { guard: 'canLoadMore', target: 'loadingMore' },
            'bookmark.remove': {
              guard: { type: 'isListedBookmark', params: ({ event }) => event.bookmarkId },
              actions: { type: 'askRemoval', params: ({ event }) => event.bookmarkId },
            },
            'collection.new': { guard: 'onCollectionsTab', target: 'form', actions: { type: 'startEdit', params: null } },
            'collection.edit': {
              guard: { type: 'isListedCollection', params: ({ event }) => event.id },
              target: 'form',
              actions: { type: 'startEdit', params: ({ event }) => event.id },
            },
            'collection.open': {
              guard: { type: 'isListedCollection', params: ({ event }) => event.id },
              target: 'openingCollection',
              actions: { type: 'pickCollection', params: ({ event }) => event.id },
            },
            'collection.back': { guard: 'hasOpenCollection', actions: 'closeCollection' },
            'collection.unfile': {
              guard: { type: 'isInOpenCollection', params: ({ event }) => event.postId },
              target: 'saving',
              actions: {
                type: 'begin',
                params: ({ context, event }) => ({
                  kind: 'unfile' as const,
                  collectionId: context.collection?.id ?? '',
                  postId: event.postId,
                }),
              },
            },
            'file.start': {
              guard: { type: 'isListedBookmark', params: ({ event }) => event.bookmarkId },
              target: 'choosing',
              actions: { type: 'startFiling', params: ({ event }) => event.bookmarkId },
            },
          },
        },
        loadingMore: {
          tags: ['busy'],
          entry: 'markMore',
          exit: 'unmarkMore',
          invoke: {
            id: 'loadMore',
            src: 'loadMore',
            input: ({ context }) =>
              context.more === 'bookmarks'
                ? { list: 'bookmarks' as const, cursor: context.bookmarksCursor, collectionId: null }
                : context.more === 'collection' && context.collection
                  ? { list: 'collection' as const, cursor: context.collectionCursor, collectionId: context.collection.id }
                  : { list: 'collections' as const, cursor: context.collectionsCursor, collectionId: null },
            onDone: {
              target: 'idle',
              actions: [
                {
                  type: 'storePosts',
                  params: ({ event }) => (event.output.list === 'collections' ? [] : event.output.page.bookmarks),
                },
                { type: 'showMore', params: ({ event }) => event.output },
              ],
            },
            // Load more stays offered: the member can try again.
            onError: { target: 'idle' },
          },
        },
        openingCollection: {
          tags: ['busy'],
          invoke: {
            id: 'loadCollection',
            src: 'loadCollection',
            input: ({ context }) => ({ id: context.collection?.id ?? '' }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'storePosts', params: ({ event }) => event.output.bookmarks },
                { type: 'showCollection', params: ({ event }) => event.output },
              ],
            },
            // Back to the list of collections; Try again is opening it again.
            onError: { target: 'idle', actions: ['closeCollection', 'notifyLoadFailed'] },
          },
        },
        /** The collection form (a child actor): New Collection or Edit, then saving what it sends. */
        form: namedGroupFormState<BookmarksContext, BookmarkChange, ChangeOutput>({
          machineId: 'bookmarks',
          rows: (context) => context.collections,
        }),
        choosing: {
          on: {
            'file.choose': {
              guard: { type: 'canFile', params: ({ event }) => event.collectionId },
              target: 'saving',
              actions: {
                type: 'begin',
                params: ({ context, event }) => ({
                  kind: 'file' as const,
                  collectionId: event.collectionId,
                  postId: context.bookmarks.find((b) => b.id === context.filing)?.post.id ?? '',
                }),
              },
            },
            'file.cancel': { target: 'idle', actions: 'stopFiling' },
          },
        },
        saving: {
          tags: ['busy'],
          invoke: {
            id: 'change',
            src: 'change',
            input: ({ context }) => context.change as BookmarkChange,
            onDone: [
              {
                guard: 'tellsPosts',
                target: 'idle',
                actions: ['notifySaved', 'tellPosts', { type: 'apply', params: ({ event }) => event.output }],
              },
              { target: 'idle', actions: ['notifySaved', { type: 'apply', params: ({ event }) => event.output }] },
            ],
            onError: {
              target: 'idle',
              actions: [{ type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error }, 'settle'],
            },
          },
        },
      },
    },
  },
})

export type BookmarksMachine = typeof bookmarksMachine
export type BookmarksRef = ActorRefFrom<BookmarksMachine>
