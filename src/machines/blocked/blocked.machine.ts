import type { ActorRefFrom } from 'xstate'
import { blockCalls, type BlockedUser } from '../../api/blocks.calls'
import { filterListsMachine } from '../filter-lists/filter-lists.machine'
import { BLOCK_DOMAIN_FAILED, BLOCK_KEYWORD_FAILED } from './blocked.rules'

// Settings -> Blocked Accounts (docs/product.md, "Blocks"): the lists actor (filter-lists.machine.ts) on GET /blocks,
// opened with the section. Successes toast; a refused Add says why under its form (the server's words, else
// 'Failed to block keyword' / 'Invalid domain format') and keeps what was typed; refused unblocks and removals are
// silent.

export const USER_UNBLOCKED = 'User unblocked'
export const KEYWORD_BLOCKED = 'Keyword blocked'
export const KEYWORD_UNBLOCKED = 'Keyword unblocked'
export const DOMAIN_BLOCKED = 'Domain blocked'
export const DOMAIN_UNBLOCKED = 'Domain unblocked'

export const blockedMachine = filterListsMachine<BlockedUser>({
  id: 'blocked',
  load: (cursor) => blockCalls.getBlocks(cursor),
  memberId: (user) => user.blocked.id,
  removeUser: (userId) => blockCalls.unblockUser(userId),
  add: (list, value) => (list === 'keywords' ? blockCalls.blockKeyword(value) : blockCalls.blockDomain(value)),
  remove: (list, value) => (list === 'keywords' ? blockCalls.unblockKeyword(value) : blockCalls.unblockDomain(value)),
  saved: {
    removeUser: USER_UNBLOCKED,
    add: { keywords: KEYWORD_BLOCKED, domains: DOMAIN_BLOCKED },
    remove: { keywords: KEYWORD_UNBLOCKED, domains: DOMAIN_UNBLOCKED },
  },
  refusals: { shown: 'form', addFailed: { keywords: BLOCK_KEYWORD_FAILED, domains: BLOCK_DOMAIN_FAILED } },
})

export type BlockedMachine = typeof blockedMachine
export type BlockedRef = ActorRefFrom<BlockedMachine>
