import { blockedMachine } from '../../../src/machines/blocked/blocked.machine'
import { filterListsModel, taken } from './filter-lists.model'

// Settings -> Blocked Accounts' model: the lists actor's walks (./filter-lists.model.ts) on blocked members.

const member = (id: string, username: string) => ({
  id: `block-${id}`,
  blocked: { id, username, displayName: username.toUpperCase(), avatar: null, verified: false },
  createdAt: '2026-01-01T00:00:00.000Z',
})

export const ann = member('user-ann', 'ann')
export const bob = member('user-bob', 'bob')

export const blockedModel = filterListsModel('blocked', blockedMachine, {
  /** The first page: Ann blocked, one keyword, one domain, and a next page of members. */
  firstPage: { users: [ann], keywords: ['spoilers'], domains: ['old.example'], nextCursor: 'c2' },
  secondPage: { users: [bob], keywords: ['spoilers'], domains: ['old.example'], nextCursor: null },
  listedMember: 'user-ann',
  keywordTaken: taken('This keyword is already blocked'),
  domainTaken: taken('This domain is already blocked'),
})
