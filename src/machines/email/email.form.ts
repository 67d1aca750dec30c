import * as z from 'zod/mini'
import { EMAIL_MAX, EMAIL_SHAPE } from './email.rules'

/** The Change email form's rules with their messages (react-hook-form's zodResolver); ./email.rules.ts has the guard. */
export const changeEmailSchema = z.object({
  newEmail: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Email is required'),
      z.maxLength(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`),
      z.regex(EMAIL_SHAPE, 'Enter an email address like name@example.org'),
    ),
  password: z.string().check(z.minLength(1, 'Password is required')),
})

