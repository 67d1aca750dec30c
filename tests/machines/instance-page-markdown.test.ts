import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { isSafeLink, renderMarkdown } from '../../src/views/pages/markdown'

// The instance pages' renderer (docs/product.md, "Instance pages"): what an admin writes becomes headings, lists,
// emphasis and links, and nothing hostile in it becomes markup or script.

const html = (text: string) => renderToStaticMarkup(renderMarkdown(text))

describe('the instance page renderer', () => {
  it('renders the markdown a page needs', () => {
    expect(html('## Your account\n\nKeep **your** password _to yourself_.\n\n- one\n- two\n\n1. first\n2. second')).toBe(
      '<h2>Your account</h2><p>Keep <strong>your</strong> password <em>to yourself</em>.</p>' +
        '<ul>\n<li>one</li>\n<li>two</li>\n</ul><ol>\n<li>first</li>\n<li>second</li>\n</ol>'.replaceAll('\n', ''),
    )
    expect(html('> quoted\n\n---\n\n`code` and [mail](mailto:ops@example.org)')).toBe(
      '<blockquote><p>quoted</p></blockquote><hr/><p><code>code</code> and ' +
        '<a href="mailto:ops@example.org" rel="nofollow noopener noreferrer">mail</a></p>',
    )
    expect(html('See [privacy](/privacy) and [the law](https://example.org/law).')).toBe(
      '<p>See <a href="/privacy">privacy</a> and <a href="https://example.org/law" rel="nofollow noopener noreferrer">the law</a>.</p>',
    )
    expect(html('3. third\n4. fourth')).toBe('<ol start="3"><li>third</li><li>fourth</li></ol>')
  })

  it.each([
    ['a script tag', '<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
    ['an image with onerror', '<img src=x onerror="alert(1)">', '<p>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</p>'],
    ['an HTML block', '<div onclick="alert(1)">\nhi\n</div>', '<p>&lt;div onclick=&quot;alert(1)&quot;&gt;\nhi\n&lt;/div&gt;</p>'],
    ['a javascript: link', '[click](javascript:alert(1))', '<p>[click](javascript:alert(1))</p>'],
    ['a javascript: link in capitals', '[click](JAVASCRIPT:alert(1))', '<p>[click](JAVASCRIPT:alert(1))</p>'],
    ['a javascript: autolink', '<javascript:alert(1)>', '<p>&lt;javascript:alert(1)&gt;</p>'],
    ['a data: link', '[x](data:text/html;base64,PHNjcmlwdD4=)', '<p>[x](data:text/html;base64,PHNjcmlwdD4=)</p>'],
    ['a reference-style javascript: link', '[x][evil]\n\n[evil]: javascript:alert(1)', '<p>[x][evil]</p><p>[evil]: javascript:alert(1)</p>'],
    [
      'a markdown image (a link, never loaded)',
      '![pixel](https://tracker.example/p.gif)',
      '<p>!<a href="https://tracker.example/p.gif" rel="nofollow noopener noreferrer">pixel</a></p>',
    ],
    ['an entity-encoded javascript: link', '[x](&#106;avascript:alert(1))', '<p>[x](javascript:alert(1))</p>'],
  ])('%s stays inert text', (_what, text, expected) => {
    const out = html(text)
    expect(out).toBe(expected)
    expect(out).not.toMatch(/<(script|img|div|iframe)/i)
    expect(out).not.toMatch(/<[^>]*\son\w+=/i)
    expect(out).not.toMatch(/href="(?!https?:|mailto:|\/)/i)
  })

  it('lets only http(s), mailto and this site\'s own paths be links', () => {
    for (const url of ['https://a.example', 'http://a.example', 'mailto:x@a.example', '/terms', '#top']) expect(isSafeLink(url)).toBe(true)
    for (const url of ['javascript:alert(1)', ' javascript:alert(1)', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd', '//evil.example', 'ftp://a.example'])
      expect(isSafeLink(url)).toBe(false)
  })

  it('renders a text at the size limit', () => {
    const text = `${'word '.repeat(9_999)}end`
    expect(html(text)).toBe(`<p>${text}</p>`)
  })
})
