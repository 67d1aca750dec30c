import type { AnyEventObject } from 'xstate'
import { tourMachine } from '../../../src/machines/tour/tour.machine'
import type { MachineModel } from '../support/walks'

// The welcome tour's model, from a first visit (opens by itself) and from a later one (closed until Help). Walked by
// tests/machines/tour.machine.test.ts and printed by `npm run paths -- tour`.

const events: AnyEventObject[] = [{ type: 'tour.next' }, { type: 'tour.skip' }, { type: 'tour.finish' }, { type: 'tour.help.requested' }]

const visit = (name: string, completed: boolean) => ({
  name,
  /** Whether the browser remembers a finished or skipped tour. */
  completed,
  options: () => ({
    input: { completed },
    events,
    serializeState: (s: { value: unknown }) => JSON.stringify(s.value),
  }),
})

export const tourModel = {
  name: 'tour',
  machine: tourMachine,
  walks: [visit('first visit', false), visit('later visit', true)],
} satisfies MachineModel
