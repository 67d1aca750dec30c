import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import {
  DOMAIN_BLOCKED,
  DOMAIN_UNBLOCKED,
  KEYWORD_BLOCKED,
  KEYWORD_UNBLOCKED,
  USER_UNBLOCKED,
} from '../../src/machines/blocked/blocked.machine'
import { BLOCK_DOMAIN_FAILED, BLOCK_KEYWORD_FAILED } from '../../src/machines/blocked/blocked.rules'
import type { FilterChange, FilterListsMachine } from '../../src/machines/filter-lists/filter-lists.machine'
import { checkFilter, type FilterList } from '../../src/machines/filter-lists/filter-lists.rules'
import {
  selectCanAdd,
  selectFailed,
  selectLoading,
  selectLoadingMore,
  selectSaving,
  selectUsers,
  selectValues,
} from '../../src/machines/filter-lists/filter-lists.selectors'
import { DOMAIN_MUTED, DOMAIN_UNMUTED, KEYWORD_MUTED, KEYWORD_UNMUTED, USER_UNMUTED } from '../../src/machines/mutes/mutes.machine'
import { MUTE_FAILED, UNMUTE_FAILED } from '../../src/machines/mutes/mutes.rules'
import { blockedModel } from './models/blocked.model'
import type { filterListsModel } from './models/filter-lists.model'
import { muteListsModel } from './models/mutes.model'
import { Calls } from './support/controlled-actors'
import { Coverage, perform, walkPaths } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// The lists actor, as Settings -> Blocked Accounts and the Mute Management dialog use it. What the member sees after
// each step: the spinner or the retry, the rows and chips, the two forms (what is typed, the message under each,
// whether Add is offered), the toasts, and what was asked of the server. The walks are the models'
// (./models/filter-lists.model.ts); what differs between the features is their words and how a refusal shows.

type Refused = (change: FilterChange, error: unknown, fromServer: boolean) => string

interface Feature {
  model: ReturnType<typeof filterListsModel<unknown>>
  memberId: (user: unknown) => string
  saved: (change: FilterChange) => string
  /** Blocks: a refused Add's words under its form (removals silent). */
  underForm?: Record<FilterList, string>
  /** Mutes: every refusal as an error toast. */
  toast?: Refused
}

const features: Array<[string, Feature]> = [
  [
    'blocked accounts',
    {
      model: blockedModel as unknown as Feature['model'],
      memberId: (user) => (user as { blocked: { id: string } }).blocked.id,
      saved: (change) =>
        change.kind === 'removeUser'
          ? USER_UNBLOCKED
          : { add: { keywords: KEYWORD_BLOCKED, domains: DOMAIN_BLOCKED }, remove: { keywords: KEYWORD_UNBLOCKED, domains: DOMAIN_UNBLOCKED } }[
              change.kind
            ][change.list],
      underForm: { keywords: BLOCK_KEYWORD_FAILED, domains: BLOCK_DOMAIN_FAILED },
    },
  ],
  [
    'mute management',
    {
      model: muteListsModel as unknown as Feature['model'],
      memberId: (user) => (user as { muted: { id: string } }).muted.id,
      saved: (change) =>
        change.kind === 'removeUser'
          ? USER_UNMUTED
          : { add: { keywords: KEYWORD_MUTED, domains: DOMAIN_MUTED }, remove: { keywords: KEYWORD_UNMUTED, domains: DOMAIN_UNMUTED } }[
              change.kind
            ][change.list],
      toast: (change, error, fromServer) =>
        fromServer ? (error as Error).message : change.kind === 'add' ? MUTE_FAILED : UNMUTE_FAILED,
    },
  ],
]

describe.each(features)('%s', (featureName, feature) => {
  const { model } = feature
  const machine = model.machine as FilterListsMachine<unknown>
  const { fixtures } = model
  const coverage = new Coverage(machine)

  describe.each(model.walks.map((walk) => [walk.name, walk] as const))('%s', (_name, walk) => {
    const paths = walkPaths(model, walk)

    it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_title, path) => {
      const calls = new Calls()
      const provided = machine.provide({ actors: { load: calls.invoked(), change: calls.actor('change') } })
      const actor = withToasts(createActor(provided, { inspect: coverage.inspector })).start()
      coverage.see(actor.getSnapshot())
      expect(calls.started).toEqual([{ id: 'load', input: { cursor: null } }])

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
        expect(selectLoading(snapshot)).toBe(snapshot.value === 'loading')
        expect(selectFailed(snapshot)).toBe(snapshot.value === 'failed')
        expect(selectLoadingMore(snapshot)).toBe(snapshot.matches({ ready: 'loadingMore' }))
        const saving = selectSaving(snapshot)
        expect(saving).toBe(snapshot.matches({ ready: 'saving' }) || snapshot.matches({ ready: 'loadingMore' }))
        for (const list of ['keywords', 'domains'] as const) {
          // Add is offered only with something typed and nothing saving.
          expect(selectCanAdd(list)(snapshot)).toBe(snapshot.matches('ready') && !saving && context.drafts[list].trim() !== '')
          // Chips stay alphabetical, as the server lists them.
          const values = [...selectValues(list)(snapshot)]
          expect(values).toEqual([...values].sort((a, b) => a.localeCompare(b)))
        }
        const toasts = shownToasts()

        if (event.type === 'xstate.done.actor.load') {
          expect(selectUsers(snapshot)).toEqual(fixtures.firstPage.users)
          expect(context.lists).toEqual({ keywords: fixtures.firstPage.keywords, domains: fixtures.firstPage.domains })
        }
        if (event.type === 'xstate.done.actor.loadMore') expect(context.users).toEqual([...before.context.users, ...fixtures.secondPage.users])
        if (event.type === 'lists.retry') expect(calls.started.at(-1)).toEqual({ id: 'load', input: { cursor: null } })
        if (event.type === 'users.more') expect(calls.started.at(-1)).toEqual({ id: 'loadMore', input: { cursor: 'c2' } })
        if (snapshot.matches({ ready: 'saving' }) && !before.matches({ ready: 'saving' })) {
          // Exactly one call, with what the member asked for (an Add sends the trimmed, lowercased value).
          expect(calls.started.length).toBe(startedBefore + 1)
          expect(calls.started.at(-1)).toEqual({ id: 'change', input: context.change })
          if (event.type === 'filter.add' && event.list === 'keywords') {
            expect(context.change).toEqual({ kind: 'add', list: 'keywords', value: before.context.drafts.keywords.trim() })
          }
          if (event.type === 'filter.add' && event.list === 'domains') {
            expect(context.change).toEqual({ kind: 'add', list: 'domains', value: 'spam.example' })
          }
        }
        if (event.type === 'filter.add' && !snapshot.matches({ ready: 'saving' })) {
          const list = event.list as FilterList
          const checked = checkFilter[list](before.context.drafts[list])
          expect(checked.ok).toBe(false)
          expect(context.errors[list]).toBe(checked.ok ? null : checked.message)
          if (list === 'domains') expect(context.errors.domains).toBe('Invalid domain format')
          expect(calls.started.length, 'nothing is sent').toBe(startedBefore)
        }
        if (event.type === 'filter.input') {
          const list = event.list as FilterList
          expect(context.drafts[list]).toBe(event.value)
          expect(context.errors[list]).toBeNull()
        }

        if (event.type === 'xstate.done.actor.change') {
          const change = before.context.change as FilterChange
          expect(toasts.slice(toastsBefore)).toEqual([expect.objectContaining({ type: 'success', message: feature.saved(change) })])
          if (change.kind === 'removeUser') expect(context.users.map(feature.memberId)).not.toContain(change.userId)
          if (change.kind === 'remove') expect(context.lists[change.list]).not.toContain(change.value)
          if (change.kind === 'add') {
            expect(context.lists[change.list]).toContain(event.output)
            expect(context.drafts[change.list], 'the form empties').toBe('')
          }
        } else if (event.type === 'xstate.error.actor.change') {
          const change = before.context.change as FilterChange
          const fromServer = event.error === fixtures.keywordTaken || event.error === fixtures.domainTaken
          // Nothing on screen changes but how the refusal is told; what was typed stays.
          expect(context).toMatchObject({ users: before.context.users, lists: before.context.lists, drafts: before.context.drafts, change: null })
          if (feature.toast) {
            expect(toasts.slice(toastsBefore)).toEqual([
              expect.objectContaining({ type: 'error', message: feature.toast(change, event.error, fromServer) }),
            ])
            expect(context.errors).toEqual(before.context.errors)
          } else {
            expect(toasts.length, 'a refusal does not toast').toBe(toastsBefore)
            if (change.kind === 'add' && feature.underForm) {
              const taken = change.list === 'keywords' ? fixtures.keywordTaken : fixtures.domainTaken
              expect(context.errors[change.list]).toBe(event.error === taken ? taken.message : feature.underForm[change.list])
            } else {
              expect(context.errors).toEqual(before.context.errors)
            }
          }
        } else {
          expect(toasts.length, 'only a saved or refused change says anything').toBe(toastsBefore)
        }
      }
      actor.stop()
    })
  })

  it(`${featureName}: paths enter every state and take every transition`, () => {
    coverage.expectComplete()
  })
})
