import { requireAuth } from '../../http/authenticate'
import { badRequest } from '../../http/errors'
import type { Handlers } from '../../http/handler-types'
import { type UploadPolicy, uploadedFiles } from '../../http/uploads'
import { pageRequest } from '../../lib/cursor'
import type { FastifyRequest } from 'fastify'
import { toCurrentUser } from '../auth/current-user'

const imageUpload: UploadPolicy = {
  fileField: 'image',
  maxFiles: 1,
  tooManyFiles: 'Only one image can be uploaded',
  kinds: ['image'],
  unsupported: 'Unsupported file type: the image must be JPEG, PNG, WebP or GIF',
}

/** Avatar and banner: one image in `image` (server/http/uploads.ts). */
export const userUploadPolicies: Record<string, UploadPolicy> = {
  uploadAvatar: imageUpload,
  uploadBanner: imageUpload,
}

function theImage(request: FastifyRequest) {
  const [file] = uploadedFiles(request)
  // The contract requires `image`; only a text field of that name could get here without a file.
  if (!file) throw badRequest('image must be a file')
  return file
}

const restrictedOf = (page: { restricted?: true }) => (page.restricted ? { restricted: true } : {})

export const userHandlers = {
  async searchUsers(request) {
    const { q, ...paging } = request.query
    const body = await request.server.services.users.search(requireAuth(request).user, q, pageRequest(paging))
    return { status: 200, body }
  },

  async getUserProfile(request) {
    const viewer = requireAuth(request).user
    const { tab = 'posts', ...paging } = request.query
    const result = await request.server.services.users.profile(
      viewer,
      request.params.username,
      tab,
      pageRequest(paging),
    )
    return { status: 200, body: { user: result.user, posts: result.items, nextCursor: result.nextCursor } }
  },

  async getFollowers(request) {
    const viewer = requireAuth(request).user
    const page = await request.server.services.users.follows(
      viewer,
      request.params.username,
      'followers',
      pageRequest(request.query),
    )
    return { status: 200, body: { followers: page.items, nextCursor: page.nextCursor, ...restrictedOf(page) } }
  },

  async getFollowing(request) {
    const viewer = requireAuth(request).user
    const page = await request.server.services.users.follows(
      viewer,
      request.params.username,
      'following',
      pageRequest(request.query),
    )
    return { status: 200, body: { following: page.items, nextCursor: page.nextCursor, ...restrictedOf(page) } }
  },

  async followUser(request) {
    const body = await request.server.services.users.setFollow(requireAuth(request).user, request.params.id, true)
    return { status: 200, body }
  },

  async unfollowUser(request) {
    const body = await request.server.services.users.setFollow(requireAuth(request).user, request.params.id, false)
    return { status: 200, body }
  },

  async getFollowRequests(request) {
    const page = await request.server.services.users.followRequests(requireAuth(request).user, pageRequest(request.query))
    return { status: 200, body: { requests: page.items, nextCursor: page.nextCursor } }
  },

  async approveFollowRequest(request) {
    const body = await request.server.services.users.approveFollowRequest(requireAuth(request).user, request.params.id)
    return { status: 200, body }
  },

  async declineFollowRequest(request) {
    await request.server.services.users.declineFollowRequest(requireAuth(request).user, request.params.id)
    return { status: 204 }
  },

  async updateProfile(request) {
    const user = await request.server.services.users.updateProfile(requireAuth(request).user, request.body)
    return { status: 200, body: { user: toCurrentUser(user) } }
  },

  async updatePrivacySettings(request) {
    const { showSensitiveContent, allowDMs, allowMentions } = request.body
    const user = await request.server.services.users.updateProfile(requireAuth(request).user, {
      showSensitiveContent,
      allowDms: allowDMs,
      allowMentions,
    })
    return { status: 200, body: { user: toCurrentUser(user) } }
  },

  async uploadAvatar(request) {
    const user = await request.server.services.users.replaceAvatar(requireAuth(request).user, theImage(request))
    return { status: 200, body: { user: toCurrentUser(user) } }
  },

  async uploadBanner(request) {
    const user = await request.server.services.users.replaceBanner(requireAuth(request).user, theImage(request))
    return { status: 200, body: { user: toCurrentUser(user) } }
  },
} satisfies Handlers
