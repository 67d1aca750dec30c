import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import {
  DOMAIN_MUTED,
  DOMAIN_UNMUTED,
  KEYWORD_MUTED,
  KEYWORD_UNMUTED,
  mutesMachine,
  USER_UNMUTED,
  type MuteChange,
} from '../../src/machines/mutes/mutes.machine'
import { checkMutedDomain, checkMutedKeyword, MUTE_FAILED, UNMUTE_FAILED } from '../../src/machines/mutes/mutes.rules'
import {
  selectCanAddDomain,
  selectCanAddKeyword,
  selectDomains,
  selectFailed,
  selectKeywords,
  selectLoading,
  selectOpen,
  selectSaving,
  selectTab,
  selectUsers,
} from '../../src/machines/mutes/mutes.selectors'
import { domainTaken, keywordTaken, mutesModel } from './models/mutes.model'
import { Calls } from './support/controlled-actors'
import { Coverage, perform, walkPaths } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The Mute Management dialog. What the member sees after each step: whether the dialog is open and on which tab, the
// spinner or the retry, the rows and chips, the two forms (what is typed, the message under each, whether Add is
// offered), every toast, and what was asked of the server. The walks are the model's (./models/mutes.model.ts).

const SUCCESS: Record<MuteChange['kind'], string> = {
  unmuteUser: USER_UNMUTED,
  muteKeyword: KEYWORD_MUTED,
  unmuteKeyword: KEYWORD_UNMUTED,
  muteDomain: DOMAIN_MUTED,
  unmuteDomain: DOMAIN_UNMUTED,
}

const coverage = new Coverage(mutesMachine)

describe.each(mutesModel.walks.map((walk) => [walk.name, walk] as const))('mute management: %s', (_name, walk) => {
  const paths = walkPaths(mutesModel, walk)

  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_title, path) => {
    const calls = new Calls()
    const machine = mutesMachine.provide({ actors: { loadMutes: calls.invoked(), change: calls.actor('change') } })
    const actor = withToasts(createActor(machine, { input: walk.input, inspect: coverage.inspector })).start()
    coverage.see(actor.getSnapshot())
    // `?tab=mutes` opens the dialog and reads the mutes at once; otherwise nothing shows or loads until Manage Mutes.
    expect(selectOpen(actor.getSnapshot())).toBe(walk.input.open)
    expect(calls.started).toEqual(walk.input.open ? [{ id: 'loadMutes', input: { cursor: null } }] : [])

    for (const step of path.steps) {
      const before = actor.getSnapshot()
      const toastsBefore = shownToasts().length
      const startedBefore = calls.started.length
      await perform(actor, calls, step.event)
      const snapshot = actor.getSnapshot()
      coverage.see(snapshot)
      expect(snapshot.value).toEqual(step.state.value)
      expect(snapshot.context).toEqual(step.state.context)
      const { context } = snapshot
      const event = step.event
      const open = selectOpen(snapshot)
      expect(selectLoading(snapshot)).toBe(snapshot.matches({ open: 'loading' }))
      expect(selectFailed(snapshot)).toBe(snapshot.matches({ open: 'failed' }))
      const saving = selectSaving(snapshot)
      expect(saving).toBe(snapshot.matches({ open: { ready: 'saving' } }) || snapshot.matches({ open: { ready: 'loadingMore' } }))
      // Add is offered only with something typed and nothing saving.
      const ready = snapshot.matches({ open: 'ready' })
      expect(selectCanAddKeyword(snapshot)).toBe(ready && !saving && context.keywordDraft.trim() !== '')
      expect(selectCanAddDomain(snapshot)).toBe(ready && !saving && context.domainDraft.trim() !== '')
      const toasts = shownToasts()

      if (event.type === 'mutes.open') {
        expect(open).toBe(true)
        expect(selectTab(snapshot), 'each opening starts on Users').toBe('users')
        expect(context).toMatchObject({ keywordDraft: '', domainDraft: '', keywordError: null, domainError: null })
        expect(calls.started.at(-1)).toEqual({ id: 'loadMutes', input: { cursor: null } })
      }
      if (event.type === 'mutes.close') {
        // A change on its way keeps the dialog open until its answer (and toast) arrives.
        expect(open).toBe(before.matches({ open: { ready: 'saving' } }))
      }
      if (event.type === 'mutes.tab') expect(selectTab(snapshot)).toBe(event.tab)
      if (event.type === 'xstate.done.actor.loadMutes') {
        expect(selectUsers(snapshot)).toEqual(event.output.mutedUsers)
        expect(selectKeywords(snapshot)).toEqual(event.output.mutedKeywords)
        expect(selectDomains(snapshot)).toEqual(event.output.mutedDomains)
      }
      if (event.type === 'xstate.done.actor.loadMore') {
        expect(context.users).toEqual([...before.context.users, ...event.output.mutedUsers])
      }
      if (event.type === 'mutes.retry') expect(calls.started.at(-1)).toEqual({ id: 'loadMutes', input: { cursor: null } })
      if (event.type === 'users.more') expect(calls.started.at(-1)).toEqual({ id: 'loadMore', input: { cursor: 'c2' } })
      if (snapshot.matches({ open: { ready: 'saving' } }) && !before.matches({ open: { ready: 'saving' } })) {
        // Exactly one call, with what the member asked for (an Add sends the trimmed, lowercased value).
        expect(calls.started.length).toBe(startedBefore + 1)
        expect(calls.started.at(-1)).toEqual({ id: 'change', input: context.change })
        if (event.type === 'keyword.add') expect(context.change).toEqual({ kind: 'muteKeyword', keyword: before.context.keywordDraft.trim() })
        if (event.type === 'domain.add') expect(context.change).toEqual({ kind: 'muteDomain', domain: 'spam.example' })
      }
      if (event.type === 'keyword.add' && !snapshot.matches({ open: { ready: 'saving' } })) {
        const checked = checkMutedKeyword(before.context.keywordDraft)
        expect(checked.ok).toBe(false)
        expect(context.keywordError).toBe(checked.ok ? null : checked.message)
        expect(calls.started.length, 'nothing is sent').toBe(startedBefore)
      }
      if (event.type === 'domain.add' && !snapshot.matches({ open: { ready: 'saving' } })) {
        expect(checkMutedDomain(before.context.domainDraft).ok).toBe(false)
        expect(context.domainError).toBe('Invalid domain format')
        expect(calls.started.length, 'nothing is sent').toBe(startedBefore)
      }
      if (event.type === 'keyword.input') expect(context).toMatchObject({ keywordDraft: event.value, keywordError: null })
      if (event.type === 'domain.input') expect(context).toMatchObject({ domainDraft: event.value, domainError: null })

      if (event.type === 'xstate.done.actor.change') {
        const change = before.context.change as MuteChange
        expect(toasts.slice(toastsBefore)).toEqual([expect.objectContaining({ type: 'success', message: SUCCESS[change.kind] })])
        if (change.kind === 'unmuteUser') expect(context.users.map((u) => u.muted.id)).not.toContain(change.userId)
        if (change.kind === 'unmuteKeyword') expect(context.keywords.map((k) => k.keyword)).not.toContain(change.keyword)
        if (change.kind === 'unmuteDomain') expect(context.domains.map((d) => d.domain)).not.toContain(change.domain)
        if (change.kind === 'muteKeyword') {
          expect(context.keywords).toContainEqual(event.output)
          expect(context.keywordDraft, 'the form empties').toBe('')
        }
        if (change.kind === 'muteDomain') {
          expect(context.domains).toContainEqual(event.output)
          expect(context.domainDraft, 'the form empties').toBe('')
        }
        const words = context.keywords.map((k) => k.keyword)
        expect(words).toEqual([...words].sort((a, b) => a.localeCompare(b)))
      } else if (event.type === 'xstate.error.actor.change') {
        const change = before.context.change as MuteChange
        const adding = change.kind === 'muteKeyword' || change.kind === 'muteDomain'
        const fromServer = event.error === keywordTaken || event.error === domainTaken
        // The server's words, else the spec's default, as one error toast.
        expect(toasts.slice(toastsBefore)).toEqual([
          expect.objectContaining({ type: 'error', message: fromServer ? event.error.message : adding ? MUTE_FAILED : UNMUTE_FAILED }),
        ])
        // Nothing on screen changes: the rows, the chips, and what was typed.
        expect(context).toMatchObject({
          users: before.context.users,
          keywords: before.context.keywords,
          domains: before.context.domains,
          keywordDraft: before.context.keywordDraft,
          domainDraft: before.context.domainDraft,
          change: null,
        })
      } else {
        expect(toasts.length, 'only a saved or refused change says anything').toBe(toastsBefore)
      }
    }
    actor.stop()
  })
})

describe('mute management', () => {
  it('paths enter every state and take every transition', () => {
    coverage.expectComplete()
  })
})
