import { css, cx } from 'styled-system/css'

// The verified mark beside a member's name: a filled rosette with a tick, in the accent colour, announced as
// 'Verified' (the shape alone says nothing to a screen reader).
export function VerifiedMark({ size = 18, className }: { size?: number; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      role="img"
      aria-label="Verified"
      className={cx(css({ color: 'accent', flexShrink: 0 }), className)}
    >
      <title>Verified</title>
      <path
        d="M12 2.6 14.3 4.3l2.8-.1.9 2.7 2.3 1.6-.9 2.7.9 2.7-2.3 1.6-.9 2.7-2.8-.1L12 21.4l-2.3-1.7-2.8.1-.9-2.7-2.3-1.6.9-2.7-.9-2.7 2.3-1.6.9-2.7 2.8.1L12 2.6Z"
        fill="currentColor"
      />
      <path d="m8.4 12.2 2.4 2.4 4.8-4.9" fill="none" stroke="white" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}
