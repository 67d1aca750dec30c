import type { AnyEventObject } from 'xstate'
import { Network, NotFound, Server } from '../../../src/api/errors'
import type { FollowEntry, FollowPage } from '../../../src/api/users.calls'
import { followListMachine, type FollowListContext, type FollowListKind } from '../../../src/machines/follow-list/follow-list.machine'
import type { MachineModel } from '../support/walks'

// The followers/following list's model: a full first page, the last page, and the failures, for both kinds of list.
// Walked by tests/machines/follow-list.test.ts and printed by `npm run paths -- follow-list`.

export const viewerId = 'viewer'
const entry = (id: string, isFollowing = false): FollowEntry => ({
  id,
  username: `member_${id}`,
  displayName: `Member ${id}`,
  avatar: null,
  verified: id.endsWith('7'),
  privateAccount: false,
  isFollowing,
  requested: false,
})

/** A full first page: 20 rows, the viewer's own among them, and a cursor for more. */
export const fullPage: FollowPage = {
  entries: [entry(viewerId), ...Array.from({ length: 19 }, (_, i) => entry(`a${i + 1}`, i % 2 === 0))],
  nextCursor: 'cursor-1',
}
/** The last page: fewer than 20, no cursor. */
export const lastPage: FollowPage = { entries: [entry('b1'), entry('b2'), entry('b3', true)], nextCursor: null }

export const missing = new NotFound({ message: 'User not found', fromServer: true })
export const offline = new Network({ message: 'Unable to reach the server. Check your connection and try again.' })
export const bare500 = new Server({ status: 500, message: 'Something went wrong on our side. Please try again.', fromServer: false })

const events: AnyEventObject[] = [
  { type: 'follows.more' },
  { type: 'follows.retry' },
  { type: 'xstate.done.actor.loadPage', output: fullPage },
  { type: 'xstate.done.actor.loadPage', output: lastPage },
  { type: 'xstate.error.actor.loadPage', error: missing },
  { type: 'xstate.error.actor.loadPage', error: offline },
  { type: 'xstate.error.actor.loadPage', error: bare500 },
]

const pageNames = new Map<unknown, string>([
  [fullPage, 'full page'],
  [lastPage, 'last page'],
])
const label = (event: AnyEventObject) => (pageNames.has(event.output) ? `${event.type}(${pageNames.get(event.output)})` : undefined)

const list = (kind: FollowListKind) => {
  const input = { username: 'ann', kind, viewerId }
  return {
    name: kind,
    kind,
    /** Ann's list, seen by the viewer (whose own row has no Follow button). */
    input,
    options: () => ({
      input,
      events,
      label,
      serializeState: (s: { value: unknown; context: unknown }) => {
        const c = s.context as FollowListContext
        return JSON.stringify({
          value: s.value,
          rows: c.rows.map((row) => row.entry.id),
          cursor: c.nextCursor,
          last: c.lastPageSize,
          error: c.error,
        })
      },
    }),
  }
}

export const followListModel = {
  name: 'follow-list',
  machine: followListMachine,
  walks: [list('followers'), list('following')],
} satisfies MachineModel
