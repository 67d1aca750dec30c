import type { ReactElement, SVGProps } from 'react'

export interface IconProps<Name extends string> extends Omit<SVGProps<SVGSVGElement>, 'name'> {
  name: Name
  size?: number | string
}

/**
 * One drawing convention for every icon in the app (24 px grid, 1.8 px strokes, currentColor, decorative: the
 * control holding an icon carries the accessible name). Screens keep their own shape sets so a lazily loaded screen
 * brings its icons with it, but they all draw through this one component, and a drawing two sets need is written once,
 * in the shell's set (./Icon.tsx), which every screen loads anyway.
 */
export function iconSet<Shapes extends Record<string, ReactElement>>(shapes: Shapes) {
  return function SetIcon({ name, size = '1.25em', ...rest }: IconProps<Extract<keyof Shapes, string>>) {
    return (
      <svg
        viewBox="0 0 24 24"
        width={size}
        height={size}
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        {...rest}
      >
        {shapes[name]}
      </svg>
    )
  }
}
