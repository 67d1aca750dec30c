import type { ReactElement } from 'react'
import { iconSet } from '../ui/icon-set'

// The profile's own icons, drawn like the shell's set (src/views/ui/Icon.tsx: 24 px grid, 1.8 px strokes,
// currentColor) and kept here so the profile adds nothing to, and never conflicts in, the shared set.

const shapes = {
  camera: (
    <>
      <path d="M4.5 8.5A1.5 1.5 0 0 1 6 7h2.2l1.4-2h4.8l1.4 2H18a1.5 1.5 0 0 1 1.5 1.5v9A1.5 1.5 0 0 1 18 19H6a1.5 1.5 0 0 1-1.5-1.5v-9Z" />
      <circle cx="12" cy="12.8" r="3.2" />
    </>
  ),
  calendar: (
    <>
      <rect x="3.5" y="5" width="17" height="15.5" rx="2.5" />
      <path d="M3.5 10h17M8 3v4M16 3v4" />
    </>
  ),
  mail: (
    <>
      <rect x="3.5" y="5.5" width="17" height="13" rx="2" />
      <path d="m4 7 8 6 8-6" />
    </>
  ),
  edit: (
    <>
      <path d="M12 20.5h8.5" />
      <path d="M16.3 4.3a2 2 0 0 1 2.9 2.9L8.4 18l-4 1 1-4L16.3 4.3Z" />
    </>
  ),
} satisfies Record<string, ReactElement>

export type ProfileIconName = keyof typeof shapes

export const ProfileIcon = iconSet(shapes)
