import { createActor, type AnyEventObject } from 'xstate'
import { IDEMPOTENCY_KEY_IN_PROGRESS } from '../../../src/api/contract/idempotency'
import { Invalid, Network, Server } from '../../../src/api/errors'
import type { SavedDraft } from '../../../src/api/drafts.calls'
import { composerMachine } from '../../../src/machines/composer/composer.machine'
import { localDate, MESSAGES, postLength } from '../../../src/machines/composer/composer.rules'
import { postsMachine } from '../../../src/machines/posts/posts.machine'
import { makePost, robinSummary } from '../support/post-fixtures'
import type { MachineModel } from '../support/walks'

// The composer's model, in four small walks (text and every failure, files, options, quoting), with the names its paths go
// by. Walked by tests/machines/composer.machine.test.ts and printed by `npm run paths -- composer`.

const photo = (name: string) => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' })
const clip = new File([new Uint8Array([0, 0, 0, 24])], 'clip.mp4', { type: 'video/mp4' })
export const notes = new File(['hello'], 'notes.txt', { type: 'text/plain' })
const day = 86_400_000
export const yesterday = localDate(new Date(Date.now() - day))
const tomorrow = localDate(new Date(Date.now() + day))

const serverSays = new Invalid({ status: 400, message: 'Unsupported file type', fromServer: true, details: [] })
const detailsOnly = new Invalid({ status: 400, message: 'The request was refused.', fromServer: false, details: ['content: too long', 'alt: too long'] })
const offline = new Network({ message: 'Unable to reach the server. Check your connection and try again.' })
const bare500 = new Server({ status: 500, message: 'Something went wrong on our side. Please try again.', fromServer: false })
/** A rate limit's refusal: its words say how long to wait, and the draft waits with them. */
const limited = new Invalid({ status: 429, message: 'Too many posts. Try again in 12 minutes.', fromServer: true, details: [] })
const unknown = new Error('')
/** The server still runs the first try of this post (the same Idempotency-Key): a failure to retry in a moment. */
const stillSending = new Invalid({ status: 409, message: IDEMPOTENCY_KEY_IN_PROGRESS, fromServer: true, details: [] })

/** The failure toast: server error field, else details joined, else (message) the client's message, else the default. */
export const failureText = new Map<unknown, string>([
  [serverSays, 'Unsupported file type'],
  [limited, 'Too many posts. Try again in 12 minutes.'],
  [detailsOnly, 'content: too long, alt: too long'],
  [offline, offline.message],
  [bare500, bare500.message],
  [unknown, MESSAGES.failed],
  [stillSending, MESSAGES.stillSending],
])

export const created = makePost('new1', { author: robinSummary, content: 'Hello @ann #wren' })
/** An own post opened in edit mode (followers-only, so a wider audience is refused), and the server's answer to Save. */
export const editable = makePost('own1', { author: robinSummary, content: 'Old words', visibility: 'followers' })
export const saved = makePost('own1', { author: robinSummary, content: 'New words', visibility: 'mentioned', edited: true })
export const saveRefused = new Invalid({ status: 400, message: 'An edit can only narrow who can see a post', fromServer: true, details: [] })

/** A saved draft, as the server answers Save draft and as Drafts & Scheduled opens it into the composer. */
export const savedDraft: SavedDraft = {
  id: 'd1',
  content: 'Kept for later',
  visibility: 'followers',
  sensitive: false,
  sensitiveReason: null,
  media: [],
  scheduledAt: null,
  failure: null,
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
}

const open = { type: 'composer.open' }
const close = { type: 'composer.close' }
const submit = { type: 'composer.submit' }
const type = (value: string) => ({ type: 'composer.content.change', value })
const posted = { type: 'xstate.done.actor.createPost', output: created }
const failed = (error: unknown) => ({ type: 'xstate.error.actor.createPost', error })
const editOpen = { type: 'composer.edit.open', post: editable }

/**
 * Three small models instead of one: text (and every kind of failure), files, and the options. Together they
 * reach every state and transition; apart, each stays a few hundred paths instead of tens of thousands.
 */
const scenarios: Record<string, AnyEventObject[]> = {
  text: [
    open,
    close,
    submit,
    type('Hello @ann #wren'),
    type('x'.repeat(500) + '🐦'),
    type('   '),
    posted,
    ...[...failureText.keys()].map(failed),
  ],
  files: [
    open,
    submit,
    type(''),
    { type: 'composer.files.add', files: [photo('a.png'), clip] },
    { type: 'composer.files.add', files: ['1', '2', '3', '4', '5'].map((n) => photo(`${n}.png`)) },
    { type: 'composer.files.add', files: [notes] },
    { type: 'composer.file.remove', id: 'm1' },
    { type: 'composer.alt.change', id: 'm1', value: 'A blue square' },
    posted,
    failed(offline),
  ],
  options: [
    open,
    submit,
    type('Hello @ann #wren'),
    { type: 'composer.visibility.change', value: 'followers' },
    { type: 'composer.visibility.change', value: 'everyone' },
    { type: 'composer.sensitive.change', value: true },
    { type: 'composer.reason.change', value: 'Spoilers' },
    { type: 'composer.schedule.change', date: yesterday, time: '09:00' },
    { type: 'composer.schedule.change', date: tomorrow, time: '09:00' },
    posted,
    failed(bare500),
  ],
  // A card's Quote: the composer opens quoting the post; the quote can be dropped, and goes out with the post.
  quote: [
    { type: 'composer.quote', postId: 'q1' },
    close,
    open,
    submit,
    type('Well said'),
    { type: 'composer.quote.remove' },
    posted,
    failed(offline),
  ],
  // Edit mode: an own post prefilled; only a narrower audience passes, Save goes through updatePost.
  edit: [
    editOpen,
    close,
    submit,
    type('New words'),
    type('   '),
    { type: 'composer.visibility.change', value: 'public' },
    { type: 'composer.visibility.change', value: 'mentioned' },
    { type: 'composer.edit.alt.change', id: 'media1', value: 'A wren' },
    { type: 'xstate.done.actor.updatePost', output: saved },
    { type: 'xstate.error.actor.updatePost', error: saveRefused },
    open,
  ],
  drafts: [
    open,
    close,
    type('Hello @ann #wren'),
    { type: 'composer.schedule.change', date: tomorrow, time: '' },
    { type: 'composer.schedule.change', date: tomorrow, time: '09:00' },
    submit,
    { type: 'composer.draft.save' },
    { type: 'composer.draft.open', draft: savedDraft },
    { type: 'xstate.done.actor.saveDraft', output: savedDraft },
    { type: 'xstate.error.actor.saveDraft', error: bare500 },
    posted,
  ],
  poll: [
    open,
    submit,
    type('Which one?'),
    { type: 'composer.poll.add' },
    { type: 'composer.poll.option.change', index: 0, value: 'Tea' },
    { type: 'composer.poll.option.change', index: 1, value: 'Coffee' },
    { type: 'composer.poll.duration.change', seconds: 300 },
    { type: 'composer.poll.multiple.change', value: true },
    { type: 'composer.poll.remove' },
    { type: 'composer.files.add', files: [photo('a.png')] },
    posted,
  ],
  // Adding and removing options (2 to 4), on their own walk: beside the rest they multiply the draft's states.
  pollOptions: [
    open,
    { type: 'composer.poll.add' },
    { type: 'composer.poll.option.add' },
    { type: 'composer.poll.option.remove', index: 2 },
    type('Which one?'),
    { type: 'composer.poll.option.change', index: 0, value: 'Tea' },
    { type: 'composer.poll.option.change', index: 1, value: 'Coffee' },
    { type: 'composer.poll.duration.change', seconds: 300 },
    { type: 'composer.poll.multiple.change', value: true },
    { type: 'composer.poll.remove' },
    submit,
    failed(bare500),
  ],
}

/** Event names for path titles (and path identity): which text, which files, which date. */
const label = (event: AnyEventObject): string | undefined => {
  switch (event.type) {
    case 'composer.content.change': {
      const value = String(event.value)
      return `type(${value.length > 20 ? `${postLength(value)} chars` : JSON.stringify(value)})`
    }
    case 'composer.files.add':
      return `attach(${(event.files as File[]).map((f) => f.name).join(',')})`
    case 'composer.visibility.change':
      return `visibility(${String(event.value)})`
    case 'composer.schedule.change':
      return `schedule(${event.date === yesterday ? 'yesterday' : 'tomorrow'}${event.time === '' ? ', no time' : ''})`
    case 'xstate.error.actor.saveDraft':
      return `saveDraft failed(${failureText.get(event.error)})`
    case 'composer.poll.option.change':
      return `option ${Number(event.index) + 1}(${JSON.stringify(event.value)})`
    case 'composer.poll.option.remove':
      return `remove option ${Number(event.index) + 1}`
    case 'xstate.error.actor.createPost':
      return `createPost failed(${failureText.get(event.error)})`
    case 'composer.edit.open':
      return 'edit(own post)'
    default:
      return undefined
  }
}

/**
 * What tells states apart for the member: the state, the kind of text, how many files, and which rules are broken.
 * (The exact draft is checked at every step against what the path did.)
 */
export function key(s: { value: unknown; context: ReturnType<typeof composerMachine.getInitialSnapshot>['context'] }): string {
  const { draft } = s.context
  const text = draft.content === '' ? 'empty' : draft.content.trim() === '' ? 'blank' : postLength(draft.content) > 500 ? 'long' : 'ok'
  return JSON.stringify({
    value: s.value,
    text,
    media: draft.media.length,
    visibility: draft.visibility,
    schedule: draft.scheduleDate === yesterday ? 'past' : draft.scheduleDate === '' ? 'none' : draft.scheduleTime === '' ? 'no time' : 'future',
    opened: s.context.opened !== null,
    sensitive: draft.sensitive,
    errors: Object.keys(s.context.errors).sort(),
    checked: s.context.checked,
    failure: s.context.failure !== null,
    quoteOf: s.context.quoteOf,
    editing: s.context.editing !== null,
    // How many options, and how many written (the duration and the choice mode are checked on what is sent).
    poll: draft.poll ? `${draft.poll.options.length}/${draft.poll.options.filter((o) => o.trim() !== '').length}` : null,
  })
}

export const composerModel = {
  name: 'composer',
  machine: composerMachine,
  walks: Object.entries(scenarios).map(([name, events]) => ({
    name,
    options: () => ({
      input: { posts: createActor(postsMachine).start() },
      events,
      serializeState: (s) => key(s as Parameters<typeof key>[0]),
      label,
      // The draft's fields combine freely: the shortest path to every state and one path through every edge.
      edgesOnly: 'the draft (text, files, options, the last failure) is context: every order of edits and answers is its own state',
    }),
  })),
} satisfies MachineModel
