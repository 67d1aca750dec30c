// What the Delete account dialog says and checks (docs/product.md, "Deleting an account"), shared by the machine, the
// view and the tests. The server checks the same things again (the password, the code, the typed username).

export const ACCOUNT_DELETING = 'Your account is being deleted'
export const DELETE_FAILED = 'Failed to delete your account'
export const PASSWORD_REQUIRED = 'Enter your password'
export const CODE_REQUIRED = 'Enter a code from your authenticator app'
export const CONFIRM_MISMATCH = 'Type your username to confirm'

/** What goes, in the dialog's list. */
export const WHAT_GOES: readonly string[] = [
  'Your posts and replies, with their photos and videos',
  'Your likes, reposts and bookmarks',
  'Who you follow and who follows you',
  'Your lists, mutes and blocks',
  'Notifications your actions caused',
  'Your conversations and your message keys',
]

/** What stays, in the dialog's words. */
export const WHAT_STAYS =
  'Reports you filed stay with the moderators, shown as from a deleted member. Your username stays reserved for 30 days.'

export interface DeletionFields {
  password: string
  code: string
  confirm: string
}

/** Who is deleting: the username to type and whether a second factor is asked. */
export interface DeletionFacts {
  username: string
  twoFactorEnabled: boolean
}

/** "@Ann " confirms @ann: the member typed their own name. The server compares the same way. */
export const confirmsUsername = (typed: string, username: string): boolean =>
  username !== '' && typed.trim().replace(/^@/, '').toLowerCase() === username.toLowerCase()

/** The first thing wrong with the form, or null when it may be sent. */
export function deletionProblem(fields: DeletionFields, facts: DeletionFacts): string | null {
  if (fields.password === '') return PASSWORD_REQUIRED
  if (facts.twoFactorEnabled && fields.code.trim() === '') return CODE_REQUIRED
  if (!confirmsUsername(fields.confirm, facts.username)) return CONFIRM_MISMATCH
  return null
}
