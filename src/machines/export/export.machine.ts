import { assign, fromCallback, fromPromise, setup, type ActorRefFrom, type AnyActorRef, type ErrorActorEvent } from 'xstate'
import { run } from '../../api/calls'
import { describeError, serverMessageOr } from '../../api/errors'
import { exportCalls, type DataExport } from '../../api/exports.calls'
import { showToast } from '../toasts/notify'
import { appendToZip } from './zip-append'
import { DOWNLOAD_FAILED, EXPORT_REQUEST_FAILED, EXPORT_STARTED, EXPORTS_LOAD_FAILED, SAVED_WITH_MESSAGES, SAVED_WITHOUT_MESSAGES, archiveName } from './export.rules'

// Settings -> Account -> Export my data (docs/product.md, "Exporting your data"). Reads the member's exports when the
// section opens; "Export my data" asks the server for one (one at a time: a second ask while one is being prepared
// is refused, and the list is read again); while one is being prepared, the "export ready" notification (a rise of
// the unread count the realtime actor pushes) reads the list again. "Download" fetches the zip, adds the member's
// messages decrypted in this browser (or says why not) and saves the whole as a file.

export type ExportEvent =
  | { type: 'export.request' }
  | { type: 'export.download' }
  | { type: 'export.retry' }
  /** A notification arrived (the unread count rose): the export may be ready. */
  | { type: 'export.notified' }

export interface ExportContext {
  exports: ReadonlyArray<DataExport>
  /** Why the list could not be read. */
  error: string | null
  /** After a download: saved with the messages, or without and why. */
  saved: string | null
}

/** What a save answers: how many conversations went in, or why none did. */
export type SaveOutcome = { messages: number } | { withoutMessages: string }

/** Saves bytes as a file through a Blob URL (the CSP allows blob: downloads). */
export function saveBlob(fileName: string, parts: BlobPart[]): void {
  const url = URL.createObjectURL(new Blob(parts, { type: 'application/zip' }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

interface SessionLike {
  getSnapshot(): { context: { user: { id: string; username: string } | null } }
}

export const exportMachine = setup({
  types: {
    context: {} as ExportContext,
    events: {} as ExportEvent,
    tags: {} as 'busy' | 'loading',
  },
  actors: {
    loadExports: fromPromise<DataExport[]>(({ signal }) => run(exportCalls.list(), signal)),
    requestExport: fromPromise<DataExport>(({ signal }) => run(exportCalls.request(), signal)),
    saveArchive: fromPromise<SaveOutcome, { id: string; createdAt: string }>(async ({ input, signal, system }) => {
      const bytes = new Uint8Array(await run(exportCalls.download(input.id), signal))
      const user = (system.get('session') as SessionLike | undefined)?.getSnapshot().context.user
      let parts: BlobPart[] = [bytes]
      let outcome: SaveOutcome
      try {
        const { conversationFiles } = await import('./export.messages')
        const { files, count } = await conversationFiles(system, user?.id ?? '', signal)
        if (count > 0) parts = appendToZip(bytes, files)
        outcome = { messages: count }
      } catch (err) {
        if (signal.aborted) throw err
        outcome = { withoutMessages: err instanceof Error ? err.message : 'your messages could not be read here.' }
      }
      saveBlob(archiveName(user?.username ?? 'wren', input.createdAt), parts)
      return outcome
    }),
    /** Sends `export.notified` whenever the unread count of notifications rises (a new one arrived). */
    watchNotifications: fromCallback(({ sendBack, system }) => {
      const notifications = system.get('notifications') as AnyActorRef | undefined
      if (!notifications) return undefined
      let last = (notifications.getSnapshot() as { context?: { unreadCount?: number } }).context?.unreadCount ?? 0
      const subscription = notifications.subscribe((snapshot: { context?: { unreadCount?: number } }) => {
        const count = snapshot.context?.unreadCount ?? 0
        if (count > last) sendBack({ type: 'export.notified' })
        last = count
      })
      return () => subscription.unsubscribe()
    }),
  },
  actions: {
    showList: assign((_, exports: DataExport[]) => ({ exports, error: null })),
    showLoadError: assign((_, error: unknown) => ({ error: describeError(error, EXPORTS_LOAD_FAILED) })),
    addExport: assign(({ context }, created: DataExport) => ({ exports: [created, ...context.exports], saved: null })),
    showSaved: assign((_, outcome: SaveOutcome) => ({
      saved: 'messages' in outcome ? SAVED_WITH_MESSAGES(outcome.messages) : SAVED_WITHOUT_MESSAGES(outcome.withoutMessages),
    })),
    notifyStarted: ({ system }) => showToast(system, 'success', EXPORT_STARTED),
    notifyRefused: ({ system }, error: unknown) => showToast(system, 'error', serverMessageOr(error, EXPORT_REQUEST_FAILED)),
    notifyDownloadFailed: ({ system }, error: unknown) => showToast(system, 'error', serverMessageOr(error, DOWNLOAD_FAILED)),
  },
  guards: {
    hasReady: ({ context }) => context.exports[0]?.status === 'ready',
    mayRequest: ({ context }) => context.exports[0]?.status !== 'preparing',
    isPreparing: ({ context }) => context.exports[0]?.status === 'preparing',
  },
}).createMachine({
  id: 'export',
  context: { exports: [], error: null, saved: null },
  invoke: { id: 'watchNotifications', src: 'watchNotifications' },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadExports',
        src: 'loadExports',
        onDone: { target: 'idle', actions: { type: 'showList', params: ({ event }) => event.output } },
        onError: {
          target: 'failed',
          actions: { type: 'showLoadError', params: ({ event }: { event: ErrorActorEvent }) => event.error },
        },
      },
    },
    failed: {
      on: { 'export.retry': 'loading' },
    },
    idle: {
      on: {
        'export.request': { guard: 'mayRequest', target: 'requesting' },
        'export.download': { guard: 'hasReady', target: 'saving' },
        'export.notified': { guard: 'isPreparing', target: 'loading' },
      },
    },
    requesting: {
      tags: ['busy'],
      invoke: {
        id: 'requestExport',
        src: 'requestExport',
        onDone: { target: 'idle', actions: [{ type: 'addExport', params: ({ event }) => event.output }, 'notifyStarted'] },
        // Refused (one is being prepared already, perhaps from another tab): the list says what there is.
        onError: {
          target: 'loading',
          actions: { type: 'notifyRefused', params: ({ event }: { event: ErrorActorEvent }) => event.error },
        },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveArchive',
        src: 'saveArchive',
        input: ({ context }) => ({ id: context.exports[0]?.id ?? '', createdAt: context.exports[0]?.createdAt ?? '' }),
        onDone: { target: 'idle', actions: { type: 'showSaved', params: ({ event }) => event.output } },
        onError: {
          target: 'idle',
          actions: { type: 'notifyDownloadFailed', params: ({ event }: { event: ErrorActorEvent }) => event.error },
        },
      },
    },
  },
})

export type ExportMachine = typeof exportMachine
export type ExportRef = ActorRefFrom<ExportMachine>
