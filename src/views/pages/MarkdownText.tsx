import { useMemo } from 'react'
import { css, cx } from 'styled-system/css'
import { renderMarkdown } from './markdown'

// An instance page's markdown as the page shows it (and the admin editor's preview): readable type for long text.
const prose = css({
  lineHeight: '1.7',
  color: 'fg.default',
  overflowWrap: 'anywhere',
  '& > * + *': { mt: '4' },
  '& h1, & h2, & h3, & h4, & h5, & h6': { fontWeight: 'bold', lineHeight: '1.3', letterSpacing: '-0.01em', mt: '7' },
  '& h1': { fontSize: '2xl' },
  '& h2': { fontSize: 'xl' },
  '& h3': { fontSize: 'lg' },
  '& h4, & h5, & h6': { fontSize: 'md' },
  '& > :first-child': { mt: 0 },
  '& ul, & ol': { pl: '6' },
  '& ul': { listStyleType: 'disc' },
  '& ol': { listStyleType: 'decimal' },
  '& li + li': { mt: '1.5' },
  '& a': { color: 'accent.text', textDecoration: 'underline', textUnderlineOffset: '2px', borderRadius: 'sm' },
  '& a:focus-visible': { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
  '& strong': { fontWeight: 'bold' },
  '& em': { fontStyle: 'italic' },
  '& blockquote': { borderLeftWidth: '3px', borderColor: 'accent', bg: 'accent.subtle', px: '4', py: '3', borderRadius: 'md' },
  '& blockquote > * + *': { mt: '2' },
  '& code': { fontFamily: 'mono', fontSize: '0.9em', bg: 'bg.subtle', px: '1', borderRadius: 'sm' },
  '& pre': { bg: 'bg.subtle', p: '3', borderRadius: 'md', overflowX: 'auto' },
  '& pre code': { bg: 'transparent', px: 0 },
  '& hr': { borderColor: 'border' },
  '& table': { borderCollapse: 'collapse', w: 'full', fontSize: 'sm' },
  '& th, & td': { borderWidth: '1px', borderColor: 'border', px: '2', py: '1', textAlign: 'left' },
})

export function MarkdownText({ text, className }: { text: string; className?: string }) {
  const content = useMemo(() => renderMarkdown(text), [text])
  return <div className={cx(prose, className)}>{content}</div>
}
