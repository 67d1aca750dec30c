import { expect } from 'vitest'
import { createActor } from 'xstate'
import { detachQuoteMachine } from '../../src/machines/detach-quote/detach-quote.machine'
import { selectConfirmOpen, selectDetaching } from '../../src/machines/detach-quote/detach-quote.selectors'
import { DETACH_FAILED, QUOTE_DETACHED, QUOTE_UNAVAILABLE, canDetach, quotesLinkText } from '../../src/machines/posts/quotes.rules'
import { postsMachine } from '../../src/machines/posts/posts.machine'
import { detachQuoteModel, quoteId, refused } from './models/detach-quote.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'
import { makePost, robinSummary } from './support/post-fixtures'
import { shownToasts, withToasts } from './support/toasts'
import { describe, it } from 'vitest'

// Detach quote from a quote's menu. What the member sees: the confirm dialog (open while deciding and while the detach
// is on its way), the toasts, and the quote in the post cache showing the quoted post unavailable once detached.

describeWalks('detach-quote machine', detachQuoteModel, async ({ walk, inspect, replay }) => {
  const calls = new Calls()
  const machine = detachQuoteMachine.provide({ actors: { detachQuote: calls.actor('detachQuote') } })
  const actor = withToasts(createActor(machine, { input: walk.input, inspect }))
  const posts = createActor(postsMachine, { parent: actor, systemId: 'posts' }).start()
  const quoted = makePost('p1', { author: robinSummary })
  posts.send({ type: 'posts.received', posts: [makePost(quoteId, { quote: { post: quoted } })] })
  actor.start()

  for await (const { event, snapshot, toastsBefore } of replay(actor, { calls, context: false })) {
    expect(selectConfirmOpen(snapshot)).toBe(snapshot.value === 'confirming' || snapshot.value === 'detaching')
    expect(selectDetaching(snapshot)).toBe(snapshot.value === 'detaching')
    if (event.type === 'detach.confirm') expect(calls.started.at(-1)).toEqual({ id: 'detachQuote', input: { quoteId } })
    const toasts = shownToasts().slice(toastsBefore)
    const shown = posts.getSnapshot().context.entities[quoteId]?.quote
    if (event.type === 'xstate.done.actor.detachQuote') {
      expect(toasts).toEqual([expect.objectContaining({ type: 'success', message: QUOTE_DETACHED })])
      expect(shown, 'the quote shows the post unavailable at once').toEqual({ post: null })
      expect(snapshot.status, 'for good: nothing attaches it again').toBe('done')
    } else {
      expect(shown?.post?.id).toBe('p1')
      if (event.type === 'xstate.error.actor.detachQuote') {
        expect(toasts).toEqual([expect.objectContaining({ type: 'error', message: event.error === refused ? refused.message : DETACH_FAILED })])
        expect(snapshot.value, 'the dialog stays for another try').toBe('confirming')
      } else {
        expect(toasts).toEqual([])
      }
    }
  }
})

describe('quote rules', () => {
  it('only the quoted author may detach, while the quote still shows their post', () => {
    const mine = makePost('p1', { author: robinSummary })
    expect(canDetach(makePost('q', { quote: { post: mine } }), robinSummary.id)).toBe(true)
    expect(canDetach(makePost('q', { quote: { post: mine } }), 'someone-else')).toBe(false)
    expect(canDetach(makePost('q', { quote: { post: null } }), robinSummary.id)).toBe(false)
    expect(canDetach(makePost('q'), robinSummary.id)).toBe(false)
    expect(canDetach(makePost('q', { quote: { post: mine } }), null)).toBe(false)
  })

  it('names the quotes link and the unavailable card', () => {
    expect([quotesLinkText(0), quotesLinkText(undefined), quotesLinkText(1), quotesLinkText(12)]).toEqual([null, null, '1 quote', '12 quotes'])
    expect(QUOTE_UNAVAILABLE).toBe('This post is unavailable')
  })
})
