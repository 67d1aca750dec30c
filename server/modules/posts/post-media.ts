import { createReadStream } from 'node:fs'
import type { NewPostMedia } from '../../db/schema-posts'
import type { UploadedFile } from '../../http/uploads'
import type { ImageProcessor } from '../../media/images'
import { newMediaKey } from '../../media/keys'
import type { VideoProcessor } from '../../media/videos'
import { deleteQuietly, type Storage } from '../../storage/storage'

export interface StoredMedia {
  rows: NewPostMedia[]
  /** Every key written, to delete if the post is not created after all. */
  keys: string[]
}

export interface MediaProcessors {
  images: ImageProcessor
  videos: VideoProcessor
}

/**
 * Turns a post's uploaded files into stored files and the rows describing them. Nothing is stored as sent, so no
 * metadata (where, when, with what) leaves with it: images are re-encoded (display size and thumbnail, see
 * media/images.ts); videos are remuxed without metadata (media/videos.ts) but not transcoded, so they have no
 * thumbnail and no known size. If anything fails, whatever was already written is deleted before the error goes on:
 * a failed post leaves no files.
 */
export async function storePostMedia(
  postId: string,
  files: readonly UploadedFile[],
  alts: readonly (string | null)[],
  { images, videos }: MediaProcessors,
  storage: Storage,
): Promise<StoredMedia> {
  const keys: string[] = []
  const rows: NewPostMedia[] = []
  const put = async (key: string, data: Parameters<Storage['put']>[1], contentType: string) => {
    keys.push(key)
    await storage.put(key, data, contentType)
  }
  try {
    for (const file of files) {
      const base = { postId, position: file.index, alt: alts[file.index] ?? null }
      if (file.sniffed.kind === 'image') {
        const image = await images.forPost(file.path, file.sniffed)
        const storageKey = newMediaKey('posts', '', 'webp')
        const thumbnailKey = newMediaKey('posts', '-thumb', 'webp')
        await put(storageKey, image.display.data, 'image/webp')
        await put(thumbnailKey, image.thumbnail.data, 'image/webp')
        rows.push({
          ...base,
          kind: 'image',
          storageKey,
          thumbnailKey,
          mime: 'image/webp',
          width: image.display.width,
          height: image.display.height,
          sizeBytes: image.display.data.length,
        })
      } else {
        // Beside the upload, in its request's temporary directory, which goes with the response.
        const clean = `${file.path}-clean`
        const sizeBytes = await videos.withoutMetadata(file.path, file.sniffed, clean)
        const storageKey = newMediaKey('posts', '', file.sniffed.format)
        await put(storageKey, createReadStream(clean), file.sniffed.mime)
        rows.push({
          ...base,
          kind: 'video',
          storageKey,
          thumbnailKey: null,
          mime: file.sniffed.mime,
          width: null,
          height: null,
          sizeBytes,
        })
      }
    }
  } catch (err) {
    await deleteQuietly(storage, keys)
    throw err
  }
  return { rows, keys }
}
