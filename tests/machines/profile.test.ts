import { beforeEach, describe, expect, it } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import type { CurrentUser } from '../../src/api/types'
import type { ProfilePost, UserProfileResponse } from '../../src/api/users.calls'
import { postsMachine } from '../../src/machines/posts/posts.machine'
import { followMachine } from '../../src/machines/follow/follow.machine'
import {
  AVATAR_UPDATED,
  BANNER_UPDATED,
  POSTS_LOAD_FAILED,
  PROFILE_LOAD_FAILED,
  profileMachine,
  UPLOAD_FAILED,
} from '../../src/machines/profile/profile.machine'
import * as select from '../../src/machines/profile/profile.selectors'
import { shownToasts, withToasts } from './support/toasts'
import {
  avatarFile,
  bannerFile,
  bare503,
  created,
  missing,
  notAnImage,
  offline,
  profileModel,
} from './models/profile.model'
import { Calls } from './support/controlled-actors'
import { robin } from './support/fixtures'
import { installLocalStorage } from './support/memory-storage'
import { Coverage, perform, settle, walkPaths } from './support/model'
import { signedInSession } from './support/signed-in'
import { ann, annFirstPage, photo, post, robinFirstPage } from './support/profile-fixtures'

// The profile page. What the member sees is read through the same selectors the views use: the spinner, 'User not
// found', the error with Retry, the header (name, counts, Follow or the camera buttons), the open tab and its posts
// (ids from the actor, posts from the real post cache), the list's spinner/retry, and the toasts. The page's two
// regions (list and upload) run side by side and independently, so each is walked on its own: the load paths, the
// list paths on Ann's profile, the post-cache news, and the upload paths on Robin's own profile. The walks, events and
// fixtures are the model's (./models/profile.model.ts), shared with `npm run paths -- profile`.

type Snapshot = SnapshotFrom<typeof profileMachine>

/** What the screen shows, read the way the views read it. */
function screen(snapshot: Snapshot, cache: ReturnType<typeof startCache>) {
  const entities = cache.getSnapshot().context.entities
  const follow = select.selectFollow(snapshot)
  return {
    spinner: select.selectIsLoading(snapshot),
    notFound: select.selectIsNotFound(snapshot),
    error: select.selectLoadError(snapshot),
    name: select.selectUser(snapshot)?.displayName ?? null,
    owner: select.selectIsOwner(snapshot),
    followButton: follow ? (follow.getSnapshot().context.following ? 'Unfollow' : 'Follow') : null,
    followers: follow ? follow.getSnapshot().context.followers : (select.selectUser(snapshot)?.stats.followers ?? null),
    posts: select.selectUser(snapshot)?.stats.posts ?? null,
    tab: select.selectTab(snapshot),
    cards: select.selectEntries(snapshot).map((e) => entities[e.id]?.content ?? `(missing ${e.id})`),
    tabSpinner: select.selectIsTabLoading(snapshot),
    tabError: select.selectTabError(snapshot),
    loadingMore: select.selectIsLoadingMore(snapshot),
    moreFailed: select.selectLoadMoreFailed(snapshot),
    uploading: select.selectUploading(snapshot),
    avatar: select.selectUser(snapshot)?.avatar ?? null,
    banner: select.selectUser(snapshot)?.banner ?? null,
  }
}

const startCache = () => createActor(postsMachine).start()

const contentOf = (posts: ReadonlyArray<ProfilePost>) => posts.map((p) => p.content)
const coverage = new Coverage(profileMachine)

beforeEach(() => {
  installLocalStorage()
})

describe.each(profileModel.walks)('profile machine: $name', (walk) => {
  const { username } = walk
  const paths = walkPaths(profileModel, walk)

  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_name, path) => {
    const calls = new Calls()
    const cache = startCache()
    const session = await signedInSession()
    const machine = profileMachine.provide({
      actors: {
        loadProfile: calls.actor('loadProfile'),
        loadPosts: calls.actor('loadPosts'),
        uploadImage: calls.actor('uploadImage'),
        follow: followMachine.provide({ actors: { setFollow: calls.actor('setFollow') } }),
      },
    })
    const actor = withToasts(
      createActor(machine, { input: { username, viewerId: robin.id, session, posts: cache }, inspect: coverage.inspector }),
    ).start()
    coverage.see(actor.getSnapshot())
    expect(screen(actor.getSnapshot(), cache)).toMatchObject({ spinner: true, name: null, cards: [] })
    expect(calls.started.at(-1)).toEqual({ id: 'loadProfile', input: { username, tab: 'posts' } })

    for (const step of path.steps) {
      const before = actor.getSnapshot()
      const seenBefore = screen(before, cache)
      const toastsBefore = shownToasts().length
      if (step.event.type === 'post.created') {
        // The way it happens: a composer tells the post cache, which stores it and tells the lists.
        cache.send(step.event as { type: 'post.created'; post: ProfilePost })
        await settle()
      } else {
        await perform(actor, calls, step.event)
      }
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      const seen = screen(snapshot, cache)
      const toasts = shownToasts()
      const event = step.event

      switch (event.type) {
        case 'xstate.init':
          break
        case 'xstate.done.actor.loadProfile': {
          const answer = event.output as UserProfileResponse
          const own = answer.user.id === robin.id
          // The header, the Posts tab and its posts (read from the post cache).
          expect(seen).toMatchObject({
            spinner: false,
            name: answer.user.displayName,
            owner: own,
            followButton: own ? null : answer.user.isFollowing ? 'Unfollow' : 'Follow',
            followers: answer.user.stats.followers,
            tab: 'posts',
            cards: contentOf(answer.posts),
          })
          break
        }
        case 'xstate.error.actor.loadProfile':
          if (event.error === missing) expect(seen).toMatchObject({ notFound: true, error: null, name: null })
          else expect(seen.error).toBe(event.error === offline ? offline.message : PROFILE_LOAD_FAILED)
          break
        case 'profile.retry':
          expect(seen).toMatchObject({ spinner: true, error: null })
          expect(calls.started.at(-1)).toEqual({ id: 'loadProfile', input: { username: 'ann', tab: 'posts' } })
          break
        case 'profile.tab.select':
          // The tab shows at once, empty with its spinner, and its own list is asked for with ?tab=.
          expect(seen).toMatchObject({ tab: event.tab, cards: [], tabSpinner: true, tabError: null })
          expect(calls.started.at(-1)).toEqual({ id: 'loadPosts', input: { username: 'ann', tab: event.tab } })
          break
        case 'profile.more':
          expect(seen).toMatchObject({ loadingMore: true, cards: seenBefore.cards })
          expect(calls.started.at(-1)).toEqual({
            id: 'loadPosts',
            input: { username: 'ann', tab: seen.tab, cursor: before.context.nextCursor },
          })
          break
        case 'profile.list.retry':
          expect(seen.tabError).toBeNull()
          expect(seen.moreFailed).toBe(false)
          expect(calls.started.at(-1)?.id).toBe('loadPosts')
          break
        case 'xstate.done.actor.loadPosts': {
          const answer = event.output as UserProfileResponse
          const more = before.matches({ loaded: { list: 'loadingMore' } })
          expect(seen.cards).toEqual(more ? [...seenBefore.cards, ...contentOf(answer.posts)] : contentOf(answer.posts))
          expect(seen).toMatchObject({ tabSpinner: false, loadingMore: false })
          // The header is the one loaded with the page; a tab never resets the follow button.
          expect(seen.followers).toBe(seenBefore.followers)
          break
        }
        case 'xstate.error.actor.loadPosts':
          if (before.matches({ loaded: { list: 'loadingMore' } })) {
            expect(seen).toMatchObject({ moreFailed: true, cards: seenBefore.cards })
          } else {
            expect(seen).toMatchObject({ tabError: offline.message, cards: [] })
          }
          break
        case 'post.created': {
          const p = event.post as ProfilePost
          const shown = seen.cards[0] === p.content
          expect(shown).toBe(seen.tab === 'posts' ? p.replyTo === null : seen.tab === 'replies' && p.replyTo !== null)
          expect(seen.posts).toBe((seenBefore.posts ?? 0) + 1)
          break
        }
        case 'post.deleted': {
          expect(snapshot.context.entries.some((e) => e.id === event.id)).toBe(false)
          const entry = before.context.entries.find((e) => e.id === event.id)
          const own = entry !== undefined && entry.repostedBy === null
          expect(seen.posts).toBe((seenBefore.posts ?? 0) - (own ? 1 : 0))
          break
        }
        case 'profile.avatar.upload':
        case 'profile.banner.upload': {
          const image = event.type === 'profile.avatar.upload' ? 'avatar' : 'banner'
          expect(seen.uploading).toBe(image)
          expect(calls.started.at(-1)).toEqual({ id: 'uploadImage', input: { image, file: event.file } })
          // One image at a time: the other camera button waits.
          expect(snapshot.can({ type: 'profile.avatar.upload', file: avatarFile })).toBe(false)
          expect(snapshot.can({ type: 'profile.banner.upload', file: bannerFile })).toBe(false)
          break
        }
        case 'xstate.done.actor.uploadImage': {
          const me = event.output as CurrentUser
          expect(seen).toMatchObject({ uploading: null, avatar: me.avatar, banner: me.banner })
          expect(toasts.at(-1)).toMatchObject({
            type: 'success',
            message: seenBefore.uploading === 'avatar' ? AVATAR_UPDATED : BANNER_UPDATED,
          })
          // The shell reads the session: it shows the new picture too.
          expect(session.getSnapshot().context.user).toMatchObject({ avatar: me.avatar, banner: me.banner })
          break
        }
        case 'xstate.error.actor.uploadImage':
          expect(seen).toMatchObject({ uploading: null, avatar: seenBefore.avatar, banner: seenBefore.banner })
          expect(toasts.at(-1)).toMatchObject({
            type: 'error',
            message: event.error === notAnImage ? notAnImage.message : UPLOAD_FAILED,
          })
          break
        default:
          throw new Error(`No expectation for ${event.type}`)
      }
      if (!event.type.includes('upload') && !event.type.startsWith('xstate.done.actor.upload')) {
        expect(shownToasts().length, 'only uploads toast here').toBe(toastsBefore)
      }
    }
    actor.stop()
    session.stop()
    cache.stop()
  })
})

describe('profile machine', () => {
  it('paths enter every state and take every transition', () => {
    coverage.expectComplete()
  })

  async function loadedAnn() {
    const calls = new Calls()
    const cache = startCache()
    const session = await signedInSession()
    const machine = profileMachine.provide({
      actors: {
        loadProfile: calls.actor('loadProfile'),
        loadPosts: calls.actor('loadPosts'),
        follow: followMachine.provide({ actors: { setFollow: calls.actor('setFollow') } }),
      },
    })
    const actor = withToasts(createActor(machine, { input: { username: 'ann', viewerId: robin.id, session, posts: cache } })).start()
    await perform(actor, calls, { type: 'xstate.done.actor.loadProfile', output: annFirstPage })
    return { calls, cache, session, actor }
  }

  it("a visitor's Follow: 'Following' and the server's exact count, through the header's follow actor", async () => {
    const { calls, actor } = await loadedAnn()
    const follow = actor.getSnapshot().context.follow
    expect(follow?.getSnapshot().context).toMatchObject({ userId: ann.id, following: false, followers: 7 })
    follow?.send({ type: 'follow.toggle' })
    expect(follow?.getSnapshot().context.followers).toBe(8)
    await perform(actor, calls, { type: 'xstate.done.actor.setFollow', output: { following: true, followers: 9 } })
    expect(follow?.getSnapshot().context).toMatchObject({ following: true, followers: 9 })
    expect(shownToasts().at(-1)?.message).toBe('Following')
    actor.stop()
  })

  it("no Follow and no uploads on one's own profile; no uploads on someone else's", async () => {
    const { actor } = await loadedAnn()
    expect(actor.getSnapshot().can({ type: 'profile.avatar.upload', file: avatarFile })).toBe(false)
    actor.stop()
    const calls = new Calls()
    const session = await signedInSession()
    const own = createActor(profileMachine.provide({ actors: { loadProfile: calls.actor('loadProfile') } }), {
      input: { username: robin.username, viewerId: robin.id, session, posts: startCache() },
    }).start()
    await perform(own, calls, { type: 'xstate.done.actor.loadProfile', output: robinFirstPage })
    expect(own.getSnapshot().context.follow).toBeNull()
    expect(own.getSnapshot().can({ type: 'profile.avatar.upload', file: avatarFile })).toBe(true)
    own.stop()
  })

  it('a second tab click while the first is loading gets its own answer, never the first one', async () => {
    const { calls, actor } = await loadedAnn()
    actor.send({ type: 'profile.tab.select', tab: 'replies' })
    actor.send({ type: 'profile.tab.select', tab: 'likes' })
    expect(calls.started.slice(-2).map((c) => c.input)).toEqual([
      { username: 'ann', tab: 'replies' },
      { username: 'ann', tab: 'likes' },
    ])
    const likes = { user: ann, posts: [post('l1', { content: 'Liked by Ann' })], nextCursor: null }
    await perform(actor, calls, { type: 'xstate.done.actor.loadPosts', output: likes })
    expect(actor.getSnapshot().context).toMatchObject({ tab: 'likes', entries: [{ id: 'l1', repostedBy: null }] })
    actor.stop()
  })

  it("says why a tab could not load, in the member's words when the server gave none", async () => {
    const { calls, actor } = await loadedAnn()
    actor.send({ type: 'profile.tab.select', tab: 'media' })
    await perform(actor, calls, { type: 'xstate.error.actor.loadPosts', error: bare503 })
    expect(select.selectTabError(actor.getSnapshot())).toBe(POSTS_LOAD_FAILED)
    actor.send({ type: 'profile.list.retry' })
    expect(calls.started.at(-1)).toEqual({ id: 'loadPosts', input: { username: 'ann', tab: 'media' } })
    actor.stop()
  })

  it('hears about posts through the post cache: a new post of hers shows on top, a deleted one goes', async () => {
    const { cache, actor } = await loadedAnn()
    cache.send({ type: 'post.created', post: { ...created, media: [photo] } })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(actor.getSnapshot().context.entries.map((e) => e.id)).toEqual(['n1', 'p1', 'p2'])
    expect(actor.getSnapshot().context.user?.stats.posts).toBe(4)
    actor.stop()
  })
})
