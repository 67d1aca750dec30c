import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { exportMachine, type ExportRef } from '../../machines/export/export.machine'
import { EXPORT_FAILED, EXPORT_INTRO, EXPORT_PREPARING, EXPORT_TITLE, readyUntil, sizeText } from '../../machines/export/export.rules'
import {
  selectBusy,
  selectCanDownload,
  selectCanRequest,
  selectLatest,
  selectLoadError,
  selectLoading,
  selectSaved,
  selectSaving,
  selectState,
} from '../../machines/export/export.selectors'
import { useScreenActor } from '../actors'
import { SettingsRow } from './SettingsRow'

// Settings -> Account -> Export my data: the button, where the export is (preparing, ready until a date with
// Download, failed with Try again), and what the last download saved. The export actor lives while the row shows.

export function AccountExportRow() {
  const actor = useScreenActor(exportMachine)
  if (!actor) return <SettingsRow icon="download" title={EXPORT_TITLE} text="Loading…" action={null} />
  return <ExportRow actor={actor} />
}

function ExportRow({ actor }: { actor: ExportRef }) {
  const loading = useSelector(actor, selectLoading)
  const loadError = useSelector(actor, selectLoadError)
  const state = useSelector(actor, selectState)
  const latest = useSelector(actor, selectLatest)
  const busy = useSelector(actor, selectBusy)
  const saving = useSelector(actor, selectSaving)
  const saved = useSelector(actor, selectSaved)
  const canRequest = useSelector(actor, selectCanRequest)
  const canDownload = useSelector(actor, selectCanDownload)
  const outline = button({ variant: 'outline', size: 'sm' })

  let text: string
  let action = null as React.ReactNode
  if (loadError !== null) {
    text = loadError
    action = (
      <button type="button" className={outline} onClick={() => actor.send({ type: 'export.retry' })}>
        Try again
      </button>
    )
  } else if (loading && !latest) {
    text = 'Loading…'
  } else if (state === 'preparing') {
    text = EXPORT_PREPARING
    action = (
      <button type="button" className={outline} disabled>
        Preparing…
      </button>
    )
  } else if (state === 'ready' && latest?.expiresAt) {
    text = `${readyUntil(latest.expiresAt)} · ${sizeText(latest.size)}`
    action = (
      <span className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        <button type="button" className={outline} disabled={!canRequest || busy} onClick={() => actor.send({ type: 'export.request' })}>
          Export again
        </button>
        <button
          type="button"
          className={button({ size: 'sm' })}
          disabled={!canDownload}
          aria-busy={saving || undefined}
          onClick={() => actor.send({ type: 'export.download' })}
        >
          {saving ? 'Downloading…' : 'Download'}
        </button>
      </span>
    )
  } else {
    text = state === 'failed' ? EXPORT_FAILED : EXPORT_INTRO
    action = (
      <button type="button" className={outline} disabled={!canRequest} onClick={() => actor.send({ type: 'export.request' })}>
        {state === 'failed' ? 'Try again' : EXPORT_TITLE}
      </button>
    )
  }

  return (
    <SettingsRow
      icon="download"
      title={EXPORT_TITLE}
      text={
        <>
          <span role="status" data-export-state={loading ? 'loading' : state}>
            {text}
          </span>
          {saved ? <span className={css({ display: 'block', mt: '1', color: 'fg.default' })}>{saved}</span> : null}
        </>
      }
      action={action}
    />
  )
}
