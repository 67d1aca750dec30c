import { assign, createActor, setup, type AnyEventObject } from 'xstate'
import type { Bookmark, Collection } from '../../../src/api/bookmarks.calls'
import { Invalid, Network } from '../../../src/api/errors'
import { bookmarksMachine } from '../../../src/machines/bookmarks/bookmarks.machine'
import { makePost } from '../support/post-fixtures'
import type { MachineModel } from '../support/walks'

// The Bookmarks dialog's model, in walks that together take every transition: loading, the saved posts (more pages,
// Remove, filing into a collection), the collections (New, Edit, the form's rules, opening one, taking a post out),
// and a card's own button unsaving a post. Walked by tests/machines/bookmarks.test.ts and printed by
// `npm run paths -- bookmarks`.

/** Stands in for the post cache: keeps what it was told (posts received, bookmarks changed). */
export const recordingPosts = setup({ types: { context: {} as { heard: AnyEventObject[] } } }).createMachine({
  context: { heard: [] },
  on: { '*': { actions: assign(({ context, event }) => ({ heard: [...context.heard, event] })) } },
})
export const postsStandIn = () => createActor(recordingPosts).start()

const at = '2026-01-01T00:00:00.000Z'
export const saved = (id: string, collectionIds: string[] = []): Bookmark => ({
  id: `bm-${id}`,
  post: makePost(id, { bookmarked: true }),
  collectionIds,
  createdAt: at,
})
export const collection = (id: string, name: string, postCount = 0): Collection => ({
  id,
  name,
  description: '',
  isPrivate: false,
  postCount,
  createdAt: at,
})

export const b1 = saved('p1', ['c1'])
export const b2 = saved('p2')
export const b3 = saved('p3')
export const waders = collection('c1', 'Waders', 1)
export const gulls = collection('c2', 'Gulls', 0)

export const firstPages = {
  bookmarks: { bookmarks: [b1, b2], nextCursor: 'b-next' },
  collections: { collections: [waders], nextCursor: 'c-next' },
}
export const nameTaken = new Invalid({ message: 'Name already used', fromServer: true, status: 400, details: [] })
export const offline = new Network({ message: 'Unable to reach the server.' })

const loaded = { type: 'xstate.done.actor.loadFirst', output: firstPages }

const scenarios: Record<string, AnyEventObject[]> = {
  loading: [
    { type: 'xstate.error.actor.loadFirst', error: offline },
    { type: 'bookmarks.retry' },
    loaded,
    { type: 'bookmarks.tab', tab: 'collections' },
  ],
  saved: [
    loaded,
    { type: 'bookmarks.more' },
    { type: 'xstate.done.actor.loadMore', output: { list: 'bookmarks', page: { bookmarks: [b2, b3], nextCursor: null } } },
    { type: 'xstate.error.actor.loadMore', error: offline },
    { type: 'bookmark.remove', bookmarkId: 'bm-p1' },
    // The post cache's answer to Remove (or to a card's button).
    { type: 'post.bookmarked', id: 'p1', bookmarked: false },
    { type: 'post.bookmarked', id: 'p2', bookmarked: false },
    { type: 'post.bookmarked', id: 'p2', bookmarked: true },
  ],
  filing: [
    loaded,
    { type: 'file.start', bookmarkId: 'bm-p2' },
    { type: 'file.choose', collectionId: 'c1' },
    { type: 'file.cancel' },
    { type: 'xstate.done.actor.change', output: { ...waders, postCount: 2 } },
    { type: 'xstate.error.actor.change', error: offline },
  ],
  collections: [
    loaded,
    { type: 'bookmarks.tab', tab: 'collections' },
    { type: 'bookmarks.more' },
    { type: 'xstate.done.actor.loadMore', output: { list: 'collections', page: { collections: [gulls], nextCursor: null } } },
    { type: 'collection.open', id: 'c1' },
    { type: 'xstate.done.actor.loadCollection', output: { bookmarks: [b1], nextCursor: 'cp-next' } },
    { type: 'xstate.error.actor.loadCollection', error: offline },
    { type: 'collection.unfile', postId: 'p1' },
    { type: 'xstate.done.actor.change', output: { ...waders, postCount: 0 } },
    { type: 'xstate.error.actor.change', error: offline },
    { type: 'collection.back' },
  ],
  'collection posts': [
    loaded,
    { type: 'bookmarks.tab', tab: 'collections' },
    { type: 'collection.open', id: 'c1' },
    { type: 'xstate.done.actor.loadCollection', output: { bookmarks: [b1], nextCursor: 'cp-next' } },
    { type: 'bookmarks.more' },
    { type: 'xstate.done.actor.loadMore', output: { list: 'collection', page: { bookmarks: [saved('p9', ['c1'])], nextCursor: null } } },
  ],
  form: [
    loaded,
    { type: 'collection.new' },
    { type: 'bookmarks.tab', tab: 'collections' },
    // What the form child tells the dialog (its own rules are walked in named-group-form.model.ts).
    { type: 'form.submitted', fields: { name: 'Shorebirds', description: '', isPrivate: true } },
    { type: 'form.cancelled' },
    { type: 'xstate.done.actor.saveForm', output: collection('c3', 'Shorebirds') },
    { type: 'xstate.error.actor.saveForm', error: nameTaken },
    { type: 'xstate.error.actor.saveForm', error: offline },
  ],
  edit: [
    loaded,
    { type: 'bookmarks.tab', tab: 'collections' },
    { type: 'collection.edit', id: 'c1' },
    { type: 'form.submitted', fields: { name: 'Long legs', description: '', isPrivate: false } },
    { type: 'xstate.done.actor.saveForm', output: { ...waders, name: 'Long legs' } },
    { type: 'xstate.error.actor.saveForm', error: offline },
  ],
}

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'form.submitted') return `form.submitted(${JSON.stringify((event.fields as { name: string }).name)})`
  if (event.type === 'xstate.done.actor.loadFirst') return 'loaded'
  if (event.type === 'xstate.done.actor.loadMore') return `loaded more ${(event.output as { list: string }).list}`
  if (event.type === 'xstate.done.actor.loadCollection') return 'collection loaded'
  if (event.type === 'xstate.done.actor.saveForm') return `saved(${(event.output as Collection).name})`
  if (event.type === 'xstate.done.actor.change') return `changed(${event.output ? (event.output as Collection).postCount : 'null'})`
  if (event.type === 'xstate.error.actor.saveForm') return `refused(${event.error === nameTaken ? 'server' : 'offline'})`
  if (event.type === 'bookmarks.tab') return `bookmarks.tab(${event.tab as string})`
  if (event.type === 'post.bookmarked') return `post.bookmarked(${event.id as string}, ${String(event.bookmarked)})`
  for (const key of ['bookmarkId', 'collectionId', 'postId', 'id'] as const) {
    if (typeof event[key] === 'string') return `${event.type}(${event[key] as string})`
  }
  return undefined
}

export const bookmarksModel = {
  name: 'bookmarks',
  machine: bookmarksMachine,
  walks: Object.entries(scenarios).map(([name, events]) => ({
    name,
    options: () => ({
      input: { posts: postsStandIn() as never },
      events,
      label,
      serializeState: (s: { value: unknown; context: unknown }) =>
        JSON.stringify({ value: s.value, context: { ...(s.context as object), posts: undefined } }),
      edgesOnly: 'saved posts and collections grow page by page and shrink with each removal: every order of loads and changes is its own state',
      // Only the page the running Load more asks for.
      offer: (snapshot: { context: { more: string | null } }, event: AnyEventObject) =>
        event.type !== 'xstate.done.actor.loadMore' || (event.output as { list: string }).list === snapshot.context.more,
    }),
  })),
} satisfies MachineModel
