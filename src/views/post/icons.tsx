import type { ReactElement } from 'react'
import { shapes as shared } from '../ui/Icon'
import { iconSet } from '../ui/icon-set'

// The post card's and composer's icons, drawn like the shell's set (src/views/ui/Icon.tsx: 24 px grid, 1.8 px
// strokes, currentColor). Drawings other sets also use come from there under the post's names; the rest stay here, so
// posts add no weight to, and no conflicts in, the shared set.

const shapes = {
  heart: shared.heart,
  repost: shared.repost,
  reply: shared.messages,
  share: (
    <>
      <path d="M12 14.5V3.8" />
      <path d="m8 7.5 4-4 4 4" />
      <path d="M5 12.5v6A1.5 1.5 0 0 0 6.5 20h11a1.5 1.5 0 0 0 1.5-1.5v-6" />
    </>
  ),
  bookmark: <path d="M6.5 3.8h11a1 1 0 0 1 1 1v15.4l-6.5-4.4-6.5 4.4V4.8a1 1 0 0 1 1-1Z" />,
  views: shared.chart,
  // A speech mark in a box: a post quoted inside another.
  quote: (
    <>
      <path d="M4 5h16v11H9l-5 4z" />
      <path d="M9.5 8.5c-1.2.4-1.8 1.3-1.8 2.6h1.8v1.8H7.7M14.8 8.5c-1.2.4-1.8 1.3-1.8 2.6h1.8v1.8H13" />
    </>
  ),
  detach: (
    <>
      <path d="M9.5 14.5 7 17a3.5 3.5 0 0 1-5-5l2.5-2.5M14.5 9.5 17 7a3.5 3.5 0 0 1 5 5l-2.5 2.5" />
      <path d="m8 8-2-2M16 16l2 2M12 4v2.5M12 17.5V20" />
    </>
  ),
  more: (
    <>
      <circle cx="5.5" cy="12" r="1.5" fill="currentColor" stroke="none" />
      <circle cx="12" cy="12" r="1.5" fill="currentColor" stroke="none" />
      <circle cx="18.5" cy="12" r="1.5" fill="currentColor" stroke="none" />
    </>
  ),
  trash: (
    <>
      <path d="M4.5 7h15" />
      <path d="M9.5 7V4.5h5V7" />
      <path d="m6.5 7 .9 12.1A1.5 1.5 0 0 0 8.9 20.5h6.2a1.5 1.5 0 0 0 1.5-1.4L17.5 7" />
    </>
  ),
  edit: shared.compose,
  flag: shared.flag,
  block: shared.block,
  poll: <path d="M5 20v-8M12 20V4.5M19 20v-11" />,
  image: (
    <>
      <rect x="3.5" y="4.5" width="17" height="15" rx="2.5" />
      <circle cx="9" cy="10" r="1.8" />
      <path d="m20.5 16-5-5L7 19.5" />
    </>
  ),
  globe: (
    <>
      <circle cx="12" cy="12" r="8.5" />
      <path d="M3.5 12h17M12 3.5c2.3 2.4 3.5 5.2 3.5 8.5s-1.2 6.1-3.5 8.5c-2.3-2.4-3.5-5.2-3.5-8.5s1.2-6.1 3.5-8.5Z" />
    </>
  ),
  followers: (
    <>
      <circle cx="9" cy="8.5" r="3.5" />
      <path d="M2.8 19.5c.7-3 3.2-4.8 6.2-4.8s5.5 1.8 6.2 4.8" />
      <path d="M15.5 5.2a3.5 3.5 0 0 1 0 6.6M17.8 14.9c1.8.6 3 2.2 3.4 4.6" />
    </>
  ),
  at: (
    <>
      <circle cx="12" cy="12" r="3.6" />
      <path d="M15.6 12v1.4a2.5 2.5 0 0 0 5 0V12a8.6 8.6 0 1 0-3.4 6.8" />
    </>
  ),
  warning: (
    <>
      <path d="M10.3 4.6 2.9 17.5a2 2 0 0 0 1.7 3h14.8a2 2 0 0 0 1.7-3L13.7 4.6a2 2 0 0 0-3.4 0Z" />
      <path d="M12 9.5v4.5" />
      <circle cx="12" cy="17.1" r=".9" fill="currentColor" stroke="none" />
    </>
  ),
  calendar: shared.calendar,
  chevronLeft: <path d="m14.5 5.5-6.5 6.5 6.5 6.5" />,
  chevronRight: <path d="m9.5 5.5 6.5 6.5-6.5 6.5" />,
  close: shared.close,
  play: <path d="M8 5.5v13l10.5-6.5L8 5.5Z" fill="currentColor" />,
  verified: (
    <>
      <path
        d="M12 2.6 14.3 4.3l2.8-.1.9 2.7 2.3 1.6-.9 2.7.9 2.7-2.3 1.6-.9 2.7-2.8-.1L12 21.4l-2.3-1.7-2.8.1-.9-2.7-2.3-1.6.9-2.7-.9-2.7 2.3-1.6.9-2.7 2.8.1L12 2.6Z"
        fill="currentColor"
        stroke="none"
      />
      <path d="m8.4 12.2 2.4 2.4 4.8-4.9" stroke="white" strokeWidth={2} />
    </>
  ),
} satisfies Record<string, ReactElement>

export type PostIconName = keyof typeof shapes

export const PostIcon = iconSet(shapes)
