import type { TourStep } from '../../machines/tour/tour.machine'

/** The welcome tour's words, one entry per step of the tour machine (docs/product.md, "Welcome tour and banner"). */
export const TOUR_COPY: Record<TourStep, { title: string; body: string }> = {
  welcome: {
    title: 'Welcome to Wren',
    body: "A social network your community runs for itself. Here's a quick look around; it takes less than a minute.",
  },
  connecting: {
    title: 'Connect with people',
    body: 'Follow people from their profiles to see their posts in your feed. Reply, like and repost to join the conversation.',
  },
  discovering: {
    title: "Discover what's happening",
    body: 'Search finds posts, people and #hashtags. Tap a hashtag or an @mention in any post to follow the thread.',
  },
  messaging: {
    title: 'Talk privately',
    body: 'Send direct messages from Messages. Your chats are end-to-end encrypted: only you and the people you talk with can read them.',
  },
  updates: {
    title: 'Stay in the loop',
    body: 'Notifications tell you when someone follows or mentions you, or replies to, likes or reposts your posts.',
  },
  customising: {
    title: 'Make it yours',
    body: 'Add a photo and a bio in Settings, choose who can message or mention you, and switch between light and dark any time.',
  },
}
