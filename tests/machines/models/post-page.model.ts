import { createActor, type AnyEventObject } from 'xstate'
import type { Post, PostDetailResponse } from '../../../src/api/posts.calls'
import { Network, NotFound } from '../../../src/api/errors'
import { postPageMachine } from '../../../src/machines/post-page/post-page.machine'
import { postsMachine } from '../../../src/machines/posts/posts.machine'
import { makePost, robinSummary } from '../support/post-fixtures'
import type { MachineModel } from '../support/walks'

// The post page's model: the post and its replies page by page, the failures, and the news from the post cache.
// Walked by tests/machines/post-page.machine.test.ts and printed by `npm run paths -- post-page`.

export const post = makePost('p1', { replyCount: 3 })
export const r1 = makePost('r1', { replyTo: 'p1' })
const r2 = makePost('r2', { replyTo: 'p1' })
const r3 = makePost('r3', { replyTo: 'p1' })
export const detail = (replies: Post[], nextCursor: string | null): PostDetailResponse => ({ post, replies, nextCursor })
export const mine = makePost('m1', { replyTo: 'p1', author: robinSummary, content: 'My reply' })

const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.loadPost', output: detail([r1, r2], 'cursor-1') },
  { type: 'xstate.done.actor.loadPost', output: detail([r1], null) },
  { type: 'xstate.error.actor.loadPost', error: new NotFound({ message: 'Post not found', fromServer: true }) },
  { type: 'xstate.error.actor.loadPost', error: new Network({ message: 'Unable to reach the server.' }) },
  { type: 'replies.loadMore' },
  { type: 'xstate.done.actor.loadMore', output: detail([r3], 'cursor-2') },
  { type: 'xstate.done.actor.loadMore', output: detail([r3], null) },
  { type: 'xstate.error.actor.loadMore', error: new Network({ message: 'Unable to reach the server.' }) },
  { type: 'post.created', post: mine },
  { type: 'post.created', post: makePost('x1', { replyTo: 'elsewhere' }) },
  { type: 'post.deleted', id: 'r1' },
  { type: 'post.deleted', id: 'p1' },
]

const label = (event: AnyEventObject): string | undefined => {
  const output = event.output as PostDetailResponse | undefined
  if (output) return `${event.type.replace('xstate.done.actor.', '')}(${output.replies.length}${output.nextCursor ? ', more' : ', last'})`
  if (event.type === 'post.deleted') return `deleted(${String(event.id)})`
  return undefined
}

export const postPageModel = {
  name: 'post-page',
  machine: postPageMachine,
  walks: [
    {
      name: '',
      options: () => ({
        input: { posts: createActor(postsMachine).start(), postId: 'p1' },
        events,
        serializeState: (s: { value: unknown; context: { replies: ReadonlyArray<{ id: string }>; cursor: unknown } }) =>
          JSON.stringify({ value: s.value, ids: s.context.replies.map((e) => e.id), cursor: s.context.cursor }),
        label,
        edgesOnly: 'replies page in and change with each reply, like and deletion: every order of them is its own state',
      }),
    },
  ],
} satisfies MachineModel
