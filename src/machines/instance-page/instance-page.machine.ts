import { assign, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import type { InstancePageSlug } from '../../api/contract/instance-pages'
import { describeError } from '../../api/errors'
import { type InstancePage, pageCalls } from '../../api/pages.calls'

// One of the instance's pages, /terms or /privacy, as anyone reads it (docs/product.md, "Instance pages"): loading,
// then the page, or why it could not be read and Try again.

export const PAGE_LOAD_FAILED = 'Could not load this page.'

export type InstancePageEvent = { type: 'page.retry' }

export interface InstancePageContext {
  slug: InstancePageSlug
  page: InstancePage | null
  error: string | null
}

export const instancePageMachine = setup({
  types: {
    context: {} as InstancePageContext,
    events: {} as InstancePageEvent,
    input: {} as { slug: InstancePageSlug },
  },
  actors: {
    loadPage: fromPromise<InstancePage, { slug: InstancePageSlug }>(({ input, signal }) =>
      run(pageCalls.getInstancePage(input.slug), signal),
    ),
  },
  actions: {
    show: assign((_, page: InstancePage) => ({ page, error: null })),
    explain: assign((_, error: unknown) => ({ error: describeError(error, PAGE_LOAD_FAILED) })),
  },
}).createMachine({
  id: 'instancePage',
  context: ({ input }) => ({ slug: input.slug, page: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadPage',
        src: 'loadPage',
        input: ({ context }) => ({ slug: context.slug }),
        onDone: { target: 'ready', actions: { type: 'show', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'explain', params: ({ event }: { event: ErrorActorEvent }) => event.error } },
      },
    },
    ready: {},
    failed: { on: { 'page.retry': 'loading' } },
  },
})

export type InstancePageMachine = typeof instancePageMachine
export type InstancePageRef = ActorRefFrom<InstancePageMachine>
