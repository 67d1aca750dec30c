import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import type { Trend, UserSearchResult } from '../../../src/api/discover.calls'
import { Network, Server } from '../../../src/api/errors'
import type { SearchResults } from '../../../src/machines/search/search.machine'
import { searchMachine } from '../../../src/machines/search/search.machine'
import { postsMachine } from '../../../src/machines/posts/posts.machine'
import { ann, makePost, robinSummary } from '../support/post-fixtures'
import type { MachineModel } from '../support/walks'

// The Search screen's model (the panels of an empty box are the discovery actor's: ./discover.model.ts). Two walks:
// - typing: typing (the debounce is a call the test settles), the address, trending hashtags and the tabs;
// - results: a search from the address, each tab's answers (a page with more, the last page, nothing), failures,
//   Try again, the next pages, a chosen hashtag and the post cache's news.
// Walked by tests/machines/search.test.ts and printed by `npm run paths -- search`.

export const viewerId = robinSummary.id
export const offline = new Network({ message: 'Unable to reach the server. Check your connection and try again.' })
export const down = new Server({ status: 503, message: 'Database unavailable', fromServer: true })

export const trends: Trend[] = [
  { hashtag: 'estuarywalk', count: 2 },
  { hashtag: 'birds', count: 7 },
]

const user = (id: string, username: string, isFollowing = false): UserSearchResult => ({
  id,
  username,
  displayName: username.toUpperCase(),
  avatar: null,
  verified: false,
  bio: `${username}'s bio`,
  isFollowing,
})
export const annUser = user(ann.id, ann.username, true)
export const robinUser = user(viewerId, robinSummary.username)
export const calUser = user('0190a6b2-0000-7000-8000-000000000003', 'cal')

export const postsMore: SearchResults = { tab: 'posts', posts: [makePost('p1'), makePost('p2')], nextCursor: 'c1' }
export const postsLast: SearchResults = { tab: 'posts', posts: [makePost('p1')], nextCursor: null }
export const postsNext: SearchResults = { tab: 'posts', posts: [makePost('p2'), makePost('p3')], nextCursor: null }
export const postsNextMore: SearchResults = { tab: 'posts', posts: [makePost('p3')], nextCursor: 'c2' }
export const nothing = (tab: SearchResults['tab']): SearchResults =>
  tab === 'posts' ? { tab, posts: [], nextCursor: null } : tab === 'users' ? { tab, users: [], nextCursor: null } : { tab, hashtags: [], nextCursor: null }
export const usersMore: SearchResults = { tab: 'users', users: [annUser, robinUser], nextCursor: 'u1' }
export const usersNext: SearchResults = { tab: 'users', users: [calUser, annUser], nextCursor: null }
export const hashtagsLast: SearchResults = { tab: 'hashtags', hashtags: trends, nextCursor: null }

const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output })

/** Typing, the address, trending hashtags and the tabs, with one answer per tab. */
const typingEvents: AnyEventObject[] = [
  { type: 'search.typed', text: ' #estuarywalk ' },
  { type: 'search.typed', text: 'a' },
  { type: 'search.typed', text: '  ' },
  done('debounce', undefined),
  { type: 'search.tab', tab: 'posts' },
  { type: 'search.tab', tab: 'users' },
  { type: 'search.urlChanged', q: '#estuarywalk' },
  { type: 'search.urlChanged', q: '' },
  { type: 'search.trend', hashtag: 'estuarywalk' },
  done('search', postsLast),
  done('search', nothing('users')),
]

/** A search for '#estuarywalk' from the address: each tab's answers, failures, Try again, next pages, the cache's news. */
const resultEvents: AnyEventObject[] = [
  { type: 'search.tab', tab: 'posts' },
  { type: 'search.tab', tab: 'users' },
  { type: 'search.tab', tab: 'hashtags' },
  { type: 'search.hashtag', hashtag: 'estuarywalk' },
  { type: 'search.retry' },
  { type: 'search.more' },
  done('search', postsMore),
  done('search', postsLast),
  done('search', nothing('posts')),
  done('search', usersMore),
  done('search', hashtagsLast),
  { type: 'xstate.error.actor.search', error: offline },
  done('searchMore', postsNext),
  done('searchMore', postsNextMore),
  done('searchMore', usersNext),
  { type: 'xstate.error.actor.searchMore', error: down },
  { type: 'post.deleted', id: 'p1' },
  { type: 'author.muted', authorId: ann.id, ids: ['p2'] },
]

/** A call answers for the tab it was asked for: only those answers are offered. */
const offer = (snapshot: AnyMachineSnapshot, event: AnyEventObject) => {
  const output = event.output as SearchResults | undefined
  if (!output || !/search/.test(event.type)) return true
  return output.tab === (snapshot.context as { tab: string }).tab
}

const label = (event: AnyEventObject) => {
  if (event.type.startsWith('xstate.done.actor.search')) {
    const output = event.output as SearchResults
    const n = output.tab === 'posts' ? output.posts.length : output.tab === 'users' ? output.users.length : output.hashtags.length
    return `${event.type.replace('xstate.done.actor.', '')}(${output.tab}: ${n}${output.nextCursor ? ', more' : ', last'})`
  }
  if (event.type === 'search.typed') return `typed(${JSON.stringify(event.text)})`
  if (event.type === 'search.tab') return `tab(${event.tab as string})`
  if (event.type === 'search.urlChanged') return `urlChanged(${JSON.stringify(event.q)})`
  return undefined
}

const serializeState = (s: AnyMachineSnapshot) => {
  const c = s.context as {
    text: string
    term: string
    tab: string
    entries: { id: string }[]
    users: { user: { id: string } }[]
    hashtags: Trend[]
    cursor: string | null
    error: string | null
  }
  return JSON.stringify({
    value: s.value,
    text: c.text,
    term: c.term,
    tab: c.tab,
    entries: c.entries.map((e) => e.id),
    users: c.users.map((r) => r.user.id),
    hashtags: c.hashtags.map((h) => h.hashtag),
    cursor: c.cursor,
    error: c.error,
  })
}

export const input = (q = '') => ({ posts: createActor(postsMachine).start(), viewerId, q })

export const searchModel = {
  name: 'search',
  machine: searchMachine,
  walks: [
    {
      name: 'typing',
      options: () => ({ input: input(), events: typingEvents, serializeState, label, offer, edgesOnly: 'every keystroke and each page of results is context: every order of typing and answers is its own state' }),
    },
    {
      name: 'results',
      options: () => ({ input: input('#estuarywalk'), events: resultEvents, serializeState, label, offer, edgesOnly: 'every keystroke and each page of results is context: every order of typing and answers is its own state' }),
    },
  ],
} satisfies MachineModel
