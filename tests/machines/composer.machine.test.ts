import { describe, expect, it } from 'vitest'
import { createActor, fromCallback, type EventObject } from 'xstate'
import { Network } from '../../src/api/errors'
import { composerMachine, type PostSubmission } from '../../src/machines/composer/composer.machine'
import { MESSAGES, postLength } from '../../src/machines/composer/composer.rules'
import { POLL_MESSAGES } from '../../src/machines/composer/poll.rules'
import { selectIsUploading } from '../../src/machines/composer/composer.selectors'
import { isScheduled, SCHEDULE_MESSAGES, type DraftSubmission } from '../../src/machines/composer/composer.drafts'
import { postsMachine } from '../../src/machines/posts/posts.machine'
import { shownToasts, withToasts } from './support/toasts'
import { composerModel, created, editable as ownPost, failureText, key, notes, saved, saveRefused, yesterday } from './models/composer.model'
import { EDIT_MESSAGES, toPostUpdate } from '../../src/machines/composer/composer.edit'
import { Calls } from './support/controlled-actors'
import { describeWalks, settle } from './support/model'
import { makePost, robinSummary } from './support/post-fixtures'

// The composer, walked path by path on a real actor (with a real post cache to receive the new post). After every
// step the test checks what the member sees: whether the form is open, the counter, the Post button (enabled only with
// something to send, and never while sending), the rule messages of docs/product.md ("Writing a post"), the previews (each object URL
// revoked when its file goes), and the failure toasts with their precedence. The walks, events and fixtures
// are the model's (./models/composer.model.ts), shared with `npm run paths -- composer`.

/** A preview actor that records the object URLs it would create and revoke. */
function previews() {
  const live = new Set<string>()
  const revoked: string[] = []
  const logic = fromCallback<EventObject, { id: string; file: File }>(({ input, sendBack }) => {
    live.add(input.id)
    sendBack({ type: 'composer.preview.ready', id: input.id, url: `blob:test/${input.id}` })
    return () => {
      live.delete(input.id)
      revoked.push(input.id)
    }
  })
  return { live, revoked, logic }
}

describeWalks('composer machine', composerModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const posts = createActor(postsMachine).start()
  const preview = previews()
  const machine = composerMachine.provide({
    actors: { createPost: calls.actor('createPost'), updatePost: calls.actor('updatePost'), saveDraft: calls.actor('saveDraft'), preview: preview.logic },
  })
  const actor = withToasts(createActor(machine, { input: { posts }, inspect })).start()

  /** Every Idempotency-Key a submission of this walk has used: a new submission must not reuse one. */
  const usedKeys = new Set<string>()
  for await (const { event, before, snapshot, toastsBefore } of replay(actor, { calls, context: key })) {
    const { draft, errors, idempotencyKey } = snapshot.context
    const busy = snapshot.matches({ open: 'sending' }) || snapshot.matches({ open: 'savingDraft' })
    const saving = snapshot.matches({ open: 'saving' })
    const editable = snapshot.matches({ open: 'editing' }) || snapshot.matches({ open: 'failed' })
    expect(snapshot.hasTag('open')).toBe(snapshot.matches('open'))
    expect(snapshot.hasTag('busy')).toBe(busy || saving)
    // The button says Uploading while files go with the post, Posting while text goes alone.
    expect(selectIsUploading(snapshot)).toBe(busy && draft.media.length > 0)
    // The Post button: enabled with content or media, never while sending.
    expect(snapshot.can({ type: 'composer.submit' })).toBe(editable && (draft.content.length > 0 || draft.media.length > 0))
    // Closing while the post is on its way would hide whether it went out.
    if (busy || saving) expect(snapshot.can({ type: 'composer.close' })).toBe(false)
    // Every attached file has a preview, and a file that left has had its object URL revoked.
    expect([...preview.live].sort()).toEqual(draft.media.map((m) => m.id).sort())
    for (const m of draft.media) expect(snapshot.context.previews[m.id]).toBe(`blob:test/${m.id}`)
    expect(draft.media.length).toBeLessThanOrEqual(4)
    // Over 500 characters (code points: the bird is one) says so as soon as it is typed.
    if (postLength(draft.content) > 500) expect(errors.content).toBe(MESSAGES.tooLong)
    if (draft.scheduleDate === yesterday) expect(errors.schedule).toBe(MESSAGES.scheduleInPast)
    const toasts = shownToasts()
    if (event.type === 'composer.files.add') {
      const files = event.files as File[]
      const media = files.filter((f) => f !== notes)
      const room = 4 - before.context.draft.media.length
      expect(draft.media.length).toBe(before.context.draft.media.length + Math.min(room, media.length))
      if (media.length > room) {
        expect(errors.media).toBe(MESSAGES.tooManyFiles)
        expect(toasts.at(-1)).toMatchObject({ type: 'error', message: MESSAGES.tooManyFiles })
      } else if (media.length < files.length) {
        expect(errors.media).toBe(MESSAGES.notMedia)
      }
    }
    if (event.type === 'composer.file.remove') expect(draft.media.some((m) => m.id === 'm1')).toBe(false)
    if (event.type === 'composer.submit' && snapshot.matches({ open: 'editing' })) {
      // Back to the form with every broken rule said in the spec's words.
      const d = before.context.draft
      if (postLength(d.content) > 500) expect(errors.content).toBe(MESSAGES.tooLong)
      else if (d.content.trim() === '' && d.media.length === 0) expect(errors.content).toBe(MESSAGES.contentRequired)
      if (d.visibility === 'everyone') expect(errors.visibility).toBe(MESSAGES.visibility)
      if (d.scheduleDate === yesterday) expect(errors.schedule).toBe(MESSAGES.scheduleInPast)
      if (d.poll && d.media.length > 0) expect(errors.poll).toBe(POLL_MESSAGES.withMedia)
      else if (d.poll?.options.some((o) => o.trim() === '')) expect(errors.poll).toBe(POLL_MESSAGES.blankOption)
      expect(Object.keys(errors).length).toBeGreaterThan(0)
    }
    // A date and time make Post save a scheduled post (composer.drafts.ts) instead of sending it.
    if ((event.type === 'composer.submit' || event.type === 'composer.draft.save') && snapshot.matches({ open: 'savingDraft' })) {
      const started = calls.started.at(-1)
      expect(started?.id).toBe('saveDraft')
      const saving = started?.input as DraftSubmission
      expect(saving.draft.content).toBe(draft.content.trim() === '' ? '' : draft.content)
      expect(saving.draft.scheduledAt !== null).toBe(event.type === 'composer.submit' || isScheduled(draft))
      expect(saving.opened?.id ?? null).toBe(snapshot.context.opened?.id ?? null)
    }
    if (event.type === 'composer.submit' && snapshot.matches({ open: 'sending' })) {
      // Files make it an upload; the request carries exactly the draft (schedule fields are not sent).
      expect(selectIsUploading(snapshot)).toBe(before.context.draft.media.length > 0)
      const { post: sent, idempotencyKey: sentKey } = calls.started.at(-1)?.input as PostSubmission
      // One key per submission: a retry of the unchanged draft after a failure sends the same key, anything else a new one.
      expect(sentKey).toBe(idempotencyKey)
      expect(idempotencyKey).toMatch(/^[0-9a-f-]{36}$/)
      if (before.context.idempotencyKey !== null) {
        expect(idempotencyKey).toBe(before.context.idempotencyKey)
      } else {
        expect(usedKeys.has(idempotencyKey ?? '')).toBe(false)
        usedKeys.add(idempotencyKey ?? '')
      }
      expect(sent).toEqual({
        content: draft.content.trim() === '' ? '' : draft.content,
        visibility: draft.visibility,
        sensitive: draft.sensitive,
        sensitiveReason: draft.sensitiveReason,
        replyTo: null,
        quoteOf: before.context.quoteOf,
        media: draft.media.map((m) => ({ file: m.file, alt: m.alt })),
        poll: draft.poll && { options: draft.poll.options.map((o) => o.trim()), durationSeconds: draft.poll.durationSeconds, multiple: draft.poll.multiple },
      })
      // A poll goes only without media, with 2 to 4 written options.
      if (draft.poll) {
        expect(draft.media).toEqual([])
        expect(draft.poll.options.every((o) => o.trim() !== '')).toBe(true)
      }
      expect(errors).toEqual({})
    }
    // Quote mode: a card's Quote opens the composer quoting that post; removing the quote keeps the text.
    if (event.type === 'composer.quote' && before.matches('open') === false) {
      expect(snapshot.matches('open')).toBe(true)
      expect(snapshot.context.quoteOf).toBe('q1')
    }
    if (event.type === 'composer.quote.remove') {
      expect(snapshot.context.quoteOf).toBeNull()
      expect(draft).toEqual(before.context.draft)
    }
    if (event.type === 'composer.open' || event.type === 'composer.close') expect(snapshot.context.quoteOf).toBe(before.context.quoteOf)
    if (event.type === 'xstate.done.actor.createPost') {
      expect(snapshot.context.quoteOf, 'the next post quotes nothing').toBeNull()
      expect(toasts.at(-1)).toMatchObject({ type: 'success', message: MESSAGES.posted })
      // The cache has it (and tells the lists); the next open starts blank with no URL left behind.
      expect(posts.getSnapshot().context.entities.new1).toEqual(created)
      expect(draft.content).toBe('')
      expect(draft.media).toEqual([])
      expect(preview.live.size).toBe(0)
      for (const m of before.context.draft.media) expect(preview.revoked).toContain(m.id)
      // The next post is a new submission.
      expect(idempotencyKey).toBeNull()
    }
    if (event.type === 'xstate.error.actor.createPost') {
      const text = failureText.get(event.error)
      expect(toasts.at(-1)).toMatchObject({ type: 'error', message: text })
      expect(snapshot.context.failure).toBe(text)
      // Nothing is lost: the member can retry, with the same key.
      expect(draft).toEqual(before.context.draft)
      expect(idempotencyKey).toBe(before.context.idempotencyKey)
    }
    // Any edit the form takes makes the draft a new submission; closing and reopening keeps the key.
    const tookEdits = before.matches({ open: 'editing' }) || before.matches({ open: 'failed' })
    if (tookEdits && /^composer\.(.+\.change|files?\.)/.test(event.type)) expect(idempotencyKey).toBeNull()
    if (event.type === 'composer.open' || event.type === 'composer.close') expect(idempotencyKey).toBe(before.context.idempotencyKey)
    // Edit mode: prefilled from the post, only a narrower audience, Save sends only what changed and updates the card.
    if (event.type === 'composer.edit.open' && snapshot.matches('open')) {
      expect(snapshot.context.editing?.postId).toBe(ownPost.id)
      expect(draft).toMatchObject({ content: ownPost.content, visibility: ownPost.visibility, media: [] })
    }
    if (event.type === 'composer.submit' && snapshot.context.editing && snapshot.matches({ open: 'editing' })) {
      if (before.context.draft.visibility === 'public') expect(errors.visibility).toBe(EDIT_MESSAGES.wider)
    }
    if (event.type === 'composer.submit' && saving) {
      const editing = before.context.editing
      expect(editing).not.toBeNull()
      if (editing) expect(calls.started.at(-1)?.input).toEqual({ id: ownPost.id, update: toPostUpdate(draft, editing) })
    }
    if (event.type === 'xstate.done.actor.updatePost') {
      expect(toasts.at(-1)).toMatchObject({ type: 'success', message: EDIT_MESSAGES.saved })
      expect(posts.getSnapshot().context.entities.own1).toEqual(saved)
      // Back to the new-post draft that was set aside.
      expect(snapshot.context.editing).toBeNull()
      expect(draft).toEqual(before.context.editing?.setAside)
    }
    if (event.type === 'xstate.error.actor.updatePost') {
      expect(event.error).toBe(saveRefused)
      expect(toasts.at(-1)).toMatchObject({ type: 'error', message: saveRefused.message })
      expect(draft).toEqual(before.context.draft)
    }
    if (event.type === 'composer.close' && before.context.editing) expect(snapshot.context.editing).toBeNull()
    // An edit saves the post itself: no draft is made from it.
    if (snapshot.context.editing) expect(snapshot.can({ type: 'composer.draft.save' })).toBe(false)
    const toastEvents = [
      'xstate.done.actor.createPost',
      'xstate.error.actor.createPost',
      'xstate.done.actor.updatePost',
      'xstate.error.actor.updatePost',
      'xstate.done.actor.saveDraft',
      'xstate.error.actor.saveDraft',
      'composer.files.add',
    ]
    if (!toastEvents.includes(event.type)) expect(toasts.length).toBe(toastsBefore)
  }
  actor.stop()
  // Stopping the composer (leaving the page) revokes whatever previews were left.
  expect(preview.live.size).toBe(0)
  posts.stop()
})

describe('composer machine', () => {
  it("a reply says 'Reply posted!' and is sent with replyTo", async () => {
    const calls = new Calls()
    const posts = createActor(postsMachine).start()
    posts.send({ type: 'posts.received', posts: [makePost('p1', { replyCount: 0 })] })
    const composer = withToasts(
      createActor(composerMachine.provide({ actors: { createPost: calls.actor('createPost') } }), {
        input: { posts, replyTo: { id: 'p1', username: 'ann' } },
      }),
    ).start()
    composer.send({ type: 'composer.open' })
    composer.send({ type: 'composer.content.change', value: 'Same here!' })
    composer.send({ type: 'composer.submit' })
    expect((calls.started.at(-1)?.input as PostSubmission).post).toMatchObject({ content: 'Same here!', replyTo: 'p1', visibility: 'public' })
    calls.resolve('createPost', makePost('r9', { replyTo: 'p1', author: robinSummary }))
    await settle()
    expect(composer.getSnapshot().value).toBe('posted')
    expect(shownToasts().at(-1)).toMatchObject({ type: 'success', message: MESSAGES.replied })
    expect(posts.getSnapshot().context.entities.p1?.replyCount).toBe(1)
    // The reply box shows its prompt again and opens blank.
    composer.send({ type: 'composer.open' })
    expect(composer.getSnapshot().context.draft.content).toBe('')
    composer.stop()
    posts.stop()
  })

  it('retries a post that failed on the network with the same Idempotency-Key, and keys the next post anew', async () => {
    const calls = new Calls()
    const posts = createActor(postsMachine).start()
    const composer = withToasts(
      createActor(composerMachine.provide({ actors: { createPost: calls.actor('createPost') } }), { input: { posts } }),
    ).start()
    const sentKey = () => (calls.started.at(-1)?.input as PostSubmission).idempotencyKey
    composer.send({ type: 'composer.open' })
    composer.send({ type: 'composer.content.change', value: 'Hello once' })
    composer.send({ type: 'composer.submit' })
    const first = sentKey()
    expect(first).toMatch(/^[0-9a-f-]{36}$/)
    calls.reject('createPost', new Network({ message: 'Unable to reach the server. Check your connection and try again.' }))
    await settle()
    expect(composer.getSnapshot().matches({ open: 'failed' })).toBe(true)
    // Post again: the same submission, the same key (the server answers the first post if it went out).
    composer.send({ type: 'composer.submit' })
    expect(sentKey()).toBe(first)
    calls.reject('createPost', new Network({ message: 'Unable to reach the server. Check your connection and try again.' }))
    await settle()
    // An edit makes it a new submission.
    composer.send({ type: 'composer.content.change', value: 'Hello once!' })
    composer.send({ type: 'composer.submit' })
    const second = sentKey()
    expect(second).not.toBe(first)
    calls.resolve('createPost', makePost('n2', { author: robinSummary }))
    await settle()
    // After a post went out, the next one has its own key.
    composer.send({ type: 'composer.open' })
    composer.send({ type: 'composer.content.change', value: 'Hello once' })
    composer.send({ type: 'composer.submit' })
    expect([first, second]).not.toContain(sentKey())
    composer.stop()
    posts.stop()
  })

  it('keeps the draft when closed and reopened', () => {
    const composer = createActor(composerMachine, { input: { posts: createActor(postsMachine) } }).start()
    composer.send({ type: 'composer.open' })
    composer.send({ type: 'composer.content.change', value: 'Half a thought' })
    composer.send({ type: 'composer.close' })
    expect(composer.getSnapshot().hasTag('open')).toBe(false)
    composer.send({ type: 'composer.open' })
    expect(composer.getSnapshot().context.draft.content).toBe('Half a thought')
    composer.stop()
  })
  it('says a poll or a quote cannot be kept as a draft or scheduled, and sends nothing', () => {
    const calls = new Calls()
    const composer = createActor(
      composerMachine.provide({ actors: { createPost: calls.actor('createPost'), saveDraft: calls.actor('saveDraft') } }),
      { input: { posts: createActor(postsMachine) } },
    ).start()
    composer.send({ type: 'composer.open' })
    composer.send({ type: 'composer.content.change', value: 'Tea or coffee?' })
    composer.send({ type: 'composer.poll.add' })
    composer.send({ type: 'composer.poll.option.change', index: 0, value: 'Tea' })
    composer.send({ type: 'composer.poll.option.change', index: 1, value: 'Coffee' })
    composer.send({ type: 'composer.draft.save' })
    expect(composer.getSnapshot().context.errors.schedule).toBe(SCHEDULE_MESSAGES.notKept)
    expect(calls.started).toEqual([])
    // Scheduled, the same: the poll would be lost at publish time.
    const tomorrow = new Date(Date.now() + 86_400_000)
    const date = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`
    composer.send({ type: 'composer.schedule.change', date, time: '09:00' })
    composer.send({ type: 'composer.submit' })
    expect(composer.getSnapshot().context.errors.schedule).toBe(SCHEDULE_MESSAGES.notKept)
    expect(calls.started).toEqual([])
    // Without the poll it is saved as a scheduled post.
    composer.send({ type: 'composer.poll.remove' })
    composer.send({ type: 'composer.submit' })
    expect(calls.started.map((c) => c.id)).toEqual(['saveDraft'])
    composer.stop()
  })
})
