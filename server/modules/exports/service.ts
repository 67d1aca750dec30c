import { createReadStream } from 'node:fs'
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import type { Config } from '../../config'
import type { Database } from '../../db/client'
import { toDate } from '../../db/rows'
import type { UserRow } from '../../db/schema'
import type { Schemas } from '../../http/handler-types'
import type { JobQueue } from '../../jobs/queue'
import type { Clock } from '../../lib/clock'
import { Conflict, NotFound } from '../../lib/domain-errors'
import { isUuid } from '../../db/ids'
import type { Mailer } from '../../mail/mailer'
import type { Storage } from '../../storage/storage'
import type { NotificationService } from '../notifications/service'
import { type TextEntry, ZipFileWriter } from './archive'
import { README } from './readme'
import {
  bookmarksPage,
  collectionsPage,
  deleteExport,
  deleteFailedExports,
  type ExportRow,
  exportsOf,
  findExport,
  followsPage,
  insertExport,
  type KeyedRow,
  type Keyset,
  listMembersPage,
  listsPage,
  markFailed,
  markReady,
  mediaFilesPage,
  membersPage,
  postsPage,
  profileOf,
  reactionsPage,
  type SectionPage,
  subscriptionsPage,
  wordsPage,
} from './queries'

// The product's words (docs/product.md, "Exporting your data").
export const EXPORT_IN_PROGRESS = 'An export is already being prepared'
export const EXPORT_NOT_FOUND = 'Export not found'

export const EXPORT_JOB = 'account.export'
export const EXPIRE_JOB = 'account.export.expire'
/** A ready archive can be downloaded this long, then file and entry are deleted. */
export const EXPORT_TTL_MS = 7 * 24 * 60 * 60_000
/** Rows read (and held) at once while writing the archive. */
export const EXPORT_PAGE = 500
/** Exports the list shows (one preparing, the ready ones of the last week, a failed one). */
const LIST_LIMIT = 20

type DataExport = Schemas['DataExport']

interface ExportJob {
  exportId: string
  userId: string
}

export interface ExportDeps {
  config: Config
  db: Database
  clock: Clock
  jobs: JobQueue
  mail: Mailer
  storage: Storage
  notifications: NotificationService
  warn: (message: string, err: unknown) => void
}

function toExport(row: ExportRow): DataExport {
  return {
    id: row.id,
    status: row.status,
    createdAt: toDate(row.created_at).toISOString(),
    readyAt: row.ready_at === null ? null : toDate(row.ready_at).toISOString(),
    expiresAt: row.expires_at === null ? null : toDate(row.expires_at).toISOString(),
    size: row.size_bytes === null ? null : Number(row.size_bytes),
  }
}

/** Drops the keyset columns the pages carry. */
function withoutKeyset(row: KeyedRow): Record<string, unknown> {
  const { k_at: _at, k_id: _id, ...rest } = row as unknown as Record<string, unknown>
  return rest
}

/**
 * Data exports (docs/product.md, "Exporting your data"). A request makes a row and a job (one per member at a time:
 * the job key); the job writes the zip page by page to a temporary file and renames it when complete, so a download
 * never sees half an archive and a rerun (a process that died mid-way) simply writes it again. Ready, the member is
 * told (a notification and a mail) and an expiry job is scheduled 7 days on, which deletes file and row.
 */
export class ExportService {
  private readonly dir: string

  constructor(private readonly deps: ExportDeps) {
    this.dir = path.join(deps.config.dataDir, 'exports')
    deps.jobs.register<ExportJob>(EXPORT_JOB, {
      run: (job) => this.prepare(job.payload, job.extendLease),
      onGiveUp: (job) => this.giveUp(job.payload),
      maxAttempts: 3,
    })
    deps.jobs.register<{ exportId: string }>(EXPIRE_JOB, { run: (job) => this.expire(job.payload.exportId) })
  }

  /** The zip's path: DATA_DIR/exports, outside the public media folder; ids come from the database (uuids). */
  fileOf(id: string): string {
    return path.join(this.dir, `${id}.zip`)
  }

  private now(): Date {
    return new Date(this.deps.clock.now())
  }

  async request(viewer: UserRow): Promise<DataExport> {
    const row = await this.deps.db.transaction(async (tx) => {
      await deleteFailedExports(tx, viewer.id)
      const created = await insertExport(tx, viewer.id, this.now())
      const queued = await this.deps.jobs.enqueue<ExportJob>(
        EXPORT_JOB,
        { exportId: created.id, userId: viewer.id },
        { tx, key: `export:${viewer.id}` },
      )
      // Thrown inside the transaction, so the row goes with it.
      if (!queued) throw new Conflict(EXPORT_IN_PROGRESS)
      return created
    })
    return toExport(row)
  }

  async list(viewer: UserRow): Promise<DataExport[]> {
    return (await exportsOf(this.deps.db, viewer.id, this.now(), LIST_LIMIT)).map(toExport)
  }

  /** The owner's ready archive, until it expires; anything else is "not found". */
  async download(viewer: UserRow, id: string): Promise<{ stream: Readable; size: number; createdAt: Date }> {
    // An id that is not a uuid names no export (and would make the database refuse the statement).
    const row = isUuid(id) ? await findExport(this.deps.db, id) : undefined
    if (!row || row.user_id !== viewer.id || row.status !== 'ready' || row.expires_at === null) {
      throw new NotFound(EXPORT_NOT_FOUND)
    }
    if (toDate(row.expires_at).getTime() <= this.deps.clock.now()) throw new NotFound(EXPORT_NOT_FOUND)
    const file = this.fileOf(row.id)
    const size = await stat(file).then(
      (s) => s.size,
      () => undefined,
    )
    if (size === undefined) throw new NotFound(EXPORT_NOT_FOUND)
    return { stream: createReadStream(file), size, createdAt: toDate(row.created_at) }
  }

  /** The job: safe to rerun (an export no longer preparing is left alone; a half-written file is written again). */
  async prepare(job: ExportJob, extendLease: () => Promise<void> = async () => undefined): Promise<void> {
    const row = await findExport(this.deps.db, job.exportId)
    if (!row || row.status !== 'preparing') return
    const profile = await profileOf(this.deps.db, job.userId)
    if (!profile) return
    await mkdir(this.dir, { recursive: true })
    const final = this.fileOf(row.id)
    const temporary = `${final}.part`
    const zip = new ZipFileWriter(temporary)
    try {
      await this.writeArchive(zip, job.userId, profile, extendLease)
      await zip.end()
    } catch (err) {
      zip.abort()
      await rm(temporary, { force: true })
      throw err
    }
    await rename(temporary, final)
    const { size } = await stat(final)
    const readyAt = this.now()
    const expiresAt = new Date(readyAt.getTime() + EXPORT_TTL_MS)
    const told = await this.deps.db.transaction(async (tx) => {
      if (!(await markReady(tx, row.id, readyAt, expiresAt, size))) return false
      await this.deps.jobs.enqueue(EXPIRE_JOB, { exportId: row.id }, { tx, runAt: expiresAt })
      await this.deps.notifications.recordOwn(tx, 'export_ready', job.userId)
      await this.deps.mail.send(
        {
          to: profile.email,
          subject: 'Your data is ready',
          paragraphs: [
            `Hello ${profile.display_name},`,
            `The archive of your data you asked for on ${this.deps.mail.instance.name} is ready. You can download it ` +
              `from Settings → Account until ${expiresAt.toUTCString()}; then it is deleted.`,
            'Your messages are added by your browser when you download it: they are end-to-end encrypted and the ' +
              'server cannot read them.',
          ],
          action: { label: 'Download your data', url: this.deps.mail.link('/settings', { tab: 'account' }) },
          footnote: 'You get this mail because you asked for an export of your data.',
        },
        { tx },
      )
      return true
    })
    if (told) await this.deps.notifications.announce([job.userId])
  }

  private async giveUp(job: ExportJob): Promise<void> {
    await rm(`${this.fileOf(job.exportId)}.part`, { force: true })
    await markFailed(this.deps.db, job.exportId)
    await this.deps.notifications.announce([job.userId])
  }

  /** Seven days on: the file, then the row (a rerun after a crash finds the file gone and deletes the row). */
  async expire(exportId: string): Promise<void> {
    await rm(this.fileOf(exportId), { force: true })
    await deleteExport(this.deps.db, exportId)
  }

  private async writeArchive(
    zip: ZipFileWriter,
    userId: string,
    profile: NonNullable<Awaited<ReturnType<typeof profileOf>>>,
    extendLease: () => Promise<void>,
  ): Promise<void> {
    const db = this.deps.db
    zip.text('README.txt').end(README(this.deps.mail.instance.name, profile.username, this.now()))
    zip.text('profile.json').end(`${JSON.stringify(profile, null, 2)}\n`)

    /** Writes `[row, row, ...]` into `entry`, a page at a time. */
    const rows = async (entry: TextEntry, page: SectionPage, each: (row: KeyedRow) => Promise<void> | void = () => undefined) => {
      let keyset: Keyset | null = null
      let first = true
      for (;;) {
        const batch = await page(db, userId, keyset, EXPORT_PAGE)
        for (const row of batch) {
          entry.write(`${first ? '' : ',\n'}${JSON.stringify(withoutKeyset(row))}`)
          first = false
          await each(row)
        }
        await zip.flush()
        await extendLease()
        const last = batch.at(-1)
        if (!last || batch.length < EXPORT_PAGE) return
        keyset = { at: last.k_at, id: last.k_id }
      }
    }
    const section = async (name: string, page: SectionPage) => {
      const entry = zip.text(name)
      entry.write('[\n')
      await rows(entry, page)
      entry.end('\n]\n')
    }

    await section('posts.json', postsPage(false))
    await section('replies.json', postsPage(true))
    await section('likes.json', reactionsPage('likes'))
    await section('reposts.json', reactionsPage('reposts'))
    await section('followers.json', followsPage(true))
    await section('following.json', followsPage(false))

    // Lists with their members nested: the members of each list are paged inside it.
    const lists = zip.text('lists.json')
    lists.write('[\n')
    let firstList = true
    let keyset: Keyset | null = null
    for (;;) {
      const batch = await listsPage(db, userId, keyset, EXPORT_PAGE)
      for (const list of batch) {
        const json = JSON.stringify(withoutKeyset(list))
        lists.write(`${firstList ? '' : ',\n'}${json.slice(0, -1)},"members":[`)
        firstList = false
        await rows(lists, listMembersPage((list as unknown as { id: string }).id))
        lists.write(']}')
      }
      await zip.flush()
      const last = batch.at(-1)
      if (!last || batch.length < EXPORT_PAGE) break
      keyset = { at: last.k_at, id: last.k_id }
    }
    lists.end('\n]\n')

    await section('list-subscriptions.json', subscriptionsPage)
    await section('bookmarks.json', bookmarksPage)
    await section('collections.json', collectionsPage)
    await section('mutes/users.json', membersPage('user_mutes'))
    await section('mutes/keywords.json', wordsPage('muted_keywords'))
    await section('mutes/domains.json', wordsPage('muted_domains'))
    await section('blocks/users.json', membersPage('user_blocks'))
    await section('blocks/keywords.json', wordsPage('blocked_keywords'))
    await section('blocks/domains.json', wordsPage('blocked_domains'))

    // The files of posts and replies, stored as they are (already compressed), one stream at a time.
    let mediaKeyset: Keyset | null = null
    for (;;) {
      const batch = await mediaFilesPage(db, userId, mediaKeyset, EXPORT_PAGE)
      for (const media of batch) {
        const data = await this.deps.storage.open(media.storage_key)
        // A file missing on disk (removed by an operator) leaves its entry out rather than failing the export.
        if (data) await zip.file(`media/${media.storage_key}`, data)
      }
      await extendLease()
      const last = batch.at(-1)
      if (!last || batch.length < EXPORT_PAGE) break
      mediaKeyset = { at: last.k_at, id: last.k_id }
    }
  }
}
