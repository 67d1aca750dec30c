import { ATTACHMENT_DIMENSION_MAX, ATTACHMENT_DURATION_MS_MAX, type AttachmentKind } from '../../api/contract/encryption'

// Thumbnails are made in the browser, from the file itself, before anything is encrypted: the server never sees a
// picture to make one from. A small WebP (JPEG where the browser cannot encode WebP) of at most THUMB_EDGE pixels on
// its longer side, for images from the decoded picture and for videos from a frame about a second in.

const THUMB_EDGE = 320
const QUALITY = 0.7

/** What the envelope says of a file besides its key: its picture size, a video's length, and the thumbnail's bytes. */
export interface Described {
  readonly width: number
  readonly height: number
  readonly durationMs?: number
  readonly thumbnail: Uint8Array<ArrayBuffer>
}

const clampDimension = (value: number) => Math.min(ATTACHMENT_DIMENSION_MAX, Math.max(1, Math.round(value)))

async function encode(source: CanvasImageSource, width: number, height: number): Promise<Uint8Array<ArrayBuffer>> {
  const scale = Math.min(1, THUMB_EDGE / Math.max(width, height))
  const canvas = document.createElement('canvas')
  canvas.width = Math.max(1, Math.round(width * scale))
  canvas.height = Math.max(1, Math.round(height * scale))
  const context = canvas.getContext('2d')
  if (!context) throw new Error('No 2D canvas')
  context.drawImage(source, 0, 0, canvas.width, canvas.height)
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/webp', QUALITY))
  const made = blob?.type === 'image/webp' ? blob : await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', QUALITY))
  if (!made) throw new Error('The thumbnail could not be encoded')
  return new Uint8Array(await made.arrayBuffer())
}

async function describeImage(file: File): Promise<Described> {
  const bitmap = await createImageBitmap(file)
  try {
    return {
      width: clampDimension(bitmap.width),
      height: clampDimension(bitmap.height),
      thumbnail: await encode(bitmap, bitmap.width, bitmap.height),
    }
  } finally {
    bitmap.close()
  }
}

function once(target: HTMLMediaElement, event: string): Promise<void> {
  return new Promise((resolve, reject) => {
    target.addEventListener(event, () => resolve(), { once: true })
    target.addEventListener('error', () => reject(new Error('The video cannot be read')), { once: true })
  })
}

async function describeVideo(file: File): Promise<Described> {
  const url = URL.createObjectURL(file)
  const video = document.createElement('video')
  video.muted = true
  video.preload = 'auto'
  video.playsInline = true
  try {
    const loaded = once(video, 'loadeddata')
    video.src = url
    await loaded
    const seeked = once(video, 'seeked')
    video.currentTime = Number.isFinite(video.duration) ? Math.min(1, video.duration / 2) : 0
    await seeked
    return {
      width: clampDimension(video.videoWidth),
      height: clampDimension(video.videoHeight),
      durationMs: Number.isFinite(video.duration) ? Math.min(ATTACHMENT_DURATION_MS_MAX, Math.round(video.duration * 1000)) : 0,
      thumbnail: await encode(video, video.videoWidth, video.videoHeight),
    }
  } finally {
    video.removeAttribute('src')
    video.load()
    URL.revokeObjectURL(url)
  }
}

/** Reads the picture (or video) for its size and makes its thumbnail; fails when the browser cannot decode it. */
export function describeFile(file: File, kind: AttachmentKind): Promise<Described> {
  return kind === 'image' ? describeImage(file) : describeVideo(file)
}
