import { describe, expect, it } from 'vitest'
import { createActor, createMachine } from 'xstate'
import { settingsPageMachine } from '../../src/machines/settings-page/settings-page.machine'
import { dialogOf, sectionFor, SECTION_IDS } from '../../src/machines/settings-page/settings-page.rules'
import { selectBookmarksActor, selectDialog, selectSection } from '../../src/machines/settings-page/settings-page.selectors'
import { postsStandIn } from './models/bookmarks.model'
import { settingsPageModel } from './models/settings-page.model'
import { Coverage, perform, walkPaths } from './support/model'
import { Calls } from './support/controlled-actors'

// The Settings page. After each step: the section shown, which dialog is open (the one `?tab=` names for lists,
// bookmarks, reports and analytics, none for the others), and the Bookmarks dialog's actor running exactly while
// its dialog is open. A stand-in replaces the bookmarks actor: busy or not, as the test decides.

const coverage = new Coverage(settingsPageMachine)
const idle = createMachine({ id: 'stand-in' })
const busy = createMachine({ id: 'busy-stand-in', initial: 'saving', states: { saving: { tags: ['busy'] } } })

describe.each(settingsPageModel.walks.map((walk) => [walk.name, walk] as const))('settings page: %s', (_name, walk) => {
  const paths = walkPaths(settingsPageModel, walk)

  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_title, path) => {
    const machine = settingsPageMachine.provide({ actors: { bookmarks: idle as never } })
    const actor = createActor(machine, { input: { tab: walk.input.tab, posts: postsStandIn() as never }, inspect: coverage.inspector }).start()
    coverage.see(actor.getSnapshot())
    // Arriving: `?tab=` picks the section and opens its dialog at once.
    const arrived = sectionFor(walk.input.tab)
    expect(selectSection(actor.getSnapshot())).toBe(arrived)
    expect(selectDialog(actor.getSnapshot())).toBe(dialogOf(arrived))

    for (const step of path.steps) {
      const before = actor.getSnapshot()
      await perform(actor, new Calls(), step.event)
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      const event = step.event
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
})

describe('settings page', () => {
  it('paths enter every state and take every transition', () => {
    coverage.expectComplete()
  })

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
