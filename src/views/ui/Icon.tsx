import type { ReactElement } from 'react'
import { iconSet } from './icon-set'

// A small hand-drawn icon set (24 px grid, 1.8 px strokes, currentColor), so the shell needs no icon package.
// Icons are decorative: the control that holds one carries the accessible name. The screens' own sets (post,
// notifications, profile) take any drawing they share with another set from here, so each shape is drawn once.

export const shapes = {
  home: (
    <>
      <path d="M3.5 10.5 12 3.8l8.5 6.7" />
      <path d="M5.5 9v10.2c0 .7.5 1.3 1.2 1.3h3.3v-6h4v6h3.3c.7 0 1.2-.6 1.2-1.3V9" />
    </>
  ),
  search: (
    <>
      <circle cx="10.8" cy="10.8" r="6.8" />
      <path d="m16 16 4.5 4.5" />
    </>
  ),
  compass: (
    <>
      <circle cx="12" cy="12" r="8.5" />
      <path d="m15.5 8.5-2 5-5 2 2-5 5-2Z" />
    </>
  ),
  messages: (
    <path d="M20.5 11.6c0 4.3-3.8 7.7-8.5 7.7-1.2 0-2.4-.2-3.4-.6L4 20.2l1.2-3.6C4.1 15.3 3.5 13.5 3.5 11.6 3.5 7.3 7.3 3.9 12 3.9s8.5 3.4 8.5 7.7Z" />
  ),
  mail: (
    <>
      <rect x="3.5" y="5.5" width="17" height="13" rx="2" />
      <path d="m4 7 8 6 8-6" />
    </>
  ),
  bell: (
    <>
      <path d="M6.2 16.8V11a5.8 5.8 0 1 1 11.6 0v5.8l1.7 1.7H4.5l1.7-1.7Z" />
      <path d="M10 20.8a2.2 2.2 0 0 0 4 0" />
    </>
  ),
  list: (
    <>
      <path d="M9 6.5h11M9 12h11M9 17.5h11" />
      <circle cx="4.8" cy="6.5" r=".9" fill="currentColor" />
      <circle cx="4.8" cy="12" r=".9" fill="currentColor" />
      <circle cx="4.8" cy="17.5" r=".9" fill="currentColor" />
    </>
  ),
  bookmark: <path d="M6.5 4.2h11v16.3L12 16.6l-5.5 3.9V4.2Z" />,
  heart: <path d="M12 20.2S3.8 15.4 3.8 9.6A4.3 4.3 0 0 1 12 7.4a4.3 4.3 0 0 1 8.2 2.2c0 5.8-8.2 10.6-8.2 10.6Z" />,
  repost: (
    <>
      <path d="M4.5 11.5V10a3 3 0 0 1 3-3h12" />
      <path d="m16.5 4 3 3-3 3" />
      <path d="M19.5 12.5V14a3 3 0 0 1-3 3h-12" />
      <path d="m7.5 20-3-3 3-3" />
    </>
  ),
  calendar: (
    <>
      <rect x="3.5" y="5" width="17" height="15.5" rx="2.5" />
      <path d="M3.5 10h17M8 3v4M16 3v4" />
    </>
  ),
  chart: (
    <>
      <path d="M4 20h16" />
      <path d="M7 16.5v-5M12 16.5V6.5M17 16.5v-8" />
    </>
  ),
  user: (
    <>
      <circle cx="12" cy="8.2" r="4.2" />
      <path d="M4.2 20.3c.9-3.6 4-5.8 7.8-5.8s6.9 2.2 7.8 5.8" />
    </>
  ),
  settings: (
    <>
      <path d="M4 7h9M17 7h3M4 17h3M11 17h9" />
      <circle cx="15" cy="7" r="2.2" />
      <circle cx="9" cy="17" r="2.2" />
    </>
  ),
  shield: <path d="M12 3.2 19.2 6v5.6c0 4.4-3 7.8-7.2 9.2-4.2-1.4-7.2-4.8-7.2-9.2V6L12 3.2Z" />,
  compose: (
    <>
      <path d="M12 20.5h8.5" />
      <path d="M16.3 4.3a2 2 0 0 1 2.9 2.9L8.4 18l-4 1 1-4L16.3 4.3Z" />
    </>
  ),
  logout: (
    <>
      <path d="M9.5 20.5H6a1.5 1.5 0 0 1-1.5-1.5V5A1.5 1.5 0 0 1 6 3.5h3.5" />
      <path d="M15.5 16.5 20 12l-4.5-4.5M20 12H9.5" />
    </>
  ),
  help: (
    <>
      <circle cx="12" cy="12" r="8.5" />
      <path d="M9.6 9.3a2.5 2.5 0 0 1 4.8.9c0 1.7-2.4 2.2-2.4 3.8" />
      <circle cx="12" cy="17" r=".9" fill="currentColor" stroke="none" />
    </>
  ),
  sun: (
    <>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2.8v2M12 19.2v2M2.8 12h2M19.2 12h2M5.5 5.5l1.4 1.4M17.1 17.1l1.4 1.4M5.5 18.5l1.4-1.4M17.1 6.9l1.4-1.4" />
    </>
  ),
  moon: <path d="M19.8 14.6A8.2 8.2 0 0 1 9.4 4.2a8.2 8.2 0 1 0 10.4 10.4Z" />,
  menu: <path d="M4 7h16M4 12h16M4 17h16" />,
  close: <path d="M6 6l12 12M18 6 6 18" />,
  chevronDown: <path d="m6.5 9.5 5.5 5.5 5.5-5.5" />,
  back: <path d="M19.5 12h-15M10.5 5.5 4 12l6.5 6.5" />,
  zap: <path d="M13.2 2.8 5 13.5h6.2l-1 7.7 8.3-10.7h-6.3l1-7.7Z" />,
  mute: (
    <>
      <path d="M4 9.5h3.5L12 5.5v13l-4.5-4H4v-5Z" />
      <path d="m16 9.5 5 5M21 9.5l-5 5" />
    </>
  ),
  unmute: (
    <>
      <path d="M4 9.5h3.5L12 5.5v13l-4.5-4H4v-5Z" />
      <path d="M15.5 9a4.2 4.2 0 0 1 0 6M18.3 6.5a8 8 0 0 1 0 11" />
    </>
  ),
  flag: (
    <>
      <path d="M5.5 21V4" />
      <path d="M5.5 4.5h11.8l-2.3 4 2.3 4H5.5" />
    </>
  ),
  lock: (
    <>
      <rect x="5" y="10.5" width="14" height="10" rx="2" />
      <path d="M8.2 10.5V7.8a3.8 3.8 0 0 1 7.6 0v2.7" />
    </>
  ),
  palette: (
    <>
      <path d="M12 3.5a8.5 8.5 0 0 0 0 17c1.1 0 1.7-.8 1.7-1.6 0-1.3-1.2-1.6-1.2-2.7 0-.9.7-1.5 1.6-1.5h2.4a4 4 0 0 0 4-4c0-4-3.8-7.2-8.5-7.2Z" />
      <circle cx="7.8" cy="11.5" r="1" fill="currentColor" />
      <circle cx="10.5" cy="7.7" r="1" fill="currentColor" />
      <circle cx="15" cy="8" r="1" fill="currentColor" />
    </>
  ),
  block: (
    <>
      <circle cx="12" cy="12" r="8.5" />
      <path d="m6 6 12 12" />
    </>
  ),
  check: <path d="m5 12.5 4.5 4.5L19 7.5" />,
  alert: (
    <>
      <circle cx="12" cy="12" r="8.5" />
      <path d="M12 7.5v5.5" />
      <circle cx="12" cy="16.3" r=".9" fill="currentColor" stroke="none" />
    </>
  ),
  info: (
    <>
      <circle cx="12" cy="12" r="8.5" />
      <path d="M12 11v5.5" />
      <circle cx="12" cy="7.8" r=".9" fill="currentColor" stroke="none" />
    </>
  ),
  sparkles: (
    <>
      <path d="M10 3.5 11.6 8.4 16.5 10l-4.9 1.6L10 16.5 8.4 11.6 3.5 10l4.9-1.6L10 3.5Z" />
      <path d="M17.5 14.5l.8 2.2 2.2.8-2.2.8-.8 2.2-.8-2.2-2.2-.8 2.2-.8.8-2.2Z" />
    </>
  ),
  key: (
    <>
      <circle cx="8" cy="15.5" r="4" />
      <path d="m10.8 12.7 8.7-8.7M16.5 7l2.5 2.5" />
    </>
  ),
  devices: (
    <>
      <rect x="3" y="5" width="13" height="10" rx="1.5" />
      <path d="M7 19h5M9.5 15v4" />
      <rect x="17.5" y="9" width="4" height="10" rx="1" />
    </>
  ),
  eye: (
    <>
      <path d="M2.8 12S6.2 5.5 12 5.5 21.2 12 21.2 12 17.8 18.5 12 18.5 2.8 12 2.8 12Z" />
      <circle cx="12" cy="12" r="2.8" />
    </>
  ),
  download: (
    <>
      <path d="M12 4v11" />
      <path d="m7.5 10.5 4.5 4.5 4.5-4.5" />
      <path d="M4.5 16.5v2a1.5 1.5 0 0 0 1.5 1.5h12a1.5 1.5 0 0 0 1.5-1.5v-2" />
    </>
  ),
} satisfies Record<string, ReactElement>

export type IconName = keyof typeof shapes

export const Icon = iconSet(shapes)
