import type { AnyEventObject } from 'xstate'
import type { UserSearchResult } from '../../../src/api/discover.calls'
import { Invalid, Network, NotFound } from '../../../src/api/errors'
import type { List, ListMember } from '../../../src/api/lists.calls'
import { listsMachine } from '../../../src/machines/lists/lists.machine'
import { type MachineModel, scenarioWalks, valueAndContext } from '../support/walks'

// The Manage Lists dialog's model, in walks that together take every transition: loading, the form (new and edit,
// its rules, the server's refusal), delete with its confirmation, subscriptions, more pages, and the members panel
// with its debounced member search and its pages of members (Load more, a failed page, a failed first page and Try
// again). Walked by tests/machines/lists.test.ts and printed by `npm run paths -- lists`.

export const me = 'u-me'
const at = '2026-01-01T00:00:00.000Z'
const person = (id: string, username: string): ListMember => ({ id, username, displayName: username.toUpperCase(), avatar: null, verified: false })
export const ann = person('u-ann', 'ann')
export const bob = person('u-bob', 'bob')
export const cal = person('u-cal', 'cal')
export const owner = person(me, 'me')
const theirOwner = person('u-cat', 'cat')

export const list = (id: string, name: string, extra: Partial<List> = {}): List => ({
  id,
  name,
  description: '',
  isPrivate: false,
  memberCount: 0,
  subscriberCount: 0,
  owner,
  subscribed: false,
  createdAt: at,
  ...extra,
})

export const birds = list('l-birds', 'Birds', { memberCount: 1 })
export const theirs = list('l-theirs', 'Their picks', { owner: theirOwner, subscribed: true, subscriberCount: 3 })
export const later = list('l-later', 'Later')
export const firstPage = { lists: [birds, theirs], nextCursor: 'next' }
export const found = (u: ListMember): UserSearchResult => ({ ...u, bio: '', isFollowing: false })

export const nameTaken = new Invalid({ message: 'Name is required', fromServer: true, status: 400, details: [] })
export const offline = new Network({ message: 'Unable to reach the server.' })
export const gone = new NotFound({ message: 'List not found', fromServer: true })

const loaded = { type: 'xstate.done.actor.loadLists', output: firstPage }

const scenarios: Record<string, AnyEventObject[]> = {
  loading: [{ type: 'xstate.error.actor.loadLists', error: offline }, { type: 'lists.retry' }, loaded],
  more: [
    loaded,
    { type: 'lists.more' },
    { type: 'xstate.done.actor.loadMore', output: { lists: [theirs, later], nextCursor: null } },
    { type: 'xstate.error.actor.loadMore', error: offline },
  ],
  form: [
    loaded,
    { type: 'list.new' },
    // What the form child tells the dialog (its own rules are walked in named-group-form.model.ts).
    { type: 'form.submitted', fields: { name: 'Shorebirds', description: '', isPrivate: true } },
    { type: 'form.cancelled' },
    { type: 'xstate.done.actor.saveForm', output: list('l-new', 'Shorebirds', { isPrivate: true }) },
    { type: 'xstate.error.actor.saveForm', error: nameTaken },
    { type: 'xstate.error.actor.saveForm', error: offline },
  ],
  edit: [
    loaded,
    { type: 'list.edit', id: 'l-birds' },
    { type: 'list.edit', id: 'l-theirs' },
    { type: 'form.submitted', fields: { name: 'Waders', description: birds.description, isPrivate: false } },
    { type: 'xstate.done.actor.saveForm', output: { ...birds, name: 'Waders' } },
    { type: 'xstate.error.actor.saveForm', error: offline },
  ],
  delete: [
    loaded,
    { type: 'list.delete', id: 'l-birds' },
    { type: 'list.delete', id: 'l-theirs' },
    { type: 'delete.cancel' },
    { type: 'delete.confirm' },
    { type: 'xstate.done.actor.change', output: null },
    { type: 'xstate.error.actor.change', error: gone },
  ],
  subscriptions: [
    loaded,
    { type: 'list.unsubscribe', id: 'l-theirs' },
    { type: 'list.unsubscribe', id: 'l-birds' },
    { type: 'xstate.done.actor.change', output: { subscribed: false, subscriberCount: 2 } },
    { type: 'list.subscribe', id: 'l-theirs' },
    { type: 'xstate.error.actor.change', error: offline },
  ],
  members: [
    loaded,
    { type: 'list.members', id: 'l-theirs' },
    { type: 'list.members', id: 'l-birds' },
    { type: 'xstate.done.actor.loadMembers', output: { list: birds, members: [ann], nextCursor: null } },
    { type: 'xstate.error.actor.loadMembers', error: offline },
    { type: 'members.query', value: 'b' },
    { type: 'members.query', value: 'bo' },
    { type: 'xstate.done.actor.wait' },
    { type: 'xstate.done.actor.searchUsers', output: { users: [found(ann), found(bob)], nextCursor: null } },
    { type: 'xstate.error.actor.searchUsers', error: offline },
    { type: 'members.add', userId: 'u-bob' },
    { type: 'members.add', userId: 'u-ann' },
    { type: 'members.remove', userId: 'u-ann' },
    { type: 'members.back' },
  ],
  'member pages': [
    loaded,
    { type: 'list.members', id: 'l-birds' },
    { type: 'xstate.error.actor.loadMembers', error: offline },
    { type: 'members.retry' },
    { type: 'xstate.done.actor.loadMembers', output: { list: { ...birds, memberCount: 3 }, members: [ann], nextCursor: 'm-next' } },
    { type: 'members.more' },
    // Typed while a page loads: searched once the members show.
    { type: 'members.query', value: 'ca' },
    { type: 'xstate.error.actor.loadMoreMembers', error: offline },
    { type: 'xstate.done.actor.loadMoreMembers', output: { list: { ...birds, memberCount: 3 }, members: [ann, cal], nextCursor: null } },
    { type: 'members.back' },
  ],
  'member changes': [
    loaded,
    { type: 'list.members', id: 'l-birds' },
    { type: 'xstate.done.actor.loadMembers', output: { list: birds, members: [ann], nextCursor: null } },
    { type: 'members.query', value: 'bo' },
    { type: 'xstate.done.actor.wait' },
    { type: 'xstate.done.actor.searchUsers', output: { users: [found(ann), found(bob)], nextCursor: null } },
    { type: 'members.add', userId: 'u-bob' },
    { type: 'members.remove', userId: 'u-ann' },
    { type: 'xstate.done.actor.changeMember', output: { ...birds, memberCount: 2 } },
    { type: 'xstate.error.actor.changeMember', error: offline },
  ],
}

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'form.submitted') return `form.submitted(${JSON.stringify((event.fields as { name: string }).name)})`
  if (event.type === 'members.query') {
    const value = event.value as string
    return `${event.type}(${value.length > 20 ? `${value.length} chars` : JSON.stringify(value)})`
  }
  if (event.type === 'xstate.done.actor.loadLists') return 'loaded'
  if (event.type === 'xstate.done.actor.loadMore') return 'loaded more'
  if (event.type === 'xstate.done.actor.saveForm') return `saved(${(event.output as List).name})`
  if (event.type === 'xstate.done.actor.loadMembers') return `members(${(event.output as { nextCursor: string | null }).nextCursor ? 'more' : 'all'})`
  if (event.type === 'xstate.done.actor.loadMoreMembers') return 'more members'
  if (event.type === 'xstate.done.actor.changeMember') return `member changed(${(event.output as List).memberCount})`
  if (event.type.startsWith('xstate.error.actor.')) {
    return `${event.type.replace('xstate.error.actor.', 'refused ')}(${event.error === offline ? 'offline' : 'server'})`
  }
  for (const key of ['id', 'userId'] as const) {
    if (typeof event[key] === 'string') return `${event.type}(${event[key] as string})`
  }
  return undefined
}

export const listsModel = {
  name: 'lists',
  machine: listsMachine,
  walks: scenarioWalks(scenarios, {
    input: { viewerId: me },
    label,
    serializeState: valueAndContext,
    edgesOnly: 'lists and members page in and change with each save: every order of loads, edits and searches is its own state',
  }),
} satisfies MachineModel
