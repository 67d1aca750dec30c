import { eq } from 'drizzle-orm'
import { LIMITS } from '../../../src/api/contract/limits'
import type { Database } from '../../db/client'
import { uuidv7 } from '../../db/ids'
import { toDate } from '../../db/rows'
import { type UserRow, users } from '../../db/schema'
import type { Visibility } from '../../db/schema-posts'
import type { Schemas } from '../../http/handler-types'
import type { UploadedFile } from '../../http/uploads'
import type { JobQueue } from '../../jobs/queue'
import type { Clock } from '../../lib/clock'
import { keysetPage, type PageRequest } from '../../lib/cursor'
import { DomainError, Invalid, NotFound } from '../../lib/domain-errors'
import { codePointLength } from '../../lib/lengths'
import type { ImageProcessor } from '../../media/images'
import type { VideoProcessor } from '../../media/videos'
import { deleteQuietly, type Storage } from '../../storage/storage'
import { storePostMedia } from '../posts/post-media'
import { DRAFT_GONE, type PostService } from '../posts/service'
import {
  deleteDraft,
  type DraftKind,
  type DraftRow,
  findDraft,
  insertDraft,
  listDrafts,
  lockAndCountDrafts,
  lockDraft,
  markFailed,
  scheduledAuthorId,
  takeDraft,
  updateDraft,
} from './queries'

export const DRAFT_NOT_FOUND = DRAFT_GONE
export const TOO_MANY_DRAFTS = `You have ${LIMITS.draftsPerMember} drafts and scheduled posts already: publish or delete one first`
export const SCHEDULE_TOO_SOON = 'Schedule a post at least 1 minute ahead'
export const SCHEDULE_TOO_LATE = 'Schedule a post at most 1 year ahead'
export const UNKNOWN_MEDIA = 'Only media already attached to this draft can be kept'
/** Shown on a scheduled post whose publishing kept failing for reasons other than its content. */
export const PUBLISH_GAVE_UP = 'Could not publish at the scheduled time: edit or reschedule it to try again'

export const PUBLISH_SCHEDULED_JOB = 'publish-scheduled-post'

interface PublishJob {
  draftId: string
  /** The time it was scheduled for when queued: a reschedule queues another job, and this one finds nothing. */
  at: string
}

type Draft = Schemas['Draft']

export interface CreateDraftInput {
  content?: string
  visibility?: Visibility
  sensitive?: 'true' | 'false'
  sensitiveReason?: string
  scheduledAt?: string
  alt?: string[]
}

export interface UpdateDraftInput {
  content?: string
  visibility?: Visibility
  sensitive?: boolean
  sensitiveReason?: string | null
  scheduledAt?: string | null
  media?: { id: string; alt?: string | null }[]
}

export interface DraftDeps {
  db: Database
  storage: Storage
  images: ImageProcessor
  videos: VideoProcessor
  jobs: JobQueue
  clock: Clock
  posts: PostService
  warn: (message: string, err: unknown) => void
}

const blankToNull = (text: string | null | undefined) => {
  const trimmed = text?.trim()
  return trimmed ? trimmed : null
}

/**
 * Drafts and scheduled posts (docs/product.md, "Drafts and scheduled posts"): one row type, private to its author.
 * A scheduled one is published by a job queued for its time in the same transaction that scheduled it; the job
 * publishes through PostService.publishSaved, which deletes the draft in the post's transaction, so however many
 * processes run the job (or the author presses Publish at that moment) exactly one post comes out.
 */
export class DraftService {
  constructor(private readonly deps: DraftDeps) {
    deps.jobs.register<PublishJob>(PUBLISH_SCHEDULED_JOB, {
      run: ({ payload }) => this.publishScheduled(payload),
      onGiveUp: async ({ payload }) => markFailed(deps.db, payload.draftId, payload.at, PUBLISH_GAVE_UP),
      maxAttempts: 5,
    })
  }

  async create(author: UserRow, input: CreateDraftInput, files: readonly UploadedFile[]): Promise<Draft> {
    const alts = (input.alt ?? []).map((a) => blankToNull(a))
    if (alts.length > files.length) throw new Invalid('Each alt text must describe an attached media file')
    const content = input.content ?? ''
    const sensitive = input.sensitive === 'true'
    const sensitiveReason = sensitive ? blankToNull(input.sensitiveReason) : null
    this.checkFields(content, sensitiveReason)
    const scheduledAt = input.scheduledAt === undefined ? null : this.checkSchedule(input.scheduledAt)
    const id = uuidv7()
    const processors = { images: this.deps.images, videos: this.deps.videos }
    const stored = await storePostMedia(id, files, alts, processors, this.deps.storage)
    try {
      await this.deps.db.transaction(async (tx) => {
        if ((await lockAndCountDrafts(tx, author.id)) >= LIMITS.draftsPerMember) throw new Invalid(TOO_MANY_DRAFTS)
        const media = stored.rows.map(({ postId: _post, ...m }) => m)
        await insertDraft(
          tx,
          {
            id,
            authorId: author.id,
            content,
            visibility: input.visibility ?? 'public',
            sensitive,
            sensitiveReason,
            scheduledAt,
          },
          media,
        )
        if (scheduledAt) await this.queue(tx, id, scheduledAt)
      })
    } catch (err) {
      await deleteQuietly(this.deps.storage, stored.keys, (key, e) => this.deps.warn(`could not delete ${key}`, e))
      throw err
    }
    return this.get(author, id)
  }

  async get(author: UserRow, id: string): Promise<Draft> {
    const row = await findDraft(this.deps.db, author.id, id)
    if (!row) throw new NotFound(DRAFT_NOT_FOUND)
    return this.present(row)
  }

  async list(author: UserRow, kind: DraftKind, page: PageRequest): Promise<{ drafts: Draft[]; nextCursor: string | null }> {
    const rows = await listDrafts(this.deps.db, author.id, kind, page.cursor, page.offset, page.limit + 1)
    const { items, nextCursor } = keysetPage(rows, page.limit, (row) => this.present(row))
    return { drafts: items, nextCursor }
  }

  async update(author: UserRow, id: string, input: UpdateDraftInput): Promise<Draft> {
    const removed: string[] = []
    await this.deps.db.transaction(async (tx) => {
      const draft = await lockDraft(tx, author.id, id)
      if (!draft) throw new NotFound(DRAFT_NOT_FOUND)
      const content = input.content ?? draft.content
      const sensitive = input.sensitive ?? draft.sensitive
      const reason = input.sensitiveReason === undefined ? draft.sensitive_reason : blankToNull(input.sensitiveReason)
      const sensitiveReason = sensitive ? reason : null
      this.checkFields(content, sensitiveReason)
      const current = draft.scheduled_at === null ? null : toDate(draft.scheduled_at)
      // Keeping the time it has needs no check (it may be less than a minute away by now); a new time does.
      const scheduledAt =
        input.scheduledAt === undefined
          ? current
          : input.scheduledAt === null
            ? null
            : current && new Date(input.scheduledAt).getTime() === current.getTime() && draft.failure === null
              ? current
              : this.checkSchedule(input.scheduledAt)
      const byId = new Map(draft.media.map((m) => [m.id, m]))
      const media = input.media ?? draft.media.map((m) => ({ id: m.id, alt: m.alt }))
      if (media.some((m) => !byId.has(m.id)) || new Set(media.map((m) => m.id)).size !== media.length) {
        throw new Invalid(UNKNOWN_MEDIA)
      }
      for (const m of media) {
        if (m.alt && codePointLength(m.alt) > LIMITS.altTextLength) {
          throw new Invalid(`Alt text must be at most ${LIMITS.altTextLength} characters`)
        }
      }
      const kept = new Set(media.map((m) => m.id))
      for (const m of draft.media) {
        if (!kept.has(m.id)) removed.push(...[m.storageKey, m.thumbnailKey].filter((k): k is string => k !== null))
      }
      await updateDraft(tx, id, {
        content,
        visibility: input.visibility ?? draft.visibility,
        sensitive,
        sensitiveReason,
        scheduledAt,
        media: media.map((m) => ({
          id: m.id,
          alt: m.alt === undefined ? byId.get(m.id)?.alt ?? null : blankToNull(m.alt),
        })),
      })
      const rescheduled =
        scheduledAt !== null && (current === null || scheduledAt.getTime() !== current.getTime() || draft.failure !== null)
      if (rescheduled) await this.queue(tx, id, scheduledAt)
    })
    await deleteQuietly(this.deps.storage, removed, (key, e) => this.deps.warn(`could not delete ${key}`, e))
    return this.get(author, id)
  }

  async delete(author: UserRow, id: string): Promise<void> {
    const keys = await deleteDraft(this.deps.db, author.id, id)
    if (keys === null) throw new NotFound(DRAFT_NOT_FOUND)
    await deleteQuietly(this.deps.storage, keys, (key, e) => this.deps.warn(`could not delete ${key}`, e))
  }

  /** Publishes the draft now, as saved; its files become the post's. */
  publish(author: UserRow, id: string): Promise<Schemas['Post']> {
    return this.deps.posts.publishSaved(author, (tx) => takeDraft(tx, author.id, id))
  }

  /**
   * The job. Nothing happens when the draft was published, cancelled, rescheduled or deleted since, or its author is
   * deleted. A refusal by the post's rules is final (the row shows it as failed); anything else (the database, a
   * rate limit) is retried by the queue.
   */
  private async publishScheduled({ draftId, at }: PublishJob): Promise<void> {
    const { db } = this.deps
    const authorId = await scheduledAuthorId(db, draftId, at)
    if (!authorId) return
    const [author] = await db.select().from(users).where(eq(users.id, authorId))
    if (!author || author.deletedAt !== null) return
    try {
      await this.deps.posts.publishSaved(author, (tx) => takeDraft(tx, authorId, draftId, at))
    } catch (err) {
      if (err instanceof NotFound && err.message === DRAFT_GONE) return
      if (err instanceof DomainError && err.kind !== 'too-many') {
        await markFailed(db, draftId, at, err.message)
        return
      }
      throw err
    }
  }

  private queue(tx: Parameters<Parameters<Database['transaction']>[0]>[0], draftId: string, at: Date): Promise<boolean> {
    return this.deps.jobs.enqueue<PublishJob>(PUBLISH_SCHEDULED_JOB, { draftId, at: at.toISOString() }, { tx, runAt: at })
  }

  private checkFields(content: string, sensitiveReason: string | null): void {
    if (codePointLength(content) > LIMITS.postLength) throw new Invalid(`Content must be at most ${LIMITS.postLength} characters`)
    if (sensitiveReason && codePointLength(sensitiveReason) > LIMITS.sensitiveReasonLength) {
      throw new Invalid(`sensitiveReason must be at most ${LIMITS.sensitiveReasonLength} characters`)
    }
  }

  private checkSchedule(text: string): Date {
    const at = new Date(text)
    if (Number.isNaN(at.getTime())) throw new Invalid('scheduledAt must be a date and time')
    const now = this.deps.clock.now()
    if (at.getTime() < now + LIMITS.scheduleMinAheadMs) throw new Invalid(SCHEDULE_TOO_SOON)
    if (at.getTime() > now + LIMITS.scheduleMaxAheadMs) throw new Invalid(SCHEDULE_TOO_LATE)
    return at
  }

  private present(row: DraftRow): Draft {
    const { storage } = this.deps
    return {
      id: row.id,
      content: row.content,
      visibility: row.visibility,
      sensitive: row.sensitive,
      sensitiveReason: row.sensitive_reason,
      media: row.media.map((m) => ({
        id: m.id,
        type: m.kind,
        url: storage.url(m.storageKey),
        thumbnailUrl: m.thumbnailKey ? storage.url(m.thumbnailKey) : null,
        alt: m.alt,
        width: m.width,
        height: m.height,
      })),
      scheduledAt: row.scheduled_at === null ? null : toDate(row.scheduled_at).toISOString(),
      failure: row.failure,
      createdAt: toDate(row.created_at).toISOString(),
      updatedAt: toDate(row.updated_at).toISOString(),
    }
  }
}
