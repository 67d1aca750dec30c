import type { Handlers } from '../http/handler-types'
import type { UploadPolicy } from '../http/uploads'
import { analyticsHandlers } from './analytics/routes'
import { adminHandlers } from './admin/routes'
import { authHandlers } from './auth/routes'
import { blockHandlers, blockMessages } from './blocks/routes'
import { bookmarkHandlers, bookmarkMessages } from './bookmarks/routes'
import { draftHandlers, draftUploadPolicies } from './drafts/routes'
import { exportHandlers } from './exports/routes'
import type { FieldMessages } from '../http/validation-messages'
import { healthHandlers } from './health/routes'
import { listHandlers, listMessages } from './lists/routes'
import { muteHandlers, muteMessages } from './mutes/routes'
import { messageHandlers } from './messages/routes'
import { notificationHandlers } from './notifications/routes'
import { postHandlers, postUploadPolicies } from './posts/routes'
import { pollHandlers } from './polls/routes'
import { reportHandlers } from './reports/routes'
import { hashtagHandlers } from './hashtags/routes'
import { trustHandlers } from './trust/routes'
import { twoFactorHandlers } from './two-factor/routes'
import { passwordResetHandlers } from './password-reset/routes'
import { emailHandlers } from './email/routes'
import { userHandlers, userUploadPolicies } from './users/routes'
import { accountDeletionHandlers } from './account-deletion/routes'
import { pageHandlers, pageMessages } from './pages/routes'

/**
 * Every module's handlers by area. Each operationId must appear once across them (the router refuses duplicates;
 * every operation of openapi.yaml must have one, or the server refuses to start; tests/api/contract.test.ts checks it).
 */
export const moduleHandlers: Record<string, Handlers> = {
  health: healthHandlers,
  auth: authHandlers,
  posts: postHandlers,
  drafts: draftHandlers,
  polls: pollHandlers,
  users: userHandlers,
  blocks: blockHandlers,
  mutes: muteHandlers,
  messages: messageHandlers,
  hashtags: hashtagHandlers,
  notifications: notificationHandlers,
  analytics: analyticsHandlers,
  bookmarks: bookmarkHandlers,
  lists: listHandlers,
  reports: reportHandlers,
  admin: adminHandlers,
  trust: trustHandlers,
  twoFactor: twoFactorHandlers,
  passwordReset: passwordResetHandlers,
  email: emailHandlers,
  exports: exportHandlers,
  accountDeletion: accountDeletionHandlers,
  pages: pageHandlers,
}

/** The product's words for body validation failures, by operationId (server/http/validation-messages.ts). */
export const validationMessages: Record<string, FieldMessages> = {
  ...blockMessages,
  ...muteMessages,
  ...bookmarkMessages,
  ...listMessages,
  ...pageMessages,
}

/** Multipart operations by operationId: which field carries files, how many, of which kinds (server/http/uploads.ts). */
export const uploadPolicies: Record<string, UploadPolicy> = {
  ...postUploadPolicies,
  ...draftUploadPolicies,
  ...userUploadPolicies,
}
