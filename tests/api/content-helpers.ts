import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import sharp from 'sharp'
import { users } from '../../server/db/schema'
import type { Schemas } from '../../server/http/handler-types'
import { api, uniqueName } from './harness'

/**
 * Helpers for the posts and users API tests: members made without argon2 (a session straight from the session
 * store, so a file can have dozens of members cheaply), multipart bodies, and tiny media files made on the spot.
 */

export interface Member {
  id: string
  username: string
  token: string
}

/** A member with a valid session, skipping registration (and its password hash, ~80 ms each). */
export async function quickMember(app: FastifyInstance, prefix = 'm'): Promise<Member> {
  const username = uniqueName(prefix)
  const [row] = await app.services.db
    .insert(users)
    .values({ username, email: `${username.toLowerCase()}@example.test`, displayName: `Member ${username}`, passwordHash: 'x' })
    .returning({ id: users.id })
  if (!row) throw new Error('insert returned no row')
  const token = await app.services.sessions.create(row.id, { userAgent: 'tests' })
  return { id: row.id, username, token }
}

export async function quickMembers(app: FastifyInstance, count: number, prefix = 'm'): Promise<Member[]> {
  const members: Member[] = []
  for (let i = 0; i < count; i += 1) members.push(await quickMember(app, prefix))
  return members
}

// ---- multipart --------------------------------------------------------------------------------------------------

export interface FilePart {
  field: string
  filename: string
  contentType: string
  data: Buffer
}

export type FormPart = { field: string; value: string } | FilePart

export function multipart(parts: readonly FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----wren${randomBytes(8).toString('hex')}`
  const chunks: Buffer[] = []
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`))
    if ('value' in part) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`))
    } else {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.field}"; filename="${part.filename}"\r\n` +
            `Content-Type: ${part.contentType}\r\n\r\n`,
        ),
        part.data,
        Buffer.from('\r\n'),
      )
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

export function send(
  app: FastifyInstance,
  method: 'POST' | 'PATCH',
  url: string,
  token: string,
  parts: readonly FormPart[],
): Promise<LightMyRequestResponse> {
  const { payload, headers } = multipart(parts)
  return app.inject({ method, url, payload, headers: { ...headers, authorization: `Bearer ${token}` } })
}

export const field = (name: string, value: string): FormPart => ({ field: name, value })
export const file = (name: string, filename: string, contentType: string, data: Buffer): FilePart => ({
  field: name,
  filename,
  contentType,
  data,
})

// ---- media fixtures ---------------------------------------------------------------------------------------------

export function png(width = 24, height = 16, color = '#3a7'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer()
}

/** A JPEG carrying a GPS position and a camera make in its EXIF, as phones write them. */
export function jpegWithGps(width = 40, height = 30): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c33' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'WrenTestCam' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2964/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 792/100' },
    })
    .toBuffer()
}

export function gif(): Promise<Buffer> {
  return sharp({ create: { width: 12, height: 12, channels: 4, background: '#00f' } }).gif().toBuffer()
}

/** A three-frame animated GIF. */
export async function animatedGif(): Promise<Buffer> {
  const frames = await Promise.all(['#f00', '#0f0', '#00f'].map((color) => png(16, 10, color)))
  return sharp(frames, { join: { animated: true } }).gif({ delay: 100 }).toBuffer()
}

/**
 * Two real one-second videos (64x64, with sound) that carry a location, a camera make and model and a creation
 * time, as phones record them (tests/fixtures/make-video-fixtures.mjs made them).
 */
export const locatedVideo = {
  mp4: () => readFile(new URL('../fixtures/located.mp4', import.meta.url)),
  webm: () => readFile(new URL('../fixtures/located.webm', import.meta.url)),
  /** What both fixtures record as text in their bytes (the creation time is binary in WebM). */
  secrets: ['+48.8584+002.2945', 'WrenTestCam', 'LeakyPhone9'],
}

/**
 * The smallest byte sequence our sniffer accepts as MP4: an ftyp box with an isom brand, then filler. Not a video:
 * nothing can play it.
 */
export function mp4(size = 2048): Buffer {
  const head = Buffer.alloc(32)
  head.writeUInt32BE(32, 0)
  head.write('ftypisom', 4, 'latin1')
  head.writeUInt32BE(0x200, 12)
  head.write('isomiso2avc1mp41', 16, 'latin1')
  return Buffer.concat([head, Buffer.alloc(size - head.length, 7)])
}

export const svg = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
)

/** Whether an EXIF block (as sharp's metadata returns it) has a GPS IFD pointer (tag 0x8825) in IFD0. */
export function exifHasGps(exif: Buffer | undefined): boolean {
  if (!exif) return false
  const base = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0
  const little = exif.subarray(base, base + 2).toString('latin1') === 'II'
  const u16 = (at: number) => (little ? exif.readUInt16LE(base + at) : exif.readUInt16BE(base + at))
  const u32 = (at: number) => (little ? exif.readUInt32LE(base + at) : exif.readUInt32BE(base + at))
  const ifd0 = u32(4)
  const entries = u16(ifd0)
  for (let i = 0; i < entries; i += 1) if (u16(ifd0 + 2 + i * 12) === 0x8825) return true
  return false
}

// ---- posts ------------------------------------------------------------------------------------------------------

export type Post = Schemas['Post']
export type FeedPost = Schemas['FeedPost']

/** Publishes a text post (multipart, as the SPA sends it) and returns it; fails on anything but 201. */
export async function publish(
  app: FastifyInstance,
  token: string,
  content: string,
  extra: Record<string, string> = {},
): Promise<Post> {
  const res = await send(app, 'POST', '/api/posts', token, [
    field('content', content),
    ...Object.entries(extra).map(([k, v]) => field(k, v)),
  ])
  if (res.statusCode !== 201) throw new Error(`createPost answered ${res.statusCode}: ${res.body}`)
  return (res.json() as Schemas['PostResponse']).post
}

export async function feed(app: FastifyInstance, token: string, query = ''): Promise<Schemas['FeedResponse']> {
  const res = await api(app, 'GET', `/api/posts/feed${query}`, { token })
  if (res.statusCode !== 200) throw new Error(`getFeed answered ${res.statusCode}: ${res.body}`)
  return res.json() as Schemas['FeedResponse']
}

export async function follow(app: FastifyInstance, follower: Member, followee: Member): Promise<void> {
  const res = await api(app, 'POST', `/api/users/${followee.id}/follow`, { token: follower.token })
  if (res.statusCode !== 200) throw new Error(`followUser answered ${res.statusCode}: ${res.body}`)
}
