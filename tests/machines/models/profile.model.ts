import { createActor, type AnyEventObject } from 'xstate'
import { Invalid, Network, NotFound, Server } from '../../../src/api/errors'
import type { CurrentUser } from '../../../src/api/types'
import { postsMachine } from '../../../src/machines/posts/posts.machine'
import { profileMachine } from '../../../src/machines/profile/profile.machine'
import type { ProfileContext } from '../../../src/machines/profile/profile.types'
import { sessionMachine } from '../../../src/machines/session/session.machine'
import { robin, storedRobin } from '../support/fixtures'
import { annFirstPage, morePage, post, repliesPage, robinFirstPage, robinProfile } from '../support/profile-fixtures'
import type { EventLabel, MachineModel } from '../support/walks'

// The profile page's model. Its two regions (list and upload) run side by side and independently, so each is walked
// on its own: the load paths, the list paths on Ann's profile, the post-cache news, and the upload paths on Robin's
// own profile. Walked by tests/machines/profile.test.ts and printed by `npm run paths -- profile`.

export const missing = new NotFound({ message: 'User not found', fromServer: true })
export const offline = new Network({ message: 'Unable to reach the server. Check your connection and try again.' })
export const bare503 = new Server({ status: 503, message: '', fromServer: false })
export const notAnImage = new Invalid({
  status: 400,
  message: 'Unsupported file type: the image must be JPEG, PNG, WebP or GIF',
  fromServer: true,
  details: [],
})

export const avatarFile = new File([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' })
export const bannerFile = new File([new Uint8Array([137, 80, 78, 71])], 'wide.png', { type: 'image/png' })
export const withAvatar: CurrentUser = { ...robin, avatar: '/media/avatars/new.webp' }
export const withBanner: CurrentUser = { ...robin, banner: '/media/banners/new.webp' }

export const created = post('n1', { content: 'Fresh from the composer' })
export const createdReply = post('n2', { replyTo: 'p9' })
export const createdByOther = post('n3', {}, robinProfile)

const names = new Map<unknown, string>([
  [annFirstPage, "Ann's profile"],
  [robinFirstPage, "Robin's own profile"],
  [repliesPage, 'replies page'],
  [morePage, 'next page'],
  [withAvatar, 'new avatar'],
  [withBanner, 'new banner'],
  [created, 'her new post'],
  [createdReply, 'her new reply'],
  [avatarFile, 'me.png'],
  [bannerFile, 'wide.png'],
])
const label: EventLabel = (event) => {
  const payload = event.output ?? event.post ?? event.file
  if (names.has(payload)) return `${event.type}(${names.get(payload)})`
  if (event.type === 'profile.tab.select') return `${event.type}(${String(event.tab)})`
  return undefined
}

interface Walk {
  name: string
  username: string
  events: AnyEventObject[]
}

const walks: Walk[] = [
  {
    name: 'load',
    username: 'ann',
    events: [
      { type: 'xstate.done.actor.loadProfile', output: annFirstPage },
      { type: 'xstate.error.actor.loadProfile', error: missing },
      { type: 'xstate.error.actor.loadProfile', error: offline },
      { type: 'xstate.error.actor.loadProfile', error: bare503 },
      { type: 'profile.retry' },
    ],
  },
  {
    name: 'list',
    username: 'ann',
    events: [
      { type: 'xstate.done.actor.loadProfile', output: annFirstPage },
      { type: 'profile.tab.select', tab: 'replies' },
      { type: 'profile.tab.select', tab: 'posts' },
      { type: 'profile.more' },
      { type: 'profile.list.retry' },
      { type: 'xstate.done.actor.loadPosts', output: repliesPage },
      { type: 'xstate.done.actor.loadPosts', output: morePage },
      { type: 'xstate.error.actor.loadPosts', error: offline },
    ],
  },
  {
    name: 'news from the post cache',
    username: 'ann',
    events: [
      { type: 'xstate.done.actor.loadProfile', output: annFirstPage },
      { type: 'post.created', post: created },
      { type: 'post.created', post: createdReply },
      { type: 'post.created', post: createdByOther },
      { type: 'post.deleted', id: 'p1' },
      { type: 'post.deleted', id: 'p2' },
    ],
  },
  {
    name: 'upload',
    username: robin.username,
    events: [
      { type: 'xstate.done.actor.loadProfile', output: robinFirstPage },
      { type: 'profile.avatar.upload', file: avatarFile },
      { type: 'profile.banner.upload', file: bannerFile },
      { type: 'xstate.done.actor.uploadImage', output: withAvatar },
      { type: 'xstate.done.actor.uploadImage', output: withBanner },
      { type: 'xstate.error.actor.uploadImage', error: notAnImage },
      { type: 'xstate.error.actor.uploadImage', error: offline },
    ],
  },
]

export const profileModel = {
  name: 'profile',
  machine: profileMachine,
  walks: walks.map(({ name, username, events }) => ({
    name,
    /** Whose profile the walk opens. */
    username,
    options: () => ({
      input: {
        username,
        viewerId: robin.id,
        session: createActor(sessionMachine, { input: { stored: storedRobin } }),
        posts: createActor(postsMachine),
      },
      events,
      label,
      serializeState: (s: { value: unknown; context: unknown }) => {
        const c = s.context as ProfileContext
        return JSON.stringify({
          value: s.value,
          tab: c.tab,
          entries: c.entries.map((e) => e.id),
          cursor: c.nextCursor,
          // Not the posts count: each `post.created` adds one, so counting it would make the graph endless.
          user: c.user && { avatar: c.user.avatar, banner: c.user.banner },
          errors: [c.error, c.listError],
          uploading: c.uploading,
        })
      },
    }),
  })),
} satisfies MachineModel
