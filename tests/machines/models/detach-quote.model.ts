import type { AnyEventObject } from 'xstate'
import { Invalid, Network } from '../../../src/api/errors'
import { detachQuoteMachine, type DetachQuoteInput } from '../../../src/machines/detach-quote/detach-quote.machine'
import { type MachineModel, valueAndContext, type Walk } from '../support/walks'

// Detach quote's model: ask, cancel or confirm, and the server's answer. Walked by tests/machines/detach-quote.test.ts
// and printed by `npm run paths -- detach-quote`.

export const quoteId = 'q1'
export const refused = new Invalid({ message: "Only the quoted post's author can detach it", fromServer: true, status: 403, details: [] })
export const offline = new Network({ message: 'Unable to reach the server.' })

const events: AnyEventObject[] = [
  { type: 'detach.ask' },
  { type: 'detach.cancel' },
  { type: 'detach.confirm' },
  { type: 'xstate.done.actor.detachQuote', output: undefined },
  { type: 'xstate.error.actor.detachQuote', error: refused },
  { type: 'xstate.error.actor.detachQuote', error: offline },
]

const label = (event: AnyEventObject): string | undefined =>
  event.type === 'xstate.error.actor.detachQuote' ? `refused(${event.error === refused ? 'server' : 'offline'})` : undefined

export const detachQuoteModel = {
  name: 'detach-quote',
  machine: detachQuoteMachine,
  walks: [
    {
      name: 'from the menu of a quote of the member’s post',
      input: { quoteId },
      options: () => ({ input: { quoteId }, events, label, serializeState: valueAndContext }),
    },
  ],
} satisfies MachineModel<Walk & { input: DetachQuoteInput }>
