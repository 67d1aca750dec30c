import type { AnyEventObject, AnyMachineSnapshot } from 'xstate'
import { Network } from '../../../src/api/errors'
import type { PostHistoryPage, PostVersion } from '../../../src/api/posts.calls'
import { postHistoryMachine } from '../../../src/machines/post-history/post-history.machine'
import type { MachineModel } from '../support/walks'

// The History dialog's model: opened, the first page (or a failure and Try again), Load more (or its failure), closed.
// Walked by tests/machines/post-history.test.ts and printed by `npm run paths -- post-history`.

export const version = (id: string, content: string): PostVersion => ({
  id,
  content,
  visibility: 'public',
  sensitive: false,
  sensitiveReason: null,
  alts: [],
  createdAt: '2026-11-20T12:00:00.000Z',
})

export const firstPage: PostHistoryPage = { versions: [version('v3', 'now'), version('v2', 'before')], nextCursor: 'c1' }
export const lastPage: PostHistoryPage = { versions: [version('v1', 'first')], nextCursor: null }
export const offline = new Network({ message: 'Unable to reach the server. Check your connection and try again.' })

const events: AnyEventObject[] = [
  { type: 'history.open' },
  { type: 'history.close' },
  { type: 'history.more' },
  { type: 'history.retry' },
  { type: 'xstate.done.actor.loadPage', output: firstPage },
  { type: 'xstate.done.actor.loadPage', output: lastPage },
  { type: 'xstate.error.actor.loadPage', error: offline },
]

const label = (event: AnyEventObject) =>
  event.type === 'xstate.done.actor.loadPage'
    ? `loadPage(${(event.output as PostHistoryPage).nextCursor ? 'first page' : 'last page'})`
    : undefined

const serializeState = (s: AnyMachineSnapshot) => {
  const c = s.context as { versions: PostVersion[]; nextCursor: string | null; error: string | null }
  return JSON.stringify({ value: s.value, versions: c.versions.length, more: c.nextCursor !== null, error: c.error !== null })
}

export const postHistoryModel = {
  name: 'post-history',
  machine: postHistoryMachine,
  walks: [{ name: '', options: () => ({ input: { postId: 'p1' }, events, serializeState, label }) }],
} satisfies MachineModel
