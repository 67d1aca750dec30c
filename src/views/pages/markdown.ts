import MarkdownIt, { type Token } from 'markdown-it'
import { createElement, Fragment, type ReactNode } from 'react'

// The instance pages' markdown, rendered safely (docs/product.md, "Instance pages"; docs/security.md, "Instance
// pages"). markdown-it parses with raw HTML off, so `<script>` or `<img onerror>` are text; its tokens then become
// React elements from a short list of tags, with `href` as the only attribute, so nothing reaches the page as HTML
// (no innerHTML) whatever the parser lets through. Links go only to http(s), mailto or this site's own paths.
// Images are off: the CSP would block other sites' pictures anyway, and a picture on the privacy page could be a
// tracking pixel.

const markdown = new MarkdownIt('default', { html: false, linkify: false, typographer: false })
markdown.disable(['image'])

const SAFE_LINK = /^(?:https?:|mailto:|\/(?!\/)|#)/i

/** http(s), mailto, or a path or anchor of this site; anything else (javascript:, data:, vbscript:) is no link. */
export function isSafeLink(url: string): boolean {
  return SAFE_LINK.test(url)
}

// markdown-it leaves a link whose target fails this as the text it was written as.
markdown.validateLink = isSafeLink

const TAGS = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'strong', 'em', 's', 'a', 'code', 'pre',
  'table', 'thead', 'tbody', 'tr', 'th', 'td', 'hr', 'br',
])

interface Open {
  tag: string | null
  props: Record<string, string | number>
  children: ReactNode[]
}

function propsOf(token: Token): Record<string, string | number> {
  if (token.tag === 'a') {
    const href = String(token.attrGet('href') ?? '')
    // Pages of another site open as such: no referrer, no access back to this page.
    return isSafeLink(href) ? { href, ...(/^(?:https?:|mailto:)/i.test(href) ? { rel: 'nofollow noopener noreferrer' } : {}) } : {}
  }
  if (token.tag === 'ol') {
    const start = token.attrGet('start')
    return start === null || !Number.isInteger(Number(start)) ? {} : { start: Number(start) }
  }
  return {}
}

function element(tag: string | null, props: Record<string, unknown>, children: ReactNode[]): ReactNode {
  if (tag === null || !TAGS.has(tag)) return createElement(Fragment, { key: props.key as string }, ...children)
  return createElement(tag, props, ...(children.length > 0 ? children : []))
}

function build(tokens: readonly Token[]): ReactNode[] {
  const root: Open = { tag: null, props: {}, children: [] }
  const stack: Open[] = [root]
  const top = () => stack[stack.length - 1]!
  const add = (node: ReactNode) => top().children.push(node)
  const key = () => String(top().children.length)
  for (const token of tokens) {
    if (token.nesting === 1) {
      // A tight list's paragraphs are hidden: their text goes straight into the item.
      stack.push({ tag: token.hidden ? null : token.tag, props: token.hidden ? {} : propsOf(token), children: [] })
      continue
    }
    if (token.nesting === -1) {
      const open = stack.length > 1 ? stack.pop()! : root
      if (open === root) continue
      add(element(open.tag, { ...open.props, key: key() }, open.children))
      continue
    }
    switch (token.type) {
      case 'inline':
        add(createElement(Fragment, { key: key() }, ...build(token.children ?? [])))
        break
      case 'text':
        add(token.content)
        break
      case 'softbreak':
        add('\n')
        break
      case 'hardbreak':
        add(createElement('br', { key: key() }))
        break
      case 'hr':
        add(createElement('hr', { key: key() }))
        break
      case 'code_inline':
        add(createElement('code', { key: key() }, token.content))
        break
      case 'code_block':
      case 'fence':
        add(createElement('pre', { key: key() }, createElement('code', null, token.content)))
        break
      default:
        // Anything else the parser may make (html is off, so none is expected) is shown as its text, never as markup.
        if (token.content) add(token.content)
    }
  }
  // Unclosed tags (not made by markdown-it, but cheap to be sure of) keep their children.
  while (stack.length > 1) {
    const open = stack.pop()!
    top().children.push(element(open.tag, { ...open.props, key: String(top().children.length) }, open.children))
  }
  return root.children
}

/** The page's markdown as React elements: headings, paragraphs, lists, quotes, emphasis, code, tables and links. */
export function renderMarkdown(text: string): ReactNode {
  return createElement(Fragment, null, ...build(markdown.parse(text, {})))
}
