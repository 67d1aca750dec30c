import { Effect } from 'effect'
import { mutation } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { components } from './contract/schema'

// Email verification (openapi.yaml, /auth/email/*): mutations, never retried.

type Schemas = components['schemas']

export type ChangeEmailRequest = Schemas['ChangeEmailRequest']
export type CurrentUser = Schemas['CurrentUser']

export function makeEmailCalls(client: ApiClient) {
  return {
    /** Opens a mailed link; answers the address now confirmed. Needs no session. */
    verify: (token: string): Effect.Effect<string, ApiError> =>
      mutation<Schemas['VerifyEmailResponse']>((signal) => client.POST('/auth/email/verify', { body: { token }, signal })).pipe(
        Effect.map((body) => body.email),
      ),

    resend: (): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.POST('/auth/email/resend', { signal })).pipe(Effect.asVoid),

    /** The member with their new pending address. */
    change: (body: ChangeEmailRequest): Effect.Effect<CurrentUser, ApiError> =>
      mutation<Schemas['MeResponse']>((signal) => client.POST('/auth/email/change', { body, signal })).pipe(
        Effect.map((body) => body.user),
      ),
  }
}

export const emailCalls = makeEmailCalls(api)
