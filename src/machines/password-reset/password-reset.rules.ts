import * as z from 'zod/mini'
import { LIMITS } from '../../api/contract/limits'
import { PASSWORD_STRENGTH } from '../register/register.rules'

// The forgot-password and reset-password forms (docs/product.md, "Password reset", texts word for word), shared by the
// forms (react-hook-form's zodResolver) and the machines' guards. The new password follows sign-up's rules, checked
// here only: the server receives the secret derived from it.

export const forgotSchema = z.object({
  identifier: z.string().check(z.trim(), z.minLength(1, 'Username or email is required')),
})
export type ForgotValues = z.infer<typeof forgotSchema>

export const recoveryKeySchema = z.object({
  recoveryKey: z.string().check(z.trim(), z.minLength(1, 'Enter your recovery key')),
})
export type RecoveryKeyValues = z.infer<typeof recoveryKeySchema>

const newPassword = z
  .string()
  .check(
    z.minLength(LIMITS.passwordMin, `Password must be at least ${LIMITS.passwordMin} characters long`),
    z.regex(PASSWORD_STRENGTH, 'Password must contain lowercase, uppercase, and number'),
  )

/** What the machine accepts: the new password and, for an account with two-factor sign-in, a code. */
export const newPasswordRequestSchema = z.object({ password: newPassword, twoFactorCode: z.string() })

export const newPasswordSchema = z
  .extend(newPasswordRequestSchema, { confirmPassword: z.string() })
  .check(
    z.refine((values) => values.password === values.confirmPassword, {
      message: 'Passwords do not match',
      path: ['confirmPassword'],
    }),
  )
export type NewPasswordValues = z.infer<typeof newPasswordSchema>

export interface NewPasswordFields {
  password: string
  twoFactorCode: string
}

export function isNewPasswordRequest(values: NewPasswordFields): boolean {
  return newPasswordRequestSchema.safeParse(values).success
}

export function isForgotRequest(values: { identifier: string }): boolean {
  return forgotSchema.safeParse(values).success
}

/** The texts the screens and machines share. */
export const RESET_TEXTS = {
  linkInvalid: 'This reset link is invalid or has expired. Ask for a new one.',
  checkFailed: 'The reset link could not be checked. Try again.',
  resetFailed: 'Failed to reset the password',
  forgotFailed: 'The request could not be sent. Try again.',
  recoveryFailed: 'The recovery key could not be checked.',
  keyLoss:
    "Without your recovery key, a new message key is made for you. Your earlier direct messages can't be decrypted on this account any more, and your contacts will see that your safety number changed.",
  twoFactorCodeRequired: 'Enter a code from your authenticator app or a recovery code',
} as const
