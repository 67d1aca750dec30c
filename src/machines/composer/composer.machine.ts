import { assign, not, enqueueActions, fromCallback, fromPromise, sendTo, setup, type ActorRefFrom, type EventObject } from 'xstate'
import { run } from '../../api/calls'
import { newIdempotencyKey } from '../../api/idempotency'
import { postCalls, type NewPost, type Post, type PostUpdate, type Visibility } from '../../api/posts.calls'
import type { PostsRef } from '../posts/posts.machine'
import { showToast } from '../toasts/notify'
import { postFailureMessage } from './composer.failure'
import { NO_QUOTE, quotedId, type ComposerQuoteContext, type ComposerQuoteEvent } from './composer.quote'
import {
  EDIT_MESSAGES,
  editErrors,
  editHasSomething,
  editTargetOf,
  draftOf,
  toPostUpdate,
  withAlt,
  type ComposerEditEvent,
  type EditTarget,
} from './composer.edit'
import type { SavedDraft } from '../../api/drafts.calls'
import {
  draftFromSaved,
  isScheduled,
  notKeptError,
  publishOpened,
  saveDraft,
  scheduleError,
  SCHEDULE_MESSAGES,
  toNewDraft,
  type DraftSubmission,
  type OpenedDraft,
} from './composer.drafts'
import {
  EMPTY_DRAFT,
  hasSomething,
  isValid,
  localDate,
  MAX_MEDIA,
  MAX_REASON_LENGTH,
  mediaKind,
  MESSAGES,
  validateDraft,
  type Attachment,
  type Draft,
  type DraftErrors,
} from './composer.rules'
import { editedPoll, isPollEdit, liveOptionProblem, POLL_MESSAGES, type PollEditEvent } from './poll.rules'

// The post composer (docs/product.md, "Writing a post"), for the Create Post dialog and for the reply box of a post
// page. closed -> open.editing -> (composer.submit) open.validating -> open.editing with the broken rules shown, or
// open.sending (with or without files) -> posted (toast, the post cache announces the post to the lists, the draft is
// cleared) or open.failed (a failure toast; text and files are kept so the member can retry). Closing keeps the
// draft; it cannot close while sending (that would hide whether the post went out). Each attached file gets a preview
// child actor that owns its object URL: removing the file (or posting, or stopping the composer) stops the child,
// which revokes the URL. Each submission carries an Idempotency-Key, made when the member submits: submitting the
// same draft again after a failure (a lost answer, a timeout) sends the same key, so the server answers the first
// post instead of publishing twice; any edit, or a post that went out, makes the next submission a new one.
// `composer.edit.open` opens it on one of the member's own posts instead (composer.edit.ts): Save goes through
// open.saving, and closing or saving puts back the draft that was set aside.

export interface ReplyTarget {
  id: string
  username: string
}

export type ComposerEvent =
  | { type: 'composer.open' }
  | { type: 'composer.close' }
  | { type: 'composer.submit' }
  | { type: 'composer.content.change'; value: string }
  | { type: 'composer.files.add'; files: ReadonlyArray<File> }
  | { type: 'composer.file.remove'; id: string }
  | { type: 'composer.alt.change'; id: string; value: string }
  | { type: 'composer.visibility.change'; value: string }
  | { type: 'composer.sensitive.change'; value: boolean }
  | { type: 'composer.reason.change'; value: string }
  | { type: 'composer.schedule.change'; date: string; time: string }
  | { type: 'composer.preview.ready'; id: string; url: string }
  | ComposerQuoteEvent
  | ComposerEditEvent
  | { type: 'composer.draft.save' }
  | { type: 'composer.draft.open'; draft: SavedDraft }
  | PollEditEvent

type EditEvent = Extract<
  ComposerEvent,
  {
    type:
      | 'composer.content.change'
      | 'composer.files.add'
      | 'composer.file.remove'
      | 'composer.alt.change'
      | 'composer.visibility.change'
      | 'composer.sensitive.change'
      | 'composer.reason.change'
      | 'composer.schedule.change'
  }
> | PollEditEvent

export interface ComposerContext extends ComposerQuoteContext {
  posts: PostsRef
  replyTo: ReplyTarget | null
  draft: Draft
  errors: DraftErrors
  /** Set by the first submit: from then on every rule is re-checked as the member edits. */
  checked: boolean
  /** Object URLs of the attachments' previews, by attachment id (filled in by the preview actors). */
  previews: Readonly<Record<string, string>>
  /** The last failure's toast text, shown in the composer too until the next attempt. */
  failure: string | null
  /** The submission's Idempotency-Key: made on submit, kept while the unchanged draft is retried, dropped by an edit. */
  idempotencyKey: string | null
  nextMediaId: number
  /** The post being edited and the new-post draft set aside meanwhile; null when writing a new post. */
  editing: (EditTarget & { setAside: Draft }) | null
  /** The saved draft being edited (composer.drafts.ts), or null for a new post. */
  opened: OpenedDraft | null
}

/** What the createPost actor sends: the post and its submission's key. */
export interface PostSubmission {
  post: NewPost
  idempotencyKey: string | null
  /** Posting an opened draft saves its changes and publishes it instead. */
  saved?: DraftSubmission | null
}

export interface ComposerInput {
  posts: PostsRef
  replyTo?: ReplyTarget | null
}

const previewId = (attachmentId: string) => `preview:${attachmentId}`

/** Rules worth saying while typing (before any submit): too long, a date in the past. */
function liveErrors(draft: Draft, today: string): DraftErrors {
  const all = validateDraft(draft, today)
  const live: DraftErrors = {}
  if (all.content === MESSAGES.tooLong) live.content = all.content
  if (all.schedule) live.schedule = all.schedule
  // A poll beside media, or an option too long, is said as soon as it happens.
  if (all.poll === POLL_MESSAGES.withMedia) live.poll = all.poll
  else if (liveOptionProblem(draft.poll)) live.poll = liveOptionProblem(draft.poll) ?? undefined
  return live
}

/** Every rule, the schedule's window included (checked against the clock only on submit and save). */
function allErrors(draft: Draft): DraftErrors {
  const errors = validateDraft(draft, localDate(new Date()))
  const schedule = errors.schedule ?? scheduleError(draft, new Date())
  return schedule ? { ...errors, schedule } : errors
}

/** Post's rules; a scheduled post also must be something a draft can keep. */
function submitErrors(draft: Draft, quoteOf: string | null): DraftErrors {
  const errors = allErrors(draft)
  const notKept = isScheduled(draft) ? notKeptError(draft, quoteOf) : undefined
  return notKept && !errors.schedule ? { ...errors, schedule: notKept } : errors
}

function errorsFor(draft: Draft, checked: boolean, editing: EditTarget | null = null): DraftErrors {
  const today = localDate(new Date())
  if (editing) return checked ? editErrors(draft, editing, today) : liveErrors(draft, today)
  return checked ? validateDraft(draft, today) : liveErrors(draft, today)
}

/** The draft after one edit (files are handled by `attach`, which also spawns previews). */
function edited(draft: Draft, event: EditEvent): Draft {
  if (isPollEdit(event)) return { ...draft, poll: editedPoll(draft.poll, event) }
  switch (event.type) {
    case 'composer.content.change':
      return { ...draft, content: event.value }
    case 'composer.file.remove':
      return { ...draft, media: draft.media.filter((m) => m.id !== event.id) }
    case 'composer.alt.change':
      return { ...draft, media: draft.media.map((m) => (m.id === event.id ? { ...m, alt: event.value } : m)) }
    case 'composer.visibility.change':
      return { ...draft, visibility: event.value }
    case 'composer.sensitive.change':
      return { ...draft, sensitive: event.value }
    case 'composer.reason.change':
      return { ...draft, sensitiveReason: event.value.slice(0, MAX_REASON_LENGTH) }
    case 'composer.schedule.change':
      return { ...draft, scheduleDate: event.date, scheduleTime: event.time }
    case 'composer.files.add':
      return draft
  }
}

function toNewPost(context: ComposerContext): NewPost {
  const { draft } = context
  return {
    content: draft.content.trim() === '' ? '' : draft.content,
    // validating let it through, so it is one of the three.
    visibility: draft.visibility as Visibility,
    sensitive: draft.sensitive,
    sensitiveReason: draft.sensitiveReason,
    replyTo: context.replyTo?.id ?? null,
    quoteOf: context.quoteOf,
    media: draft.media.map(({ file, alt }) => ({ file, alt })),
    poll: draft.poll && {
      options: draft.poll.options.map((o) => o.trim()),
      durationSeconds: draft.poll.durationSeconds,
      multiple: draft.poll.multiple,
    },
  }
}

const edit = { actions: { type: 'applyEdit', params: ({ event }: { event: EditEvent }) => event } } as const
const attach = { actions: { type: 'attach', params: ({ event }: { event: ComposerEvent }) => event } } as const
/** The poll editor's events (poll.rules.ts), edits like any other. */
const pollEdits = {
  'composer.poll.add': edit,
  'composer.poll.remove': edit,
  'composer.poll.option.change': edit,
  'composer.poll.option.add': edit,
  'composer.poll.option.remove': edit,
  'composer.poll.duration.change': edit,
  'composer.poll.multiple.change': edit,
} as const
const retried = { target: 'editing', ...edit } as const
const pollEditsAfterFailure = {
  'composer.poll.add': retried,
  'composer.poll.remove': retried,
  'composer.poll.option.change': retried,
  'composer.poll.option.add': retried,
  'composer.poll.option.remove': retried,
  'composer.poll.duration.change': retried,
  'composer.poll.multiple.change': retried,
} as const

export const composerMachine = setup({
  types: {
    context: {} as ComposerContext,
    events: {} as ComposerEvent,
    input: {} as ComposerInput,
    tags: {} as 'open' | 'busy',
  },
  actors: {
    createPost: fromPromise<Post, PostSubmission>(({ input, signal }) => {
      const saved = input.saved
      return saved?.opened ? publishOpened({ ...saved, opened: saved.opened }, signal) : run(postCalls.createPost(input.post, input.idempotencyKey), signal)
    }),
    saveDraft: fromPromise<SavedDraft, DraftSubmission>(({ input, signal }) => saveDraft(input, signal)),
    updatePost: fromPromise<Post, { id: string; update: PostUpdate }>(({ input, signal }) =>
      run(postCalls.updatePost(input.id, input.update), signal),
    ),
    /** Owns one attachment's object URL for as long as the attachment is in the draft. */
    preview: fromCallback<EventObject, { id: string; file: File }>(({ input, sendBack }) => {
      const url = URL.createObjectURL(input.file)
      sendBack({ type: 'composer.preview.ready', id: input.id, url })
      return () => URL.revokeObjectURL(url)
    }),
  },
  actions: {
    setQuote: assign(({ event }) => ({ quoteOf: quotedId(event as ComposerQuoteEvent) })),
    removeQuote: assign(NO_QUOTE),
    applyEdit: enqueueActions(({ context, enqueue }, event: EditEvent) => {
      const draft = edited(context.draft, event)
      if (event.type === 'composer.file.remove') enqueue.stopChild(previewId(event.id))
      const previews =
        event.type === 'composer.file.remove'
          ? Object.fromEntries(Object.entries(context.previews).filter(([id]) => id !== event.id))
          : context.previews
      enqueue.assign({ draft, previews, errors: errorsFor(draft, context.checked, context.editing), failure: null, idempotencyKey: null })
    }),
    attach: enqueueActions(({ context, enqueue }, event: ComposerEvent) => {
      // A post's files stay as they are when it is edited.
      if (event.type !== 'composer.files.add' || context.editing) return
      const room = MAX_MEDIA - context.draft.media.length
      const media = event.files.filter((file) => mediaKind(file) !== null)
      const accepted = media.slice(0, Math.max(0, room))
      let nextMediaId = context.nextMediaId
      const added: Attachment[] = accepted.map((file) => ({
        id: `m${nextMediaId++}`,
        file,
        kind: mediaKind(file) ?? 'image',
        alt: '',
      }))
      const draft = { ...context.draft, media: [...context.draft.media, ...added] }
      const errors = errorsFor(draft, context.checked)
      // Files over the limit, or that are not images or videos, are left out and the member is told why.
      const notice = media.length > accepted.length ? MESSAGES.tooManyFiles : media.length < event.files.length ? MESSAGES.notMedia : null
      if (notice) {
        errors.media = notice
        // The product lists it as a toast too (docs/product.md, "Media"); said inline as well, next to the files it is about.
        enqueue(({ system }) => showToast(system, 'error', notice))
      }
      enqueue.assign({ draft, errors, nextMediaId, failure: null, idempotencyKey: null })
      for (const attachment of added) {
        enqueue.spawnChild('preview', { id: previewId(attachment.id), input: { id: attachment.id, file: attachment.file } })
      }
    }),
    setPreview: assign(({ context, event }) =>
      event.type === 'composer.preview.ready' && context.draft.media.some((m) => m.id === event.id)
        ? { previews: { ...context.previews, [event.id]: event.url } }
        : {},
    ),
    check: assign(({ context }) => ({
      checked: true,
      failure: null,
      errors: context.editing ? editErrors(context.draft, context.editing, localDate(new Date())) : submitErrors(context.draft, context.quoteOf),
    })),
    /** Save draft checks what a draft must meet (length, the schedule), not that it has text. */
    checkSave: assign(({ context }) => {
      const errors = allErrors(context.draft)
      if (errors.content === MESSAGES.contentRequired) delete errors.content
      const notKept = notKeptError(context.draft, context.quoteOf)
      return { failure: null, errors: notKept && !errors.schedule ? { ...errors, schedule: notKept } : errors }
    }),
    openSaved: enqueueActions(({ context, enqueue }, saved: SavedDraft) => {
      for (const attachment of context.draft.media) enqueue.stopChild(previewId(attachment.id))
      enqueue.assign({
        draft: draftFromSaved(saved),
        opened: { id: saved.id, media: saved.media },
        errors: {},
        checked: false,
        previews: {},
        failure: null,
        idempotencyKey: null,
      })
    }),
    notifyDraftSaved: ({ system }, scheduled: boolean) => showToast(system, 'success', scheduled ? SCHEDULE_MESSAGES.scheduled : SCHEDULE_MESSAGES.saved),
    startEdit: assign(({ context }, post: Post) => ({
      editing: { ...editTargetOf(post), setAside: context.editing?.setAside ?? context.draft },
      draft: draftOf(post),
      errors: {},
      checked: false,
      failure: null,
    })),
    changeAlt: assign(({ context, event }) =>
      event.type === 'composer.edit.alt.change' && context.editing
        ? { editing: { ...withAlt(context.editing, event.id, event.value), setAside: context.editing.setAside }, failure: null }
        : {},
    ),
    /** Back to the new-post draft that was set aside (closing an edit, or once it is saved). */
    endEdit: assign(({ context }) =>
      context.editing ? { draft: context.editing.setAside, editing: null, errors: {}, checked: false, failure: null } : {},
    ),
    storeEdited: sendTo(
      ({ context }) => context.posts,
      (_, post: Post) => ({ type: 'posts.received' as const, posts: [post] }),
    ),
    notifySaved: ({ system }) => showToast(system, 'success', EDIT_MESSAGES.saved),
    /** A new submission gets a key; a retry of the same one keeps its key. */
    /** Another post to send: a retry after this edit is a new submission. */
    dropKey: assign({ failure: null, idempotencyKey: null }),
    keySubmission: assign(({ context }) => ({ idempotencyKey: context.idempotencyKey ?? newIdempotencyKey() })),
    announce: sendTo(
      ({ context }) => context.posts,
      (_, post: Post) => ({ type: 'post.created' as const, post }),
    ),
    notifyPosted: ({ context, system }) => showToast(system, 'success', context.replyTo ? MESSAGES.replied : MESSAGES.posted),
    setFailure: assign((_, message: string) => ({ failure: message })),
    notifyFailure: ({ system }, message: string) => showToast(system, 'error', message),
    clearDraft: enqueueActions(({ context, enqueue }) => {
      for (const attachment of context.draft.media) enqueue.stopChild(previewId(attachment.id))
      enqueue.assign({ draft: EMPTY_DRAFT, errors: {}, checked: false, previews: {}, failure: null, idempotencyKey: null, ...NO_QUOTE, opened: null })
    }),
  },
  guards: {
    hasSomething: ({ context }) =>
      context.editing ? editHasSomething(context.draft, context.editing) : hasSomething(context.draft),
    isEditing: ({ context }) => context.editing !== null,
    isInvalid: ({ context }) => !isValid(context.errors),
    isScheduled: ({ context }) => isScheduled(context.draft),
  },
}).createMachine({
  id: 'composer',
  context: ({ input }) => ({
    posts: input.posts,
    replyTo: input.replyTo ?? null,
    ...NO_QUOTE,
    draft: EMPTY_DRAFT,
    errors: {},
    checked: false,
    previews: {},
    failure: null,
    idempotencyKey: null,
    nextMediaId: 1,
    editing: null,
    opened: null,
  }),
  initial: 'closed',
  states: {
    closed: {
      on: {
        'composer.open': { target: 'open' },
        'composer.quote': { target: 'open', actions: 'setQuote' },
        'composer.edit.open': { target: 'open', actions: { type: 'startEdit', params: ({ event }) => event.post } },
        'composer.draft.open': { target: 'open', actions: { type: 'openSaved', params: ({ event }) => event.draft } },
      },
    },
    open: {
      tags: ['open'],
      initial: 'editing',
      on: { 'composer.preview.ready': { actions: 'setPreview' } },
      states: {
        editing: {
          on: {
            'composer.content.change': edit,
            'composer.files.add': attach,
            'composer.file.remove': edit,
            'composer.alt.change': edit,
            'composer.visibility.change': edit,
            'composer.sensitive.change': edit,
            'composer.reason.change': edit,
            'composer.schedule.change': edit,
            'composer.quote.remove': { actions: ['removeQuote', 'dropKey'] },
            'composer.edit.alt.change': { actions: 'changeAlt' },
            ...pollEdits,
            'composer.submit': { guard: 'hasSomething', target: 'validating' },
            'composer.draft.save': { guard: not('isEditing'), target: 'checkingDraft' },
            'composer.close': { target: '#composer.closed', actions: 'endEdit' },
          },
        },
        /** Save draft: only the length and the schedule must hold (a draft may have no text yet). */
        checkingDraft: {
          entry: 'checkSave',
          always: [{ guard: 'isInvalid', target: 'editing' }, { target: 'savingDraft' }],
        },
        /** Saving as a draft, or as a scheduled post when a date and time are set (composer.drafts.ts). */
        savingDraft: {
          tags: ['busy'],
          invoke: {
            id: 'saveDraft',
            src: 'saveDraft',
            input: ({ context }): DraftSubmission => ({ draft: toNewDraft(context.draft, true), opened: context.opened }),
            onDone: {
              target: '#composer.posted',
              actions: [{ type: 'notifyDraftSaved', params: ({ event }) => event.output.scheduledAt !== null }, 'clearDraft'],
            },
            onError: {
              target: 'failed',
              actions: [
                { type: 'setFailure', params: ({ event }) => postFailureMessage(event.error) },
                { type: 'notifyFailure', params: ({ event }) => postFailureMessage(event.error) },
              ],
            },
          },
        },
        /** Checks every rule at once; broken ones go back to editing with their messages. */
        validating: {
          entry: 'check',
          always: [
            { guard: 'isInvalid', target: 'editing' },
            { guard: 'isEditing', target: 'saving' },
            { guard: 'isScheduled', target: 'savingDraft' },
            { target: 'sending', actions: 'keySubmission' },
          ],
        },
        /**
         * Sending the post in one request (multipart when files are attached: the button then says Uploading). The
         * draft cannot change meanwhile, so whether files are going is read from it (composer.selectors.ts).
         */
        sending: {
          tags: ['busy'],
          invoke: {
            id: 'createPost',
            src: 'createPost',
            input: ({ context }): PostSubmission => ({
              post: toNewPost(context),
              idempotencyKey: context.idempotencyKey,
              saved: context.opened ? { draft: toNewDraft(context.draft, false), opened: context.opened } : null,
            }),
            onDone: {
              target: '#composer.posted',
              actions: [
                { type: 'announce', params: ({ event }) => event.output },
                'notifyPosted',
                'clearDraft',
              ],
            },
            onError: {
              target: 'failed',
              actions: [
                { type: 'setFailure', params: ({ event }) => postFailureMessage(event.error) },
                { type: 'notifyFailure', params: ({ event }) => postFailureMessage(event.error) },
              ],
            },
          },
        },
        /** Saving an edit of the member's own post: only what changed is sent; the card updates in place. */
        saving: {
          tags: ['busy'],
          invoke: {
            id: 'updatePost',
            src: 'updatePost',
            input: ({ context }) => ({
              id: context.editing?.postId ?? '',
              update: context.editing ? toPostUpdate(context.draft, context.editing) : {},
            }),
            onDone: {
              target: '#composer.posted',
              actions: [{ type: 'storeEdited', params: ({ event }) => event.output }, 'notifySaved', 'endEdit'],
            },
            onError: {
              target: 'failed',
              actions: [
                { type: 'setFailure', params: ({ event }) => postFailureMessage(event.error, EDIT_MESSAGES.failed) },
                { type: 'notifyFailure', params: ({ event }) => postFailureMessage(event.error, EDIT_MESSAGES.failed) },
              ],
            },
          },
        },
        /** The draft is intact; editing clears the failure (a new submission), submitting tries again with the same key. */
        failed: {
          on: {
            'composer.content.change': { target: 'editing', ...edit },
            'composer.files.add': { target: 'editing', ...attach },
            'composer.file.remove': { target: 'editing', ...edit },
            'composer.alt.change': { target: 'editing', ...edit },
            'composer.visibility.change': { target: 'editing', ...edit },
            'composer.sensitive.change': { target: 'editing', ...edit },
            'composer.reason.change': { target: 'editing', ...edit },
            'composer.schedule.change': { target: 'editing', ...edit },
            'composer.quote.remove': { target: 'editing', actions: ['removeQuote', 'dropKey'] },
            'composer.edit.alt.change': { target: 'editing', actions: 'changeAlt' },
            ...pollEditsAfterFailure,
            'composer.submit': { guard: 'hasSomething', target: 'validating' },
            'composer.draft.save': { guard: not('isEditing'), target: 'checkingDraft' },
            'composer.close': { target: '#composer.closed', actions: 'endEdit' },
          },
        },
      },
    },
    /** Sent: the dialog is closed (a reply box shows its prompt again) and the next open starts blank. */
    posted: {
      on: {
        'composer.open': { target: 'open' },
        'composer.quote': { target: 'open', actions: 'setQuote' },
        'composer.edit.open': { target: 'open', actions: { type: 'startEdit', params: ({ event }) => event.post } },
        'composer.draft.open': { target: 'open', actions: { type: 'openSaved', params: ({ event }) => event.draft } },
      },
    },
  },
})

export type ComposerMachine = typeof composerMachine
export type ComposerRef = ActorRefFrom<ComposerMachine>
