import { Fragment, memo, useMemo } from 'react'
import { Link } from 'wouter'
import { css, cx } from 'styled-system/css'
import { tokenize } from '../../api/contract/post-text'
import { hashtagHref, profileHref } from './content-tokens'

// A post's text with @mentions and #hashtags as in-app links and http(s) links as external anchors. Built from
// tokens as React nodes: the text is never parsed as HTML, so `<script>` or `javascript:` stays plain text.

const link = css({
  color: 'accent.text',
  fontWeight: 'medium',
  _hover: { textDecoration: 'underline' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', borderRadius: 'sm' },
})

const text = css({
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  lineHeight: '1.5',
  color: 'fg.default',
})

export const PostContent = memo(function PostContent({ content, large = false }: { content: string; large?: boolean }) {
  const tokens = useMemo(() => tokenize(content), [content])
  if (content === '') return null
  return (
    <p className={cx(text, css({ fontSize: large ? 'lg' : 'md' }))}>
      {tokens.map((token, i) => {
        switch (token.kind) {
          case 'mention':
            return (
              <Link key={i} href={profileHref(token.username)} className={link}>
                {token.text}
              </Link>
            )
          case 'hashtag':
            return (
              <Link key={i} href={hashtagHref(token.tag)} className={link}>
                {token.text}
              </Link>
            )
          case 'link':
            return (
              <a key={i} href={token.href} target="_blank" rel="noopener noreferrer nofollow" className={link}>
                {token.text}
              </a>
            )
          default:
            return <Fragment key={i}>{token.text}</Fragment>
        }
      })}
    </p>
  )
})
