import { assign, setup, stopChild, type ActorRefFrom } from 'xstate'
import { bookmarksMachine, type BookmarksRef } from '../bookmarks/bookmarks.machine'
import type { PostsRef } from '../posts/posts.machine'
import { dialogOf, sectionFor, type DialogId, type SectionId } from './settings-page.rules'

// The Settings page (docs/product.md, "Settings"): which section shows and which of the page's dialogs is open. The
// `?tab=` parameter selects the section (`settings.tab`, sent when the address changes, and the input on arrival);
// for lists, bookmarks, reports and analytics it also opens the section's dialog at once. The section's button opens
// it again (`settings.dialog.open`); Escape, the backdrop and the close button send `settings.dialog.close`, which
// waits while the dialog's actor is saving something (tag `busy`).
// The Bookmarks dialog's actor (bookmarks.machine.ts) runs only while its dialog is open, so each opening reads
// afresh; the Lists, Reports and Analytics dialogs are the views' (their own issues build them).

export type SettingsPageEvent =
  | { type: 'settings.tab'; tab: string | null }
  | { type: 'settings.dialog.open'; dialog: DialogId }
  | { type: 'settings.dialog.close' }

export interface SettingsPageInput {
  tab: string | null
  posts: PostsRef
}

export interface SettingsPageContext {
  section: SectionId
  posts: PostsRef
  /** The Bookmarks dialog's actor while it is open. */
  bookmarks: BookmarksRef | null
}

export const settingsPageMachine = setup({
  types: {
    context: {} as SettingsPageContext,
    events: {} as SettingsPageEvent,
    input: {} as SettingsPageInput,
  },
  actors: { bookmarks: bookmarksMachine },
  actions: {
    showSection: assign((_, section: SectionId) => ({ section })),
    startBookmarks: assign({
      bookmarks: ({ spawn, context }) => spawn('bookmarks', { id: 'bookmarks', input: { posts: context.posts } }),
    }),
    forgetBookmarks: assign({ bookmarks: null }),
  },
  guards: {
    changesSection: ({ context }, section: SectionId) => section !== context.section,
    opens: ({ context }, dialog: DialogId) => dialogOf(context.section) === dialog,
    /** A dialog whose actor is saving stays open until the answer (and its toast) arrives. */
    canClose: ({ context }) => !(context.bookmarks?.getSnapshot().hasTag('busy') ?? false),
  },
}).createMachine({
  id: 'settingsPage',
  context: ({ input }) => ({ section: sectionFor(input.tab), posts: input.posts, bookmarks: null }),
  initial: 'routing',
  on: {
    // Only a change of section: the first `settings.tab` repeats the input, and must not reopen a loading dialog.
    'settings.tab': {
      guard: { type: 'changesSection', params: ({ event }) => sectionFor(event.tab) },
      target: '.routing',
      actions: { type: 'showSection', params: ({ event }) => sectionFor(event.tab) },
    },
    'settings.dialog.open': {
      target: '.routing',
      actions: { type: 'showSection', params: ({ event }) => event.dialog },
    },
  },
  states: {
    /** The section decides: its dialog opens at once, or none. */
    routing: {
      always: [
        { guard: { type: 'opens', params: 'lists' }, target: 'dialog.lists' },
        { guard: { type: 'opens', params: 'bookmarks' }, target: 'dialog.bookmarks' },
        { guard: { type: 'opens', params: 'reports' }, target: 'dialog.reports' },
        { guard: { type: 'opens', params: 'analytics' }, target: 'dialog.analytics' },
        { target: 'closed' },
      ],
    },
    closed: {},
    dialog: {
      // Only ever entered at one of its dialogs (from routing); xstate asks for an initial state all the same.
      initial: 'lists',
      on: { 'settings.dialog.close': { guard: 'canClose', target: 'closed' } },
      states: {
        lists: {},
        bookmarks: { entry: 'startBookmarks', exit: [stopChild('bookmarks'), 'forgetBookmarks'] },
        reports: {},
        analytics: {},
      },
    },
  },
})

export type SettingsPageMachine = typeof settingsPageMachine
export type SettingsPageRef = ActorRefFrom<SettingsPageMachine>
