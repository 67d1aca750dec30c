import { strFromU8, unzipSync, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { createActor, fromCallback } from 'xstate'
import { exportMachine } from '../../src/machines/export/export.machine'
import {
  DOWNLOAD_FAILED,
  EXPORT_STARTED,
  EXPORTS_LOAD_FAILED,
  readyUntil,
  SAVED_WITH_MESSAGES,
  SAVED_WITHOUT_MESSAGES,
  sizeText,
} from '../../src/machines/export/export.rules'
import {
  selectBusy,
  selectCanDownload,
  selectCanRequest,
  selectLoadError,
  selectLoading,
  selectSaved,
  selectState,
} from '../../src/machines/export/export.selectors'
import { appendToZip } from '../../src/machines/export/zip-append'
import { exportModel, inProgress, offline, preparing } from './models/export.model'
import { Calls } from './support/controlled-actors'
import { describeWalks } from './support/model'
import { shownToasts, withToasts } from './support/toasts'

// Settings -> Account -> Export my data. After each step of the model's walks: the spinner or the reason with Try
// again, where the export is, which buttons work, what was asked of the server, and every toast.

describeWalks('export my data', exportModel, async ({ inspect, replay }) => {
  const calls = new Calls()
  const machine = exportMachine.provide({
    actors: {
      loadExports: calls.actor('loadExports'),
      requestExport: calls.actor('requestExport'),
      saveArchive: calls.actor('saveArchive'),
      watchNotifications: fromCallback(() => undefined),
    },
  })
  const actor = withToasts(createActor(machine, { inspect })).start()
  expect(selectLoading(actor.getSnapshot()), 'the list is read when the row shows').toBe(true)
  expect(calls.started).toEqual([{ id: 'loadExports', input: undefined }])

  for await (const { event, before, snapshot, toastsBefore, startedBefore } of replay(actor, { calls })) {
    const started = calls.started.slice(startedBefore).map((c) => c.id)
    const toasts = shownToasts().slice(toastsBefore)

    expect(selectLoadError(snapshot) !== null).toBe(snapshot.matches('failed'))
    expect(selectBusy(snapshot)).toBe(snapshot.matches('requesting') || snapshot.matches('saving'))
    // One export at a time: no second ask while one is being prepared; a download only of a ready one.
    expect(selectCanRequest(snapshot)).toBe(snapshot.matches('idle') && selectState(snapshot) !== 'preparing')
    expect(selectCanDownload(snapshot)).toBe(snapshot.matches('idle') && selectState(snapshot) === 'ready')

    if (event.type === 'xstate.error.actor.loadExports') expect(selectLoadError(snapshot)).toBe(offline.message)
    if (event.type === 'export.request' && before.matches('idle') && selectState(before) !== 'preparing') {
      expect(started).toEqual(['requestExport'])
    }
    if (event.type === 'xstate.done.actor.requestExport') {
      expect(selectState(snapshot)).toBe('preparing')
      expect(toasts).toEqual([expect.objectContaining({ type: 'success', message: EXPORT_STARTED })])
    } else if (event.type === 'xstate.error.actor.requestExport') {
      // Refused: the server's words, and the list read again to show the export already under way.
      expect(toasts).toEqual([expect.objectContaining({ type: 'error', message: inProgress.message })])
      expect(started).toEqual(['loadExports'])
    } else if (event.type === 'xstate.error.actor.saveArchive') {
      expect(toasts).toEqual([expect.objectContaining({ type: 'error', message: DOWNLOAD_FAILED })])
    } else {
      expect(toasts, 'nothing else toasts').toEqual([])
    }
    if (event.type === 'export.notified') {
      // The "ready" notification reads the list again only while an export is being prepared.
      expect(started).toEqual(before.matches('idle') && selectState(before) === 'preparing' ? ['loadExports'] : [])
    }
    if (event.type === 'export.download' && selectCanDownload(before)) {
      expect(calls.started.at(-1)).toEqual({ id: 'saveArchive', input: { id: 'e1', createdAt: preparing.createdAt } })
    }
    if (event.type === 'xstate.done.actor.saveArchive') {
      expect(selectSaved(snapshot)).toBe(
        'messages' in event.output ? SAVED_WITH_MESSAGES(event.output.messages) : SAVED_WITHOUT_MESSAGES(event.output.withoutMessages),
      )
    }
  }
  actor.stop()
})

describe('export my data', () => {
  it('says where the export is in words', () => {
    expect(readyUntil('2026-12-04T10:05:00.000Z', 'en-GB')).toBe('Ready until 4 December 2026')
    expect(sizeText(1_300_000)).toBe('1.2 MB')
    expect(sizeText(2048)).toBe('2.0 KB')
    expect(SAVED_WITH_MESSAGES(1)).toBe('Saved with your messages (1 conversation).')
    expect(SAVED_WITH_MESSAGES(0)).toBe('Saved. You have no conversations to add.')
    expect(EXPORTS_LOAD_FAILED).toBe('Could not load your exports.')
  })
})

describe('adding the messages to the archive', () => {
  it('keeps every entry of the server’s zip and adds the new files, readable by any unzip', () => {
    const original = zipSync({ 'README.txt': new TextEncoder().encode('hello'), 'media/posts/a.webp': new Uint8Array([1, 2, 3, 4]) })
    const parts = appendToZip(original, {
      'messages/bob-1.json': new TextEncoder().encode('{"messages":[{"text":"hi"}]}'),
      'messages/cat-2.json': new TextEncoder().encode('{"messages":[]}'),
    })
    const merged = new Uint8Array(Buffer.concat(parts.map((p) => Buffer.from(p as Uint8Array))))
    const files = unzipSync(merged)
    expect(Object.keys(files).sort()).toEqual(['README.txt', 'media/posts/a.webp', 'messages/bob-1.json', 'messages/cat-2.json'])
    expect(strFromU8(files['README.txt'] ?? new Uint8Array())).toBe('hello')
    expect([...(files['media/posts/a.webp'] ?? [])]).toEqual([1, 2, 3, 4])
    expect(JSON.parse(strFromU8(files['messages/bob-1.json'] ?? new Uint8Array()))).toEqual({ messages: [{ text: 'hi' }] })
  })

  it('refuses what is not a zip', () => {
    expect(() => appendToZip(new Uint8Array(40), {})).toThrow('Not a zip archive')
  })
})
