import { looksLikeCode } from '../../api/contract/two-factor'

// The two-factor dialog's fields (docs/product.md, "Two-factor sign-in"): a code and the current password, for every
// change (turning on, off, new recovery codes). The form shows these words; the machine refuses a submit that breaks
// them.

export const CODE_HINT = 'Enter the 6-digit code from your app, or a recovery code'
export const PASSWORD_REQUIRED = 'Password is required'

export interface CodeAndPasswordFields {
  code: string
  password: string
}

/** Each field's first problem, or none. */
export function fieldProblems(fields: CodeAndPasswordFields): { code?: string; password?: string } {
  return {
    ...(looksLikeCode(fields.code.trim()) ? {} : { code: CODE_HINT }),
    ...(fields.password.length > 0 ? {} : { password: PASSWORD_REQUIRED }),
  }
}

export function isCodeAndPassword(fields: CodeAndPasswordFields): boolean {
  return Object.keys(fieldProblems(fields)).length === 0
}

/** The .txt a member downloads: the codes, one a line, with what they are for. */
export function recoveryCodesText(username: string, codes: readonly string[]): string {
  return [
    `Wren recovery codes for @${username}`,
    'Each code signs you in once when you cannot use your authenticator app. Keep them somewhere safe.',
    '',
    ...codes,
    '',
  ].join('\n')
}
