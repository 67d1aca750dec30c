import { Parser } from 'htmlparser2'

/** What a page says about itself, before it is trimmed and capped (see `cleanText`). */
export interface PageMeta {
  title: string | null
  description: string | null
  image: string | null
  siteName: string | null
}

/** Longest attribute or title text kept while parsing: the caps applied later are far shorter. */
const RAW_MAX = 4096

/**
 * Reads a page's Open Graph tags (og:title, og:description, og:image, og:site_name), falling back to <title> and
 * <meta name="description">, from HTML given in chunks. `done` turns true once the head is over (</head> or <body>):
 * everything the preview needs has been seen and the caller stops reading.
 */
export class MetaReader {
  done = false
  private readonly og: Partial<Record<'title' | 'description' | 'image' | 'site_name', string>> = {}
  private metaDescription: string | null = null
  private title: string | null = null
  private inTitle = false
  private readonly parser: Parser

  constructor() {
    this.parser = new Parser(
      {
        onopentag: (name, attributes) => {
          if (name === 'body') this.done = true
          else if (name === 'title' && this.title === null) {
            this.inTitle = true
            this.title = ''
          } else if (name === 'meta') this.meta(attributes)
        },
        ontext: (text) => {
          if (this.inTitle && this.title !== null && this.title.length < RAW_MAX) this.title += text
        },
        onclosetag: (name) => {
          if (name === 'title') this.inTitle = false
          else if (name === 'head') this.done = true
        },
      },
      { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
    )
  }

  private meta(attributes: Record<string, string>): void {
    const key = (attributes.property ?? attributes.name ?? '').trim().toLowerCase()
    const content = attributes.content
    if (content === undefined) return
    const value = content.slice(0, RAW_MAX)
    switch (key) {
      case 'og:title':
      case 'og:description':
      case 'og:site_name':
        this.og[key.slice(3) as 'title' | 'description' | 'site_name'] ??= value
        return
      case 'og:image':
      case 'og:image:url':
      case 'og:image:secure_url':
        this.og.image ??= value
        return
      case 'description':
        this.metaDescription ??= value
        return
    }
  }

  write(chunk: string): void {
    if (!this.done) this.parser.write(chunk)
  }

  end(): PageMeta {
    this.parser.end()
    return {
      title: this.og.title ?? this.title,
      description: this.og.description ?? this.metaDescription,
      image: this.og.image ?? null,
      siteName: this.og.site_name ?? null,
    }
  }
}

// Controls, bidi overrides and zero-width characters: a title must not reorder or hide the text around it.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g

/**
 * A page's text as a card shows it: invisible characters dropped, whitespace collapsed, at most `max` code points
 * (an ellipsis marks the cut). Empty answers null. Shown as text, never as HTML.
 */
export function cleanText(raw: string | null, max: number): string | null {
  if (raw === null) return null
  const text = raw.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim()
  if (text === '') return null
  const points = [...text]
  return points.length <= max ? text : `${points.slice(0, max - 1).join('').trimEnd()}…`
}
