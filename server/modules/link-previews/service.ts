import type { Invalidations } from '../../cache/invalidations'
import type { Database } from '../../db/client'
import { toDate, type SqlExecutor } from '../../db/rows'
import type { JobQueue } from '../../jobs/queue'
import type { Clock } from '../../lib/clock'
import type { ImageProcessor } from '../../media/images'
import { newMediaKey } from '../../media/keys'
import { deleteQuietly, type Storage } from '../../storage/storage'
import { CARD_TTL_MS } from '../posts/cache/cards'
import { DEFAULT_FETCH_POLICY, type FetchPolicy, FetchRefused } from './fetch'
import { findPostLink, findPreviewState, recordFailure, storePreview } from './queries'
import { readPagePreview, readPreviewImage } from './read-page'

/** A successful read is reused this long for every post of the same link. */
export const PREVIEW_FRESH_MS = 24 * 60 * 60_000
/** A failed read is not tried again for this long, however often the link is posted. */
export const PREVIEW_FAILURE_MS = 15 * 60_000
/**
 * A replaced preview image is deleted this much later: cards cached before the new read may still show it until they
 * expire (at most twice the card TTL, cache/cards.ts).
 */
export const REPLACED_IMAGE_GRACE_MS = 2 * CARD_TTL_MS + 60_000

export const LINK_PREVIEW_JOB = 'link-preview'
const DELETE_IMAGE_JOB = 'link-preview-image-delete'

export interface LinkPreviewDeps {
  db: Database
  jobs: JobQueue
  storage: Storage
  images: ImageProcessor
  invalidations: Invalidations
  clock: Clock
  warn: (message: string, err: unknown) => void
  /** The fetching rules; tests loosen them only through buildApp's `linkPreviewFetch` (never the environment). */
  fetchPolicy?: Partial<FetchPolicy>
}

/**
 * Link previews: a post's first link is read by the server after the post is created, in a job (never while the
 * author waits), and shown on its card once stored. Reads are cached per normalized URL (link_previews): a fresh one
 * is reused, a recent failure is not retried. Storing a preview evicts the post's cached card.
 */
export class LinkPreviewService {
  private readonly policy: FetchPolicy

  constructor(private readonly deps: LinkPreviewDeps) {
    this.policy = { ...DEFAULT_FETCH_POLICY, ...deps.fetchPolicy }
    // A failed read is recorded, not thrown: only the database failing makes the job run again.
    deps.jobs.register<{ postId: string }>(LINK_PREVIEW_JOB, { run: ({ payload }) => this.preview(payload.postId), maxAttempts: 3 })
    deps.jobs.register<{ key: string }>(DELETE_IMAGE_JOB, {
      run: ({ payload }) => deps.storage.delete(payload.key),
      maxAttempts: 5,
    })
  }

  /** Queues the preview of a new post's link, in the post's own transaction (so it exists exactly when the post does). */
  async schedule(tx: SqlExecutor, postId: string): Promise<void> {
    await this.deps.jobs.enqueue(LINK_PREVIEW_JOB, { postId }, { tx, key: `${LINK_PREVIEW_JOB}:${postId}` })
  }

  /** The job: read the post's link unless a fresh read or a recent failure is cached, then refresh its card. */
  private async preview(postId: string): Promise<void> {
    const { db, clock } = this.deps
    const url = await findPostLink(db, postId)
    if (url === null) return
    const state = await findPreviewState(db, url)
    const now = clock.now()
    const fresh = state?.fetched_at != null && now - toDate(state.fetched_at).getTime() < PREVIEW_FRESH_MS
    const failed = state?.failed_at != null && now - toDate(state.failed_at).getTime() < PREVIEW_FAILURE_MS
    if (!fresh && !failed) await this.read(url)
    await this.deps.invalidations.emit({ kind: 'posts-changed', postIds: [postId] })
  }

  private async read(url: string): Promise<void> {
    const { db, clock, storage, images, warn } = this.deps
    let page
    try {
      page = await readPagePreview(url, this.policy)
    } catch (err) {
      if (!(err instanceof FetchRefused)) throw err
      await recordFailure(db, url, new Date(clock.now()))
      return
    }
    let image: { key: string; width: number; height: number } | null = null
    if (page.imageUrl) {
      try {
        const fetched = await readPreviewImage(page.imageUrl, this.policy)
        const encoded = await images.linkPreview(fetched.data)
        const key = newMediaKey('previews', '', 'webp')
        await storage.put(key, encoded.data, 'image/webp')
        image = { key, width: encoded.width, height: encoded.height }
      } catch (err) {
        // A page without its image is still a preview; an unreadable image is the site's problem, not ours.
        if (!(err instanceof FetchRefused)) warn(`link preview image of ${url} not kept`, err)
      }
    }
    let replaced: string | null
    try {
      replaced = await storePreview(db, { url, ...page, image, fetchedAt: new Date(clock.now()) })
    } catch (err) {
      if (image) await deleteQuietly(storage, [image.key])
      throw err
    }
    if (replaced) {
      await this.deps.jobs.enqueue(DELETE_IMAGE_JOB, { key: replaced }, { runAt: new Date(clock.now() + REPLACED_IMAGE_GRACE_MS) })
    }
  }
}
