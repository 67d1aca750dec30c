import { Component, type ErrorInfo, type ReactNode } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Icon } from './ui/Icon'

// The global error screen (docs/product.md, "Screens and routes"). @xstate/react rethrows an actor's error from
// useSelector, so a failing actor lands here too instead of leaving a blank page.

interface State {
  error: unknown
}

export function describeCrash(error: unknown): string {
  if (error instanceof Error && error.message.trim() !== '') return error.message
  return 'An unexpected error occurred'
}

export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null }

  static getDerivedStateFromError(error: unknown): State {
    // `null` is our "no error" marker, so a thrown null still counts as a crash.
    return { error: error ?? new Error('An unexpected error occurred') }
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Wren crashed', error, info.componentStack)
  }

  render() {
    if (this.state.error === null) return this.props.children
    return (
      <div role="alert" className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', bg: 'bg.canvas', p: '6' })}>
        <div className={css({ maxW: '420px', textAlign: 'center', display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3' })}>
          <span className={css({ display: 'grid', placeItems: 'center', w: '16', h: '16', borderRadius: '2xl', bg: 'danger.subtle', color: 'danger.text' })}>
            <Icon name="alert" size={30} />
          </span>
          <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>Something went wrong</h1>
          <p className={css({ color: 'fg.muted', wordBreak: 'break-word' })}>{describeCrash(this.state.error)}</p>
          <button type="button" className={button({ size: 'lg' })} onClick={() => window.location.reload()}>
            Reload Page
          </button>
        </div>
      </div>
    )
  }
}
