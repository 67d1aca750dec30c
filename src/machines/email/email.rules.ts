import * as z from 'zod/mini'

// Settings -> Account -> Change email (docs/product.md, "Email"): the form's rules (react-hook-form's zodResolver) and
// the email machine's guard. The server checks the address again (openapi.yaml `Email`) and the password itself.

/** The contract's Email pattern: something@something, no spaces. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/

export const changeEmailSchema = z.object({
  newEmail: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Email is required'),
      z.maxLength(254, 'Email must be at most 254 characters'),
      z.regex(EMAIL_SHAPE, 'Enter an email address like name@example.org'),
    ),
  password: z.string().check(z.minLength(1, 'Password is required')),
})

export type ChangeEmailFields = z.infer<typeof changeEmailSchema>

/** Whether a change may be sent: the same checks the form made. */
export function isChangeEmail(fields: ChangeEmailFields): boolean {
  return changeEmailSchema.safeParse(fields).success
}
