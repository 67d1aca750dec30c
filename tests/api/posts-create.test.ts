import { readdir } from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { posts } from '../../server/db/schema-posts'
import type { Schemas } from '../../server/http/handler-types'
import { INSERT_POST_ROWS } from '../../server/modules/posts/queries'
import { parseText } from '../../server/modules/posts/text'
import {
  animatedGif,
  exifHasGps,
  field,
  file,
  gif,
  jpegWithGps,
  locatedVideo,
  type Member,
  png,
  publish,
  quickMember,
  send,
  svg,
} from './content-helpers'
import { api, type ErrorBody, useTestApp } from './harness'

const t = useTestApp()
let ann: Member
let bob: Member

beforeAll(async () => {
  ann = await quickMember(t.app, 'ann')
  bob = await quickMember(t.app, 'bob')
})

const createPost = (token: string, parts: Parameters<typeof send>[4]) => send(t.app, 'POST', '/api/posts', token, parts)
const errorOf = (res: { json: () => unknown }) => (res.json() as ErrorBody).error
const mediaDir = () => path.join(t.database.dataDir, 'media')

/** Every file under DATA_DIR/media (the partial-write directory excluded). */
async function storedFiles(): Promise<string[]> {
  try {
    const entries = await readdir(mediaDir(), { recursive: true, withFileTypes: true })
    return entries.filter((e) => e.isFile() && !e.parentPath.includes('.partial')).map((e) => e.name)
  } catch {
    return []
  }
}

describe('POST /posts: text rules', () => {
  it('publishes a text post and answers it in the contract shape', async () => {
    const res = await createPost(ann.token, [field('content', 'Hello #Wren, say hi @' + bob.username + ' https://example.org/a.')])
    expect(res.statusCode).toBe(201)
    const { post } = res.json() as Schemas['PostResponse']
    expect(post).toMatchObject({
      author: { id: ann.id, username: ann.username },
      content: 'Hello #Wren, say hi @' + bob.username + ' https://example.org/a.',
      visibility: 'public',
      sensitive: false,
      sensitiveReason: null,
      replyTo: null,
      edited: false,
      editedAt: null,
      likeCount: 0,
      repostCount: 0,
      replyCount: 0,
      views: 0,
      liked: false,
      reposted: false,
      media: [],
      hashtags: ['wren'],
      mentions: [bob.username],
    })
  })

  it('counts 500 characters as code points (emoji included) and refuses 501', async () => {
    const fiveHundredEmoji = '😀'.repeat(500)
    expect((await createPost(ann.token, [field('content', fiveHundredEmoji)])).statusCode).toBe(201)
    const res = await createPost(ann.token, [field('content', 'x'.repeat(501))])
    expect(res.statusCode).toBe(400)
    expect(errorOf(res)).toMatch(/content must be at most 500 characters/)
  })

  it('requires content unless media is attached', async () => {
    for (const parts of [[], [field('content', '   ')]]) {
      const res = await createPost(ann.token, parts)
      expect(res.statusCode).toBe(400)
      expect(errorOf(res)).toBe('Content is required when no media is attached')
    }
  })

  it("refuses an unknown visibility with the product's message", async () => {
    const res = await createPost(ann.token, [field('content', 'hi'), field('visibility', 'friends')])
    expect(res.statusCode).toBe(400)
    expect(errorOf(res)).toBe('Please select a valid visibility option')
  })

  it('reads sensitive as the text true/false and keeps a reason only for sensitive posts', async () => {
    const res = await createPost(ann.token, [
      field('content', 'spoilers'),
      field('sensitive', 'true'),
      field('sensitiveReason', '  Season finale  '),
    ])
    expect((res.json() as Schemas['PostResponse']).post).toMatchObject({ sensitive: true, sensitiveReason: 'Season finale' })
    const plain = await createPost(ann.token, [field('content', 'x'), field('sensitive', 'false'), field('sensitiveReason', 'r')])
    expect((plain.json() as Schemas['PostResponse']).post).toMatchObject({ sensitive: false, sensitiveReason: null })
    const bad = await createPost(ann.token, [field('content', 'x'), field('sensitive', 'yes')])
    expect(bad.statusCode).toBe(400)
    const long = await createPost(ann.token, [field('content', 'x'), field('sensitive', 'true'), field('sensitiveReason', 'r'.repeat(201))])
    expect(long.statusCode).toBe(400)
  })

  it('refuses unknown fields and answers 401 without a token', async () => {
    const res = await createPost(ann.token, [field('content', 'x'), field('likeCount', '99')])
    expect(res.statusCode).toBe(400)
    expect(errorOf(res)).toBe('Unknown field: likeCount')
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/posts', payload: {} })
    expect(anonymous.statusCode).toBe(401)
  })

  it('refuses a JSON body: the operation is multipart only', async () => {
    const res = await api(t.app, 'POST', '/api/posts', { token: ann.token, body: { content: 'x' } })
    expect(res.statusCode).toBe(415)
  })

  it('creates replies only to posts the author can see', async () => {
    const parent = await publish(t.app, bob.token, 'parent')
    const reply = await publish(t.app, ann.token, 'a reply', { replyTo: parent.id })
    expect(reply.replyTo).toBe(parent.id)
    const missing = await createPost(ann.token, [field('content', 'x'), field('replyTo', '0190f2a4-0000-7000-8000-000000000000')])
    expect(missing.statusCode).toBe(404)
    expect(errorOf(missing)).toBe('Post not found')
    const hidden = await publish(t.app, bob.token, 'for my followers', { visibility: 'followers' })
    const toHidden = await createPost(ann.token, [field('content', 'x'), field('replyTo', hidden.id)])
    expect(toHidden.statusCode).toBe(404)
    const notAnId = await createPost(ann.token, [field('content', 'x'), field('replyTo', 'not-a-post')])
    expect(notAnId.statusCode).toBe(404)
  })

  it('records mentions of existing members only, and respects who accepts mentions', async () => {
    const carol = await quickMember(t.app, 'carol')
    await api(t.app, 'PATCH', '/api/users/settings/privacy', { token: carol.token, body: { allowMentions: 'none' } })
    const post = await publish(t.app, ann.token, `@${bob.username.toUpperCase()} @${carol.username} @nobody_here_at_all`)
    expect(post.mentions).toEqual([bob.username])
  })
})

describe('text parsing', () => {
  it('finds mentions, hashtags and links in one pass without being fooled by e-mails, URLs or C#', () => {
    const parsed = parseText(
      'hi @ann, @Ann again; mail ann@example.org; #Tag #tag #1 C# a#b #été https://x.org/#top/@bob. @far@elsewhere.example',
    )
    expect(parsed.mentions).toEqual(['ann'])
    expect(parsed.hashtags).toEqual(['tag', 'été'])
    expect(parsed.links).toEqual(['https://x.org/#top/@bob'])
  })

  it('stays linear on hostile input', () => {
    const hostile = '@'.repeat(50_000) + '#'.repeat(50_000) + 'https://'.repeat(10_000) + '#a'.repeat(20_000)
    const started = performance.now()
    parseText(hostile)
    expect(performance.now() - started).toBeLessThan(1_000)
  })
})

describe('POST /posts: media', () => {
  it('strips GPS and all metadata from a JPEG, stores a display size and a thumbnail, and serves them', async () => {
    const original = await jpegWithGps(40, 30)
    expect(exifHasGps((await sharp(original).metadata()).exif)).toBe(true)

    const res = await createPost(ann.token, [
      field('content', 'holiday'),
      file('media', 'photo.jpg', 'image/jpeg', original),
      field('alt', 'A red square'),
    ])
    expect(res.statusCode).toBe(201)
    const { post } = res.json() as Schemas['PostResponse']
    expect(post.media).toHaveLength(1)
    const [media] = post.media
    expect(media).toMatchObject({ type: 'image', alt: 'A red square', width: 40, height: 30 })
    expect(media?.url).toMatch(/^\/media\/posts\/[0-9a-f]{2}\/[0-9a-f]{32}\.webp$/)
    expect(media?.thumbnailUrl).toMatch(/-thumb\.webp$/)

    const served = await t.app.inject({ method: 'GET', url: media?.url ?? '' })
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/webp')
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(served.headers['x-content-type-options']).toBe('nosniff')
    const stored = await sharp(served.rawPayload).metadata()
    expect(stored.format).toBe('webp')
    expect(stored.exif).toBeUndefined()
    expect(stored.xmp).toBeUndefined()
    expect(exifHasGps(stored.exif)).toBe(false)
    expect(served.rawPayload.includes('WrenTestCam')).toBe(false)

    const thumb = await t.app.inject({ method: 'GET', url: media?.thumbnailUrl ?? '' })
    expect(thumb.statusCode).toBe(200)
  })

  it('applies EXIF orientation to the pixels', async () => {
    // Orientation 6 = rotate 90° clockwise to display: a 40x20 image shows as 20x40.
    const rotated = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#123' } })
      .jpeg()
      .withExif({ IFD0: { Orientation: '6' } })
      .toBuffer()
    const meta = await sharp(rotated).metadata()
    const res = await createPost(ann.token, [file('media', 'r.jpg', 'image/jpeg', rotated)])
    expect(res.statusCode).toBe(201)
    const [media] = (res.json() as Schemas['PostResponse']).post.media
    const expected = meta.orientation === 6 ? { width: 20, height: 40 } : { width: 40, height: 20 }
    expect(media).toMatchObject(expected)
  })

  it('accepts PNG, GIF and MP4 (by their bytes), with up to four files and their alt texts', async () => {
    const res = await createPost(ann.token, [
      file('media', 'a.png', 'image/png', await png()),
      file('media', 'b.gif', 'image/gif', await gif()),
      file('media', 'c.mp4', 'video/mp4', await locatedVideo.mp4()),
      file('media', 'd.png', 'image/png', await png(8, 8)),
      field('alt', 'first'),
      field('alt', ''),
      field('alt', 'third'),
    ])
    expect(res.statusCode).toBe(201)
    const { post } = res.json() as Schemas['PostResponse']
    expect(post.content).toBe('')
    expect(post.media.map((m) => [m.type, m.alt])).toEqual([
      ['image', 'first'],
      ['image', null],
      ['video', 'third'],
      ['image', null],
    ])
    const video = post.media[2]
    expect(video?.url).toMatch(/\.mp4$/)
    expect(video?.thumbnailUrl).toBeNull()
    const served = await t.app.inject({ method: 'GET', url: video?.url ?? '', headers: { range: 'bytes=0-9' } })
    expect(served.statusCode).toBe(206)
    expect(served.headers['content-type']).toBe('video/mp4')
  })

  it('keeps an animated GIF animated (as animated WebP) with a still thumbnail', async () => {
    const original = await animatedGif()
    expect((await sharp(original, { animated: true }).metadata()).pages).toBe(3)
    const res = await createPost(ann.token, [file('media', 'fun.gif', 'image/gif', original)])
    expect(res.statusCode).toBe(201)
    const [media] = (res.json() as Schemas['PostResponse']).post.media
    expect(media).toMatchObject({ type: 'image', width: 16, height: 10 })
    const display = await t.app.inject({ method: 'GET', url: media?.url ?? '' })
    expect(await sharp(display.rawPayload, { animated: true }).metadata()).toMatchObject({ format: 'webp', pages: 3 })
    const thumbnail = await t.app.inject({ method: 'GET', url: media?.thumbnailUrl ?? '' })
    expect((await sharp(thumbnail.rawPayload, { animated: true }).metadata()).pages ?? 1).toBe(1)
  })

  it("refuses a fifth file with the product's message and stores nothing", async () => {
    const before = await storedFiles()
    const image = await png()
    const res = await createPost(ann.token, [
      field('content', 'five'),
      ...[1, 2, 3, 4, 5].map((i) => file('media', `${i}.png`, 'image/png', image)),
    ])
    expect(res.statusCode).toBe(400)
    expect(errorOf(res)).toBe('Maximum 4 media files allowed')
    expect(await storedFiles()).toEqual(before)
  })

  it('refuses SVG, a text file named .jpg, and HTML, whatever they claim to be', async () => {
    const cases = [
      file('media', 'logo.svg', 'image/svg+xml', svg),
      file('media', 'photo.jpg', 'image/jpeg', Buffer.from('just some text pretending to be a photo\n')),
      file('media', 'page.png', 'image/png', Buffer.from('<!doctype html><script>alert(1)</script>')),
    ]
    for (const bad of cases) {
      const res = await createPost(ann.token, [field('content', 'x'), bad])
      expect(res.statusCode).toBe(400)
      expect(errorOf(res)).toMatch(/^Unsupported file type/)
    }
  })

  it('refuses a file with image magic bytes that does not decode, leaving no file behind', async () => {
    const before = await storedFiles()
    const good = await png()
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 1)])
    const res = await createPost(ann.token, [
      field('content', 'x'),
      file('media', 'ok.png', 'image/png', good),
      file('media', 'bad.jpg', 'image/jpeg', broken),
    ])
    expect(res.statusCode).toBe(400)
    expect(errorOf(res)).toMatch(/could not be read/)
    expect(await storedFiles()).toEqual(before)
  })

  it('removes the stored files when the database refuses the post (no orphan files or rows)', async () => {
    const before = await storedFiles()
    const { db } = t.app.services
    const countPosts = async () => (await db.select({ id: posts.id }).from(posts)).length
    const postsBefore = await countPosts()
    // The statement that writes the post's rows fails (a post with nothing else to write needs no transaction).
    const session = db._.session
    const prepare = session.prepareQuery.bind(session)
    const failing = vi.spyOn(session, 'prepareQuery').mockImplementation((...args: Parameters<typeof prepare>) => {
      const prepared = prepare(...args)
      if (args[2] === INSERT_POST_ROWS) prepared.execute = () => Promise.reject(new Error('database went away'))
      return prepared
    })
    try {
      const res = await createPost(ann.token, [field('content', 'doomed'), file('media', 'a.png', 'image/png', await png())])
      expect(res.statusCode).toBe(500)
      expect(errorOf(res)).toBe('Internal server error')
    } finally {
      failing.mockRestore()
    }
    expect(await storedFiles()).toEqual(before)
    expect(await countPosts()).toBe(postsBefore)
  })

  it('refuses a file in another field and a text value in the media field', async () => {
    const inOtherField = await createPost(ann.token, [field('content', 'x'), file('content2', 'a.png', 'image/png', await png())])
    expect(inOtherField.statusCode).toBe(400)
    const textMedia = await createPost(ann.token, [field('content', 'x'), field('media', 'not a file')])
    expect(textMedia.statusCode).toBe(400)
    expect(errorOf(textMedia)).toBe('media must be a file')
  })

  it('answers a form cut off before its closing boundary with 400, storing nothing', async () => {
    const before = await storedFiles()
    const whole = (await png()).subarray(0, 24)
    const cut = (fileField: string) => [
      '--x\r\nContent-Disposition: form-data; name="content"\r\n\r\nhello',
      `--x\r\nContent-Disposition: form-data; name="${fileField}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${whole.toString('latin1')}`,
      'not a form at all',
    ]
    for (const [url, fileField] of [['/api/posts', 'media'], ['/api/users/profile/avatar', 'image']] as const) {
      for (const payload of cut(fileField)) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          payload: Buffer.from(payload, 'latin1'),
          headers: { 'content-type': 'multipart/form-data; boundary=x', authorization: `Bearer ${ann.token}` },
        })
        expect({ url, status: res.statusCode, error: errorOf(res) }).toEqual({ url, status: 400, error: 'Malformed multipart body' })
      }
    }
    expect(await storedFiles()).toEqual(before)
  })

  it('answers 413 for an image over the configured cap', async () => {
    const big = Buffer.concat([await png(), Buffer.alloc(t.app.services.config.maxImageMb * 1024 * 1024)])
    const res = await createPost(ann.token, [field('content', 'x'), file('media', 'big.png', 'image/png', big)])
    expect(res.statusCode).toBe(413)
    expect(errorOf(res)).toMatch(/Images must be at most 10 MB/)
  })

  it('answers a missing media file with a plain 404, never the web app', async () => {
    for (const url of ['/media/posts/ab/00000000000000000000000000000000.webp', '/media/posts/nothing', '/media/.partial/x']) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode).toBe(404)
      expect(res.headers['content-type']).toMatch(/^text\/plain/)
    }
  })
})
