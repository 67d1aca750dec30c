import * as z from 'zod/mini'
import { LIMITS } from '../../api/contract/limits'

// Settings -> Profile and Privacy & Safety (docs/product.md, "Profile settings" and "Privacy & safety settings"), shared by the two
// forms (react-hook-form's zodResolver) and the profile-settings machine's guards. The lengths are the product's
// (src/api/contract/limits.ts, which the server enforces too). Display name is required as on the register form: the
// server refuses a blank one.

/** The bio's limit, for the counter beside the field. */
export const BIO_MAX = LIMITS.bioMax

export const profileSettingsSchema = z.object({
  displayName: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Display name is required'),
      z.maxLength(LIMITS.displayNameMax, `Maximum ${LIMITS.displayNameMax} characters`),
    ),
  bio: z.string().check(z.maxLength(LIMITS.bioMax, `Maximum ${LIMITS.bioMax} characters`)),
  privateAccount: z.boolean(),
})

export type ProfileSettingsValues = z.infer<typeof profileSettingsSchema>

/** Who may message or mention the member, labels in order (docs/product.md, "Privacy & safety settings"). */
export const AUDIENCES = [
  { value: 'everyone', label: 'Everyone' },
  { value: 'following', label: 'People I follow' },
  { value: 'none', label: 'No one' },
] as const

const audience = z.enum(['everyone', 'following', 'none'])

export const privacySettingsSchema = z.object({
  showSensitiveContent: z.boolean(),
  allowDMs: audience,
  allowMentions: audience,
})

export type PrivacySettingsValues = z.infer<typeof privacySettingsSchema>

/** Whether a profile save may be sent: the same checks the form made. */
export function isProfileSettings(values: ProfileSettingsValues): boolean {
  return profileSettingsSchema.safeParse(values).success
}

/** Whether a privacy save may be sent: the same checks the form made (known audiences only). */
export function isPrivacySettings(values: PrivacySettingsValues): boolean {
  return privacySettingsSchema.safeParse(values).success
}
