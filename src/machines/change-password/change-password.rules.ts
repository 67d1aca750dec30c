import * as z from 'zod/mini'

// The password change rules with their exact messages (docs/product.md, "Password change"). The match message sits
// on the confirmation field.
const HAS_CASES_AND_DIGIT = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)/

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().check(z.minLength(1, 'Current password is required')),
    newPassword: z
      .string()
      .check(
        z.minLength(8, 'New password must be at least 8 characters long'),
        z.regex(HAS_CASES_AND_DIGIT, 'Password must contain lowercase, uppercase, and number'),
      ),
    confirmPassword: z.string(),
  })
  .check(
    z.refine((values) => values.newPassword === values.confirmPassword, {
      message: 'New passwords do not match',
      path: ['confirmPassword'],
    }),
  )

export type ChangePasswordValues = z.infer<typeof changePasswordSchema>
