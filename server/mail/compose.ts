/**
 * Every mail Wren sends, in one shape: a few paragraphs and at most one link to act on, as plain text and as simple
 * HTML, signed with the instance's name. Text given here is the server's own wording plus member-chosen names; all of
 * it is escaped for the HTML part, so a display name cannot inject markup into a mail.
 */

export interface MailContent {
  to: string
  subject: string
  /** Plain sentences, one paragraph each. */
  paragraphs: string[]
  /** The one thing to do: a button in HTML, a line with the address in text. */
  action?: { label: string; url: string }
  /** A last quiet line ("If you did not ask for this, ignore this mail."). */
  footnote?: string
}

export interface Mail {
  to: string
  subject: string
  text: string
  html: string
}

export interface Instance {
  name: string
  /** No trailing slash: links are `${publicUrl}/reset-password?token=...`. */
  publicUrl: string
}

const htmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => htmlEscapes[c] ?? c)
}

export function composeMail(instance: Instance, content: MailContent): Mail {
  const subject = `${content.subject} · ${instance.name}`
  const text = [
    ...content.paragraphs,
    ...(content.action ? [`${content.action.label}: ${content.action.url}`] : []),
    ...(content.footnote ? [content.footnote] : []),
    `— ${instance.name}, ${instance.publicUrl}`,
  ].join('\n\n')
  const paragraph = (body: string) => `<p style="margin:0 0 16px">${body}</p>`
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:#1a1a1a">',
    '<div style="max-width:560px;margin:0 auto;padding:24px">',
    `<p style="margin:0 0 24px;font-weight:600;font-size:18px">${escapeHtml(instance.name)}</p>`,
    ...content.paragraphs.map((p) => paragraph(escapeHtml(p))),
    ...(content.action
      ? [
          paragraph(
            `<a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:10px 18px;border-radius:8px;` +
              `background:#1d4ed8;color:#ffffff;text-decoration:none;font-weight:600">${escapeHtml(content.action.label)}</a>`,
          ),
          paragraph(`<span style="color:#555;font-size:13px">Or open ${escapeHtml(content.action.url)}</span>`),
        ]
      : []),
    ...(content.footnote ? [paragraph(`<span style="color:#555;font-size:13px">${escapeHtml(content.footnote)}</span>`)] : []),
    `<p style="margin:24px 0 0;color:#555;font-size:13px">${escapeHtml(instance.name)} · ${escapeHtml(instance.publicUrl)}</p>`,
    '</div></body></html>',
  ].join('')
  return { to: content.to, subject, text, html }
}
