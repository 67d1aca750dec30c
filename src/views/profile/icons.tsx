import type { ReactElement } from 'react'
import { shapes as shared } from '../ui/Icon'
import { iconSet } from '../ui/icon-set'

// The profile's icons, drawn like the shell's set (src/views/ui/Icon.tsx: 24 px grid, 1.8 px strokes, currentColor).
// Drawings other sets also use come from there under the profile's names; the camera stays here.

const shapes = {
  camera: (
    <>
      <path d="M4.5 8.5A1.5 1.5 0 0 1 6 7h2.2l1.4-2h4.8l1.4 2H18a1.5 1.5 0 0 1 1.5 1.5v9A1.5 1.5 0 0 1 18 19H6a1.5 1.5 0 0 1-1.5-1.5v-9Z" />
      <circle cx="12" cy="12.8" r="3.2" />
    </>
  ),
  calendar: shared.calendar,
  mail: shared.mail,
  edit: shared.compose,
} satisfies Record<string, ReactElement>

export type ProfileIconName = keyof typeof shapes

export const ProfileIcon = iconSet(shapes)
