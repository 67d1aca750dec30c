import type { ReactElement } from 'react'
import { iconSet } from '../ui/icon-set'

// The Messages screen's own icons, drawn like the shell's set (src/views/ui/Icon.tsx), kept with the screen.

const shapes = {
  send: <path d="M4 12 20 4l-4 16-4-6.5L4 12Zm8 1.5L20 4" />,
  tick: <path d="m4.5 12.5 4 4 9-9" />,
  ticks: (
    <>
      <path d="m2 12.5 4 4 9-9" />
      <path d="m11 15.5 1 1 9-9" />
    </>
  ),
  image: (
    <>
      <rect x="3.5" y="4.5" width="17" height="15" rx="2" />
      <circle cx="9" cy="10" r="1.6" />
      <path d="m4 18 5-5 3.5 3.5L15 14l5 4.5" />
    </>
  ),
  more: (
    <>
      <circle cx="5.5" cy="12" r="1" />
      <circle cx="12" cy="12" r="1" />
      <circle cx="18.5" cy="12" r="1" />
    </>
  ),
  edit: <path d="M4 20h4L19 9l-4-4L4 16v4Zm9-13 4 4" />,
  trash: <path d="M4.5 7h15M9.5 7V4.5h5V7m-8 0 .8 12.5h9.4L17.5 7" />,
  shield: <path d="M12 3.5 5 6v5.5c0 4.3 3 7.7 7 9 4-1.3 7-4.7 7-9V6l-7-2.5Zm-3 8.5 2.2 2.2L15.5 10" />,
} satisfies Record<string, ReactElement>

export type MessagesIconName = keyof typeof shapes

export const MessagesIcon = iconSet(shapes)
