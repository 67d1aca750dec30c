import * as z from 'zod/mini'

// The register and login rules with their exact messages (docs/product.md, "Register", "Login"). Checks run in
// order and the form shows each field's first failure, so "required" comes before length and length before pattern.

export const loginSchema = z.object({
  username: z.string().check(z.trim(), z.minLength(1, 'Username is required')),
  password: z.string().check(z.minLength(1, 'Password is required')),
  remember: z.boolean(),
})

export type LoginValues = z.infer<typeof loginSchema>

/** The server's own username rule (openapi.yaml Username). */
const USERNAME = /^[A-Za-z0-9_]+$/
/** "Non-space text with @" (openapi.yaml Email). */
const EMAIL = /^[^\s@]+@[^\s@]+$/
const HAS_CASES_AND_DIGIT = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)/

export const registerSchema = z
  .object({
    username: z
      .string()
      .check(
        z.minLength(1, 'Username is required'),
        z.minLength(3, 'Minimum 3 characters'),
        z.maxLength(30, 'Maximum 30 characters'),
        z.regex(USERNAME, 'Only letters, numbers, and underscores allowed'),
      ),
    email: z.string().check(z.trim(), z.minLength(1, 'Email is required'), z.regex(EMAIL, 'Invalid email address')),
    displayName: z
      .string()
      .check(z.minLength(1, 'Display name is required'), z.maxLength(50, 'Maximum 50 characters')),
    password: z
      .string()
      .check(
        z.minLength(1, 'Password is required'),
        z.minLength(8, 'Minimum 8 characters'),
        z.regex(HAS_CASES_AND_DIGIT, 'Must contain uppercase, lowercase, and number'),
      ),
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
