import type { SessionStart } from './sessions'

/** A password accepted for an account with two-factor sign-in on: what the browser gets instead of a session. */
export interface SecondStep {
  secondFactor: { ticket: string; expiresAt: Date }
}

/**
 * What the login needs of two-factor sign-in (server/modules/two-factor/service.ts): a pending second step holding the
 * sign-in's SessionStart. An interface here so that auth does not import the two-factor area, which imports auth.
 */
export interface SecondStepIssuer {
  challenge(userId: string, start: SessionStart): Promise<SecondStep>
}
