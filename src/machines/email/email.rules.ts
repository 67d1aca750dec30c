// Settings -> Account -> Change email (docs/product.md, "Email"): the email machine's guard. The form checks the same
// rules with messages (./email.form.ts, the form library's schema); this file stays free of zod because the machine
// runs in the shell's banner on every signed-in first load. The server checks the address again (openapi.yaml
// `Email`) and the password itself.

/** The contract's Email pattern: something@something, no spaces. */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/
export const EMAIL_MAX = 254

export interface ChangeEmailFields {
  newEmail: string
  password: string
}

/** Whether a change may be sent: the same checks the form makes (the address trimmed first). */
export function isChangeEmail(fields: ChangeEmailFields): boolean {
  const address = fields.newEmail.trim()
  return address.length >= 1 && address.length <= EMAIL_MAX && EMAIL_SHAPE.test(address) && fields.password.length >= 1
}
