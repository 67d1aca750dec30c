import { setup } from 'xstate'
import { navigate } from '../lib/navigation'
import { TOUR_COMPLETED_KEY, writeFlag } from '../lib/local-flags'

// The welcome tour on Home (docs/product.md, "Welcome tour and banner"): six steps with Skip Tour, Next and Get
// Started. It opens by itself until the member skips or finishes it once (`welcome-tour-completed`), and again
// whenever Home is opened with ?show-help=true (the shell's Help), which is then removed from the address so a reload
// does not reopen it.

export const TOUR_STEPS = ['welcome', 'connecting', 'discovering', 'messaging', 'updates', 'customising'] as const
export type TourStep = (typeof TOUR_STEPS)[number]

export type TourEvent =
  | { type: 'tour.next' }
  | { type: 'tour.skip' }
  | { type: 'tour.finish' }
  | { type: 'tour.help.requested' }

export const tourMachine = setup({
  types: {
    events: {} as TourEvent,
    input: {} as { completed: boolean },
    context: {} as { completed: boolean },
    tags: {} as 'open',
  },
  actions: {
    markCompleted: () => writeFlag(TOUR_COMPLETED_KEY),
    clearHelpQuery: () => navigate('/', { replace: true }),
  },
  guards: {
    wasCompleted: ({ context }) => context.completed,
  },
}).createMachine({
  id: 'tour',
  context: ({ input }) => ({ completed: input.completed }),
  initial: 'deciding',
  states: {
    deciding: {
      always: [{ guard: 'wasCompleted', target: 'closed' }, { target: 'open' }],
    },
    closed: {
      on: { 'tour.help.requested': { target: 'open', actions: 'clearHelpQuery' } },
    },
    open: {
      tags: ['open'],
      initial: 'welcome',
      on: {
        'tour.skip': { target: 'closed', actions: 'markCompleted' },
        // Help while the tour is showing starts it over.
        'tour.help.requested': { target: '.welcome', actions: 'clearHelpQuery' },
      },
      states: {
        welcome: { on: { 'tour.next': { target: 'connecting' } } },
        connecting: { on: { 'tour.next': { target: 'discovering' } } },
        discovering: { on: { 'tour.next': { target: 'messaging' } } },
        messaging: { on: { 'tour.next': { target: 'updates' } } },
        updates: { on: { 'tour.next': { target: 'customising' } } },
        customising: { on: { 'tour.finish': { target: '#tour.closed', actions: 'markCompleted' } } },
      },
    },
  },
})

export type TourMachine = typeof tourMachine
