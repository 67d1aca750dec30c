import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Schemas } from '../../server/http/handler-types'
import { Invalid } from '../../server/lib/domain-errors'
import {
  bundledFfmpeg,
  checkFfmpeg,
  UNREADABLE_VIDEO,
  VIDEO_TOO_SLOW,
  VideoProcessor,
} from '../../server/media/videos'
import { field, file, locatedVideo, type Member, mp4, quickMember, send } from './content-helpers'
import { type ErrorBody, useTestApp } from './harness'

// docs/security.md, "Media": uploaded videos lose their metadata (location, device, creation time) before they are
// stored, as images do.
const t = useTestApp()
const ffmpeg = bundledFfmpeg()
let ann: Member
let scratch: string

beforeAll(async () => {
  ann = await quickMember(t.app, 'ann')
  scratch = await mkdtemp(path.join(os.tmpdir(), 'wren-videos-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

const createPost = (parts: Parameters<typeof send>[4]) => send(t.app, 'POST', '/api/posts', ann.token, parts)

/** What ffmpeg says about a file: its container tags, streams and duration (ffmpeg -i prints them, then exits 1). */
async function describeVideo(bytes: Buffer, extension: string): Promise<string> {
  const target = path.join(scratch, `${Math.random().toString(36).slice(2)}.${extension}`)
  await writeFile(target, bytes)
  const info = await promisify(execFile)(ffmpeg, ['-hide_banner', '-i', target]).catch(
    (err: { stderr?: string }) => ({ stderr: err.stderr ?? '' }),
  )
  // Decoding every frame is what a player does: it must succeed without a single error.
  const decoded = await promisify(execFile)(ffmpeg, ['-v', 'error', '-i', target, '-f', 'null', '-'])
  expect(decoded.stderr).toBe('')
  return info.stderr
}

async function storedFiles(): Promise<string[]> {
  const entries = await readdir(path.join(t.database.dataDir, 'media'), { recursive: true, withFileTypes: true })
  return entries.filter((e) => e.isFile() && !e.parentPath.includes('.partial')).map((e) => e.name)
}

describe('uploaded videos are stored without their metadata', () => {
  it.each([
    ['mp4', 'video/mp4', /Video: h264/, /Audio: aac/],
    ['webm', 'video/webm', /Video: vp9/, /Audio: opus/],
  ] as const)('a %s keeps its picture and sound but loses its location, device and date', async (ext, mime, video, audio) => {
    const original = await locatedVideo[ext]()
    // The fixture really carries them (in its bytes and as ffmpeg reads them).
    for (const secret of locatedVideo.secrets) expect(original.includes(secret, 0, 'latin1')).toBe(true)
    const before = await describeVideo(original, ext)
    expect(before).toMatch(/location\s*: \+48\.8584\+002\.2945/i)
    expect(before).toMatch(/make\s*: WrenTestCam/i)
    expect(before).toMatch(/creation_time\s*: 2024-05-01/)

    const res = await createPost([field('content', 'at the tower'), file('media', `clip.${ext}`, mime, original)])
    expect(res.statusCode).toBe(201)
    const [media] = (res.json() as Schemas['PostResponse']).post.media
    expect(media).toMatchObject({ type: 'video', thumbnailUrl: null })
    expect(media?.url).toMatch(new RegExp(`\\.${ext}$`))
    const served = await t.app.inject({ method: 'GET', url: media?.url ?? '' })
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe(mime)

    const stored = served.rawPayload
    for (const secret of locatedVideo.secrets) expect(stored.includes(secret, 0, 'latin1')).toBe(false)
    // The boxes phones keep a position in: QuickTime's ©xyz, 3GPP's loci, the meta `keys` list.
    for (const box of ['\u00a9xyz', 'loci', 'keys']) expect(stored.includes(box, 0, 'latin1')).toBe(false)

    const described = await describeVideo(stored, ext)
    expect(described).not.toMatch(/location|make|model|creation_time|ISO6709/i)
    expect(described).toMatch(video)
    expect(described).toMatch(audio)
    expect(described).toMatch(/Duration: 00:00:01\.0\d/)
    expect(described).toMatch(/64x64/)
  })

  it('puts an MP4 index first, so playback starts before the whole file has arrived', async () => {
    const res = await createPost([file('media', 'clip.mp4', 'video/mp4', await locatedVideo.mp4())])
    const [media] = (res.json() as Schemas['PostResponse']).post.media
    const stored = (await t.app.inject({ method: 'GET', url: media?.url ?? '' })).rawPayload
    expect(stored.indexOf('moov', 0, 'latin1')).toBeLessThan(stored.indexOf('mdat', 0, 'latin1'))
  })

  it('refuses with 400 a file that says MP4 in its first bytes but is no video, and stores nothing', async () => {
    const before = await storedFiles()
    const res = await createPost([field('content', 'x'), file('media', 'fake.mp4', 'video/mp4', mp4())])
    expect(res.statusCode).toBe(400)
    expect((res.json() as ErrorBody).error).toBe(UNREADABLE_VIDEO)
    expect(await storedFiles()).toEqual(before)
  })
})

describe('the video processor', () => {
  it('stops ffmpeg at its time limit and says so with a 400-kind error', async () => {
    const input = path.join(scratch, 'slow.mp4')
    await writeFile(input, await locatedVideo.mp4())
    const impatient = new VideoProcessor({ ffmpeg, timeoutMs: 1 })
    const outcome = impatient.withoutMetadata(input, { kind: 'video', format: 'mp4', mime: 'video/mp4' }, `${input}.out`)
    await expect(outcome).rejects.toThrow(Invalid)
    await expect(outcome).rejects.toThrow(VIDEO_TOO_SLOW)
  })

  it('runs at most its limit of ffmpegs at once; the others wait their turn', async () => {
    // A stand-in ffmpeg that notes when it starts and ends, takes a moment, and writes its output (the last argument).
    const journal = path.join(scratch, 'journal')
    const fake = path.join(scratch, 'fake-ffmpeg')
    await writeFile(
      fake,
      `#!/bin/sh\necho start >> ${journal}\nsleep 0.2\necho end >> ${journal}\nfor last; do :; done\n: > "$last"\n`,
      { mode: 0o755 },
    )
    const one = new VideoProcessor({ ffmpeg: fake, concurrency: 1 })
    const sniffed = { kind: 'video', format: 'webm', mime: 'video/webm' } as const
    await Promise.all([1, 2, 3].map((n) => one.withoutMetadata(`in${n}`, sniffed, path.join(scratch, `out${n}`))))
    expect((await readFile(journal, 'utf8')).trim().split('\n')).toEqual(['start', 'end', 'start', 'end', 'start', 'end'])
  })

  it('refuses to start with an ffmpeg that cannot run', () => {
    expect(checkFfmpeg(ffmpeg)).toBe(ffmpeg)
    expect(() => checkFfmpeg(path.join(scratch, 'no-ffmpeg-here'))).toThrow(/FFMPEG_PATH/)
  })
})
