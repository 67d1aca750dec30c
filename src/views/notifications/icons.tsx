import { shapes as shared } from '../ui/Icon'
import { iconSet } from '../ui/icon-set'

// The Notifications screen's type icons, drawn like the shell's set (src/views/ui/Icon.tsx: 24 px grid, 1.8 px
// strokes, currentColor). Drawings other sets also use come from there; the rest stay here, with the screen.

/** The member the three follow icons start from; each adds its own mark beside them. */
const person = (
  <>
    <circle cx="10" cy="8.2" r="4" />
    <path d="M3 20.3c.8-3.5 3.6-5.6 7-5.6 1.6 0 3.1.4 4.3 1.3" />
  </>
)

const shapes = {
  like: shared.heart,
  repost: shared.repost,
  reply: shared.messages,
  mention: (
    <>
      <circle cx="12" cy="12" r="3.6" />
      <path d="M15.6 8.6v4.6a2.4 2.4 0 0 0 4.8 0V12a8.4 8.4 0 1 0-3.3 6.7" />
    </>
  ),
  follow: (
    <>
      {person}
      <path d="M18.5 14v6M15.5 17h6" />
    </>
  ),
  follow_request: (
    <>
      {person}
      <circle cx="18.2" cy="17.2" r="3.3" />
      <path d="M18.2 15.6v1.8l1.1.7" />
    </>
  ),
  follow_accepted: (
    <>
      {person}
      <path d="m15.3 17.4 2.2 2.2 4-4.2" />
    </>
  ),
  report: (
    <>
      <path d="M5 21V4" />
      <path d="M5 4.5h11.5l-2.2 4 2.2 4H5" />
    </>
  ),
  export_ready: shared.download,
  // A speech mark: the post is quoted inside another.
  quote: (
    <>
      <path d="M4 5h16v11H9l-5 4z" />
      <path d="M9.5 8.5c-1.2.4-1.8 1.3-1.8 2.6h1.8v1.8H7.7M14.8 8.5c-1.2.4-1.8 1.3-1.8 2.6h1.8v1.8H13" />
    </>
  ),
  poll_closed: <path d="M5 20v-8M12 20V4.5M19 20v-11M3.5 20.2h17" />,
}

export const NotificationIcon = iconSet(shapes)
