import * as z from 'zod/mini'
import { looksLikeCode } from '../../api/contract/two-factor'
import { CODE_HINT } from '../two-factor/two-factor.rules'

// The login form's rules (docs/product.md, "Login", texts word for word), shared by the form (react-hook-form's zodResolver) and the
// login machine's guard. Checks run in order and the form shows each field's first failure, so "required" comes first.

/** What the form sends and the machine accepts: the typed name and password (the password never goes to the server). */
export const loginRequestSchema = z.object({
  username: z.string().check(z.trim(), z.minLength(1, 'Username is required')),
  password: z.string().check(z.minLength(1, 'Password is required')),
})

/** The form: the request's fields and "Remember me" (where the session is kept, and how long it lasts). */
export const loginSchema = z.extend(loginRequestSchema, { remember: z.boolean() })

export type LoginValues = z.infer<typeof loginSchema>

/** The typed credentials the login machine derives from (src/machines/keys/keys.auth.ts). */
export interface LoginFields {
  username: string
  password: string
  /** "Remember me"; absent is unchecked. */
  remember?: boolean
}

/** Whether a login may be sent: the same checks the form made. */
export function isLoginRequest(values: LoginFields): boolean {
  return loginRequestSchema.safeParse(values).success
}

/** The second step's field: 6 digits of the authenticator app, or a recovery code (docs/product.md, "Two-factor sign-in"). */
export const CODE_REQUIRED = CODE_HINT

export function isSecondFactorCode(code: string): boolean {
  return looksLikeCode(code.trim())
}
