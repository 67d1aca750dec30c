import type { SnapshotFrom } from 'xstate'
import type { DiscoverMachine } from './discover.machine'

// Narrow reads of the discovery panels for the views (one useSelector each).
type DiscoverSnapshot = SnapshotFrom<DiscoverMachine>

export const selectTrends = (s: DiscoverSnapshot) => s.context.trends
export const selectSuggestions = (s: DiscoverSnapshot) => s.context.suggestions
