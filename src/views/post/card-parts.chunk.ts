// The card parts that load on demand (./card-parts.ts): one chunk.
export { DeletePostDialog } from './DeletePostDialog'
export { PostHistory } from './PostHistory'
export { PostPoll } from './PostPoll'
export { QuotedCard } from './QuotedCard'
