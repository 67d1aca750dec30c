import { assign, fromPromise, setup, type ActorRefFrom } from 'xstate'
import { showToast } from '../toasts/notify'
import { browserShareService, type ShareService } from './share.service'
import { COPY_FAILED, isCancelled, LINK_COPIED, postPath } from './share.rules'

// A post's Share button (docs/product.md, "Post card"). One actor while a member is signed in (systemId 'share', a
// child of the member actor); every card sends it `share.post`. The link is the post page's absolute address.
// - Where the browser has a share sheet it opens (`sheet`): shared -> done; closed by the member (AbortError) -> done,
//   nothing shown; refused for any other reason -> the link is copied instead.
// - Otherwise (or after such a refusal) the link goes to the clipboard (`copying`): 'Link copied', or an error toast
//   saying the browser did not allow it.
// A press while a share is under way is ignored: one sheet at a time.
// The browser itself is behind `ShareService` (./share.service.ts), given as input (tests hand in a fake).

export type ShareEvent = { type: 'share.post'; postId: string }

export interface ShareInput {
  service?: ShareService
}

export interface ShareContext {
  service: ShareService
  /** The link being shared; null when idle. */
  link: string | null
}

export const shareMachine = setup({
  types: {
    context: {} as ShareContext,
    events: {} as ShareEvent,
    input: {} as ShareInput,
    tags: {} as 'busy',
  },
  actors: {
    openShareSheet: fromPromise<void, { service: ShareService; link: string }>(({ input }) => input.service.share(input.link)),
    copyLink: fromPromise<void, { service: ShareService; link: string }>(({ input }) => input.service.copy(input.link)),
  },
  actions: {
    setLink: assign(({ context }, postId: string) => ({ link: context.service.linkTo(postPath(postId)) })),
    clearLink: assign({ link: null }),
    notifyCopied: ({ system }) => showToast(system, 'success', LINK_COPIED),
    notifyCopyFailed: ({ system }) => showToast(system, 'error', COPY_FAILED),
  },
  guards: {
    hasShareSheet: ({ context }) => context.service.hasShareSheet(),
    cancelled: ({ event }) => 'error' in event && isCancelled(event.error),
  },
}).createMachine({
  id: 'share',
  context: ({ input }) => ({ service: input.service ?? browserShareService, link: null }),
  initial: 'idle',
  states: {
    idle: {
      entry: 'clearLink',
      on: {
        'share.post': [
          { guard: 'hasShareSheet', target: 'sheet', actions: { type: 'setLink', params: ({ event }) => event.postId } },
          { target: 'copying', actions: { type: 'setLink', params: ({ event }) => event.postId } },
        ],
      },
    },
    /** The system share sheet is open. */
    sheet: {
      tags: ['busy'],
      invoke: {
        id: 'openShareSheet',
        src: 'openShareSheet',
        input: ({ context }) => ({ service: context.service, link: context.link ?? '' }),
        onDone: { target: 'idle' },
        onError: [
          { guard: 'cancelled', target: 'idle' },
          { target: 'copying' },
        ],
      },
    },
    copying: {
      tags: ['busy'],
      invoke: {
        id: 'copyLink',
        src: 'copyLink',
        input: ({ context }) => ({ service: context.service, link: context.link ?? '' }),
        onDone: { target: 'idle', actions: 'notifyCopied' },
        onError: { target: 'idle', actions: 'notifyCopyFailed' },
      },
    },
  },
})

export type ShareMachine = typeof shareMachine
export type ShareRef = ActorRefFrom<ShareMachine>
