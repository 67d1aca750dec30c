import { assign, fromPromise, setup, type ActorRefFrom, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { INSTANCE_PAGE_SLUGS, type InstancePageSlug, pageBodyProblem } from '../../api/contract/instance-pages'
import { describeError, serverMessageOr } from '../../api/errors'
import { type InstancePage, pageCalls } from '../../api/pages.calls'
import { showToast } from '../toasts/notify'

// The admin panel's Instance pages editor (docs/product.md, "Instance pages"): both pages load together; a tab per
// page, each keeping its own draft while the admin switches; Write or Preview; Save sends the selected page when its
// draft differs from what is saved and breaks no rule (not blank, at most 50,000 characters: the same rule the server
// holds, src/api/contract/instance-pages.ts). Saved: a toast, the line under the editor, and the audit log reloads
// (`logVersion`). Failed: the server's words, else "Could not save the page"; the draft stays.

export const PAGES_LOAD_FAILED = 'Could not load the instance pages.'
export const PAGE_SAVE_FAILED = 'Could not save the page'

export type PagesView = 'write' | 'preview'
export type InstancePages = Record<InstancePageSlug, InstancePage>

export type InstancePagesEvent =
  | { type: 'pages.select'; slug: InstancePageSlug }
  | { type: 'pages.input'; value: string }
  | { type: 'pages.view'; view: PagesView }
  | { type: 'pages.save' }
  | { type: 'pages.retry' }

export interface InstancePagesContext {
  slug: InstancePageSlug
  /** What the server serves now, by page; null until loaded. */
  saved: InstancePages | null
  /** What the admin is writing, by page (starts as the saved text). */
  drafts: Record<InstancePageSlug, string>
  view: PagesView
  /** Why the pages could not be loaded. */
  loadError: string | null
  /** What the last save said. */
  result: { ok: boolean; text: string } | null
  /** Moves after every save, done or failed: the audit log reads itself again. */
  logVersion: number
}

async function loadPages(signal: AbortSignal): Promise<InstancePages> {
  const pages = await Promise.all(INSTANCE_PAGE_SLUGS.map((slug) => run(pageCalls.getInstancePage(slug), signal)))
  return Object.fromEntries(pages.map((page) => [page.slug, page])) as InstancePages
}

const emptyDrafts: Record<InstancePageSlug, string> = { terms: '', privacy: '' }

export const instancePagesMachine = setup({
  types: {
    context: {} as InstancePagesContext,
    events: {} as InstancePagesEvent,
    tags: {} as 'busy',
  },
  actors: {
    loadPages: fromPromise<InstancePages>(({ signal }) => loadPages(signal)),
    savePage: fromPromise<InstancePage, { slug: InstancePageSlug; body: string }>(({ input, signal }) =>
      run(pageCalls.saveInstancePage(input.slug, input.body), signal),
    ),
  },
  actions: {
    showPages: assign((_, pages: InstancePages) => ({
      saved: pages,
      drafts: { terms: pages.terms.body, privacy: pages.privacy.body },
      loadError: null,
    })),
    explainLoad: assign((_, error: unknown) => ({ loadError: describeError(error, PAGES_LOAD_FAILED) })),
    select: assign((_, slug: InstancePageSlug) => ({ slug, result: null })),
    type: assign(({ context }, value: string) => ({ drafts: { ...context.drafts, [context.slug]: value } })),
    switchView: assign((_, view: PagesView) => ({ view })),
    finish: assign(({ context }, page: InstancePage) => ({
      saved: { ...(context.saved as InstancePages), [page.slug]: page },
      drafts: { ...context.drafts, [page.slug]: page.body },
      result: { ok: true, text: `${page.title} saved` },
      logVersion: context.logVersion + 1,
    })),
    fail: assign(({ context }, error: unknown) => ({
      result: { ok: false, text: serverMessageOr(error, PAGE_SAVE_FAILED) },
      logVersion: context.logVersion + 1,
    })),
    notifySaved: ({ system }, page: InstancePage) => showToast(system, 'success', `${page.title} saved`),
    notifyFailed: ({ system }, error: unknown) => showToast(system, 'error', serverMessageOr(error, PAGE_SAVE_FAILED)),
  },
  guards: {
    canSave: ({ context }) => {
      const draft = context.drafts[context.slug]
      return context.saved !== null && draft !== context.saved[context.slug].body && pageBodyProblem(draft) === null
    },
  },
}).createMachine({
  id: 'instancePages',
  context: { slug: 'terms', saved: null, drafts: emptyDrafts, view: 'write', loadError: null, result: null, logVersion: 0 },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadPages',
        src: 'loadPages',
        onDone: { target: 'editing', actions: { type: 'showPages', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'explainLoad', params: ({ event }: { event: ErrorActorEvent }) => event.error } },
      },
    },
    failed: { on: { 'pages.retry': 'loading' } },
    editing: {
      on: {
        'pages.select': { actions: { type: 'select', params: ({ event }) => event.slug } },
        'pages.input': { actions: { type: 'type', params: ({ event }) => event.value } },
        'pages.view': { actions: { type: 'switchView', params: ({ event }) => event.view } },
        'pages.save': { guard: 'canSave', target: 'saving' },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'savePage',
        src: 'savePage',
        input: ({ context }) => ({ slug: context.slug, body: context.drafts[context.slug] }),
        onDone: {
          target: 'editing',
          actions: [
            { type: 'notifySaved', params: ({ event }) => event.output },
            { type: 'finish', params: ({ event }) => event.output },
          ],
        },
        onError: {
          target: 'editing',
          actions: [
            { type: 'notifyFailed', params: ({ event }: { event: ErrorActorEvent }) => event.error },
            { type: 'fail', params: ({ event }: { event: ErrorActorEvent }) => event.error },
          ],
        },
      },
    },
  },
})

export type InstancePagesMachine = typeof instancePagesMachine
export type InstancePagesRef = ActorRefFrom<InstancePagesMachine>
