import type { AnyEventObject } from 'xstate'
import { Invalid, Network } from '../../../src/api/errors'
import { mutesMachine, type MutesInput } from '../../../src/machines/mutes/mutes.machine'
import type { MachineModel } from '../support/walks'

// The Mute Management dialog's model, in walks that together take every transition: opening and closing it (by
// `?tab=mutes` or Manage Mutes), the tabs and the muted members, keywords, domains. Walked by
// tests/machines/mutes.test.ts and printed by `npm run paths -- mutes`.

const at = '2026-01-01T00:00:00.000Z'
const member = (id: string, username: string, reason: string | null) => ({
  id: `mute-${id}`,
  reason,
  muted: { id, username, displayName: username.toUpperCase(), avatar: null, verified: false },
  createdAt: at,
})

export const ann = member('user-ann', 'ann', 'Too many threads')
export const bob = member('user-bob', 'bob', null)
export const spoilers = { id: 'kw-1', keyword: 'spoilers', createdAt: at }
export const bigSpoilers = { id: 'kw-2', keyword: 'big spoilers', createdAt: at }
export const oldDomain = { id: 'dm-1', domain: 'old.example', createdAt: at }
export const spamDomain = { id: 'dm-2', domain: 'spam.example', createdAt: at }

/** The first page: Ann muted, one keyword, one domain, and a next page of members. */
export const firstPage = { mutedUsers: [ann], mutedKeywords: [spoilers], mutedDomains: [oldDomain], nextCursor: 'c2' }
export const secondPage = { mutedUsers: [bob], mutedKeywords: [spoilers], mutedDomains: [oldDomain], nextCursor: null }

export const keywordTaken = new Invalid({ message: 'Keyword already muted', fromServer: true, status: 409, details: [] })
export const domainTaken = new Invalid({ message: 'Domain already muted', fromServer: true, status: 409, details: [] })
export const offline = new Network({ message: 'Unable to reach the server.' })

const loaded = { type: 'xstate.done.actor.loadMutes', output: firstPage }

interface MutesWalk {
  name: string
  input: MutesInput
  events: AnyEventObject[]
}

const scenarios: MutesWalk[] = [
  {
    name: 'opening',
    input: { open: false },
    events: [
      { type: 'mutes.open' },
      loaded,
      { type: 'xstate.error.actor.loadMutes', error: offline },
      { type: 'mutes.retry' },
      { type: 'mutes.close' },
      { type: 'mutes.tab', tab: 'keywords' },
    ],
  },
  {
    name: 'members',
    input: { open: true },
    events: [
      loaded,
      { type: 'users.more' },
      { type: 'xstate.done.actor.loadMore', output: secondPage },
      { type: 'xstate.error.actor.loadMore', error: offline },
      { type: 'user.unmute', userId: 'user-ann' },
      { type: 'xstate.done.actor.change', output: null },
      { type: 'xstate.error.actor.change', error: offline },
      { type: 'mutes.close' },
    ],
  },
  {
    name: 'keywords',
    input: { open: true },
    events: [
      loaded,
      { type: 'mutes.tab', tab: 'keywords' },
      { type: 'keyword.input', value: '  big spoilers ' },
      { type: 'keyword.input', value: 'a'.repeat(101) },
      { type: 'keyword.input', value: '' },
      { type: 'keyword.add' },
      { type: 'keyword.remove', keyword: 'spoilers' },
      { type: 'xstate.done.actor.change', output: bigSpoilers },
      { type: 'xstate.error.actor.change', error: keywordTaken },
      { type: 'xstate.error.actor.change', error: offline },
    ],
  },
  {
    name: 'domains',
    input: { open: true },
    events: [
      loaded,
      { type: 'mutes.tab', tab: 'domains' },
      { type: 'domain.input', value: ' Spam.Example ' },
      { type: 'domain.input', value: 'bad_domain' },
      { type: 'domain.add' },
      { type: 'domain.remove', domain: 'old.example' },
      { type: 'xstate.done.actor.change', output: spamDomain },
      { type: 'xstate.error.actor.change', error: domainTaken },
      { type: 'xstate.error.actor.change', error: offline },
    ],
  },
]

const label = (event: AnyEventObject): string | undefined => {
  if (event.type === 'keyword.input' || event.type === 'domain.input') {
    const value = event.value as string
    return `${event.type}(${value.length > 20 ? `${value.length} chars` : JSON.stringify(value)})`
  }
  if (event.type === 'xstate.done.actor.loadMutes') return 'loaded'
  if (event.type === 'xstate.done.actor.loadMore') return 'loaded more'
  if (event.type === 'xstate.done.actor.change') {
    const output = event.output as { keyword?: string; domain?: string } | null
    return `saved(${JSON.stringify(output?.keyword ?? output?.domain ?? null)})`
  }
  if (event.type === 'mutes.tab') return `mutes.tab(${event.tab as string})`
  if (event.type === 'user.unmute') return `user.unmute(${event.userId as string})`
  if (event.type === 'keyword.remove') return `keyword.remove(${event.keyword as string})`
  if (event.type === 'domain.remove') return `domain.remove(${event.domain as string})`
  return undefined
}

export const mutesModel = {
  name: 'mutes',
  machine: mutesMachine,
  walks: scenarios.map(({ name, input, events }) => ({
    name,
    input,
    options: () => ({
      input,
      events,
      label,
      serializeState: (s: { value: unknown; context: unknown }) => JSON.stringify({ value: s.value, context: s.context }),
      // Typing, adding and removing combine freely: the shortest path to every state and one path through every edge.
      simplePaths: false,
    }),
  })),
} satisfies MachineModel
