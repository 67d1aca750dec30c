import * as z from 'zod/mini'
import { LIMITS } from '../../api/contract/limits'

// The registration form's rules (docs/product.md, "Register", texts word for word), shared by the form (react-hook-form's zodResolver)
// and the register machine's guard; the lengths are the product's limits (src/api/contract/limits.ts), which the server
// enforces too. Checks run in order and the form shows each field's first failure, so "required" comes before length
// and length before pattern.

/** The server's own username rule (openapi.yaml Username). */
const USERNAME = /^[A-Za-z0-9_]+$/
/** "Non-space text with @" (openapi.yaml Email). */
const EMAIL = /^[^\s@]+@[^\s@]+$/
/** Upper and lower case and a digit; Settings -> Change password asks the same of a new password. */
export const PASSWORD_STRENGTH = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)/

/** The hints under the fields, from the same limits. */
export const REGISTER_HINTS = {
  username: `Letters, numbers and underscores; ${LIMITS.usernameMin} to ${LIMITS.usernameMax} characters.`,
  password: `At least ${LIMITS.passwordMin} characters, with upper and lower case and a number.`,
} as const

/**
 * What the form sends and the machine accepts. The password is checked only here: the server receives the secret
 * derived from it (src/crypto/kdf.ts), so these strength rules are the browser's alone.
 */
export const registerRequestSchema = z.object({
  username: z
    .string()
    .check(
      z.minLength(1, 'Username is required'),
      z.minLength(LIMITS.usernameMin, `Minimum ${LIMITS.usernameMin} characters`),
      z.maxLength(LIMITS.usernameMax, `Maximum ${LIMITS.usernameMax} characters`),
      z.regex(USERNAME, 'Only letters, numbers, and underscores allowed'),
    ),
  email: z.string().check(z.trim(), z.minLength(1, 'Email is required'), z.regex(EMAIL, 'Invalid email address')),
  displayName: z
    .string()
    .check(
      z.minLength(1, 'Display name is required'),
      z.maxLength(LIMITS.displayNameMax, `Maximum ${LIMITS.displayNameMax} characters`),
    ),
  password: z
    .string()
    .check(
      z.minLength(1, 'Password is required'),
      z.minLength(LIMITS.passwordMin, `Minimum ${LIMITS.passwordMin} characters`),
      z.regex(PASSWORD_STRENGTH, 'Must contain uppercase, lowercase, and number'),
    ),
})

/** The form: the request's fields, the confirmation and the terms. The match message sits on the confirmation. */
export const registerSchema = z
  .extend(registerRequestSchema, {
    confirmPassword: z.string().check(z.minLength(1, 'Please confirm your password')),
    acceptTerms: z.boolean().check(z.refine((accepted) => accepted, 'You must accept the terms')),
  })
  .check(
    z.refine((values) => values.confirmPassword === '' || values.password === values.confirmPassword, {
      message: 'Passwords do not match',
      path: ['confirmPassword'],
    }),
  )

export type RegisterValues = z.infer<typeof registerSchema>

/** The typed fields the register machine derives and registers from. */
export interface RegisterFields {
  username: string
  email: string
  displayName: string
  password: string
}

/** Whether a registration may be sent: the same checks the form made. */
export function isRegisterRequest(values: RegisterFields): boolean {
  return registerRequestSchema.safeParse(values).success
}
