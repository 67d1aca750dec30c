import type { UserRow } from '../db/schema'

/**
 * Who is asking: the member a bearer token (HTTP) or a socket's handshake (realtime) resolved to, and the session it
 * belongs to. Set by server/http/authenticate.ts as `request.auth`; services take it to act for that member.
 */
export interface Authenticated {
  user: UserRow
  sessionId: string
}
