import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import {
  blockedMachine,
  DOMAIN_BLOCKED,
  DOMAIN_UNBLOCKED,
  KEYWORD_BLOCKED,
  KEYWORD_UNBLOCKED,
  USER_UNBLOCKED,
  type BlockChange,
} from '../../src/machines/blocked/blocked.machine'
import { BLOCK_DOMAIN_FAILED, BLOCK_KEYWORD_FAILED, checkDomain, checkKeyword } from '../../src/machines/blocked/blocked.rules'
import {
  selectCanAddDomain,
  selectCanAddKeyword,
  selectLoading,
  selectSaving,
} from '../../src/machines/blocked/blocked.selectors'
import { blockedModel, domainTaken, keywordTaken } from './models/blocked.model'
import { Calls } from './support/controlled-actors'
import { Coverage, perform, walkPaths } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// Settings -> Blocked Accounts. What the member sees after each step: the spinner, the rows and chips, the two forms
// (what is typed, the message under each, whether Add is offered), the toasts, and what was asked of the server.
// The walks and events are the model's (./models/blocked.model.ts), shared with `npm run paths -- blocked`.

const SUCCESS: Record<BlockChange['kind'], string> = {
  unblockUser: USER_UNBLOCKED,
  blockKeyword: KEYWORD_BLOCKED,
  unblockKeyword: KEYWORD_UNBLOCKED,
  blockDomain: DOMAIN_BLOCKED,
  unblockDomain: DOMAIN_UNBLOCKED,
}

const coverage = new Coverage(blockedMachine)

describe.each(blockedModel.walks.map((walk) => [walk.name, walk] as const))('blocked accounts: %s', (_name, walk) => {
  const paths = walkPaths(blockedModel, walk)

  it.each(paths.map(({ title, path }) => [title, path] as const))('%s', async (_title, path) => {
    const calls = new Calls()
    const machine = blockedMachine.provide({ actors: { loadBlocks: calls.invoked(), change: calls.actor('change') } })
    const actor = withToasts(createActor(machine, { inspect: coverage.inspector })).start()
    coverage.see(actor.getSnapshot())
    expect(calls.started).toEqual([{ id: 'loadBlocks', input: { cursor: null } }])

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
      const saving = selectSaving(snapshot)
      expect(saving).toBe(snapshot.matches({ ready: 'saving' }) || snapshot.matches({ ready: 'loadingMore' }))
      // Add is offered only with something typed and nothing saving.
      expect(selectCanAddKeyword(snapshot)).toBe(snapshot.matches('ready') && !saving && context.keywordDraft.trim() !== '')
      expect(selectCanAddDomain(snapshot)).toBe(snapshot.matches('ready') && !saving && context.domainDraft.trim() !== '')
      const toasts = shownToasts()

      if (event.type === 'xstate.done.actor.loadBlocks' || event.type === 'xstate.done.actor.loadMore') {
        const page = event.output as { users: unknown[]; keywords: string[]; domains: string[] }
        if (event.type === 'xstate.done.actor.loadBlocks') expect(context).toMatchObject(page)
        else expect(context.users).toEqual([...before.context.users, ...page.users])
      }
      if (event.type === 'blocked.retry') expect(calls.started.at(-1)).toEqual({ id: 'loadBlocks', input: { cursor: null } })
      if (event.type === 'users.more') expect(calls.started.at(-1)).toEqual({ id: 'loadMore', input: { cursor: 'c2' } })
      if (snapshot.matches({ ready: 'saving' }) && !before.matches({ ready: 'saving' })) {
        // Exactly one call, with what the member asked for (an Add sends the trimmed, lowercased value).
        expect(calls.started.length).toBe(startedBefore + 1)
        expect(calls.started.at(-1)).toEqual({ id: 'change', input: context.change })
        if (event.type === 'keyword.add') expect(context.change).toEqual({ kind: 'blockKeyword', keyword: before.context.keywordDraft.trim() })
        if (event.type === 'domain.add') expect(context.change).toEqual({ kind: 'blockDomain', domain: 'spam.example' })
      }
      if (event.type === 'keyword.add' && !snapshot.matches({ ready: 'saving' })) {
        const checked = checkKeyword(before.context.keywordDraft)
        expect(checked.ok).toBe(false)
        expect(context.keywordError).toBe(checked.ok ? null : checked.message)
        expect(calls.started.length, 'nothing is sent').toBe(startedBefore)
      }
      if (event.type === 'domain.add' && !snapshot.matches({ ready: 'saving' })) {
        expect(checkDomain(before.context.domainDraft).ok).toBe(false)
        expect(context.domainError).toBe('Invalid domain format')
        expect(calls.started.length, 'nothing is sent').toBe(startedBefore)
      }
      if (event.type === 'keyword.input') expect(context).toMatchObject({ keywordDraft: event.value, keywordError: null })
      if (event.type === 'domain.input') expect(context).toMatchObject({ domainDraft: event.value, domainError: null })

      if (event.type === 'xstate.done.actor.change') {
        const change = before.context.change as BlockChange
        expect(toasts.at(-1)).toMatchObject({ type: 'success', message: SUCCESS[change.kind] })
        if (change.kind === 'unblockUser') expect(context.users.map((u) => u.blocked.id)).not.toContain(change.userId)
        if (change.kind === 'unblockKeyword') expect(context.keywords).not.toContain(change.keyword)
        if (change.kind === 'unblockDomain') expect(context.domains).not.toContain(change.domain)
        if (change.kind === 'blockKeyword') {
          expect(context.keywords).toContain(event.output)
          expect(context.keywordDraft, 'the form empties').toBe('')
        }
        if (change.kind === 'blockDomain') {
          expect(context.domains).toContain(event.output)
          expect(context.domainDraft, 'the form empties').toBe('')
        }
        expect([...context.keywords]).toEqual([...context.keywords].sort((a, b) => a.localeCompare(b)))
      } else {
        expect(toasts.length, 'only a saved change says anything').toBe(toastsBefore)
      }
      if (event.type === 'xstate.error.actor.change') {
        const change = before.context.change as BlockChange
        // Nothing on screen changes but the message under the form of a refused Add, which keeps what was typed.
        expect(context).toMatchObject({ users: before.context.users, keywords: before.context.keywords, domains: before.context.domains })
        expect(context.keywordDraft).toBe(before.context.keywordDraft)
        if (change.kind === 'blockKeyword') expect(context.keywordError).toBe(event.error === keywordTaken ? keywordTaken.message : BLOCK_KEYWORD_FAILED)
        else if (change.kind === 'blockDomain') expect(context.domainError).toBe(event.error === domainTaken ? domainTaken.message : BLOCK_DOMAIN_FAILED)
        else expect(context).toMatchObject({ keywordError: before.context.keywordError, domainError: before.context.domainError })
      }
    }
    actor.stop()
  })
})

describe('blocked accounts', () => {
  it('paths enter every state and take every transition', () => {
    coverage.expectComplete()
  })
})
