import * as z from 'zod/mini'

// Settings -> Profile and Privacy & Safety (docs/product.md, "Profile settings": display name max 50, bio max 500;
// the three audiences). Display name is required as on the register form: the server refuses a blank one.

export const DISPLAY_NAME_MAX = 50
export const BIO_MAX = 500

export const profileSettingsSchema = z.object({
  displayName: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Display name is required'),
      z.maxLength(DISPLAY_NAME_MAX, 'Maximum 50 characters'),
    ),
  bio: z.string().check(z.maxLength(BIO_MAX, 'Maximum 500 characters')),
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
