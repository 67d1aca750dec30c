import { Effect } from 'effect'
import { assign, setup, stopChild, type ActorRefFrom } from 'xstate'
import { muteCalls, type MutedUser } from '../../api/mutes.calls'
import { filterListsMachine, type FilterListsRef } from '../filter-lists/filter-lists.machine'
import { MUTE_FAILED, UNMUTE_FAILED, USER_UNMUTED, type MuteTab } from './mutes.rules'

export { USER_UNMUTED }

// Settings -> Mutes' Mute Management dialog (spec: "tabs users, keywords, domains"). `?tab=mutes` opens it at once
// (input `open`), the Manage Mutes button opens it later. Each opening starts a fresh lists actor (`muteListsMachine`,
// filter-lists.machine.ts) that reads GET /mutes (spinner), since mutes may have been added from a post menu
// meanwhile, with empty forms, on the Users tab. The dialog cannot be closed while a change saves (its toast would
// otherwise arrive from nowhere). Every outcome toasts: '... muted successfully' / '... unmuted successfully', or
// the server's error text, else 'Failed to mute' / 'Failed to unmute'. A refused Add keeps what was typed.

export const KEYWORD_MUTED = 'Keyword muted successfully'
export const KEYWORD_UNMUTED = 'Keyword unmuted successfully'
export const DOMAIN_MUTED = 'Domain muted successfully'
export const DOMAIN_UNMUTED = 'Domain unmuted successfully'

/** The lists inside the dialog: muted members with their reason, keywords and domains. */
export const muteListsMachine = filterListsMachine<MutedUser>({
  id: 'muteLists',
  load: (cursor) =>
    muteCalls.getMutes(cursor).pipe(
      Effect.map((page) => ({
        users: page.mutedUsers,
        keywords: page.mutedKeywords.map((k) => k.keyword),
        domains: page.mutedDomains.map((d) => d.domain),
        nextCursor: page.nextCursor,
      })),
    ),
  memberId: (user) => user.muted.id,
  removeUser: (userId) => muteCalls.unmuteUser(userId),
  add: (list, value) =>
    list === 'keywords'
      ? muteCalls.muteKeyword(value).pipe(Effect.map((mute) => mute.keyword))
      : muteCalls.muteDomain(value).pipe(Effect.map((mute) => mute.domain)),
  remove: (list, value) => (list === 'keywords' ? muteCalls.unmuteKeyword(value) : muteCalls.unmuteDomain(value)),
  saved: {
    removeUser: USER_UNMUTED,
    add: { keywords: KEYWORD_MUTED, domains: DOMAIN_MUTED },
    remove: { keywords: KEYWORD_UNMUTED, domains: DOMAIN_UNMUTED },
  },
  refusals: { shown: 'toast', addFailed: MUTE_FAILED, removeFailed: UNMUTE_FAILED },
})

export type MuteListsRef = FilterListsRef<MutedUser>

export type MutesEvent = { type: 'mutes.open' } | { type: 'mutes.close' } | { type: 'mutes.tab'; tab: MuteTab }

export interface MutesInput {
  /** Opened by `?tab=mutes` (spec: the tab parameter auto-opens the matching dialog). */
  open: boolean
}

export interface MutesContext {
  open: boolean
  tab: MuteTab
  /** The open dialog's lists; null while it is closed. */
  lists: MuteListsRef | null
}

export const mutesMachine = setup({
  types: {
    context: {} as MutesContext,
    events: {} as MutesEvent,
    input: {} as MutesInput,
  },
  actors: { lists: muteListsMachine },
  actions: {
    /** A fresh opening starts on the Users tab with fresh lists (and empty forms). */
    startLists: assign({ tab: 'users' as MuteTab, lists: ({ spawn }) => spawn('lists', { id: 'lists' }) }),
    stopLists: stopChild('lists'),
    forgetLists: assign({ lists: null }),
    showTab: assign((_, tab: MuteTab) => ({ tab })),
  },
  guards: {
    opensAtOnce: ({ context }) => context.open,
    nothingSaving: ({ context }) => (context.lists?.getSnapshot().context.change ?? null) === null,
  },
}).createMachine({
  id: 'mutes',
  context: ({ input }) => ({ open: input.open, tab: 'users', lists: null }),
  initial: 'starting',
  states: {
    /** `?tab=mutes` opens the dialog at once; otherwise it waits for Manage Mutes. */
    starting: {
      always: [{ guard: 'opensAtOnce', target: 'open' }, { target: 'closed' }],
    },
    closed: {
      on: { 'mutes.open': 'open' },
    },
    open: {
      entry: 'startLists',
      exit: ['stopLists', 'forgetLists'],
      on: {
        // Escape, the backdrop and the close button wait while a change saves.
        'mutes.close': { guard: 'nothingSaving', target: 'closed' },
        'mutes.tab': { actions: { type: 'showTab', params: ({ event }) => event.tab } },
      },
    },
  },
})

export type MutesMachine = typeof mutesMachine
export type MutesRef = ActorRefFrom<MutesMachine>
