import { toDate } from '../../db/rows'
import type { Schemas } from '../../http/handler-types'
import type { Storage } from '../../storage/storage'
import type { MediaJson, PostViewRow } from './queries'

export interface UserSummaryRow {
  id: string
  username: string
  display_name: string
  avatar: string | null
  verified: boolean
}

export function toUserSummary(row: UserSummaryRow): Schemas['UserSummary'] {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    avatar: row.avatar,
    verified: row.verified,
  }
}

function toMedia(media: MediaJson, storage: Storage): Schemas['PostMedia'] {
  return {
    id: media.id,
    type: media.kind,
    url: storage.url(media.storageKey),
    thumbnailUrl: media.thumbnailKey ? storage.url(media.thumbnailKey) : null,
    alt: media.alt,
    width: media.width,
    height: media.height,
  }
}

/** The contract's `Post`, field by field (a new column reaches clients only by being named here and in the yaml). */
export function toPost(row: PostViewRow, storage: Storage): Schemas['Post'] {
  return {
    id: row.id,
    author: toUserSummary({
      id: row.author_id,
      username: row.username,
      display_name: row.display_name,
      avatar: row.avatar,
      verified: row.verified,
    }),
    content: row.content,
    media: (row.media ?? []).map((m) => toMedia(m, storage)),
    mentions: row.mentions,
    hashtags: row.hashtags,
    visibility: row.visibility,
    sensitive: row.sensitive,
    sensitiveReason: row.sensitive_reason,
    replyTo: row.reply_to,
    createdAt: toDate(row.created_at).toISOString(),
    edited: row.edited_at !== null,
    likeCount: row.like_count,
    repostCount: row.repost_count,
    replyCount: row.reply_count,
    views: row.view_count,
    liked: row.liked,
    reposted: row.reposted,
  }
}
