import { Effect } from 'effect'
import { mutation, query } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import { idempotencyHeader } from './idempotency'
import type { components } from './contract/schema'
import type { ReportReason, ReportStatus } from './contract/reports'

// Reports (openapi.yaml tag `reports`) and the admin panel's operations (tag `admin`): every call an Effect failing
// only with a typed ApiError; reads retry once on a transient failure, writes never retry.

type Schemas = components['schemas']

export type Report = Schemas['Report']
export type ReportsPage = Schemas['ReportsPage']
export type AuditEntry = Schemas['AuditEntry']
export type AuditLogPage = Schemas['AuditLogPage']

/** What is reported: a member, a post, or a message with the text this browser decrypted. */
export type ReportSubject =
  | { kind: 'user'; id: string }
  | { kind: 'post'; id: string }
  | { kind: 'message'; id: string; messageText: string }

export interface ReportFiling {
  reason: ReportReason
  description: string
}

export interface ReportReview {
  status: Exclude<ReportStatus, 'pending'>
  reviewNote: string
  removePost: boolean
}

const cursorParam = (cursor: string | null | undefined) => (cursor ? { cursor } : {})
const described = (description: string) => (description.trim() === '' ? {} : { description: description.trim() })

export function makeReportCalls(client: ApiClient) {
  return {
    /** `idempotencyKey`: the submission's key (src/api/idempotency.ts); a retry of the same submission sends it again. */
    fileReport: (subject: ReportSubject, filing: ReportFiling, idempotencyKey: string | null = null): Effect.Effect<Report, ApiError> => {
      const common = { reason: filing.reason, ...described(filing.description) }
      const params = { header: idempotencyHeader(idempotencyKey) }
      const send = (signal: AbortSignal) => {
        switch (subject.kind) {
          case 'user':
            return client.POST('/reports/user', { params, body: { userId: subject.id, ...common }, signal })
          case 'post':
            return client.POST('/reports/post', { params, body: { postId: subject.id, ...common }, signal })
          case 'message':
            return client.POST('/reports/message', {
              params,
              body: { messageId: subject.id, messageText: subject.messageText, ...common },
              signal,
            })
        }
      }
      return mutation<Schemas['ReportResponse']>(send).pipe(Effect.map((body) => body.report))
    },

    /** Admins: every report with this status; members: their own. */
    getReports: (status: ReportStatus, cursor?: string | null): Effect.Effect<ReportsPage, ApiError> =>
      query<ReportsPage>((signal) => client.GET('/reports', { params: { query: { status, ...cursorParam(cursor) } }, signal })),

    updateReport: (id: string, review: ReportReview): Effect.Effect<Report, ApiError> =>
      mutation<Schemas['ReportResponse']>((signal) =>
        client.PATCH('/reports/{id}', {
          params: { path: { id } },
          body: {
            status: review.status,
            ...(review.reviewNote.trim() === '' ? {} : { reviewNote: review.reviewNote.trim() }),
            ...(review.removePost ? { removePost: true } : {}),
          },
          signal,
        }),
      ).pipe(Effect.map((body) => body.report)),
  }
}

export function makeAdminCalls(client: ApiClient) {
  return {
    fixAllStats: (): Effect.Effect<Schemas['FixAllStatsResponse'], ApiError> =>
      mutation<Schemas['FixAllStatsResponse']>((signal) => client.POST('/users/fix-all-stats', { signal })),

    recalculateUserStats: (id: string): Effect.Effect<Schemas['RecalculateStatsResponse'], ApiError> =>
      mutation<Schemas['RecalculateStatsResponse']>((signal) =>
        client.POST('/users/{id}/recalculate-stats', { params: { path: { id } }, signal }),
      ),

    promoteUser: (username: string): Effect.Effect<Schemas['AdminRoleResponse'], ApiError> =>
      mutation<Schemas['AdminRoleResponse']>((signal) =>
        client.POST('/users/promote/{username}', { params: { path: { username } }, signal }),
      ),

    demoteUser: (username: string): Effect.Effect<Schemas['AdminRoleResponse'], ApiError> =>
      mutation<Schemas['AdminRoleResponse']>((signal) =>
        client.POST('/users/demote/{username}', { params: { path: { username } }, signal }),
      ),

    /** Turns off a member's two-factor sign-in (they lost their phone and their recovery codes). */
    resetTwoFactor: (id: string): Effect.Effect<Schemas['TwoFactorResetResponse'], ApiError> =>
      mutation<Schemas['TwoFactorResetResponse']>((signal) =>
        client.POST('/admin/users/{id}/two-factor/reset', { params: { path: { id } }, signal }),
      ),

    migrateKeys: (): Effect.Effect<Schemas['MigrateKeysResponse'], ApiError> =>
      mutation<Schemas['MigrateKeysResponse']>((signal) => client.POST('/users/migrate-keys', { signal })),

    getAuditLog: (cursor?: string | null): Effect.Effect<AuditLogPage, ApiError> =>
      query<AuditLogPage>((signal) => client.GET('/admin/audit-log', { params: { query: cursorParam(cursor) }, signal })),
  }
}

export type ReportCalls = ReturnType<typeof makeReportCalls>
export type AdminCalls = ReturnType<typeof makeAdminCalls>

export const reportCalls: ReportCalls = makeReportCalls(api)
export const adminCalls: AdminCalls = makeAdminCalls(api)
