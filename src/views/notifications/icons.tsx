import { iconSet } from '../ui/icon-set'

// The Notifications screen's type icons, drawn like the shell's set (src/views/ui/Icon.tsx: 24 px grid, 1.8 px
// strokes, currentColor) and kept here so the screen brings its own shapes.

const shapes = {
  like: <path d="M12 20.2S3.8 15.4 3.8 9.6A4.3 4.3 0 0 1 12 7.4a4.3 4.3 0 0 1 8.2 2.2c0 5.8-8.2 10.6-8.2 10.6Z" />,
  repost: (
    <>
      <path d="M4.5 11.5V10a3 3 0 0 1 3-3h12" />
      <path d="m16.5 4 3 3-3 3" />
      <path d="M19.5 12.5V14a3 3 0 0 1-3 3h-12" />
      <path d="m7.5 20-3-3 3-3" />
    </>
  ),
  reply: (
    <path d="M20.5 11.6c0 4.3-3.8 7.7-8.5 7.7-1.2 0-2.4-.2-3.4-.6L4 20.2l1.2-3.6C4.1 15.3 3.5 13.5 3.5 11.6 3.5 7.3 7.3 3.9 12 3.9s8.5 3.4 8.5 7.7Z" />
  ),
  mention: (
    <>
      <circle cx="12" cy="12" r="3.6" />
      <path d="M15.6 8.6v4.6a2.4 2.4 0 0 0 4.8 0V12a8.4 8.4 0 1 0-3.3 6.7" />
    </>
  ),
  follow: (
    <>
      <circle cx="10" cy="8.2" r="4" />
      <path d="M3 20.3c.8-3.5 3.6-5.6 7-5.6 1.6 0 3.1.4 4.3 1.3" />
      <path d="M18.5 14v6M15.5 17h6" />
    </>
  ),
  follow_request: (
    <>
      <circle cx="10" cy="8.2" r="4" />
      <path d="M3 20.3c.8-3.5 3.6-5.6 7-5.6 1.6 0 3.1.4 4.3 1.3" />
      <circle cx="18.2" cy="17.2" r="3.3" />
      <path d="M18.2 15.6v1.8l1.1.7" />
    </>
  ),
  follow_accepted: (
    <>
      <circle cx="10" cy="8.2" r="4" />
      <path d="M3 20.3c.8-3.5 3.6-5.6 7-5.6 1.6 0 3.1.4 4.3 1.3" />
      <path d="m15.3 17.4 2.2 2.2 4-4.2" />
    </>
  ),
  report: (
    <>
      <path d="M5 21V4" />
      <path d="M5 4.5h11.5l-2.2 4 2.2 4H5" />
    </>
  ),
  export_ready: (
    <>
      <path d="M12 4v11" />
      <path d="m7.5 10.5 4.5 4.5 4.5-4.5" />
      <path d="M4.5 16.5v2a1.5 1.5 0 0 0 1.5 1.5h12a1.5 1.5 0 0 0 1.5-1.5v-2" />
    </>
  ),
}

export const NotificationIcon = iconSet(shapes)
