import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { simpleParser, type ParsedMail } from 'mailparser'

/**
 * The e2e server runs without SMTP_URL, so every mail it sends lands as an .eml file in DATA_DIR/outbox, as on a
 * newcomer's instance. A walk reads a member's mail there, the way the member would open it.
 */
const outbox = () => {
  const dataDir = process.env.E2E_DATA_DIR
  if (!dataDir) throw new Error('E2E_DATA_DIR is set by tests/e2e/playwright.config.ts')
  return path.join(dataDir, 'outbox')
}

async function mailsTo(address: string): Promise<ParsedMail[]> {
  const files = (await readdir(outbox()).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort()
  const mails = await Promise.all(files.map(async (f) => simpleParser(await readFile(path.join(outbox(), f)))))
  return mails.filter((m) => [m.to ?? []].flat().some((to) => to.value.some((v) => v.address?.toLowerCase() === address.toLowerCase())))
}

/** Waits for the newest mail to `address` whose subject matches, and answers it (polls the folder). */
export async function waitForMail(address: string, subject: RegExp, timeoutMs = 15_000): Promise<ParsedMail> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const found = (await mailsTo(address)).filter((m) => subject.test(m.subject ?? '')).at(-1)
    if (found) return found
    if (Date.now() > until) throw new Error(`No mail to ${address} with a subject like ${subject} in ${outbox()}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** The first link in a mail's text that starts with the app's address and goes to `pathname`. */
export function linkIn(mail: ParsedMail, pathname: string): string {
  const match = (mail.text ?? '').match(new RegExp(`https?://\\S+${pathname.replace(/[/?]/g, '\\$&')}\\S*`))
  if (!match) throw new Error(`No ${pathname} link in the mail "${mail.subject}"`)
  return match[0]
}
