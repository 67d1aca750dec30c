import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { Transform, type TransformCallback } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import multipart, { type Multipart, type MultipartFile } from '@fastify/multipart'
import type {
  FastifyInstance,
  FastifyRequest,
  onRequestAbortHookHandler,
  onResponseHookHandler,
  preValidationHookHandler,
} from 'fastify'
import type { MediaKind } from '../db/schema-posts'
import { type Sniffed, SNIFF_BYTES, sniff } from '../media/sniff'
import { badRequest, HttpError } from './errors'
import { type FieldMessages, withSpecMessages } from './validation-messages'

/**
 * Multipart uploads, for the operations that declare them only.
 *
 * @fastify/multipart is registered for its parser and `request.parts()`; nothing is read automatically. Operations
 * with an `UploadPolicy` get a preValidation hook that streams each file to a temporary file while checking its
 * first bytes (the only thing that decides what a file is) and its size, then hands the yaml validator the text
 * fields plus one placeholder string per file, so `content` length, `visibility`, unknown fields and the file count
 * are all checked by the contract like any JSON body. Temporary files are removed when the response is sent or the
 * client goes away, whatever happened in between.
 *
 * Every other operation refuses a body whose media type the yaml does not declare for it (415): without that, a
 * multipart or text body sent to a JSON operation would reach its handler unvalidated.
 */

export interface UploadPolicy {
  /** The multipart field that carries the files. */
  fileField: string
  maxFiles: number
  /** The 400 message when more than `maxFiles` are sent (the product's wording for posts). */
  tooManyFiles: string
  kinds: readonly MediaKind[]
  /** The 400 message for a file whose bytes are not an accepted format. */
  unsupported: string
  /**
   * Messages the product words itself for this form (field -> validation keyword -> message), used instead of
   * the generic sentence, e.g. `visibility: { enum: 'Please select a valid visibility option' }`.
   */
  messages?: FieldMessages
}

export interface UploadLimits {
  maxImageBytes: number
  maxVideoBytes: number
  /** Where files wait while the request is handled (same file system as the media is best). */
  tmpDir: string
}

export interface UploadedFile {
  /** Position among the request's files (alt[i] describes file i). */
  index: number
  filename: string
  /** The temporary file; gone after the response. */
  path: string
  size: number
  sniffed: Sniffed
}

const uploadsByRequest = new WeakMap<FastifyRequest, UploadedFile[]>()

/** The files of a multipart operation's request, already checked by their bytes; empty for any other request. */
export function uploadedFiles(request: FastifyRequest): UploadedFile[] {
  return uploadsByRequest.get(request) ?? []
}

const MB = 1024 * 1024
const megabytes = (bytes: number) => `${Math.round(bytes / MB)} MB`

/** Text fields are short (content 500 characters, alt 1000): a generous bound that still stops abuse early. */
const FIELD_BYTES = 16 * 1024
const MAX_TEXT_FIELDS = 20

/** Counts and sniffs the bytes of one file on their way to disk; fails as soon as a rule is broken. */
class CheckedFile extends Transform {
  private head = Buffer.alloc(0)
  sniffed: Sniffed | undefined
  size = 0

  constructor(
    private readonly policy: UploadPolicy,
    private readonly limits: UploadLimits,
  ) {
    super()
  }

  private identify(): HttpError | undefined {
    this.sniffed = sniff(this.head)
    if (!this.sniffed || !this.policy.kinds.includes(this.sniffed.kind)) return badRequest(this.policy.unsupported)
    return undefined
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length
    if (!this.sniffed) {
      this.head = Buffer.concat([this.head, chunk]).subarray(0, SNIFF_BYTES)
      if (this.head.length >= SNIFF_BYTES) {
        const refused = this.identify()
        if (refused) return done(refused)
      }
    }
    const cap = this.sniffed?.kind === 'image' ? this.limits.maxImageBytes : this.limits.maxVideoBytes
    if (this.size > cap) {
      const what = this.sniffed?.kind === 'image' ? 'Images' : 'Videos'
      return done(new HttpError(413, `${what} must be at most ${megabytes(cap)}`))
    }
    done(null, chunk)
  }

  override _flush(done: TransformCallback): void {
    if (!this.sniffed) return done(this.identify())
    done()
  }
}

export const MALFORMED_FORM = 'Malformed multipart body'

/** @fastify/multipart's own errors carry a code; say what they mean in the member's terms. */
function translateMultipartError(err: unknown, policy: UploadPolicy, limits: UploadLimits): unknown {
  const code = (err as { code?: unknown } | null)?.code
  switch (code) {
    case 'FST_FILES_LIMIT':
      return badRequest(policy.tooManyFiles)
    case 'FST_REQ_FILE_TOO_LARGE':
      return new HttpError(413, `Files must be at most ${megabytes(Math.max(limits.maxImageBytes, limits.maxVideoBytes))}`)
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new HttpError(413, 'Too many form fields')
    case 'FST_PROTO_VIOLATION':
      return badRequest('Invalid form field name')
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return badRequest('A form field is not valid JSON as its Content-Type declares')
    case 'FST_MP_PREMATURE_CLOSE':
      return badRequest('The upload ended before it was complete')
    default:
      // The form parser (busboy) throws a plain Error, with no code, when the body breaks the multipart format (no
      // closing boundary, a truncated part): the sender's fault. Coded (disk) errors and programming errors stay 500.
      if (err instanceof Error && Object.getPrototypeOf(err) === Error.prototype && code === undefined) {
        return badRequest(MALFORMED_FORM)
      }
      return err
  }
}

type FormValue = string | string[]

function addValue(body: Record<string, FormValue>, name: string, value: string): void {
  const existing = body[name]
  if (existing === undefined) body[name] = value
  else if (Array.isArray(existing)) existing.push(value)
  else body[name] = [existing, value]
}

interface PendingUpload {
  dir: string | undefined
}

const pendingUploads = new WeakMap<FastifyRequest, PendingUpload>()

async function cleanUp(request: FastifyRequest): Promise<void> {
  const pending = pendingUploads.get(request)
  if (!pending?.dir) return
  const { dir } = pending
  pending.dir = undefined
  await rm(dir, { recursive: true, force: true }).catch((err: unknown) =>
    request.log.warn({ err, dir }, 'could not remove temporary upload files'),
  )
}

async function saveFile(
  part: MultipartFile,
  index: number,
  dir: string,
  policy: UploadPolicy,
  limits: UploadLimits,
): Promise<UploadedFile> {
  const checked = new CheckedFile(policy, limits)
  const target = path.join(dir, `${index}`)
  await pipeline(part.file, checked, createWriteStream(target, { flags: 'wx' }))
  // The checks above run per chunk; busboy's own cap truncates silently unless told to throw, so check once more.
  if (part.file.truncated) throw translateMultipartError({ code: 'FST_REQ_FILE_TOO_LARGE' }, policy, limits)
  if (!checked.sniffed) throw badRequest(policy.unsupported)
  return { index, filename: part.filename, path: target, size: checked.size, sniffed: checked.sniffed }
}

function readUpload(policy: UploadPolicy, limits: UploadLimits): preValidationHookHandler {
  return async function readUploadHook(request) {
    if (!request.isMultipart()) return
    const pending: PendingUpload = { dir: undefined }
    pendingUploads.set(request, pending)
    const body: Record<string, FormValue> = {}
    const files: UploadedFile[] = []
    const parts = request.parts({
      limits: {
        fieldNameSize: 100,
        fieldSize: FIELD_BYTES,
        fields: MAX_TEXT_FIELDS,
        files: policy.maxFiles,
        parts: policy.maxFiles + MAX_TEXT_FIELDS,
        // The larger cap; the smaller one (images) is applied per file once its bytes say what it is.
        fileSize: Math.max(limits.maxImageBytes, limits.maxVideoBytes) + 1,
      },
    })
    try {
      for await (const part of parts as AsyncIterableIterator<Multipart>) {
        if (part.type === 'field') {
          if (part.fieldname === policy.fileField) throw badRequest(`${policy.fileField} must be a file`)
          if (part.valueTruncated) throw badRequest(`${part.fieldname} is too long`)
          addValue(body, part.fieldname, typeof part.value === 'string' ? part.value : JSON.stringify(part.value))
          continue
        }
        if (part.fieldname !== policy.fileField) {
          throw badRequest(`Files are only accepted in the "${policy.fileField}" field`)
        }
        // A form's empty file input still sends a part: no name, no bytes. It is not a file.
        if (part.filename === '') {
          part.file.resume()
          continue
        }
        if (files.length >= policy.maxFiles) throw badRequest(policy.tooManyFiles)
        pending.dir ??= await makeRequestDir(limits.tmpDir)
        const file = await saveFile(part, files.length, pending.dir, policy, limits)
        files.push(file)
        addValue(body, policy.fileField, file.filename || `file${file.index}`)
      }
    } catch (err) {
      await cleanUp(request)
      throw translateMultipartError(err, policy, limits)
    }
    request.body = body
    uploadsByRequest.set(request, files)
  }
}

async function makeRequestDir(root: string): Promise<string> {
  const dir = path.join(root, randomBytes(12).toString('hex'))
  await mkdir(dir, { recursive: true })
  return dir
}

/** The content types the yaml declares for a route's body (fastify-openapi-glue keeps them under `content`). */
function declaredBodyTypes(schema: unknown): string[] | undefined {
  const body = (schema as { body?: { content?: Record<string, unknown> } } | undefined)?.body
  return body?.content ? Object.keys(body.content) : undefined
}

function refuseUndeclaredBody(declared: readonly string[]): preValidationHookHandler {
  return async function declaredBodyOnly(request) {
    const type = request.mediaType
    if (type === undefined || declared.includes(type)) return
    throw new HttpError(415, `Unsupported Content-Type: send ${declared.join(' or ')}`)
  }
}

const asArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value])

/**
 * Call before the API routes are registered: the hooks attach as each route is added. `policies` are keyed by
 * operationId (server/modules/index.ts collects them from the modules).
 */
export async function registerUploads(
  app: FastifyInstance,
  policies: Record<string, UploadPolicy>,
  limits: UploadLimits,
): Promise<void> {
  await app.register(multipart, { throwFileSizeLimit: true })
  const cleanUpOnResponse: onResponseHookHandler = async (request) => cleanUp(request)
  const cleanUpOnAbort: onRequestAbortHookHandler = async (request) => cleanUp(request)

  app.addHook('onRoute', (route) => {
    const operationId = (route.schema as { operationId?: unknown } | undefined)?.operationId
    const declared = declaredBodyTypes(route.schema)
    if (typeof operationId !== 'string' || !declared) return
    const policy = policies[operationId]
    const checks = [refuseUndeclaredBody(declared), ...(policy ? [readUpload(policy, limits)] : [])]
    // First, so that the router's "body is required" check sees the body the upload hook builds.
    route.preValidation = [...checks, ...asArray(route.preValidation)]
    if (policy?.messages) route.schemaErrorFormatter = withSpecMessages(policy.messages)
    if (policy) {
      route.onResponse = [...asArray(route.onResponse), cleanUpOnResponse]
      route.onRequestAbort = [...asArray(route.onRequestAbort), cleanUpOnAbort]
    }
  })
}
