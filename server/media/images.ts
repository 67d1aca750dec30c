import sharp, { type OutputInfo, type ResizeOptions, type Sharp } from 'sharp'
import { Invalid } from '../lib/domain-errors'
import { Semaphore } from '../lib/semaphore'
import type { Sniffed } from './sniff'

/**
 * Every uploaded image is decoded and re-encoded, never stored as sent: orientation is applied to the pixels (EXIF
 * Orientation would otherwise be lost with the metadata), and all metadata (EXIF with GPS position, XMP, IPTC,
 * comments) is dropped, because sharp writes none unless asked (`keepMetadata`/`withExif` are never called here).
 * Re-encoding also neutralises polyglot files: what is stored is pixels we wrote ourselves, as WebP.
 *
 * GIFs (and animated WebPs) stay animated: they become animated WebP, which every current browser plays and which
 * is much smaller than GIF. Their thumbnail is the first frame.
 */

export interface EncodedImage {
  data: Buffer
  width: number
  height: number
}

export interface PostImage {
  display: EncodedImage
  thumbnail: EncodedImage
}

/** Longest side of the image shown in a post and in the viewer. */
export const DISPLAY_MAX_PX = 2048
/** Longest side of the grid thumbnail. */
export const THUMBNAIL_MAX_PX = 400
export const AVATAR_PX = 400
export const BANNER_SIZE = { width: 1500, height: 500 } as const
/** A link preview's image: the Open Graph shape (1.91:1), cropped to fill, so every card reserves the same box. */
export const LINK_PREVIEW_SIZE = { width: 800, height: 418 } as const

/**
 * Decoding cost is width x height (x frames), not file size: a 1 KB PNG can claim 100k x 100k pixels. 50 megapixels
 * covers every phone camera and bounds one decode to ~200 MB.
 */
export const MAX_INPUT_PIXELS = 50_000_000

// Images are decoded on libuv's thread pool; two at a time keeps a burst of uploads from starving everything else.
const IMAGE_CONCURRENCY = 2

const WEBP = { quality: 82, effort: 4 } as const

const isAnimatable = (sniffed: Sniffed) => sniffed.format === 'gif' || sniffed.format === 'webp'

/** Output height of one frame (sharp reports an animation as a vertical strip of frames). */
const frameHeight = (info: OutputInfo) => info.pageHeight ?? info.height

function unreadable(err: unknown): Error {
  const message = err instanceof Error ? err.message : ''
  if (message.includes('pixel limit')) {
    return new Invalid(`The image is too large to process (at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels)`)
  }
  return new Invalid('The image could not be read; it may be damaged')
}

export class ImageProcessor {
  private readonly gate = new Semaphore(IMAGE_CONCURRENCY)

  private open(file: string | Buffer, animated: boolean): Sharp {
    // failOn 'error': refuse broken data, but not the harmless warnings many camera files trigger.
    return sharp(file, { animated, limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).autoOrient()
  }

  private async encode(image: Sharp, resize: ResizeOptions): Promise<EncodedImage> {
    const { data, info } = await image.resize(resize).webp(WEBP).toBuffer({ resolveWithObject: true })
    return { data, width: info.width, height: frameHeight(info) }
  }

  private run<T>(task: () => Promise<T>): Promise<T> {
    return this.gate.run(async () => {
      try {
        return await task()
      } catch (err) {
        throw unreadable(err)
      }
    })
  }

  /** A post's image: display size (at most 2048 px, never enlarged) and a 400 px thumbnail. */
  forPost(file: string, sniffed: Sniffed): Promise<PostImage> {
    const inside = (px: number): ResizeOptions => ({ width: px, height: px, fit: 'inside', withoutEnlargement: true })
    return this.run(async () => ({
      display: await this.encode(this.open(file, isAnimatable(sniffed)), inside(DISPLAY_MAX_PX)),
      thumbnail: await this.encode(this.open(file, false), inside(THUMBNAIL_MAX_PX)),
    }))
  }

  /** A square avatar. */
  avatar(file: string, sniffed: Sniffed): Promise<EncodedImage> {
    return this.cropped(file, sniffed, { width: AVATAR_PX, height: AVATAR_PX })
  }

  /** A 3:1 banner, 1500 x 500. */
  banner(file: string, sniffed: Sniffed): Promise<EncodedImage> {
    return this.cropped(file, sniffed, BANNER_SIZE)
  }

  /**
   * A linked page's image, fetched by the server (server/modules/link-previews): re-encoded like an upload, as one
   * still frame (an animation on a card nobody asked to play would only distract).
   */
  linkPreview(data: Buffer): Promise<EncodedImage> {
    return this.run(() => this.encode(this.open(data, false), { ...LINK_PREVIEW_SIZE, fit: 'cover', position: 'attention' }))
  }

  /**
   * Fills the box exactly, cropping what does not fit. Still images are cropped around their most interesting
   * region; animations from the centre (the attention strategy works on one frame only).
   */
  private cropped(file: string, sniffed: Sniffed, box: { width: number; height: number }): Promise<EncodedImage> {
    const animated = isAnimatable(sniffed)
    const position = animated ? 'centre' : 'attention'
    return this.run(() => this.encode(this.open(file, animated), { ...box, fit: 'cover', position }))
  }
}
