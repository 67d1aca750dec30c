import * as z from 'zod/mini'
import { LIMITS } from '../../api/contract/limits'
import { PASSWORD_STRENGTH } from '../register/register.rules'

// Settings -> Security -> Change password (docs/product.md, "Password change", texts word for word), shared by the dialog's form
// (react-hook-form's zodResolver) and the change-password machine's guard. The minimum length is the product's
// (src/api/contract/limits.ts); the strength rule is the one sign-up asks for. Both are enforced here only: the server
// receives the secret derived from the new password, never the password.
// The match message sits on the confirmation field.

/** What the form sends and the machine accepts: the typed passwords. */
export const changePasswordRequestSchema = z.object({
  currentPassword: z.string().check(z.minLength(1, 'Current password is required')),
  newPassword: z
    .string()
    .check(
      z.minLength(LIMITS.passwordMin, `New password must be at least ${LIMITS.passwordMin} characters long`),
      z.regex(PASSWORD_STRENGTH, 'Password must contain lowercase, uppercase, and number'),
    ),
})

/** The form: the request's fields and the confirmation. */
export const changePasswordSchema = z
  .extend(changePasswordRequestSchema, { confirmPassword: z.string() })
  .check(
    z.refine((values) => values.newPassword === values.confirmPassword, {
      message: 'New passwords do not match',
      path: ['confirmPassword'],
    }),
  )

export type ChangePasswordValues = z.infer<typeof changePasswordSchema>

/** The typed passwords the change-password machine derives from. */
export interface PasswordChangeFields {
  currentPassword: string
  newPassword: string
}

/** Whether a change may be sent: the same checks the form made on the fields the server reads. */
export function isChangePasswordRequest(values: PasswordChangeFields): boolean {
  return changePasswordRequestSchema.safeParse(values).success
}
