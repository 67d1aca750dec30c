import type { AnyEventObject, AnyMachineSnapshot } from 'xstate'
import { shareMachine } from '../../../src/machines/share/share.machine'
import type { ShareService } from '../../../src/machines/share/share.service'
import type { MachineModel, Walk } from '../support/walks'

// The Share button's model. Two walks, one per browser: with a share sheet (shared, closed by the member, refused ->
// the link copied instead) and without one (copied, or the clipboard refused). Walked by tests/machines/share.test.ts
// and printed by `npm run paths -- share`.

export const ORIGIN = 'https://wren.example'

/** A browser as the share actor sees it; its calls are the test's controlled calls, so these never run in walks. */
export function fakeService(hasShareSheet: boolean, overrides: Partial<ShareService> = {}): ShareService {
  return {
    linkTo: (path) => `${ORIGIN}${path}`,
    hasShareSheet: () => hasShareSheet,
    share: () => Promise.resolve(),
    copy: () => Promise.resolve(),
    ...overrides,
  }
}

/** What the Web Share API rejects with when the member closes the sheet, and when the page may not share. */
export const cancelled = Object.assign(new Error('Share canceled'), { name: 'AbortError' })
export const notAllowed = Object.assign(new Error('Permission denied'), { name: 'NotAllowedError' })
export const clipboardRefused = Object.assign(new Error('Write permission denied'), { name: 'NotAllowedError' })

const share = { type: 'share.post', postId: 'p1' }

const sheetEvents: AnyEventObject[] = [
  share,
  { type: 'xstate.done.actor.openShareSheet' },
  { type: 'xstate.error.actor.openShareSheet', error: cancelled },
  { type: 'xstate.error.actor.openShareSheet', error: notAllowed },
  { type: 'xstate.done.actor.copyLink' },
  { type: 'xstate.error.actor.copyLink', error: clipboardRefused },
]

const clipboardEvents: AnyEventObject[] = [
  share,
  { type: 'xstate.done.actor.copyLink' },
  { type: 'xstate.error.actor.copyLink', error: clipboardRefused },
]

const label = (event: AnyEventObject) =>
  event.type.startsWith('xstate.error.actor.') ? `${event.type.replace('xstate.error.actor.', '')} refused (${(event.error as Error).name})` : undefined

const serializeState = (s: AnyMachineSnapshot) => JSON.stringify({ value: s.value, link: (s.context as { link: string | null }).link })

const walk = (name: string, hasShareSheet: boolean, events: AnyEventObject[]): Walk => ({
  name,
  options: () => ({ input: { service: fakeService(hasShareSheet) }, events, serializeState, label }),
})

export const shareModel = {
  name: 'share',
  machine: shareMachine,
  walks: [walk('share sheet', true, sheetEvents), walk('clipboard', false, clipboardEvents)],
} satisfies MachineModel
