import { useEffect, useState, type CSSProperties } from 'react'
import { actorTree, testPath, type InspectedActor, type InspectionStore } from './inspection.store'

// Development only: the app's actor system as a tree (each actor under its parent, with its systemId), each actor's
// state, context and recent events, and a button that copies its events since it started as a model-test path.
// Toggle with Alt+Shift+I (Ctrl+Shift+I opens the browser's devtools, so it is left alone). Inline styles on purpose:
// Panda would otherwise extract these styles into the production CSS.

const TOGGLE_HINT = 'Alt+Shift+I'

const panel: CSSProperties = {
  position: 'fixed',
  left: 12,
  bottom: 12,
  zIndex: 2147483000,
  width: 'min(460px, calc(100vw - 24px))',
  maxHeight: '70vh',
  overflow: 'auto',
  background: 'rgba(15, 20, 27, 0.97)',
  color: '#e6edf3',
  font: '12px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace',
  borderRadius: 12,
  boxShadow: '0 12px 40px rgba(0,0,0,0.45)',
  border: '1px solid #2b3846',
}

const pill = (color: string): CSSProperties => ({
  display: 'inline-block',
  padding: '0 6px',
  borderRadius: 999,
  background: color,
  color: '#0d1218',
  fontWeight: 700,
})

const smallButton: CSSProperties = { background: '#222d3a', color: 'inherit', border: 0, borderRadius: 6, padding: '2px 8px', cursor: 'pointer' }

function CopyPath({ actor }: { actor: InspectedActor }) {
  const [copied, setCopied] = useState(false)
  const copy = () => {
    void navigator.clipboard?.writeText(testPath(actor)).then(() => {
      setCopied(true)
      setTimeout(() => setCopied(false), 1_500)
    })
  }
  return (
    <button type="button" onClick={copy} style={smallButton}>
      {copied ? 'copied' : `copy as test path (${actor.path.length})`}
    </button>
  )
}

function ActorRow({ actor, depth }: { actor: InspectedActor; depth: number }) {
  const [open, setOpen] = useState(false)
  const live = actor.status === 'active'
  const name = actor.systemId ?? actor.machineId ?? actor.id
  return (
    <li style={{ borderTop: '1px solid #222d3a', padding: '6px 12px', paddingLeft: 12 + depth * 16 }}>
      <button
        type="button"
        onClick={() => setOpen((v) => !v)}
        aria-expanded={open}
        style={{ all: 'unset', cursor: 'pointer', display: 'flex', gap: 8, width: '100%', alignItems: 'baseline' }}
      >
        <span style={pill(live ? '#34c77b' : '#97a6b6')}>{actor.status}</span>
        <strong>{name}</strong>
        {actor.systemId ? <span style={{ color: '#6b7b8d' }}>systemId</span> : null}
        <span style={{ color: '#84bcff', marginLeft: 'auto', textAlign: 'right', wordBreak: 'break-all' }}>{actor.value}</span>
      </button>
      {open ? (
        <div style={{ marginTop: 6 }}>
          <div style={{ display: 'flex', gap: 6, marginBottom: 6 }}>
            <CopyPath actor={actor} />
          </div>
          {actor.context ? (
            <details>
              <summary style={{ cursor: 'pointer', color: '#97a6b6' }}>context</summary>
              <pre style={{ margin: '4px 0', whiteSpace: 'pre-wrap', wordBreak: 'break-all', color: '#c9d3de' }}>{actor.context}</pre>
            </details>
          ) : null}
          <ol style={{ margin: '6px 0 0', paddingLeft: 18, color: '#c9d3de' }}>
            {actor.events.length === 0 ? <li style={{ color: '#6b7b8d' }}>no events yet</li> : null}
            {actor.events.map((e) => (
              <li key={e.seq}>
                <span style={{ color: '#6b7b8d' }}>{new Date(e.at).toLocaleTimeString()}</span> <span style={{ color: '#ffd479' }}>{e.type}</span>{' '}
                <span style={{ color: '#97a6b6', wordBreak: 'break-all' }}>{e.payload}</span>
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </li>
  )
}

/**
 * The store's actors, refreshed at most every 250 ms and only while the panel is shown. A synchronous subscription
 * would re-render on every event, and an update landing during React's render of a screen makes React restart that
 * render, which creates the screen's actors again, which reports more events: an endless loop.
 */
function useThrottledActors(store: InspectionStore, active: boolean): Readonly<Record<string, InspectedActor>> {
  const [actors, setActors] = useState(() => store.getSnapshot().context.actors)
  useEffect(() => {
    if (!active) return
    let timer: ReturnType<typeof setTimeout> | undefined
    const refresh = () => setActors(store.getSnapshot().context.actors)
    refresh()
    const subscription = store.subscribe(() => {
      timer ??= setTimeout(() => {
        timer = undefined
        refresh()
      }, 250)
    })
    return () => {
      subscription.unsubscribe()
      if (timer) clearTimeout(timer)
    }
  }, [store, active])
  return actors
}

export function InspectorPanel({ store }: { store: InspectionStore }) {
  const [visible, setVisible] = useState(false)
  const actors = useThrottledActors(store, visible)

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey && event.shiftKey && event.code === 'KeyI') {
        event.preventDefault()
        setVisible((v) => !v)
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [])

  if (!visible) return null
  const rows = actorTree(actors)
  return (
    <aside aria-label="State machine inspector" style={panel}>
      <header style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '10px 12px', position: 'sticky', top: 0, background: 'inherit' }}>
        <strong style={{ fontSize: 13 }}>Actors</strong>
        <span style={{ color: '#6b7b8d' }}>{rows.length} actors · {TOGGLE_HINT} to hide</span>
        <button type="button" onClick={() => store.trigger['inspection.clear']()} style={{ ...smallButton, marginLeft: 'auto' }}>
          clear
        </button>
      </header>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {rows.map(({ actor, depth }) => (
          <ActorRow key={actor.sessionId} actor={actor} depth={depth} />
        ))}
      </ul>
    </aside>
  )
}
