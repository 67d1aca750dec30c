import { Effect } from 'effect'
import { mutation } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { components } from './contract/schema'
import type { CurrentUser } from './types'

// "Forgot password?", the reset link, and the message recovery key (openapi.yaml, /auth/password/* and
// /auth/recovery-key*), in the style of calls.ts. Every call is a mutation: a retried reset could spend a link twice.

type Schemas = components['schemas']
export type PasswordResetInfo = Schemas['PasswordResetInfo']
export type ResetPasswordRequest = Schemas['ResetPasswordRequest']
export type RecoveryKeyRequest = Schemas['RecoveryKeyRequest']
export type PasswordProofRequest = Schemas['PasswordProofRequest']

export function makePasswordResetCalls(client: ApiClient) {
  return {
    /** The same answer for every name: whether a mail goes out is not said. */
    forgot: (identifier: string): Effect.Effect<string, ApiError> =>
      mutation<Schemas['Message']>((signal) => client.POST('/auth/password/forgot', { body: { identifier }, signal })).pipe(
        Effect.map((body) => body.message),
      ),

    check: (token: string): Effect.Effect<PasswordResetInfo, ApiError> =>
      mutation<PasswordResetInfo>((signal) => client.POST('/auth/password/reset/check', { body: { token }, signal })),

    reset: (body: ResetPasswordRequest): Effect.Effect<string, ApiError> =>
      mutation<Schemas['Message']>((signal) => client.POST('/auth/password/reset', { body, signal })).pipe(
        Effect.map((answer) => answer.message),
      ),

    setRecoveryKey: (body: RecoveryKeyRequest): Effect.Effect<CurrentUser, ApiError> =>
      mutation<Schemas['MeResponse']>((signal) => client.POST('/auth/recovery-key', { body, signal })).pipe(
        Effect.map((answer) => answer.user),
      ),

    removeRecoveryKey: (body: PasswordProofRequest): Effect.Effect<CurrentUser, ApiError> =>
      mutation<Schemas['MeResponse']>((signal) => client.POST('/auth/recovery-key/remove', { body, signal })).pipe(
        Effect.map((answer) => answer.user),
      ),
  }
}

export type PasswordResetCalls = ReturnType<typeof makePasswordResetCalls>

export const passwordResetCalls: PasswordResetCalls = makePasswordResetCalls(api)
