import { describe, expect, it } from 'vitest'
import { createActor, createMachine } from 'xstate'
import { settingsPageMachine } from '../../src/machines/settings-page/settings-page.machine'
import { dialogOf, sectionFor, SECTION_IDS } from '../../src/machines/settings-page/settings-page.rules'
import { selectBookmarksActor, selectDialog, selectSection } from '../../src/machines/settings-page/settings-page.selectors'
import { postsStandIn } from './models/bookmarks.model'
import { settingsPageModel } from './models/settings-page.model'
import { describeWalks } from './support/model'

// The Settings page. After each step: the section shown, which dialog is open (the one `?tab=` names for lists,
// bookmarks, reports and analytics, none for the others), and the Bookmarks dialog's actor running exactly while
// its dialog is open. A stand-in replaces the bookmarks actor: busy or not, as the test decides.

const idle = createMachine({ id: 'stand-in' })
const busy = createMachine({ id: 'busy-stand-in', initial: 'saving', states: { saving: { tags: ['busy'] } } })

describeWalks('settings page', settingsPageModel, async ({ walk, inspect, replay }) => {
  const machine = settingsPageMachine.provide({ actors: { bookmarks: idle as never } })
  const actor = createActor(machine, { input: { tab: walk.input.tab, posts: postsStandIn() as never }, inspect }).start()
  // Arriving: `?tab=` picks the section and opens its dialog at once.
  const arrived = sectionFor(walk.input.tab)
  expect(selectSection(actor.getSnapshot())).toBe(arrived)
  expect(selectDialog(actor.getSnapshot())).toBe(dialogOf(arrived))

  for await (const { event, before, snapshot } of replay(actor, { context: false })) {
    const dialog = selectDialog(snapshot)
    if (event.type === 'settings.tab') {
      const section = sectionFor(event.tab as string)
      expect(selectSection(snapshot)).toBe(section)
      // A new section opens its own dialog (or none); the same section again changes nothing.
      if (section !== before.context.section) expect(dialog).toBe(dialogOf(section))
      else expect(snapshot.value).toEqual(before.value)
    }
    if (event.type === 'settings.dialog.open') {
      expect(dialog).toBe(event.dialog)
      expect(selectSection(snapshot)).toBe(event.dialog)
    }
    if (event.type === 'settings.dialog.close') {
      expect(dialog).toBeNull()
      expect(selectSection(snapshot), 'the section stays').toBe(before.context.section)
    }
    // The bookmarks actor runs exactly while its dialog is open.
    expect(selectBookmarksActor(snapshot) !== null).toBe(dialog === 'bookmarks')
    expect(snapshot.children.bookmarks !== undefined).toBe(dialog === 'bookmarks')
  }
  actor.stop()
})

describe('settings page', () => {
  it('keeps the Bookmarks dialog open while its actor saves something', () => {
    const actor = createActor(settingsPageMachine.provide({ actors: { bookmarks: busy as never } }), {
      input: { tab: 'bookmarks', posts: postsStandIn() as never },
    }).start()
    actor.send({ type: 'settings.dialog.close' })
    expect(selectDialog(actor.getSnapshot())).toBe('bookmarks')
    actor.stop()
  })

  it('knows every section of the spec and the Account section, and only `?tab=` values it knows', () => {
    expect(SECTION_IDS).toEqual(['profile', 'privacy', 'notifications', 'appearance', 'lists', 'bookmarks', 'mutes', 'blocked', 'reports', 'analytics', 'security', 'account'])
    expect(sectionFor(null)).toBe('profile')
    expect(sectionFor('Bookmarks')).toBe('profile')
    expect(dialogOf('mutes')).toBeNull()
    expect(dialogOf('profile')).toBeNull()
  })
})
