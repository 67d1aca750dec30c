import { spawn } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { Invalid } from '../lib/domain-errors'
import { Semaphore } from '../lib/semaphore'
import type { Sniffed } from './sniff'

/**
 * Every uploaded video is rewritten before it is stored, never kept as sent: phones record where a video was made
 * (an ISO 6709 position in MP4's `udta` as `©xyz`, `loci` or `meta`/`keys` tags, Matroska tags in WebM), the
 * device's make and model and the creation time, and a member who shares a clip must not share their home with it.
 *
 * The rewrite is a remux, not a transcode: the same encoded picture and sound (`-c copy`, so fast and lossless) in
 * a new container that ffmpeg writes with no metadata at all. `-map_metadata -1` drops the file's and the streams'
 * tags, `-map_chapters -1` the chapters, `bitexact` the muxer's own tags and creation times (they are written as
 * zero), and only the first real video stream and the first audio stream are kept, so data tracks (a camera's GPS
 * track), subtitles and cover pictures go too. What remains in MP4's `udta` is an empty iTunes tag list. MP4s get
 * their index first (`+faststart`), so a browser starts playing before the whole file has arrived.
 *
 * ffmpeg reads what the member sent, so its reach is kept small: the demuxer is the one the file's first bytes
 * chose (never guessed from the contents, so no playlist or concat format that opens other files or URLs), only the
 * `file` protocol, no stdin, a time limit, and at most two at once. A file ffmpeg cannot read as a video is refused
 * with 400.
 *
 * The binary comes with `npm install` (`@ffmpeg-installer/ffmpeg`, a static build inside the npm package, nothing
 * downloaded at install); FFMPEG_PATH points elsewhere where that package has no build (e.g. musl) or an operator
 * prefers their own.
 */

// A remux only copies bytes: two at a time leaves cores for everything else while a burst of uploads waits its turn.
const VIDEO_CONCURRENCY = 2
/** A 34 MB remux took well under a second here; far beyond that the input is pathological (or the machine stuck). */
const VIDEO_TIMEOUT_MS = 60_000
/** ffmpeg's last words, for the log when a file is refused. */
const STDERR_BYTES = 4096

const demuxer = { mp4: 'mov', webm: 'matroska' } as const
const muxer = { mp4: ['-movflags', '+faststart', '-f', 'mp4'], webm: ['-f', 'webm'] } as const

export type VideoFormat = keyof typeof demuxer

export const UNREADABLE_VIDEO = 'The video could not be read; it may be damaged or not a video'
export const VIDEO_TOO_SLOW = 'The video took too long to process; try a shorter or smaller file'

/** The ffmpeg that npm installed, or an error saying how to give one. */
export function bundledFfmpeg(): string {
  try {
    const installed = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }
    return installed.path
  } catch (err) {
    throw new Error(`No ffmpeg for this platform in @ffmpeg-installer/ffmpeg: set FFMPEG_PATH (${String(err)})`)
  }
}

/**
 * Refuses to start without a runnable ffmpeg: better a clear message at start than every video upload failing.
 * Synchronous, once, at start.
 */
export function checkFfmpeg(ffmpeg: string): string {
  try {
    accessSync(ffmpeg, constants.X_OK)
  } catch {
    throw new Error(`ffmpeg is not an executable file: ${ffmpeg} (reinstall with npm ci, or set FFMPEG_PATH)`)
  }
  return ffmpeg
}

export function isVideoFormat(format: Sniffed['format']): format is VideoFormat {
  return format in demuxer
}

/** The ffmpeg arguments that rewrite `input` (of `format`, by its bytes) to `output` without any metadata. */
export function remuxArguments(input: string, format: VideoFormat, output: string): string[] {
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error'],
    ...['-protocol_whitelist', 'file', '-f', demuxer[format], '-i', input],
    // V (not v): a real video stream, never an attached cover picture.
    ...['-map', '0:V:0', '-map', '0:a:0?', '-c', 'copy'],
    ...['-map_metadata', '-1', '-map_chapters', '-1'],
    ...['-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact'],
    ...muxer[format],
    '-y',
    output,
  ]
}

export interface VideoProcessorOptions {
  /** The ffmpeg executable. */
  ffmpeg: string
  concurrency?: number
  timeoutMs?: number
  /** Why a file was refused (ffmpeg's own message), for the operator. */
  log?: (message: string, detail: unknown) => void
}

export class VideoProcessor {
  private readonly gate: Semaphore
  private readonly ffmpeg: string
  private readonly timeoutMs: number
  private readonly log: NonNullable<VideoProcessorOptions['log']>

  constructor(options: VideoProcessorOptions) {
    this.ffmpeg = options.ffmpeg
    this.gate = new Semaphore(options.concurrency ?? VIDEO_CONCURRENCY)
    this.timeoutMs = options.timeoutMs ?? VIDEO_TIMEOUT_MS
    this.log = options.log ?? (() => undefined)
  }

  /**
   * Writes `input` to `output` as the same video without metadata; answers the output's size. Throws `Invalid`
   * when ffmpeg cannot read it as a video or takes too long.
   */
  withoutMetadata(input: string, sniffed: Sniffed, output: string): Promise<number> {
    const { format } = sniffed
    if (sniffed.kind !== 'video' || !isVideoFormat(format)) return Promise.reject(new Invalid(UNREADABLE_VIDEO))
    return this.gate.run(async () => {
      await this.run(remuxArguments(input, format, output))
      return (await stat(output)).size
    })
  }

  private run(args: string[]): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.ffmpeg, args, { stdio: ['ignore', 'ignore', 'pipe'] })
      let stderr = ''
      let timedOut = false
      const timer = setTimeout(() => {
        timedOut = true
        child.kill('SIGKILL')
      }, this.timeoutMs)
      child.stderr.setEncoding('utf8')
      child.stderr.on('data', (text: string) => {
        if (stderr.length < STDERR_BYTES) stderr = (stderr + text).slice(0, STDERR_BYTES)
      })
      let spawnFailed = false
      // Only a binary that cannot be started lands here (checked at start, see `checkFfmpeg`): the operator's
      // problem, not the member's.
      child.once('error', (err) => {
        spawnFailed = true
        clearTimeout(timer)
        reject(new Error(`could not run ffmpeg (${this.ffmpeg}): ${err.message}`))
      })
      child.once('close', (code) => {
        clearTimeout(timer)
        if (spawnFailed) return
        if (timedOut) {
          this.log('video refused: ffmpeg timed out', { timeoutMs: this.timeoutMs })
          reject(new Invalid(VIDEO_TOO_SLOW))
        } else if (code !== 0) {
          this.log('video refused: ffmpeg could not remux it', { code, stderr: stderr.trim() })
          reject(new Invalid(UNREADABLE_VIDEO))
        } else {
          resolve()
        }
      })
    })
  }
}
