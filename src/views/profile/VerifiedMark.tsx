// The same verified mark as on post cards, so a member's tick looks alike on their profile, in lists and on posts.
export { VerifiedMark } from '../post/PostAuthor'
