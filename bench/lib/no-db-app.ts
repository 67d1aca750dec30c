import Fastify, { type FastifyInstance } from 'fastify'
import { registerApiRoutes } from '../../server/http/api-routes'
import { handleErrors } from '../../server/http/error-handler'
import type { Schemas } from '../../server/http/handler-types'
import { loadSpecification, type OpenApiDocument } from '../../server/http/openapi'
import { processWideCompilers } from '../../server/http/schema-compilers'
import { addSecurityHeaders } from '../../server/http/security-headers'

/**
 * The ceiling for the feed: GET /api/posts/feed answering a fixed page of 20 posts with no database and no bearer
 * check, registered exactly like the real route (fastify-openapi-glue from openapi.yaml, so the same FeedResponse
 * schema compiled by fast-json-stringify serializes it, with the same hooks). What remains between this and the
 * real feed is the database work (session lookup, feed query) and its driver.
 */

export type FeedBody = Schemas['FeedResponse']

/** openapi.yaml reduced to the feed operation, made public (there is no session table to check a token against). */
function feedOnlySpecification(): OpenApiDocument {
  const spec = loadSpecification()
  const feedPath = spec.paths?.['/posts/feed']
  const get = feedPath?.get
  if (!get || typeof get !== 'object') throw new Error('openapi.yaml has no GET /posts/feed')
  return { ...spec, paths: { '/posts/feed': { get: { ...get, security: [] } } } }
}

export async function buildNoDbApp(body: FeedBody): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    // The real app's compilers (the same serializer preparation) and ajv settings (server/app.ts): the yaml uses annotations strict ajv would refuse, and query
    // parameters arrive as text.
    ajv: {
      customOptions: {
        removeAdditional: false,
        allErrors: true,
        coerceTypes: 'array',
        allowUnionTypes: true,
        keywords: ['example', 'xml', 'externalDocs'],
      },
    },
    schemaController: { compilersFactory: processWideCompilers },
  })
  addSecurityHeaders(app)
  handleErrors(app)
  await registerApiRoutes(app, {
    specification: feedOnlySpecification(),
    modules: { bench: { getFeed: async () => ({ status: 200, body }) } },
  })
  return app
}

const sampleAuthors = ['demo_star', 'ada_lopez12', 'kenji_park804', 'sofia_tanaka224', 'omar_haddad31']

/** A plausible page when the real feed cannot provide one: 20 posts with mentions, hashtags and one repost. */
export function syntheticFeedPage(now: number = Date.now()): FeedBody {
  const posts: FeedBody['posts'] = Array.from({ length: 20 }, (_, i) => {
    const username = sampleAuthors[i % sampleAuthors.length] ?? 'demo_star'
    const author = { id: `0190a0b0-0000-7000-8000-${String(i).padStart(12, '0')}`, username, displayName: username, avatar: null, verified: i === 0 }
    return {
      id: `0190a0b1-0000-7000-8000-${String(i).padStart(12, '0')}`,
      author,
      content: `Little update: I finished an amazing book. Highly recommend. With @demo_member. #books #reading${i}`,
      media: [],
      mentions: ['demo_member'],
      hashtags: ['books', `reading${i}`],
      visibility: 'public',
      sensitive: false,
      sensitiveReason: null,
      replyTo: null,
      createdAt: new Date(now - i * 60_000).toISOString(),
      edited: false,
      editedAt: null,
      likeCount: 12 * i,
      repostCount: i % 3,
      replyCount: i % 4,
      views: 200 * i,
      liked: i % 5 === 0,
      reposted: false,
      bookmarked: false,
      repostedBy: i === 3 ? author : null,
    }
  })
  return { posts, nextCursor: 'eyJhdCI6IjE3MDAwMDAwMDAwMDAwMDAiLCJpZCI6IjAxOTAifQ' }
}
