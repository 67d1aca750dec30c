import { expect } from 'vitest'
import { createActor, fromCallback } from 'xstate'
import type { Bookmark } from '../../src/api/bookmarks.calls'
import { bookmarksMachine, type BookmarkChange } from '../../src/machines/bookmarks/bookmarks.machine'
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
} from '../../src/machines/bookmarks/bookmarks.rules'
import {
  selectBookmarks,
  selectBusy,
  selectCollections,
  selectEditing,
  selectFailed,
  selectFiling,
  selectHasMore,
  selectLoading,
  selectOpenCollection,
  selectTab,
} from '../../src/machines/bookmarks/bookmarks.selectors'
import { bookmarksModel, nameTaken, postsStandIn } from './models/bookmarks.model'
import { formStandIn } from './models/named-group-form.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The Bookmarks dialog. After each step: the spinner or Try again, the tab, the saved posts and collections on
// screen, the open collection, the form child (what it starts from, what it is told when a save is refused), the
// collection picker, every toast,
// what was asked of the server, and what the post cache was told. The walks are the model's.

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

const postIds = (list: ReadonlyArray<Bookmark>) => list.map((b) => b.post.id)
describeWalks('bookmarks dialog', bookmarksModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const posts = postsStandIn()
  const machine = bookmarksMachine.provide({
    actors: {
      loadFirst: calls.invoked(),
      loadMore: calls.invoked(),
      loadCollection: calls.invoked(),
      change: calls.invoked(),
      watchBookmarks: fromCallback(() => () => undefined),
      form: formStandIn as never,
    },
  })
  const actor = withToasts(createActor(machine, { input: { posts: posts as never }, inspect })).start()
  // Opening the dialog reads the first page of bookmarks and of collections at once, behind a spinner.
  expect(selectLoading(actor.getSnapshot())).toBe(true)
  expect(calls.started).toEqual([{ id: 'loadFirst', input: undefined }])

  const replayed = replay(actor, {
    calls,
    context: (snapshot) => ({ ...snapshot.context, posts: null }),
    mark: () => ({ heardBefore: posts.getSnapshot().context.heard.length }),
  })
  for await (const { event, before, snapshot, toastsBefore, startedBefore, marked: { heardBefore } } of replayed) {
    const { context } = snapshot
    const toasts = shownToasts().slice(toastsBefore)
    const told = posts.getSnapshot().context.heard.slice(heardBefore)
    expect(selectFailed(snapshot)).toBe(snapshot.matches('failed'))
    expect(selectBusy(snapshot)).toBe(
      (['loadingMore', 'openingCollection', 'saving'] as const).some((s) => snapshot.matches({ ready: s })) ||
        snapshot.matches({ ready: { form: 'saving' } }),
    )
    const form = snapshot.children.form?.getSnapshot() as { context: { input: unknown; heard: unknown[] } } | undefined
    expect(form !== undefined, 'the form child runs exactly while the form is open').toBe(selectEditing(snapshot))

    if (event.type === 'xstate.done.actor.loadFirst') {
      expect(postIds(selectBookmarks(snapshot))).toEqual(['p1', 'p2'])
      expect(selectCollections(snapshot).map((c) => c.name)).toEqual(['Waders'])
      // The posts go to the post cache, which the cards read.
      expect(told).toEqual([{ type: 'posts.received', posts: event.output.bookmarks.bookmarks.map((b: Bookmark) => b.post) }])
    }
    if (event.type === 'bookmarks.retry') expect(calls.started.at(-1)).toEqual({ id: 'loadFirst', input: undefined })
    if (event.type === 'bookmarks.tab') expect(selectTab(snapshot)).toBe(event.tab)
    if (event.type === 'bookmarks.more') {
      expect(selectHasMore(before)).toBe(true)
      const expected =
        before.context.tab === 'bookmarks'
          ? { list: 'bookmarks', cursor: 'b-next', collectionId: null }
          : before.context.collection
            ? { list: 'collection', cursor: 'cp-next', collectionId: 'c1' }
            : { list: 'collections', cursor: 'c-next', collectionId: null }
      expect(calls.started.at(-1)).toEqual({ id: 'loadMore', input: expected })
    }
    if (event.type === 'xstate.done.actor.loadMore') {
      const more = event.output
      // One row per id: a row that moved to the next page shows once.
      const unique = <T,>(list: T[]) => [...new Set(list)]
      if (more.list === 'bookmarks') {
        expect(postIds(context.bookmarks)).toEqual(unique([...postIds(before.context.bookmarks), 'p2', 'p3']))
      }
      if (more.list === 'collections') {
        expect(context.collections.map((c) => c.id)).toEqual(unique([...before.context.collections.map((c) => c.id), 'c2']))
      }
      if (more.list === 'collection') {
        expect(postIds(context.collectionBookmarks)).toEqual(unique([...postIds(before.context.collectionBookmarks), 'p9']))
      }
      expect(context.more).toBeNull()
    }
    if (event.type === 'collection.open') {
      expect(selectOpenCollection(snapshot)?.name).toBe('Waders')
      expect(calls.started.at(-1)).toEqual({ id: 'loadCollection', input: { id: 'c1' } })
    }
    if (event.type === 'xstate.done.actor.loadCollection') expect(postIds(context.collectionBookmarks)).toEqual(['p1'])
    if (event.type === 'collection.back') expect(selectOpenCollection(snapshot)).toBeNull()
    if (event.type === 'collection.new') {
      // New Collection lives on the Collections tab only.
      expect(selectEditing(snapshot)).toBe(before.context.tab === 'collections')
      if (selectEditing(snapshot)) {
        expect(context.editingId).toBeNull()
        expect(form?.context.input, 'a blank form').toEqual({})
      }
    }
    if (event.type === 'collection.edit') {
      // The form fills from the collection as it is now.
      const held = before.context.collections.find((c) => c.id === event.id)
      expect(context.editingId).toBe('c1')
      expect(form?.context.input).toEqual({ editing: { name: held?.name, description: held?.description, isPrivate: held?.isPrivate } })
    }
    if (event.type === 'form.submitted') {
      // What the form sent (checked and trimmed there), in exactly one call.
      expect(calls.started.length).toBe(startedBefore + 1)
      expect(context.change).toEqual(
        before.context.editingId ? { kind: 'update', id: before.context.editingId, fields: event.fields } : { kind: 'create', fields: event.fields },
      )
    }
    if (event.type === 'form.cancelled') {
      expect(selectEditing(snapshot)).toBe(false)
      expect(calls.started.length, 'nothing is sent').toBe(startedBefore)
    }
    if (event.type === 'file.start') expect(selectFiling(snapshot)?.id).toBe(event.bookmarkId)
    if (event.type === 'file.choose') expect(context.change).toEqual({ kind: 'file', collectionId: 'c1', postId: 'p2' })
    if (event.type === 'collection.unfile') expect(context.change).toEqual({ kind: 'unfile', collectionId: 'c1', postId: 'p1' })
    if (event.type === 'bookmark.remove') {
      // The card's button by another name: the post cache unsaves it (its call, its toasts); the row stays until the
      // cache says it went, and nothing else is asked here.
      expect(told).toEqual([{ type: 'post.bookmark', id: 'p1', bookmarked: false }])
      expect(calls.started.length).toBe(startedBefore)
      expect(context.bookmarks).toEqual(before.context.bookmarks)
    }

    const change = before.context.change
    if ((event.type === 'xstate.done.actor.change' || event.type === 'xstate.done.actor.saveForm') && change) {
      expect(toasts).toEqual([expect.objectContaining({ type: 'success', message: SAVED[change.kind] })])
      expect(context.change).toBeNull()
      if (change.kind === 'file') {
        expect(context.bookmarks.find((b) => b.post.id === 'p2')?.collectionIds).toContain('c1')
        expect(context.collections.find((c) => c.id === 'c1')?.postCount).toBe(2)
        expect(selectFiling(snapshot)).toBeNull()
        expect(told).toEqual([{ type: 'post.bookmarked', id: 'p2', bookmarked: true }])
      }
      if (change.kind === 'unfile') {
        expect(postIds(context.collectionBookmarks)).not.toContain('p1')
        expect(context.collections.find((c) => c.id === 'c1')?.postCount).toBe(0)
        expect(context.bookmarks.find((b) => b.post.id === 'p1')?.collectionIds).toEqual([])
      }
      if (change.kind === 'create') {
        expect(context.collections[0]?.name).toBe('Shorebirds')
        expect(selectEditing(snapshot)).toBe(false)
      }
      if (change.kind === 'update') expect(context.collections.find((c) => c.id === 'c1')?.name).toBe('Long legs')
    } else if ((event.type === 'xstate.error.actor.change' || event.type === 'xstate.error.actor.saveForm') && change) {
      if (event.type === 'xstate.error.actor.saveForm') {
        // As in Manage Lists: the form stays (with what was typed) and is told why, to say under it; a toast says it too.
        const message = event.error === nameTaken ? nameTaken.message : REFUSED[change.kind]
        expect(selectEditing(snapshot)).toBe(true)
        expect(form?.context.heard.at(-1)).toEqual({ type: 'form.refused', message })
        expect(toasts).toEqual([expect.objectContaining({ type: 'error', message })])
      } else {
        expect(toasts).toEqual([expect.objectContaining({ type: 'error', message: REFUSED[change.kind] })])
        // Nothing on screen changes.
        expect(context.bookmarks).toEqual(before.context.bookmarks)
        expect(context.collections).toEqual(before.context.collections)
      }
    } else if (event.type === 'xstate.error.actor.loadCollection') {
      expect(toasts).toEqual([expect.objectContaining({ type: 'error', message: COLLECTION_LOAD_FAILED })])
      expect(selectOpenCollection(snapshot)).toBeNull()
    } else {
      expect(toasts, 'only a saved or refused change says anything').toEqual([])
    }
    if (event.type === 'post.bookmarked') {
      // A card's button unsaved it: the row goes at once; a save elsewhere changes nothing here.
      if (!event.bookmarked) {
        expect(postIds(context.bookmarks)).not.toContain(event.id)
        // The collections it was filed in count one fewer (Waders held p1).
        if (event.id === 'p1') expect(context.collections.find((c) => c.id === 'c1')?.postCount).toBe(0)
      } else expect(context.bookmarks).toEqual(before.context.bookmarks)
    }
  }
  actor.stop()
})

