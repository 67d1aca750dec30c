import { toDate } from '../../db/rows'
import type { Schemas } from '../../http/handler-types'
import type { Storage } from '../../storage/storage'
import type { LinkPreviewJson, MediaJson, PollJson, PostCard, UserSummaryRow } from './card-queries'

type Post = Schemas['Post']

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

function toLinkPreview(preview: LinkPreviewJson | null, storage: Storage): Schemas['LinkPreview'] | null {
  if (!preview) return null
  return {
    url: preview.url,
    title: preview.title,
    description: preview.description,
    imageUrl: preview.imageKey ? storage.url(preview.imageKey) : null,
    siteName: preview.siteName,
  }
}

/** A poll's part of the card: everything but the viewer's own choices. */
export type PollBase = Omit<Schemas['Poll'], 'ownVotes'>

function toPollBase(poll: PollJson | null): PollBase | null {
  if (!poll) return null
  return {
    options: poll.options,
    multiple: poll.multiple,
    closesAt: toDate(poll.closesAt).toISOString(),
    votersCount: poll.votersCount,
  }
}

/** The viewer's poll: the card's, with their own choices (shared parts are never mutated). */
function toPoll(poll: PollBase | null, ownVotes: readonly string[]): Schemas['Poll'] | null {
  if (!poll) return null
  return { options: poll.options, multiple: poll.multiple, closesAt: poll.closesAt, votersCount: poll.votersCount, ownVotes: [...ownVotes] }
}

/** The part of the contract's `Post` that is the same for every viewer, presented once when a card is cached. */
export type PostBase = Omit<Post, 'author' | 'liked' | 'reposted' | 'bookmarked' | 'replyCount' | 'quote' | 'poll'> & {
  authorId: string
  poll: PollBase | null
  /** Public direct replies (stored count). */
  publicReplies: number
  /**
   * The quoted post's id while it may be shown (null when the post quotes nothing or was detached). Only the id: the
   * nested card is the quoted post's own cached card, joined per viewer (cache/post-caches.ts), so a change to the
   * quoted post reaches every quote of it without touching the quotes' cards.
   */
  quoteOf: string | null
  /** The post quotes another (shown, or shown as unavailable). */
  quotes: boolean
}

export function toPostBase(card: PostCard, storage: Storage): PostBase {
  return {
    id: card.id,
    authorId: card.author_id,
    content: card.content,
    media: (card.media ?? []).map((m) => toMedia(m, storage)),
    mentions: card.mentions,
    hashtags: card.hashtags,
    visibility: card.visibility,
    sensitive: card.sensitive,
    sensitiveReason: card.sensitive_reason,
    replyTo: card.reply_to,
    createdAt: toDate(card.created_at).toISOString(),
    edited: card.edited_at !== null,
    editedAt: card.edited_at === null ? null : toDate(card.edited_at).toISOString(),
    likeCount: card.like_count,
    repostCount: card.repost_count,
    publicReplies: card.reply_count,
    views: card.view_count,
    linkPreview: toLinkPreview(card.link_preview, storage),
    quoteOf: card.quote_detached ? null : card.quote_of,
    quotes: card.quote_of !== null,
    quoteCount: card.quote_count,
    poll: toPollBase(card.poll),
  }
}

/** A quoted post as nested in a quote: its own card's shared parts and its author. */
export function toQuotedPost(base: PostBase, author: Schemas['UserSummary']): Schemas['QuotedPost'] {
  return {
    id: base.id,
    author,
    content: base.content,
    media: base.media,
    sensitive: base.sensitive,
    createdAt: base.createdAt,
  }
}

/** What the viewer sees of a post, field by field (a new column reaches clients only by being named here and in the yaml). */
export interface ViewerPart {
  author: Schemas['UserSummary']
  liked: boolean
  reposted: boolean
  bookmarked: boolean
  /** Non-public direct replies this viewer may see. */
  hiddenReplies: number
  /** What this viewer sees of the quoted post (null when the post quotes nothing). */
  quote: Schemas['PostQuote'] | null
  /** The poll options this viewer chose. */
  pollChoices: readonly string[]
}

/**
 * A feed item: the post and who brought it into the feed. Field by field rather than `{ ...post, repostedBy }`: a
 * spread of an 18-field object was the single most expensive line of a cached feed page (measured with a profile).
 */
export function toFeedPost(post: Post, repostedBy: Schemas['UserSummary'] | null): Schemas['FeedPost'] {
  return {
    id: post.id,
    author: post.author,
    content: post.content,
    media: post.media,
    mentions: post.mentions,
    hashtags: post.hashtags,
    visibility: post.visibility,
    sensitive: post.sensitive,
    sensitiveReason: post.sensitiveReason,
    replyTo: post.replyTo,
    createdAt: post.createdAt,
    edited: post.edited,
    editedAt: post.editedAt,
    likeCount: post.likeCount,
    repostCount: post.repostCount,
    replyCount: post.replyCount,
    views: post.views,
    linkPreview: post.linkPreview,
    quote: post.quote,
    quoteCount: post.quoteCount,
    poll: post.poll,
    liked: post.liked,
    reposted: post.reposted,
    bookmarked: post.bookmarked,
    repostedBy,
  }
}

/**
 * The contract's `Post` for one viewer. Built as one literal of a fixed shape on every request (cheap), from parts
 * that are shared and never mutated.
 */
export function toPost(base: PostBase, viewer: ViewerPart): Post {
  return {
    id: base.id,
    author: viewer.author,
    content: base.content,
    media: base.media,
    mentions: base.mentions,
    hashtags: base.hashtags,
    visibility: base.visibility,
    sensitive: base.sensitive,
    sensitiveReason: base.sensitiveReason,
    replyTo: base.replyTo,
    createdAt: base.createdAt,
    edited: base.edited,
    editedAt: base.editedAt,
    likeCount: base.likeCount,
    repostCount: base.repostCount,
    replyCount: base.publicReplies + viewer.hiddenReplies,
    views: base.views,
    linkPreview: base.linkPreview,
    quote: viewer.quote,
    quoteCount: base.quoteCount,
    poll: toPoll(base.poll, viewer.pollChoices),
    liked: viewer.liked,
    reposted: viewer.reposted,
    bookmarked: viewer.bookmarked,
  }
}
