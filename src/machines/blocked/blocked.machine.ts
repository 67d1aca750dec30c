import { assign, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { blockCalls, type BlockedUser, type BlocksResponse } from '../../api/blocks.calls'
import { run } from '../../api/calls'
import { serverMessageOr } from '../../api/errors'
import { showToast } from '../toasts/notify'
import { BLOCK_DOMAIN_FAILED, BLOCK_KEYWORD_FAILED, checkDomain, checkKeyword } from './blocked.rules'

// Settings -> Blocked Accounts (docs/product.md, "Blocks"): opened with the section, it reads GET /blocks (spinner),
// then lists the blocked members (Unblock; Load more while the server gives a next cursor) and the keyword and domain
// chips (remove), with an Add form for each. One change at a time: while one is saving, the buttons wait. Successes
// toast; a refused Add says why under its form (the server's words, else 'Failed to block keyword' / 'Invalid domain
// format') and keeps what was typed; refused unblocks and removals are silent.

export const USER_UNBLOCKED = 'User unblocked'
export const KEYWORD_BLOCKED = 'Keyword blocked'
export const KEYWORD_UNBLOCKED = 'Keyword unblocked'
export const DOMAIN_BLOCKED = 'Domain blocked'
export const DOMAIN_UNBLOCKED = 'Domain unblocked'

/** One change the member asked for, as sent to the server. */
export type BlockChange =
  | { kind: 'unblockUser'; userId: string }
  | { kind: 'blockKeyword'; keyword: string }
  | { kind: 'unblockKeyword'; keyword: string }
  | { kind: 'blockDomain'; domain: string }
  | { kind: 'unblockDomain'; domain: string }

export type BlockedEvent =
  | { type: 'blocked.retry' }
  | { type: 'users.more' }
  | { type: 'user.unblock'; userId: string }
  | { type: 'keyword.input'; value: string }
  | { type: 'keyword.add' }
  | { type: 'keyword.remove'; keyword: string }
  | { type: 'domain.input'; value: string }
  | { type: 'domain.add' }
  | { type: 'domain.remove'; domain: string }

export interface BlockedContext {
  users: ReadonlyArray<BlockedUser>
  keywords: ReadonlyArray<string>
  domains: ReadonlyArray<string>
  nextCursor: string | null
  keywordDraft: string
  domainDraft: string
  keywordError: string | null
  domainError: string | null
  /** The change being saved. */
  change: BlockChange | null
}

const initialContext: BlockedContext = {
  users: [],
  keywords: [],
  domains: [],
  nextCursor: null,
  keywordDraft: '',
  domainDraft: '',
  keywordError: null,
  domainError: null,
  change: null,
}

const SUCCESS: Record<BlockChange['kind'], string> = {
  unblockUser: USER_UNBLOCKED,
  blockKeyword: KEYWORD_BLOCKED,
  unblockKeyword: KEYWORD_UNBLOCKED,
  blockDomain: DOMAIN_BLOCKED,
  unblockDomain: DOMAIN_UNBLOCKED,
}

/** Answers what the server stored for an Add, null for an unblock or removal. */
function save(change: BlockChange, signal: AbortSignal): Promise<string | null> {
  const done = () => null
  switch (change.kind) {
    case 'unblockUser':
      return run(blockCalls.unblockUser(change.userId), signal).then(done)
    case 'blockKeyword':
      return run(blockCalls.blockKeyword(change.keyword), signal)
    case 'unblockKeyword':
      return run(blockCalls.unblockKeyword(change.keyword), signal).then(done)
    case 'blockDomain':
      return run(blockCalls.blockDomain(change.domain), signal)
    case 'unblockDomain':
      return run(blockCalls.unblockDomain(change.domain), signal).then(done)
  }
}

/** Keeps a list alphabetical (as the server lists it) with one entry per value in any case. */
const addSorted = (list: ReadonlyArray<string>, value: string) =>
  [...list.filter((v) => v.toLowerCase() !== value.toLowerCase()), value].sort((a, b) => a.localeCompare(b))

export const blockedMachine = setup({
  types: {
    context: {} as BlockedContext,
    events: {} as BlockedEvent,
    tags: {} as 'busy' | 'loading',
  },
  actors: {
    loadBlocks: fromPromise<BlocksResponse, { cursor: string | null }>(({ input, signal }) =>
      run(blockCalls.getBlocks(input.cursor), signal),
    ),
    change: fromPromise<string | null, BlockChange>(({ input, signal }) => save(input, signal)),
  },
  actions: {
    showPage: assign((_, page: BlocksResponse) => ({
      users: page.users,
      keywords: page.keywords,
      domains: page.domains,
      nextCursor: page.nextCursor,
    })),
    appendUsers: assign(({ context }, page: BlocksResponse) => ({
      users: [...context.users, ...page.users.filter((u) => !context.users.some((held) => held.id === u.id))],
      nextCursor: page.nextCursor,
    })),
    typeKeyword: assign((_, value: string) => ({ keywordDraft: value, keywordError: null })),
    typeDomain: assign((_, value: string) => ({ domainDraft: value, domainError: null })),
    begin: assign((_, change: BlockChange) => ({ change })),
    rejectKeyword: assign(({ context }) => {
      const checked = checkKeyword(context.keywordDraft)
      return { keywordError: checked.ok ? null : checked.message }
    }),
    rejectDomain: assign(({ context }) => {
      const checked = checkDomain(context.domainDraft)
      return { domainError: checked.ok ? null : checked.message }
    }),
    /** What the server agreed to, on screen: the row or chip goes, or the stored chip comes (and its form empties). */
    apply: assign(({ context }, stored: string | null) => {
      const change = context.change
      if (!change) return {}
      switch (change.kind) {
        case 'unblockUser':
          return { change: null, users: context.users.filter((u) => u.blocked.id !== change.userId) }
        case 'blockKeyword':
          return { change: null, keywords: addSorted(context.keywords, stored ?? change.keyword), keywordDraft: '', keywordError: null }
        case 'unblockKeyword':
          return { change: null, keywords: context.keywords.filter((k) => k !== change.keyword) }
        case 'blockDomain':
          return { change: null, domains: addSorted(context.domains, stored ?? change.domain), domainDraft: '', domainError: null }
        case 'unblockDomain':
          return { change: null, domains: context.domains.filter((d) => d !== change.domain) }
      }
    }),
    notifyChanged: ({ context, system }) => {
      if (context.change) showToast(system, 'success', SUCCESS[context.change.kind])
    },
    /** A refused Add says why under its form; a refused unblock or removal is silent. */
    refuse: assign(({ context }, error: unknown) => {
      const kind = context.change?.kind
      if (kind === 'blockKeyword') return { change: null, keywordError: serverMessageOr(error, BLOCK_KEYWORD_FAILED) }
      if (kind === 'blockDomain') return { change: null, domainError: serverMessageOr(error, BLOCK_DOMAIN_FAILED) }
      return { change: null }
    }),
  },
  guards: {
    hasMore: ({ context }) => context.nextCursor !== null,
    isListedUser: ({ context }, userId: string) => context.users.some((u) => u.blocked.id === userId),
    isListedKeyword: ({ context }, keyword: string) => context.keywords.includes(keyword),
    isListedDomain: ({ context }, domain: string) => context.domains.includes(domain),
    keywordIsValid: ({ context }) => checkKeyword(context.keywordDraft).ok,
    domainIsValid: ({ context }) => checkDomain(context.domainDraft).ok,
    hasKeywordDraft: ({ context }) => context.keywordDraft.trim() !== '',
    hasDomainDraft: ({ context }) => context.domainDraft.trim() !== '',
  },
}).createMachine({
  id: 'blocked',
  context: initialContext,
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadBlocks',
        src: 'loadBlocks',
        input: { cursor: null },
        onDone: { target: 'ready', actions: { type: 'showPage', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
    },
    failed: {
      on: { 'blocked.retry': 'loading' },
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
            'user.unblock': {
              guard: { type: 'isListedUser', params: ({ event }) => event.userId },
              target: 'saving',
              actions: { type: 'begin', params: ({ event }) => ({ kind: 'unblockUser' as const, userId: event.userId }) },
            },
            'keyword.add': [
              {
                guard: 'keywordIsValid',
                target: 'saving',
                actions: {
                  type: 'begin',
                  params: ({ context }) => ({ kind: 'blockKeyword' as const, keyword: context.keywordDraft.trim() }),
                },
              },
              { guard: 'hasKeywordDraft', actions: 'rejectKeyword' },
            ],
            'keyword.remove': {
              guard: { type: 'isListedKeyword', params: ({ event }) => event.keyword },
              target: 'saving',
              actions: { type: 'begin', params: ({ event }) => ({ kind: 'unblockKeyword' as const, keyword: event.keyword }) },
            },
            'domain.add': [
              {
                guard: 'domainIsValid',
                target: 'saving',
                actions: {
                  type: 'begin',
                  params: ({ context }) => ({ kind: 'blockDomain' as const, domain: context.domainDraft.trim().toLowerCase() }),
                },
              },
              { guard: 'hasDomainDraft', actions: 'rejectDomain' },
            ],
            'domain.remove': {
              guard: { type: 'isListedDomain', params: ({ event }) => event.domain },
              target: 'saving',
              actions: { type: 'begin', params: ({ event }) => ({ kind: 'unblockDomain' as const, domain: event.domain }) },
            },
          },
        },
        saving: {
          tags: ['busy'],
          invoke: {
            id: 'change',
            src: 'change',
            input: ({ context }) => context.change as BlockChange,
            onDone: {
              target: 'idle',
              actions: ['notifyChanged', { type: 'apply', params: ({ event }) => event.output }],
            },
            onError: {
              target: 'idle',
              actions: { type: 'refuse', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            },
          },
        },
        loadingMore: {
          tags: ['busy'],
          invoke: {
            id: 'loadMore',
            src: 'loadBlocks',
            input: ({ context }) => ({ cursor: context.nextCursor }),
            onDone: { target: 'idle', actions: { type: 'appendUsers', params: ({ event }) => event.output } },
            // The Load more button stays; the member can try again.
            onError: { target: 'idle' },
          },
        },
      },
    },
  },
})

export type BlockedMachine = typeof blockedMachine
export type BlockedRef = ActorRefFrom<BlockedMachine>
