import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { postHistoryMachine } from '../../src/machines/post-history/post-history.machine'
import { HISTORY_MESSAGES, versionLabel } from '../../src/machines/post-history/post-history.rules'
import { selectHasMore, selectVersions } from '../../src/machines/post-history/post-history.selectors'
import { firstPage, lastPage, postHistoryModel } from './models/post-history.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'

// The History dialog's actor, walked path by path (the model: ./models/post-history.model.ts). After each step: the
// dialog is open exactly in `open`; the first read asks for the post's first page and Load more the next cursor; the
// versions shown are the pages read, each version once, newest first; a failed first read says so with Try again,
// a failed Load more keeps the versions and says so; closing drops everything.

describeWalks('post-history machine', postHistoryModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const actor = createActor(postHistoryMachine.provide({ actors: { loadPage: calls.actor('loadPage') } }), {
    input: { postId: 'p1' },
    inspect,
  }).start()
  for await (const { event, before, snapshot, startedBefore } of replay(actor, { calls, context: (s) => s.context.versions.length })) {
    const started = calls.started.slice(startedBefore)
    expect(snapshot.hasTag('open')).toBe(snapshot.matches('open'))
    expect(snapshot.hasTag('busy')).toBe(snapshot.matches({ open: 'loading' }) || snapshot.matches({ open: 'loadingMore' }))
    const ids = selectVersions(snapshot).map((v) => v.id)
    expect(new Set(ids).size).toBe(ids.length)
    if (snapshot.matches('closed')) expect(snapshot.context).toMatchObject({ versions: [], nextCursor: null, error: null })
    if (event.type === 'history.open' && snapshot.matches({ open: 'loading' })) {
      expect(started).toEqual([{ id: 'loadPage', input: { postId: 'p1', cursor: null } }])
    }
    if (event.type === 'history.more' && snapshot.matches({ open: 'loadingMore' })) {
      expect(started).toEqual([{ id: 'loadPage', input: { postId: 'p1', cursor: before.context.nextCursor } }])
    }
    if (event.type === 'history.more' && !before.context.nextCursor) expect(started).toEqual([])
    if (event.type === 'xstate.done.actor.loadPage' && before.matches('open')) {
      const page = event.output as typeof firstPage
      const held = before.context.versions.map((v) => v.id)
      expect(ids).toEqual([...held, ...page.versions.map((v) => v.id).filter((id) => !held.includes(id))])
      expect(selectHasMore(snapshot)).toBe(page.nextCursor !== null)
      expect(snapshot.context.error).toBeNull()
    }
    if (event.type === 'xstate.error.actor.loadPage' && before.matches({ open: 'loading' })) {
      expect(snapshot.matches({ open: 'failed' })).toBe(true)
      expect(snapshot.context.error).toBe(HISTORY_MESSAGES.failed)
    }
    if (event.type === 'xstate.error.actor.loadPage' && before.matches({ open: 'loadingMore' })) {
      expect(snapshot.matches({ open: 'ready' })).toBe(true)
      expect(snapshot.context.versions).toEqual(before.context.versions)
      expect(snapshot.context.error).toBe(HISTORY_MESSAGES.moreFailed)
    }
  }
  actor.stop()
})

describe('post history labels', () => {
  it('calls the newest version current, and the oldest the original once every page is loaded', () => {
    const total = firstPage.versions.length + lastPage.versions.length
    expect(versionLabel(0, total, true)).toBe(HISTORY_MESSAGES.current)
    expect(versionLabel(total - 1, total, true)).toBe(HISTORY_MESSAGES.original)
    expect(versionLabel(total - 1, total, false)).toBeNull()
    expect(versionLabel(1, total, true)).toBeNull()
  })
})
