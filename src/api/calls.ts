import { Effect } from 'effect'
import { api, type ApiClient } from './client'
import { fromResponse, fromThrown, type ApiError, type ErrorBody } from './errors'
import type {
  ApiMessage,
  AuthResponse,
  ChangePasswordRequest,
  CurrentUser,
  DeleteAccountRequest,
  LoginRequest,
  LoginResponse,
  MeResponse,
  MessageKeysRequest,
  MessageKeysResponse,
  PreloginResponse,
  RecoveryCodes,
  RegisterRequest,
  SecondFactorRequest,
  TwoFactorEnabled,
  TwoFactorProofRequest,
  TwoFactorSetup,
  UpgradeRequest,
  UpgradeResponse,
} from './types'

// Every call is an Effect that fails only with a typed ApiError. Actors turn them into promises with `run`.
// Policy (docs/product.md, "Session check"): queries retry once, mutations never (a retried POST could register
// twice). No call has a client timeout of its own: the me-check's 10 s is the session actor's (a delayed transition
// its chart shows), and stopping the actor that made a call aborts its fetch.

/**
 * What openapi-fetch resolves with: either data, or the error body (parsed JSON, or text when the body is not JSON),
 * plus the raw response. `error` is never undefined on the failure side, which is what lets the check below narrow.
 */
type Outcome<T> =
  | { data: T; error?: never; response: Response }
  | { data?: never; error: object | string; response: Response }

// Call sites name T explicitly: inferring it from openapi-fetch's union would add `undefined` from the failure side.
type Send<T> = (signal: AbortSignal) => Promise<Outcome<T>>

function toErrorBody(body: object | string): ErrorBody | undefined {
  return typeof body === 'object' ? body : undefined
}

/** One HTTP exchange. The signal comes from Effect, so interrupting (timeout, a stopped actor) aborts the fetch. */
function exchange<T>(send: Send<T>): Effect.Effect<T, ApiError> {
  return Effect.tryPromise({ try: (signal) => send(signal), catch: fromThrown }).pipe(
    Effect.flatMap((outcome) =>
      outcome.error === undefined
        ? Effect.succeed(outcome.data)
        : Effect.fail(fromResponse(outcome.response.status, toErrorBody(outcome.error))),
    ),
  )
}

/** Failures that may go away on a second try; a 4xx will get the same answer again. */
function isTransient(error: ApiError): boolean {
  return error._tag === 'Network' || error._tag === 'Server' || error._tag === 'Timeout'
}

export function query<T>(send: Send<T>): Effect.Effect<T, ApiError> {
  return exchange(send).pipe(Effect.retry({ times: 1, while: isTransient }))
}

export function mutation<T>(send: Send<T>): Effect.Effect<T, ApiError> {
  return exchange(send)
}

export function makeCalls(client: ApiClient) {
  return {
    /** The password settings to derive with before signing in (null: sign in with the password once, then upgrade). */
    prelogin: (username: string): Effect.Effect<PreloginResponse, ApiError> =>
      mutation<PreloginResponse>((signal) => client.POST('/auth/prelogin', { body: { username }, signal })),

    /** Signed in, or (two-factor on) `{ secondFactor: { ticket } }` for loginSecondFactor. */
    login: (body: LoginRequest): Effect.Effect<LoginResponse, ApiError> =>
      mutation<LoginResponse>((signal) => client.POST('/auth/login', { body, signal })),

    loginSecondFactor: (body: SecondFactorRequest): Effect.Effect<AuthResponse, ApiError> =>
      mutation<AuthResponse>((signal) => client.POST('/auth/login/second-factor', { body, signal })),

    setupTwoFactor: (): Effect.Effect<TwoFactorSetup, ApiError> =>
      mutation<TwoFactorSetup>((signal) => client.POST('/auth/two-factor/setup', { signal })),

    enableTwoFactor: (body: TwoFactorProofRequest): Effect.Effect<TwoFactorEnabled, ApiError> =>
      mutation<TwoFactorEnabled>((signal) => client.POST('/auth/two-factor/enable', { body, signal })),

    disableTwoFactor: (body: TwoFactorProofRequest): Effect.Effect<CurrentUser, ApiError> =>
      mutation<MeResponse>((signal) => client.POST('/auth/two-factor/disable', { body, signal })).pipe(
        Effect.map((answer) => answer.user),
      ),

    regenerateRecoveryCodes: (body: TwoFactorProofRequest): Effect.Effect<string[], ApiError> =>
      mutation<RecoveryCodes>((signal) => client.POST('/auth/two-factor/recovery-codes', { body, signal })).pipe(
        Effect.map((answer) => answer.recoveryCodes),
      ),

    register: (body: RegisterRequest): Effect.Effect<AuthResponse, ApiError> =>
      mutation<AuthResponse>((signal) => client.POST('/auth/register', { body, signal })),

    logout: (): Effect.Effect<void, ApiError> =>
      mutation((signal) => client.POST('/auth/logout', { signal })).pipe(Effect.asVoid),

    me: (): Effect.Effect<CurrentUser, ApiError> =>
      query<MeResponse>((signal) => client.GET('/auth/me', { signal })).pipe(Effect.map((body) => body.user)),

    /**
     * PUT /auth/keys for a keyless (or marked) account, right after login: the session is not signed in yet, so the
     * token the login answered is passed here.
     */
    setMessageKeys: (body: MessageKeysRequest, token: string): Effect.Effect<MessageKeysResponse, ApiError> =>
      mutation<MessageKeysResponse>((signal) =>
        client.PUT('/auth/keys', { body, signal, headers: { Authorization: `Bearer ${token}` } }),
      ),

    /** POST /auth/upgrade right after a legacy account's login, with the token it answered (as setMessageKeys). */
    upgradeCredentials: (body: UpgradeRequest, token: string): Effect.Effect<UpgradeResponse, ApiError> =>
      mutation<UpgradeResponse>((signal) =>
        client.POST('/auth/upgrade', { body, signal, headers: { Authorization: `Bearer ${token}` } }),
      ),

    deleteAccount: (body: DeleteAccountRequest): Effect.Effect<string, ApiError> =>
      mutation<ApiMessage>((signal) => client.POST('/auth/delete-account', { body, signal })).pipe(
        Effect.map((body) => body.message),
      ),
    changePassword: (body: ChangePasswordRequest): Effect.Effect<string, ApiError> =>
      mutation<ApiMessage>((signal) => client.POST('/auth/change-password', { body, signal })).pipe(
        Effect.map((body) => body.message),
      ),
  }
}

export type Calls = ReturnType<typeof makeCalls>

/** The app's calls on the app's client. */
export const calls: Calls = makeCalls(api)

/**
 * Runs a call for an actor: resolves with the data or rejects with the typed ApiError itself (Effect 4 rejects with the
 * failure, not a wrapper). Pass the actor's signal so stopping the actor aborts the fetch.
 */
export function run<A>(effect: Effect.Effect<A, ApiError>, signal?: AbortSignal): Promise<A> {
  return Effect.runPromise(effect, signal ? { signal } : undefined)
}
