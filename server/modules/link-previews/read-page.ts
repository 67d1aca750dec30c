import { sniff, type Sniffed } from '../../media/sniff'
import { type FetchPolicy, FetchRefused, safeFetch } from './fetch'
import { cleanText, MetaReader } from './parse'
import { normalizeLinkUrl } from './url'

/** HTML read at most per page: the head is what matters, and reading stops at its end when that comes first. */
export const MAX_PAGE_BYTES = 1024 * 1024
/** A preview image's largest download (it is re-encoded to a small card image). */
export const MAX_PREVIEW_IMAGE_BYTES = 5 * 1024 * 1024
/** Caps on what a card shows of a page's own text, in characters. */
export const TITLE_MAX = 200
export const DESCRIPTION_MAX = 300
export const SITE_NAME_MAX = 100

const HTML_TYPES = ['text/html', 'application/xhtml+xml']
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp']

export interface PagePreview {
  title: string
  description: string | null
  siteName: string | null
  /** Where the page's image is, if it named one (fetched separately, by the same rules). */
  imageUrl: string | null
}

function decoderFor(charset: string | null): TextDecoder {
  try {
    return new TextDecoder(charset ?? 'utf-8')
  } catch {
    return new TextDecoder('utf-8')
  }
}

/**
 * Reads a page's preview: HTML only, at most 1 MB, parsed as it streams in and dropped as soon as its head is over.
 * A page with no title (neither og:title nor <title>) has no preview. Throws FetchRefused.
 */
export async function readPagePreview(url: string, policy: FetchPolicy): Promise<PagePreview> {
  const page = await safeFetch({ url, accept: HTML_TYPES, maxBytes: MAX_PAGE_BYTES }, policy)
  const reader = new MetaReader()
  const decoder = decoderFor(page.charset)
  const { capped } = await page.read((chunk) => {
    reader.write(decoder.decode(chunk, { stream: true }))
    return reader.done
  })
  // Over the cap with the head still open: what was read is not trusted to be the page's own head.
  if (capped && !reader.done) throw new FetchRefused('too-large', `The page's head is longer than ${MAX_PAGE_BYTES} bytes`)
  reader.write(decoder.decode())
  const meta = reader.end()
  const title = cleanText(meta.title, TITLE_MAX)
  if (title === null) throw new FetchRefused('content-type', 'The page has no title')
  const image = meta.image === null ? null : resolveImage(meta.image, page.url)
  return {
    title,
    description: cleanText(meta.description, DESCRIPTION_MAX),
    siteName: cleanText(meta.siteName, SITE_NAME_MAX) ?? new URL(page.url).hostname,
    imageUrl: image,
  }
}

function resolveImage(raw: string, pageUrl: string): string | null {
  try {
    return normalizeLinkUrl(new URL(raw.trim(), pageUrl).toString())
  } catch {
    return null
  }
}

/** Downloads a preview image by the same rules: image types only, at most 5 MB, and the bytes must be an image. */
export async function readPreviewImage(url: string, policy: FetchPolicy): Promise<{ data: Buffer; sniffed: Sniffed }> {
  const image = await safeFetch({ url, accept: IMAGE_TYPES, maxBytes: MAX_PREVIEW_IMAGE_BYTES, refuseOverCap: true }, policy)
  const chunks: Buffer[] = []
  await image.read((chunk) => {
    chunks.push(chunk)
  })
  const data = Buffer.concat(chunks)
  const sniffed = sniff(data)
  // The declared type is the site's claim; the bytes decide, as for uploads (media/sniff.ts).
  if (!sniffed || sniffed.kind !== 'image') throw new FetchRefused('content-type', 'The image is not one we read')
  return { data, sniffed }
}
