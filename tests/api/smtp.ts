import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/**
 * A real SMTP server inside the test process: the app sends to it through SMTP_URL exactly as it would to a mail
 * provider, and tests read what arrived, parsed.
 */
export interface TestSmtp {
  url: string
  received: ParsedMail[]
  /** Waits for the first mail to `to` that `match` accepts (and answers it). */
  waitFor: (to: string, match?: (mail: ParsedMail) => boolean, timeoutMs?: number) => Promise<ParsedMail>
  /** While true, every mail is refused with a temporary 451 (a mail server that is away). */
  refuse: (refusing: boolean) => void
  close: () => Promise<void>
}

export async function startSmtp(): Promise<TestSmtp> {
  const received: ParsedMail[] = []
  const waiters = new Set<() => void>()
  let refusing = false
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      if (refusing) {
        stream.resume()
        stream.on('end', () => callback(Object.assign(new Error('Try again later'), { responseCode: 451 })))
        return
      }
      simpleParser(stream)
        .then((mail) => {
          received.push(mail)
          for (const wake of waiters) wake()
          callback()
        })
        .catch(callback)
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.server.address()
  if (!address || typeof address === 'string') throw new Error('The test SMTP server has no port')
  const recipients = (mail: ParsedMail) =>
    [mail.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address?.toLowerCase()))
  const find = (to: string, match: (mail: ParsedMail) => boolean) =>
    received.find((mail) => recipients(mail).includes(to.toLowerCase()) && match(mail))
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    received,
    refuse: (value) => {
      refusing = value
    },
    waitFor: (to, match = () => true, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const mail = find(to, match)
          if (!mail) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve(mail)
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`No mail to ${to} arrived within ${timeoutMs} ms (${received.length} others did)`))
        }, timeoutMs)
        waiters.add(check)
        check()
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
