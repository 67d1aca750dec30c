import type { SnapshotFrom } from 'xstate'
import type { BlockMachine } from './block.machine'

type Snapshot = SnapshotFrom<BlockMachine>

/** The confirm dialog shows while the member decides and while the block is on its way. */
export const selectConfirmOpen = (s: Snapshot) => s.matches('confirming') || s.matches('blocking')
export const selectBlocking = (s: Snapshot) => s.hasTag('busy')
