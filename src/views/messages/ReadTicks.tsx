import { MessagesIcon } from './icons'

/** One tick for a sent message, two once the other member has read it; named for screen readers. */
export function ReadTicks({ read, size = 16 }: { read: boolean; size?: number }) {
  return (
    <span role="img" aria-label={read ? 'Read' : 'Sent'} title={read ? 'Read' : 'Sent'} style={{ display: 'inline-flex' }}>
      <MessagesIcon name={read ? 'ticks' : 'tick'} size={size} />
    </span>
  )
}
