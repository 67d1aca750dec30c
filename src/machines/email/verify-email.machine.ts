import { assign, fromPromise, setup } from 'xstate'
import type { CurrentUser } from '../../api/email.calls'
import { serverMessageOr } from '../../api/errors'
import { EMAIL_LINK_INVALID } from '../../api/contract/email'
import type { SessionSnapshot } from '../app/app.system'
import type { SessionRef } from '../session/session-ref'
import { verifyLink } from './email.calls'

// The /verify-email?token= page (docs/product.md, "Email"): opens the mailed link once, signed in or not (the link
// may be opened in another browser). verifying -> confirmed ("Email confirmed"; a signed-in session is refreshed from
// the server, since the link may have changed the address) or failed (the server's words: expired or used; a lost
// connection can be retried). A page without a token fails at once with the same words as a bad link.

export const VERIFY_FAILED = 'Could not confirm your email. Please try again.'

export type VerifyEmailEvent = { type: 'verify.retry' }

export interface VerifyEmailContext {
  token: string
  /** The confirmed address. */
  email: string | null
  error: string | null
}

function sessionOf(system: { get(systemId: string): unknown }): SessionRef | undefined {
  return system.get('session') as SessionRef | undefined
}

export const verifyEmailMachine = setup({
  types: {
    context: {} as VerifyEmailContext,
    events: {} as VerifyEmailEvent,
    input: {} as { token: string | null },
    tags: {} as 'busy',
  },
  actors: {
    verifyLink: fromPromise<{ email: string; user: CurrentUser | null }, { token: string; signedIn: boolean }>(
      ({ input, signal }) => verifyLink(input, signal),
    ),
  },
  actions: {
    setConfirmed: assign((_, email: string) => ({ email, error: null })),
    setError: assign((_, message: string) => ({ error: message })),
    /** A signed-in member's session takes what the server now says about them (banner gone, new address). */
    tellSession: ({ system }, user: CurrentUser | null) => {
      if (user)
        sessionOf(system)?.send({
          type: 'session.user.updated',
          user: { email: user.email, emailVerified: user.emailVerified, pendingEmail: user.pendingEmail },
        })
    },
  },
  guards: {
    hasToken: ({ context }) => context.token !== '',
    /** A lost connection or a server error may pass; the server's "expired or used" will not. */
    mayPass: ({ context }) => context.token !== '' && context.error !== EMAIL_LINK_INVALID,
  },
}).createMachine({
  id: 'verifyEmail',
  context: ({ input }) => ({ token: input.token ?? '', email: null, error: null }),
  initial: 'starting',
  states: {
    starting: {
      always: [
        { guard: 'hasToken', target: 'verifying' },
        { target: 'failed', actions: { type: 'setError', params: EMAIL_LINK_INVALID } },
      ],
    },
    verifying: {
      tags: ['busy'],
      invoke: {
        id: 'verifyLink',
        src: 'verifyLink',
        input: ({ context, self }) => ({
          token: context.token,
          signedIn: (sessionOf(self.system)?.getSnapshot() as SessionSnapshot | undefined)?.hasTag('authenticated') ?? false,
        }),
        onDone: {
          target: 'confirmed',
          actions: [
            { type: 'setConfirmed', params: ({ event }) => event.output.email },
            { type: 'tellSession', params: ({ event }) => event.output.user },
          ],
        },
        onError: {
          target: 'failed',
          actions: { type: 'setError', params: ({ event }) => serverMessageOr(event.error, VERIFY_FAILED) },
        },
      },
    },
    confirmed: {},
    failed: {
      on: { 'verify.retry': { guard: 'mayPass', target: 'verifying' } },
    },
  },
})

export type VerifyEmailMachine = typeof verifyEmailMachine
