// The browser's ways of sharing a link, behind one small service so the share actor never touches `navigator` itself
// (tests hand it a fake): the system share sheet where the browser has one (Web Share API), else the clipboard.

export interface ShareService {
  /** The absolute address of an app path ('/post/…' -> 'https://wren.example/post/…'). */
  linkTo(path: string): string
  /** Whether the browser offers its share sheet (`navigator.share`). */
  hasShareSheet(): boolean
  /** Opens the share sheet with the link; rejects with an AbortError when the member closes it without sharing. */
  share(url: string): Promise<void>
  /** Puts the link on the clipboard; rejects when the browser refuses (no permission, no secure context). */
  copy(text: string): Promise<void>
}

const browser = (): Navigator | undefined => (typeof navigator === 'undefined' ? undefined : navigator)

export const browserShareService: ShareService = {
  linkTo: (path) => new URL(path, typeof window === 'undefined' ? 'http://localhost' : window.location.origin).href,
  hasShareSheet: () => typeof browser()?.share === 'function',
  share: async (url) => {
    const nav = browser()
    if (!nav?.share) throw new Error('This browser has no share sheet')
    await nav.share({ url })
  },
  copy: async (text) => {
    const clipboard = browser()?.clipboard
    if (!clipboard) throw new Error('This browser offers no clipboard here')
    await clipboard.writeText(text)
  },
}
