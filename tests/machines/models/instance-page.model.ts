import type { AnyEventObject } from 'xstate'
import { Network } from '../../../src/api/errors'
import type { InstancePage } from '../../../src/api/pages.calls'
import { instancePageMachine } from '../../../src/machines/instance-page/instance-page.machine'
import { type MachineModel, valueAndContext } from '../support/walks'

// /terms and /privacy as anyone reads them: the page, or why not and Try again. Walked by
// tests/machines/instance-page.test.ts and printed by `npm run paths -- instance-page`.

export const termsPage: InstancePage = {
  slug: 'terms',
  title: 'Terms of Service',
  body: '## Be kind',
  updatedAt: '2026-11-01T10:00:00.000Z',
  isDefault: false,
}
export const offline = new Network({ message: 'Unable to reach the server.' })

const events: AnyEventObject[] = [
  { type: 'page.retry' },
  { type: 'xstate.done.actor.loadPage', output: termsPage },
  { type: 'xstate.error.actor.loadPage', error: offline },
]

export const instancePageModel = {
  name: 'instance-page',
  machine: instancePageMachine,
  walks: [
    {
      name: '',
      options: () => ({
        events,
        input: { slug: 'terms' },
        serializeState: valueAndContext,
      }),
    },
  ],
} satisfies MachineModel
