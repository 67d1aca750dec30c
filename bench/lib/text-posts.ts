import type { FetchRequest } from './fetch-load-worker'

const BOUNDARY = 'wrenbenchposts'

/** A text post as the SPA sends it: a multipart `createPost` with one `content` field. */
export function textPostRequest(token: string, text: string): FetchRequest {
  return {
    path: '/api/posts',
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="content"\r\n\r\n${text}\r\n--${BOUNDARY}--\r\n`,
  }
}

/** Twenty text posts per member, the members in turn, so per-member caches and limits see many keys, not one. */
export function textPostRequests(tokens: readonly string[]): FetchRequest[] {
  return Array.from({ length: tokens.length * 20 }, (_, n) =>
    textPostRequest(tokens[n % tokens.length] ?? '', `Bench post ${n}: a walk, a book, #bench`),
  )
}
