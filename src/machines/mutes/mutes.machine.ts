import { assign, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { serverMessageOr } from '../../api/errors'
import { muteCalls, type MutedDomain, type MutedKeyword, type MutedUser, type MutesResponse } from '../../api/mutes.calls'
import { showToast } from '../toasts/notify'
import { checkMutedDomain, checkMutedKeyword, MUTE_FAILED, UNMUTE_FAILED, USER_UNMUTED, type MuteTab } from './mutes.rules'

export { USER_UNMUTED }

// Settings -> Mutes' Mute Management dialog (spec: "tabs users, keywords, domains"). `?tab=mutes` opens it at once
// (input `open`), the Manage Mutes button opens it later; each opening reads GET /mutes afresh (spinner), since mutes
// may have been added from a post menu meanwhile. Then: the muted members (Unmute; Load more while the server gives a
// next cursor), the keyword and domain chips (remove) with an Add form each, checked first with the shared rules.
// One change at a time; the dialog cannot be closed while one saves (its toast would otherwise arrive from nowhere).
// Every outcome toasts: '... muted successfully' / '... unmuted successfully', or the server's error
// text, else 'Failed to mute' / 'Failed to unmute'. A refused Add keeps what was typed.

export const KEYWORD_MUTED = 'Keyword muted successfully'
export const KEYWORD_UNMUTED = 'Keyword unmuted successfully'
export const DOMAIN_MUTED = 'Domain muted successfully'
export const DOMAIN_UNMUTED = 'Domain unmuted successfully'

/** One change the member asked for, as sent to the server. */
export type MuteChange =
  | { kind: 'unmuteUser'; userId: string }
  | { kind: 'muteKeyword'; keyword: string }
  | { kind: 'unmuteKeyword'; keyword: string }
  | { kind: 'muteDomain'; domain: string }
  | { kind: 'unmuteDomain'; domain: string }

/** What a saved Add answers (the stored mute); removals answer null. */
export type Stored = MutedKeyword | MutedDomain | null

export type MutesEvent =
  | { type: 'mutes.open' }
  | { type: 'mutes.close' }
  | { type: 'mutes.retry' }
  | { type: 'mutes.tab'; tab: MuteTab }
  | { type: 'users.more' }
  | { type: 'user.unmute'; userId: string }
  | { type: 'keyword.input'; value: string }
  | { type: 'keyword.add' }
  | { type: 'keyword.remove'; keyword: string }
  | { type: 'domain.input'; value: string }
  | { type: 'domain.add' }
  | { type: 'domain.remove'; domain: string }

export interface MutesInput {
  /** Opened by `?tab=mutes` (spec: the tab parameter auto-opens the matching dialog). */
  open: boolean
}

export interface MutesContext {
  open: boolean
  tab: MuteTab
  users: ReadonlyArray<MutedUser>
  keywords: ReadonlyArray<MutedKeyword>
  domains: ReadonlyArray<MutedDomain>
  nextCursor: string | null
  keywordDraft: string
  domainDraft: string
  keywordError: string | null
  domainError: string | null
  /** The change being saved. */
  change: MuteChange | null
}

const SUCCESS: Record<MuteChange['kind'], string> = {
  unmuteUser: USER_UNMUTED,
  muteKeyword: KEYWORD_MUTED,
  unmuteKeyword: KEYWORD_UNMUTED,
  muteDomain: DOMAIN_MUTED,
  unmuteDomain: DOMAIN_UNMUTED,
}

/** Answers what the server stored for an Add, null for a removal. */
function save(change: MuteChange, signal: AbortSignal): Promise<Stored> {
  const done = () => null
  switch (change.kind) {
    case 'unmuteUser':
      return run(muteCalls.unmuteUser(change.userId), signal).then(done)
    case 'muteKeyword':
      return run(muteCalls.muteKeyword(change.keyword), signal)
    case 'unmuteKeyword':
      return run(muteCalls.unmuteKeyword(change.keyword), signal).then(done)
    case 'muteDomain':
      return run(muteCalls.muteDomain(change.domain), signal)
    case 'unmuteDomain':
      return run(muteCalls.unmuteDomain(change.domain), signal).then(done)
  }
}

/** Keeps a list alphabetical (as the server lists it) with one entry per value in any case. */
function addSorted<T>(list: ReadonlyArray<T>, item: T, value: (t: T) => string): T[] {
  const key = value(item).toLowerCase()
  return [...list.filter((t) => value(t).toLowerCase() !== key), item].sort((a, b) => value(a).localeCompare(value(b)))
}

/** The stored mute of an Add; a server that answers nothing usable still shows what was sent. */
const storedKeyword = (stored: Stored, keyword: string): MutedKeyword =>
  stored && 'keyword' in stored ? stored : { id: `pending:${keyword}`, keyword, createdAt: new Date(0).toISOString() }
const storedDomain = (stored: Stored, domain: string): MutedDomain =>
  stored && 'domain' in stored ? stored : { id: `pending:${domain}`, domain, createdAt: new Date(0).toISOString() }

export const mutesMachine = setup({
  types: {
    context: {} as MutesContext,
    events: {} as MutesEvent,
    input: {} as MutesInput,
    tags: {} as 'busy' | 'loading',
  },
  actors: {
    loadMutes: fromPromise<MutesResponse, { cursor: string | null }>(({ input, signal }) =>
      run(muteCalls.getMutes(input.cursor), signal),
    ),
    change: fromPromise<Stored, MuteChange>(({ input, signal }) => save(input, signal)),
  },
  actions: {
    /** A fresh opening starts on the Users tab with empty forms. */
    reset: assign({ tab: 'users' as MuteTab, keywordDraft: '', domainDraft: '', keywordError: null, domainError: null }),
    showTab: assign((_, tab: MuteTab) => ({ tab })),
    showPage: assign((_, page: MutesResponse) => ({
      users: page.mutedUsers,
      keywords: page.mutedKeywords,
      domains: page.mutedDomains,
      nextCursor: page.nextCursor,
    })),
    appendUsers: assign(({ context }, page: MutesResponse) => ({
      users: [...context.users, ...page.mutedUsers.filter((u) => !context.users.some((held) => held.id === u.id))],
      nextCursor: page.nextCursor,
    })),
    typeKeyword: assign((_, value: string) => ({ keywordDraft: value, keywordError: null })),
    typeDomain: assign((_, value: string) => ({ domainDraft: value, domainError: null })),
    begin: assign((_, change: MuteChange) => ({ change })),
    rejectKeyword: assign(({ context }) => {
      const checked = checkMutedKeyword(context.keywordDraft)
      return { keywordError: checked.ok ? null : checked.message }
    }),
    rejectDomain: assign(({ context }) => {
      const checked = checkMutedDomain(context.domainDraft)
      return { domainError: checked.ok ? null : checked.message }
    }),
    /** What the server agreed to, on screen: the row or chip goes, or the stored chip comes (and its form empties). */
    apply: assign(({ context }, stored: Stored) => {
      const change = context.change
      if (!change) return {}
      switch (change.kind) {
        case 'unmuteUser':
          return { change: null, users: context.users.filter((u) => u.muted.id !== change.userId) }
        case 'muteKeyword':
          return {
            change: null,
            keywords: addSorted(context.keywords, storedKeyword(stored, change.keyword), (k) => k.keyword),
            keywordDraft: '',
            keywordError: null,
          }
        case 'unmuteKeyword':
          return { change: null, keywords: context.keywords.filter((k) => k.keyword !== change.keyword) }
        case 'muteDomain':
          return {
            change: null,
            domains: addSorted(context.domains, storedDomain(stored, change.domain), (d) => d.domain),
            domainDraft: '',
            domainError: null,
          }
        case 'unmuteDomain':
          return { change: null, domains: context.domains.filter((d) => d.domain !== change.domain) }
      }
    }),
    notifyChanged: ({ context, system }) => {
      if (context.change) showToast(system, 'success', SUCCESS[context.change.kind])
    },
    /** The server's words, else 'Failed to mute' (an Add) or 'Failed to unmute' (a removal). */
    notifyRefused: ({ context, system }, error: unknown) => {
      const kind = context.change?.kind
      if (!kind) return
      const adding = kind === 'muteKeyword' || kind === 'muteDomain'
      showToast(system, 'error', serverMessageOr(error, adding ? MUTE_FAILED : UNMUTE_FAILED))
    },
    settle: assign({ change: null }),
  },
  guards: {
    opensAtOnce: ({ context }) => context.open,
    nothingSaving: ({ context }) => context.change === null,
    hasMore: ({ context }) => context.nextCursor !== null,
    isListedUser: ({ context }, userId: string) => context.users.some((u) => u.muted.id === userId),
    isListedKeyword: ({ context }, keyword: string) => context.keywords.some((k) => k.keyword === keyword),
    isListedDomain: ({ context }, domain: string) => context.domains.some((d) => d.domain === domain),
    keywordIsValid: ({ context }) => checkMutedKeyword(context.keywordDraft).ok,
    domainIsValid: ({ context }) => checkMutedDomain(context.domainDraft).ok,
    hasKeywordDraft: ({ context }) => context.keywordDraft.trim() !== '',
    hasDomainDraft: ({ context }) => context.domainDraft.trim() !== '',
  },
}).createMachine({
  id: 'mutes',
  context: ({ input }) => ({
    open: input.open,
    tab: 'users',
    users: [],
    keywords: [],
    domains: [],
    nextCursor: null,
    keywordDraft: '',
    domainDraft: '',
    keywordError: null,
    domainError: null,
    change: null,
  }),
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
      entry: 'reset',
      initial: 'loading',
      on: {
        // Escape, the backdrop and the close button wait while a change saves.
        'mutes.close': { guard: 'nothingSaving', target: 'closed' },
        'mutes.tab': { actions: { type: 'showTab', params: ({ event }) => event.tab } },
      },
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadMutes',
            src: 'loadMutes',
            input: { cursor: null },
            onDone: { target: 'ready', actions: { type: 'showPage', params: ({ event }) => event.output } },
            onError: { target: 'failed' },
          },
        },
        failed: {
          on: { 'mutes.retry': 'loading' },
        },
        ready: {
          initial: 'idle',
          on: {
            'keyword.input': { actions: { type: 'typeKeyword', params: ({ event }) => event.value } },
            'domain.input': { actions: { type: 'typeDomain', params: ({ event }) => event.value } },
          },
          states: {
            idle: {
              on: {
                'users.more': { guard: 'hasMore', target: 'loadingMore' },
                'user.unmute': {
                  guard: { type: 'isListedUser', params: ({ event }) => event.userId },
                  target: 'saving',
                  actions: { type: 'begin', params: ({ event }) => ({ kind: 'unmuteUser' as const, userId: event.userId }) },
                },
                'keyword.add': [
                  {
                    guard: 'keywordIsValid',
                    target: 'saving',
                    actions: {
                      type: 'begin',
                      params: ({ context }) => ({ kind: 'muteKeyword' as const, keyword: context.keywordDraft.trim() }),
                    },
                  },
                  { guard: 'hasKeywordDraft', actions: 'rejectKeyword' },
                ],
                'keyword.remove': {
                  guard: { type: 'isListedKeyword', params: ({ event }) => event.keyword },
                  target: 'saving',
                  actions: { type: 'begin', params: ({ event }) => ({ kind: 'unmuteKeyword' as const, keyword: event.keyword }) },
                },
                'domain.add': [
                  {
                    guard: 'domainIsValid',
                    target: 'saving',
                    actions: {
                      type: 'begin',
                      params: ({ context }) => ({ kind: 'muteDomain' as const, domain: context.domainDraft.trim().toLowerCase() }),
                    },
                  },
                  { guard: 'hasDomainDraft', actions: 'rejectDomain' },
                ],
                'domain.remove': {
                  guard: { type: 'isListedDomain', params: ({ event }) => event.domain },
                  target: 'saving',
                  actions: { type: 'begin', params: ({ event }) => ({ kind: 'unmuteDomain' as const, domain: event.domain }) },
                },
              },
            },
            saving: {
              tags: ['busy'],
              invoke: {
                id: 'change',
                src: 'change',
                input: ({ context }) => context.change as MuteChange,
                onDone: {
                  target: 'idle',
                  actions: ['notifyChanged', { type: 'apply', params: ({ event }) => event.output }],
                },
                onError: {
                  target: 'idle',
                  actions: [
                    { type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error },
                    'settle',
                  ],
                },
              },
            },
            loadingMore: {
              tags: ['busy'],
              invoke: {
                id: 'loadMore',
                src: 'loadMutes',
                input: ({ context }) => ({ cursor: context.nextCursor }),
                onDone: { target: 'idle', actions: { type: 'appendUsers', params: ({ event }) => event.output } },
                // The Load more button stays; the member can try again.
                onError: { target: 'idle' },
              },
            },
          },
        },
      },
    },
  },
})

export type MutesMachine = typeof mutesMachine
export type MutesRef = ActorRefFrom<MutesMachine>
